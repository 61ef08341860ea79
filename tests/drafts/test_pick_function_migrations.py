"""The pick function's migrations change how PostgreSQL runs it, never what it answers."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from drafts.models import Seat
from tests.drafts.conftest import make_pod

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the pick function is PostgreSQL's"),
    pytest.mark.django_db(transaction=True),
]


def queues(seat_ids: list[int]) -> list:
    with connection.cursor() as cursor:
        answers = []
        for seat_id in seat_ids:
            cursor.execute("SELECT drafts_seat_queue(%s)", [seat_id])
            (answer,) = cursor.fetchone()
            answers.append(json.loads(answer) if isinstance(answer, str) else answer)
        return answers


def language() -> str:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.proname = %s",
            ["drafts_seat_queue"],
        )
        return cursor.fetchone()[0]


def migrate(target: tuple[str, str]) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([target])


def test_the_seat_queue_answers_the_same_as_plpgsql_and_back(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    seat_ids = list(Seat.objects.filter(pod=pod).order_by("position").values_list("pk", flat=True))
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes("drafts")[0]
    now = queues(seat_ids)
    assert language() == "plpgsql"  # planned once per connection (0009)
    assert all(len(queue) == 1 and queue[0]["cards"] for queue in now)
    try:
        migrate(("drafts", "0008_pod_log_actions"))
        assert language() == "sql"
        assert queues(seat_ids) == now
    finally:
        migrate(latest)
    assert language() == "plpgsql"
    assert queues(seat_ids) == now
