"""Whole numbers from a request: ASCII digits only, one reader (draftsite.whole_numbers), and
every error under /api/ in the API's JSON shape (issue 46, item 11).

"²" passes ``str.isdigit()`` and fails ``int()``; "٣" passes both. Each path the held-out
probes broke gets them and must answer 400 (JSON with code ``invalid_number`` on the API and
on the downloads that answer JSON errors, the 400 page or a form error on pages), never a 500.
A test over the source keeps new readers on the one parser.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from drafts.models import DraftCard
from draftsite import whole_numbers
from tests.decks.api.test_registration import POOL, draft_pile
from tests.decks.conftest import catalogue, make_event, users  # noqa: F401  (fixtures)
from tests.test_untranslated_literals import APPS  # the apps whose source the walks read

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
NOT_ASCII_DIGITS = ["²", "٣", "１２", "1_000"]


@pytest.mark.parametrize(
    "text, number",
    [("0", 0), ("12", 12), (" 7 ", 7), (str(2**63 - 1), 2**63 - 1), (7, 7)],
)
def test_ascii_digits_are_a_number(text, number):
    assert whole_numbers.parse(text) == number


@pytest.mark.parametrize("text", [*NOT_ASCII_DIGITS, "", "-1", "+1", "1.0", "abc", str(2**63), "9" * 5000, None, True])
def test_anything_else_is_not(text):
    assert whole_numbers.parse(text) is None


def test_a_sign_only_where_negatives_are_allowed():
    assert whole_numbers.parse("-3", minimum=-5) == -3
    assert whole_numbers.parse("-٣", minimum=-5) is None


@pytest.fixture
def world(catalogue, users):  # noqa: F811
    event, regs = make_event(users, deck_format="limited")
    pod = draft_pile(event, regs["alice"])
    staff = get_user_model().objects.create_user("site-staff", is_staff=True)
    clients = {}
    for who, user in (("alice", users["alice"]), ("org", users["org"]), ("staff", staff)):
        clients[who] = Client(raise_request_exception=False)
        clients[who].force_login(user)
    clients["anonymous"] = Client(raise_request_exception=False)
    ids = {dc.card.name.split(" // ")[0]: dc.card_id for dc in DraftCard.objects.filter(pod=pod).select_related("card")}
    return event, pod, clients, ids


def _paths(event, ids):
    """(who, method, path, {field: value} with "{odd}" where the odd value goes, answers JSON?):
    the fourteen paths of issue 46 item 11, and their neighbours reading the same numbers."""
    e = event.pk
    builder = {f"main-{ids[name]}": str(n) for name, n in POOL.items()}
    builder.update({"basic-Island": "8", "basic-Forest": "6", "action": "save"})
    some_card = next(iter(ids.values()))
    return [
        ("anonymous", "GET", f"/api/events/{e}/pairings.csv", {"round": "{odd}"}, True),
        ("anonymous", "GET", f"/api/events/{e}/results.csv", {"round": "{odd}"}, True),
        ("anonymous", "GET", f"/api/events/{e}/standings.csv", {"round": "{odd}"}, True),
        ("anonymous", "GET", f"/api/events/{e}/standings.csv", {"pod": "{odd}"}, True),
        ("anonymous", "GET", f"/matches/events/{e}/standings.csv", {"round": "{odd}"}, False),
        ("org", "GET", f"/decks/events/{e}/", {"registration": "{odd}"}, False),
        ("alice", "POST", f"/decks/events/{e}/", {**builder, f"main-{some_card}": "{odd}"}, False),
        ("alice", "POST", f"/decks/events/{e}/", {**builder, "basic-Island": "{odd}"}, False),
        ("alice", "GET", f"/decks/events/{e}/pool/export/", {"registration": "{odd}"}, True),
        ("org", "GET", "/penalties/new/", {"event": "{odd}"}, False),
        ("alice", "GET", f"/api/events/{e}/deck/", {"registration": "{odd}"}, True),
        ("org", "GET", f"/decks/events/{e}/exports.zip", {"pod": "{odd}"}, True),
        ("staff", "GET", "/penalties/players/", {"user": "{odd}"}, False),
        ("org", "GET", f"/api/events/{e}/penalties/", {"registration": "{odd}"}, True),
        ("anonymous", "GET", "/events/cards/", {"ids": "{odd}"}, True),
    ]


@pytest.mark.parametrize("odd", NOT_ASCII_DIGITS)
def test_every_path_refuses_a_number_that_is_not_ascii_digits(world, odd):
    event, _pod, clients, ids = world
    broken = []
    for who, method, path, fields, answers_json in _paths(event, ids):
        data = {k: (odd if v == "{odd}" else v) for k, v in fields.items()}
        client = clients[who]
        response = client.get(path, data) if method == "GET" else client.post(path, data)
        where = f"{method} {path} {fields} as {who}"
        if response.status_code != 400:
            broken.append(f"{where}: {response.status_code}")
            continue
        is_json = response["Content-Type"].startswith("application/json")
        if answers_json != is_json:
            broken.append(f"{where}: {response['Content-Type']}")
        elif is_json:
            body = response.json()
            if not (body.get("detail") and body["errors"][0]["code"] in ("invalid_number", "invalid_card_ids")):
                broken.append(f"{where}: {body}")
        elif method == "POST" and f"“{odd}” is not a" not in response.content.decode():
            broken.append(f"{where}: the form does not say which count is wrong")
    assert broken == [], "\n".join(broken)
    assert not event.registrations.filter(deck__isnull=False).exists()  # the builder saved nothing


def test_a_plain_number_still_works_on_those_paths(world):
    event, pod, clients, _ids = world
    assert clients["anonymous"].get(f"/api/events/{event.pk}/standings.csv", {"pod": pod.pk}).status_code == 200
    assert clients["org"].get(f"/decks/events/{event.pk}/exports.zip", {"pod": pod.pk}).status_code == 200
    registration = event.registrations.get(user__username="bob")
    response = clients["org"].get(f"/api/events/{event.pk}/penalties/", {"registration": registration.pk})
    assert response.status_code == 200 and response.json() == []


@pytest.mark.parametrize("debug", [False, True])
def test_a_bug_under_the_api_answers_the_json_error_shape(world, monkeypatch, settings, debug):
    settings.DEBUG = debug  # the demo runs with DEBUG on: Django's debug page is HTML
    event, _pod, clients, _ids = world
    from matches import exports

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(exports, "csv_response", broken)
    response = clients["anonymous"].get(f"/api/events/{event.pk}/standings.csv")
    assert response.status_code == 500
    assert response.json()["errors"][0]["code"] == "server_error"
    page = clients["anonymous"].get(f"/matches/events/{event.pk}/standings.csv")
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")
    # The test client re-raises what Django signals: the bug is not hidden from tests.
    with pytest.raises(RuntimeError):
        Client().get(f"/api/events/{event.pk}/standings.csv")


def test_a_nul_in_a_json_views_query_answers_the_json_shape(world):
    event, _pod, clients, _ids = world
    for path in ("/events/cards/", f"/decks/events/{event.pk}/pool/export/", "/api/cards/"):
        response = clients["alice"].get(path, {"ids": "1\x00", "registration": "a\x00"})
        assert response.status_code == 400, path
        assert response.json()["errors"][0]["code"] == "invalid_text", path
    page = clients["alice"].get(f"/decks/events/{event.pk}/", {"registration": "a\x00"})
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


# --- the class stays fixed ------------------------------------------------------------------

# ``isdigit()`` on text that is not a request's: catalogue data and file names.
NOT_REQUEST_DATA = {
    ("decks/adapter.py", "_copy_limit"),  # a card's oracle text
    ("decks/exporting.py", "_printings"),  # a printing's collector number
    ("cards/importers/records.py", "clean_mtgo_id"),  # an MTGO id in an MTGJSON or Scryfall file
    ("cards/importers/text.py", "mana_value"),  # a mana cost from a card file
    ("drafts/sql/migration.py", "names"),  # migration module names
    ("penalties/models.py", "section_key"),  # the IPG section of our own catalogue
}
REQUEST_NAMES = {"request", "GET", "POST", "query_params", "data", "META"}


def _function_of(tree: ast.AST, node: ast.AST) -> str:
    name = ""
    for parent in ast.walk(tree):  # breadth first: the innermost function comes last
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(n is node for n in ast.walk(parent)):
            name = parent.name
    return name


def _reads_request(node: ast.AST) -> bool:
    return any(
        (isinstance(n, ast.Name) and n.id == "request") or (isinstance(n, ast.Attribute) and n.attr in REQUEST_NAMES)
        for n in ast.walk(node)
    )


def test_no_reader_of_whole_numbers_besides_the_one_parser():
    """``x.isdigit()`` (accepts "²", which ``int()`` refuses) and ``int(request....)`` (accepts
    "٣" and "1_000") are the class of issue 46 item 11: numbers go through draftsite.whole_numbers."""
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or relative == "draftsite/whole_numbers.py":
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                if isinstance(func, ast.Attribute) and func.attr == "isdigit":
                    if (relative, _function_of(tree, node)) not in NOT_REQUEST_DATA:
                        found.append(f"{relative}:{node.lineno} .isdigit()")
                elif isinstance(func, ast.Name) and func.id == "int" and node.args and _reads_request(node.args[0]):
                    found.append(f"{relative}:{node.lineno} int(<request data>)")
    assert found == [], "use draftsite.whole_numbers:\n" + "\n".join(found)


def test_the_source_test_sees_what_it_looks_for(tmp_path):
    """The walk above finds both shapes (it would pass vacuously otherwise)."""
    tree = ast.parse("def view(request):\n    a = request.GET['x'].isdigit()\n    return int(request.GET['x'])\n")
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert any(isinstance(c.func, ast.Attribute) and c.func.attr == "isdigit" for c in calls)
    assert any(isinstance(c.func, ast.Name) and c.func.id == "int" and _reads_request(c.args[0]) for c in calls)
    assert _function_of(tree, calls[0]) == "view"
