"""OpenAPI schema hooks (drf-spectacular)."""

from __future__ import annotations


def one_entry_per_endpoint(endpoints, **kwargs):
    """Some endpoints answer with and without the trailing slash (``/api/decks/parse`` and
    ``/api/decks/parse/``, two routes, one view): keep the slashless form in the schema so
    Swagger lists each endpoint once. Both URLs keep working; only the documentation changes."""
    present = {(path, method) for path, _regex, method, _callback in endpoints}
    return [
        endpoint
        for endpoint in endpoints
        if not (endpoint[0].endswith("/") and (endpoint[0][:-1], endpoint[2]) in present)
    ]
