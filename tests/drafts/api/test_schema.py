"""The draft API's answers are typed in its OpenAPI schema (no bare objects)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from drafts.urls import api_urlpatterns

pytestmark = pytest.mark.django_db


def _shape(path: str) -> str:
    """A path with its parameters unnamed (the schema calls ``pk`` ``id``)."""
    return re.sub(r"\{\w+\}", "{}", path)


def _schema_path(route: str) -> str:
    return _shape("/api/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route))


def _typed(schema: dict) -> bool:
    if "$ref" in schema:
        return True
    if schema.get("type") == "array":
        return _typed(schema.get("items", {}))
    return bool(schema.get("properties"))


def test_every_draft_endpoint_answers_a_typed_body():
    schema = Client().get("/api/schema/?format=json").json()
    paths = {_shape(path): operations for path, operations in schema["paths"].items()}
    untyped, seen = [], 0
    for route in {str(pattern.pattern) for pattern in api_urlpatterns}:
        operations = paths[_schema_path(route)]
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                if not status.startswith("2") or status == "204":
                    continue
                seen += 1
                for content_type, body in answer.get("content", {}).items():
                    if content_type == "application/json" and not _typed(body["schema"]):
                        untyped.append(f"{method.upper()} {_schema_path(route)} {status}")
    assert seen >= 25
    assert untyped == []
