"""Shared fixtures for the whole suite."""

import pytest
from rest_framework.test import APIClient


@pytest.fixture
def api_client():
    return APIClient()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PBKDF2 with production rounds costs ~250 ms a user; tests don't need that."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
