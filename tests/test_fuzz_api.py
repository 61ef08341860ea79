"""Property-based fuzzing of the whole API from its OpenAPI schema (Schemathesis).

The schema is loaded from /api/schema/ through the Django WSGI app, in process. Every
operation gets a handful of generated requests, each sent as one of four callers (anonymous,
a player of the pod, a judge and the organiser of the event, with token auth) against a real
event in mid-draft (tests/test_authorization_matrix.build_world: two pods drafting, decks,
penalties, an appeal). Path ids are, half the time, replaced by ids of real objects so the
requests reach the services, not just the 404 branch.

Checks: no 5xx (bad input must never break anything) and every response conforms to the
schema. Deterministic: Hypothesis derandomized, no example database, fixed budget; every
request runs in a rolled-back savepoint so each one sees the same world.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.core import signals
from django.core.cache import cache
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from drafts.models import DraftCard
from tests.drafts.conftest import cube_names  # noqa: F401  (fixture)
from tests.places import held, piled
from tests.test_authorization_matrix import build_world

pytestmark = pytest.mark.django_db

# CI budget (~500 cases); FUZZ_EXAMPLES=50 for a longer exploratory run, still deterministic.
EXAMPLES_PER_OPERATION = int(os.environ.get("FUZZ_EXAMPLES", "8"))
FUZZ_ROLES = ["anonymous", "player", "judge", "organiser"]
CHECKS = [not_a_server_error, response_schema_conformance]


@pytest.fixture
def in_process_requests():
    """Django closes "old" connections around every request; run in process inside the test's
    transaction that would close the test's own connection (Django's test client does the same)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def real_ids(world) -> dict[str, list[int]]:
    """Ids of real objects per kind, keyed by the first segment of the API path that names them."""
    seats = [s.pk for s in world.seats.values()]
    return {
        "events": [world.event.pk, world.other_event.pk],
        "pods": [world.pod.pk, world.other_pod.pk, world.foreign_pod.pk],
        "seats": seats,
        "decks": [d.pk for d in world.decks.values()],
        "penalties": [p.pk for p in world.penalties.values()],
        "registrations": [r.pk for r in world.registrations.values()],
        "players": [u.pk for u in world.users.values() if u is not None],
        "cards": list(
            DraftCard.objects.filter(pk__in=held(holder=world.seats["own"])).values_list("card_id", flat=True)[:5]
        ),
    }


def kind_of(path: str) -> str:
    return path.strip("/").split("/")[1]  # /api/<kind>/{id}/...


def test_the_api_never_answers_5xx_and_always_matches_its_schema(cube_names, in_process_requests):  # noqa: F811
    world = build_world(cube_names)
    tokens = {role: Token.objects.create(user=world.users[role]).key for role in FUZZ_ROLES if role != "anonymous"}
    schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    ids = real_ids(world)
    failures: dict[str, str] = {}
    statuses: list[int] = []
    cases = 0
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 50

    for operation in operations:

        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            derandomize=True,
            database=None,
            deadline=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(
            case=st.one_of(
                operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE)
            ),
            role=st.sampled_from(FUZZ_ROLES),
            data=st.data(),
        )
        def fuzz(case, role, data):
            nonlocal cases
            known = ids.get(kind_of(operation.path))  # noqa: B023 - hypothesis runs fuzz within this iteration
            for name in list(case.path_parameters or {}):
                if known and data.draw(st.integers(0, 4)) > 0:  # mostly real objects
                    case.path_parameters[name] = data.draw(st.sampled_from(known))
            headers = {"Authorization": f"Token {tokens[role]}"} if role in tokens else {}
            cache.clear()  # no throttle state carried between cases
            cases += 1
            with transaction.atomic():
                try:
                    statuses.append(case.call_and_validate(headers=headers, checks=CHECKS).status_code)
                except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - Schemathesis raises a FailureGroup
                    key = f"{operation.method.upper()} {operation.path}"  # noqa: B023 - as above
                    failures.setdefault(key, f"as {role}: {type(exc).__name__}: {str(exc)[:600]}")
                finally:
                    transaction.set_rollback(True)

        fuzz()

    assert cases >= 400
    # The requests reached the services, not just the gates: many succeed, many are refused as bad input.
    assert sum(200 <= s < 300 for s in statuses) >= 80 and sum(s in (400, 409) for s in statuses) >= 40
    assert failures == {}, "\n\n".join(f"{k}\n{v}" for k, v in sorted(failures.items()))


