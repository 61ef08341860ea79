"""Shared fixtures for the whole suite."""

import pytest
from rest_framework.test import APIClient


@pytest.fixture
def api_client():
    return APIClient()
