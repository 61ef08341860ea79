"""Fixtures for the events app's tests: the organiser, the players and the cube the draft
engine's tests use too (tests/shared_fixtures.py)."""

from tests.shared_fixtures import cube_names, organiser, players  # noqa: F401  (fixtures)