# Every query parameter any view reads (grep of request.GET / query_params and penalties' FILTERS).
QUERY_PARAMS = [
    "q",
    "status",
    "error",
    "late",
    "layout",
    "page",
    "set",
    "user",
    "event",
    "registration",
    "selection",
    "infraction",
    "penalty",
    "limit",
    "offset",
    "format",
    "round",
    "pod",
    "ids",
]
# "²" passes str.isdigit() but not int(); "٣" passes both (issue 46 item 11: ASCII digits only).
ODD_VALUES = ["a\x00b", "-1", "99999999999999999999", "%", "' OR 1=1 --", "é" * 300, "[]", "²", "٣"]


def test_odd_query_strings_on_every_get_route_never_break_a_page(cube_names, in_process_requests):  # noqa: F811
    """NUL bytes (PostgreSQL refuses them in a query), huge numbers, wildcards: on every GET route
    of the resolver, HTML and API, as the organiser (who passes every gate of their event)."""
    from django.test import Client

    from tests.test_authorization_matrix import ENDPOINTS, _converter, project_routes, targets

    world = build_world(cube_names)
    client = Client(raise_request_exception=False)
    client.force_login(world.users["organiser"])
    broken, requests = [], 0
    for name, route, params in project_routes():
        for method, kind, _rule, _body in ENDPOINTS[name]:
            if method != "GET" or name in ("api-schema", "api-docs", "api-redoc", "logout"):
                continue
            target = targets(world, kind, params)[0]
            url = "/" + route
            for key, value in target.kwargs.items():
                url = url.replace(f"<{_converter(route, key)}{key}>", str(value))
            for odd in ODD_VALUES:
                response = client.get(url, {param: odd for param in QUERY_PARAMS})
                requests += 1
                if response.status_code >= 500:
                    broken.append(f"GET {url} with {odd!r}: {response.status_code}")
    assert requests > 400
    assert broken == [], "\n".join(broken)


FORM_FIELDS = [
    "action",
    "appeal",
    "card",
    "confirm",
    "confirmed",
    "cover",
    "event",
    "matches",
    "method",
    "next",
    "notes",
    "pack",
    "percent",
    "pool",
    "position",
    "registration",
    "registrations",
    "seed",
    "selection",
    "username",
    "checklist_lines",
    "cube_list",
    "date",
    "decision",
    "deck_building_minutes",
    "decklist",
    "description",
    "deviation_reason",
    "draft_format",
    "draft_round",
    "enforcement_level",
    "fix",
    "infraction",
    "judge_statement",
    "match_round",
    "name",
    "opaque_sleeves",
    "pack_size",
    "penalty",
    "pick_number",
    "pick_timer",
    "pod",
    "q",
    "reason",
    "set_codes",
    "source",
    "statement",
    "status",
    "password",
]


@pytest.mark.parametrize("odd", ["a\x00b", "-1", "99999999999999999999", "é" * 3000, "²"])
def test_odd_form_posts_on_every_page_never_break_it(cube_names, in_process_requests, odd):  # noqa: F811
    """Every HTML form route (and every page answering POST) gets every field any view reads set
    to an odd value, by each role that passes its gate: a form error or a refusal, never a 500."""
    from django.test import Client

    from tests.test_authorization_matrix import ENDPOINTS, _converter, project_routes, targets

    world = build_world(cube_names)
    broken, requests = [], 0
    clients = {}
    for role in ("player", "judge", "head_judge", "organiser"):
        clients[role] = Client(raise_request_exception=False)
        clients[role].force_login(world.users[role])
    for name, route, params in project_routes():
        if route.startswith("api/") or name in ("logout", "api-schema", "api-docs"):
            continue
        kinds = {kind for _m, kind, _r, _b in ENDPOINTS[name]}
        for kind in kinds:
            for target in targets(world, kind, params)[:2]:
                url = "/" + route
                for key, value in target.kwargs.items():
                    url = url.replace(f"<{_converter(route, key)}{key}>", str(value))
                for role, client in clients.items():
                    with transaction.atomic():
                        response = client.post(url, {field: odd for field in FORM_FIELDS})
                        transaction.set_rollback(True)
                    requests += 1
                    if response.status_code >= 500:
                        broken.append(f"POST {url} as {role}: {response.status_code}")
    assert requests > 300
    assert broken == [], "\n".join(broken)


def clients_of_every_role(world) -> dict:
    """A test client per role that passes some gate (and one signed out), none raising."""
    from django.test import Client

    clients = {"anonymous": Client(raise_request_exception=False)}
    for role in ("player", "judge", "head_judge", "organiser"):
        clients[role] = Client(raise_request_exception=False)
        clients[role].force_login(world.users[role])
    return clients


# --- Classes of bad input an outside run found (each must be a 400 with a stable code) ------

DEEP_JSON = "[" * 100_000 + "]" * 100_000
BAD_BODIES = {
    # RecursionError inside json.loads used to escape DRF's parser: 500 on every JSON endpoint.
    "deep nesting": (DEEP_JSON, "json_too_deep"),
    "deep object": ('{"a":' * 50_000 + "1" + "}" * 50_000, "json_too_deep"),
    # A lone UTF-16 surrogate decodes but cannot be encoded again (hashing, the database).
    "lone surrogate": (
        '{"username": "\\ud800", "password": "x", "text": "\\udfff", "name": "\\ud800"}',
        "invalid_text",
    ),
    "NUL in a string": (
        '{"username": "a\\u0000b", "password": "x", "text": "1 Island\\u0000", "name": "a\\u0000"}',
        "invalid_text",
    ),
}


@pytest.mark.parametrize("kind", sorted(BAD_BODIES))
def test_bad_json_bodies_on_every_write_endpoint_are_coded_400s(cube_names, in_process_requests, kind):  # noqa: F811
    """Every API route that takes a body, as every role that passes its gate: 400 with the
    class's code (or the caller's 401/403 first), never a 500, nothing stored."""

    from penalties.models import Penalty
    from tests.test_authorization_matrix import ENDPOINTS, _converter, project_routes, targets

    body, code = BAD_BODIES[kind]
    world = build_world(cube_names)
    clients = clients_of_every_role(world)
    broken, coded, requests = [], 0, 0
    before = (Penalty.objects.count(), len(piled()))
    for name, route, params in project_routes():
        if not route.startswith("api/"):
            continue
        for method, kind_of_target, _rule, _body in ENDPOINTS[name]:
            if method == "GET":
                continue
            target = targets(world, kind_of_target, params)[0]
            url = "/" + route
            for key, value in target.kwargs.items():
                url = url.replace(f"<{_converter(route, key)}{key}>", str(value))
            for role, client in clients.items():
                cache.clear()
                response = getattr(client, method.lower())(url, data=body, content_type="application/json")
                requests += 1
                if response.status_code >= 500:
                    broken.append(f"{method} {url} as {role}: {response.status_code}")
                elif response.status_code == 400:
                    errors = response.json()["errors"]
                    if errors[0]["code"] != code:
                        broken.append(f"{method} {url} as {role}: 400 {errors[0]['code']}")
                    coded += 1
    assert requests > 100 and coded > 30
    assert broken == [], "\n".join(broken)
    assert (Penalty.objects.count(), len(piled())) == before


@pytest.mark.parametrize(
    "url", ["/api/penalties/", "/api/events/{event}/penalties/", "/api/cards/", "/penalties/", "/cards/"]
)
@pytest.mark.parametrize("param", ["q", "infraction", "status"])
def test_a_nul_byte_in_a_query_parameter_is_a_400(cube_names, url, param):  # noqa: F811
    """PostgreSQL refuses NUL in any query text: refused up front, on every engine alike."""
    from django.test import Client

    world = build_world(cube_names, with_decks=False)
    client = Client(raise_request_exception=False)
    client.force_login(world.users["organiser"])
    response = client.get(url.format(event=world.event.pk), {param: "a\x00b"})
    assert response.status_code == 400
    if url.startswith("/api/"):
        assert response.json()["errors"][0]["code"] == "invalid_text"


@pytest.mark.parametrize(
    "query, status",
    [
        ("limit=" + "9" * 30, 200),
        ("offset=" + "9" * 30, 400),
        ("limit=" + "9" * 30 + "&offset=" + "9" * 30, 400),
        ("limit=abc", 200),
        ("limit=-5", 200),
    ],
)
def test_huge_pagination_numbers_on_the_card_list(client, db, query, status):
    response = client.get("/api/cards/?" + query)
    assert response.status_code == status
    if status == 200:
        assert len(response.json()["results"]) <= 500
    else:
        assert response.json()["errors"][0]["code"] == "invalid_offset"


def test_the_token_endpoint_with_a_lone_surrogate_username(client, db):
    response = client.post(
        "/api/auth/token/", data='{"username": "\\ud800", "password": "x"}', content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid_text"


# --- Numbers past the database's integer range (bigint ids, integer counts): a 400, never a 500 ---

PAST_THE_RANGE = {"bigint + 1": 2**63, "10**30": 10**30, "integer + 1": 2**31, "below bigint": -(2**63) - 1}


def _api_schema() -> dict:
    from django.test import Client

    return Client().get("/api/schema/?format=json").json()


def _resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def body_with_number(schema: dict, node: dict, number: int, which: int) -> tuple[object, int]:
    """A body of the request's shape whose ``which``-th integer is ``number`` (every other
    integer 1, other values plausible), and how many integers it holds: one at a time, so that
    no other field's bound refuses the body first."""
    count = 0

    def build(node: dict, depth: int):
        nonlocal count
        node = _resolve(schema, node)
        for key in ("oneOf", "anyOf", "allOf"):
            if node.get(key):
                options = [_resolve(schema, option) for option in node[key]]
                integer = [option for option in options if option.get("type") == "integer"]
                return build((integer or options)[0], depth)
        kind = node.get("type")
        if node.get("enum"):
            return node["enum"][0]
        if kind == "integer":
            count += 1
            return number if count - 1 == which else 1
        if kind == "array" and depth < 6:
            return [build(node.get("items", {}), depth + 1)]
        if (kind == "object" or node.get("properties")) and depth < 6:
            return {name: build(prop, depth + 1) for name, prop in node.get("properties", {}).items()}
        return {"boolean": False, "number": 1.5, "string": "x"}.get(kind, "x")

    body = build(node, 0)
    return body, count


def integer_paths(schema: dict, node: dict, where: str = "", seen: frozenset = frozenset()) -> list[tuple[str, dict]]:
    """Every integer a request body may hold, with its schema (``where`` names it)."""
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        return [] if name in seen else integer_paths(schema, _resolve(schema, node), where, seen | {name})
    found = [(where, node)] if node.get("type") == "integer" else []
    for key in ("oneOf", "anyOf", "allOf"):
        for option in node.get(key, []):
            found += integer_paths(schema, option, where, seen)
    if node.get("type") == "array":
        found += integer_paths(schema, node.get("items", {}), where + "[]", seen)
    for name, prop in (node.get("properties") or {}).items():
        found += integer_paths(schema, prop, f"{where}.{name}", seen)
    for extra in (node.get("additionalProperties"),):
        if isinstance(extra, dict):
            found += integer_paths(schema, extra, where + "{}", seen)
    return found


def test_every_integer_a_request_body_takes_is_bounded_by_its_column(db):
    """The OpenAPI schema is what the serializers check: an integer without a maximum (or a
    fixed list of values) would reach a query past the column's range."""
    schema = _api_schema()
    unbounded, seen = [], 0
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if not body:
                continue
            for where, node in integer_paths(schema, body["schema"]):
                seen += 1
                if "enum" not in node and ("maximum" not in node or "minimum" not in node):
                    unbounded.append(f"{method.upper()} {path} {where}")
                elif "maximum" in node and node["maximum"] > 2**63 - 1:
                    unbounded.append(f"{method.upper()} {path} {where}: maximum past bigint")
    assert seen > 40
    assert unbounded == []


@pytest.mark.parametrize("number", sorted(PAST_THE_RANGE), ids=str)
def test_numbers_past_the_integer_range_on_every_write_endpoint_are_400s(cube_names, in_process_requests, number):  # noqa: F811
    """Every API route that takes a body gets a body of its own shape whose every integer is past
    the range, as every role that passes its gate: a 400 (or the caller's 401/403/404 first),
    never a 500, nothing stored."""
    import re

    from penalties.models import Penalty
    from tests.test_authorization_matrix import ENDPOINTS, _converter, project_routes, targets

    schema = _api_schema()
    operations = {re.sub(r"\{\w+\}", "{}", path): ops for path, ops in schema["paths"].items()}
    world = build_world(cube_names)
    clients = clients_of_every_role(world)
    broken, refused, requests = [], 0, 0
    before = (Penalty.objects.count(), len(piled()))
    for name, route, params in project_routes():
        if not route.startswith("api/"):
            continue
        operation_set = operations.get(re.sub(r"<(?:\w+:)?\w+>", "{}", "/" + route), {})
        for method, kind_of_target, _rule, _body in ENDPOINTS[name]:
            operation = operation_set.get(method.lower(), {})
            content = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if method == "GET" or not content or not integer_paths(schema, content["schema"]):
                continue
            which, count = 0, 1
            while which < count:
                body, count = body_with_number(schema, content["schema"], PAST_THE_RANGE[number], which)
                which += 1
                for target in targets(world, kind_of_target, params)[:2]:
                    url = "/" + route
                    for key, value in target.kwargs.items():
                        url = url.replace(f"<{_converter(route, key)}{key}>", str(value))
                    for role, client in clients.items():
                        cache.clear()
                        with transaction.atomic():
                            response = getattr(client, method.lower())(url, data=body, content_type="application/json")
                            transaction.set_rollback(True)
                        requests += 1
                        if response.status_code >= 500:
                            broken.append(f"{method} {url} as {role} {body}: {response.status_code}")
                        refused += response.status_code == 400
    assert requests > 100 and refused > 30
    assert broken == [], "\n".join(broken)
    assert (Penalty.objects.count(), len(piled())) == before


def test_a_nul_in_a_path_token_is_a_400_on_every_route_that_takes_text(cube_names, in_process_requests):  # noqa: F811
    """A NUL in a path's text (an invitation or spectator token, a set code): refused up front
    (PostgreSQL refuses NUL in any query), as the API's invalid_text or a 400 page."""
    from django.test import Client

    from tests.test_authorization_matrix import ENDPOINTS, _converter, project_routes

    world = build_world(cube_names, with_decks=False)
    clients = {"anonymous": Client(raise_request_exception=False), "organiser": Client(raise_request_exception=False)}
    clients["organiser"].force_login(world.users["organiser"])
    wrong, requests = [], 0
    for name, route, params in project_routes():
        texts = [key for key in params if _converter(route, key) in ("", "str:", "slug:")]
        if not texts:
            continue
        url = "/" + route
        for key in params:
            url = url.replace(f"<{_converter(route, key)}{key}>", "a%00b" if key in texts else "1")
        for method in {m for m, *_ in ENDPOINTS[name]}:
            for role, client in clients.items():
                with transaction.atomic():
                    response = getattr(client, method.lower())(url)
                    transaction.set_rollback(True)
                requests += 1
                if response.status_code != 400:
                    wrong.append(f"{method} {url} as {role}: {response.status_code}")
                elif route.startswith("api/") and response.json()["errors"][0]["code"] != "invalid_text":
                    wrong.append(f"{method} {url} as {role}: {response.json()['errors'][0]['code']}")
    assert requests >= 8
    assert wrong == [], "\n".join(wrong)
