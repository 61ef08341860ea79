"""POST /api/decks/validate with real catalogue cards: the exact contract, every error code,
both checklist policies, and malformed requests (400, nothing stored)."""

from __future__ import annotations

import pytest

from cards.models import ChecklistCard
from decks.models import Deck

pytestmark = pytest.mark.django_db
URL = "/api/decks/validate"


@pytest.fixture(autouse=True)
def _cards(catalogue):
    return catalogue


def post(api_client, body, url=URL):
    return api_client.post(url, body, format="json")


def check(api_client, body):
    response = post(api_client, body)
    assert response.status_code == 200, response.content
    data = response.json()
    return data, [e["code"] for e in data["errors"]]


def islands(n):
    return {"name": "Island", "count": n}


DELVER_MAIN = [{"name": "Delver of Secrets", "count": 4}, {"name": "Think Twice", "count": 4}, islands(52)]
ISD = "Innistrad Checklist"


def delver_checklists(n=4, marked="Delver of Secrets", checklist=ISD):
    return [{"checklist": checklist, "marked": [marked]} for _ in range(n)]


def test_contract_shape_of_a_valid_deck(api_client):
    data, codes = check(api_client, {"format": "constructed", "main": DELVER_MAIN, "opaque_sleeves": True})
    assert codes == []
    assert data["valid"] is True
    assert set(data) >= {"valid", "errors", "warnings", "summary"}
    assert {k: data["summary"][k] for k in ("main", "sideboard", "dfcs", "checklist_cards")} == {
        "main": 60,
        "sideboard": 0,
        "dfcs": 4,
        "checklist_cards": 0,
    }


def test_with_and_without_trailing_slash_and_no_login_needed(api_client):
    body = {"format": "constructed", "main": DELVER_MAIN, "opaque_sleeves": True}
    assert post(api_client, body, URL).json()["valid"] is True
    assert post(api_client, body, URL + "/").json()["valid"] is True


def test_errors_have_code_message_cards(api_client):
    data, codes = check(api_client, {"format": "constructed", "main": DELVER_MAIN})
    assert codes == ["dfc_needs_sleeves_or_checklist"]
    error = data["errors"][0]
    assert isinstance(error["message"], str) and error["message"]
    assert "Delver of Secrets" in error["cards"]


# (label, body, expected codes): one row per error code, on real cards.
CASES = [
    (
        "unknown_card",
        {"format": "constructed", "main": [{"name": "Gatstaf Sheperd", "count": 4}, islands(56)]},
        ["unknown_card"],
    ),
    ("deck_too_small limited", {"format": "limited", "main": [islands(39)]}, ["deck_too_small"]),
    ("deck_too_small constructed", {"format": "constructed", "main": [islands(59)]}, ["deck_too_small"]),
    (
        "deck_too_small commander",
        {"format": "commander", "main": [islands(98)], "commander": [{"name": "Alandra, Sky Dreamer", "count": 1}]},
        ["deck_too_small"],
    ),
    (
        "deck_too_large commander",
        {"format": "commander", "main": [islands(100)], "commander": [{"name": "Alandra, Sky Dreamer", "count": 1}]},
        ["deck_too_large"],
    ),
    (
        "too_many_copies constructed",
        {"format": "constructed", "main": [{"name": "Think Twice", "count": 5}, islands(55)]},
        ["too_many_copies"],
    ),
    (
        "too_many_copies commander",
        {
            "format": "commander",
            "main": [{"name": "Think Twice", "count": 2}, islands(97)],
            "commander": [{"name": "Alandra, Sky Dreamer", "count": 1}],
        },
        ["too_many_copies"],
    ),
    (
        "basic lands exempt",
        {"format": "commander", "main": [islands(99)], "commander": [{"name": "Alandra, Sky Dreamer", "count": 1}]},
        [],
    ),
    (
        "not_in_pool",
        {
            "format": "limited",
            "main": [{"name": "Think Twice", "count": 2}, islands(38)],
            "pool": [{"name": "Think Twice", "count": 1}],
        },
        ["not_in_pool"],
    ),
    (
        "R39 color_identity across both faces",
        {
            "format": "commander",
            "opaque_sleeves": True,
            "main": [{"name": "Civilized Scholar", "count": 1}, islands(98)],
            "commander": [{"name": "Alandra, Sky Dreamer", "count": 1}],
        },
        ["color_identity"],
    ),
    (
        "sideboard_too_large",
        {"format": "constructed", "main": [islands(60)], "sideboard": [{"name": "Negate", "count": 4}, islands(12)]},
        ["sideboard_too_large"],
    ),
    (
        "R10 checklist_no_mark",
        {
            "format": "constructed",
            "main": DELVER_MAIN,
            "opaque_sleeves": True,
            "checklist_cards": [{"checklist": ISD, "marked": []}],
        },
        ["checklist_no_mark"],
    ),
    (
        "R10 checklist_multiple_marks",
        {
            "format": "constructed",
            "main": DELVER_MAIN,
            "checklist_cards": delver_checklists(3)
            + [{"checklist": ISD, "marked": ["Delver of Secrets", "Gatstaf Shepherd"]}],
        },
        ["checklist_multiple_marks"],
    ),
    (
        "R10 two names marked with a comma between them read as two marks, not one unknown name",
        {
            "format": "constructed",
            "main": DELVER_MAIN,
            "checklist_cards": delver_checklists(3)
            + [{"checklist": ISD, "marked": ["Delver of Secrets, Gatstaf Shepherd"]}],
        },
        ["checklist_multiple_marks"],
    ),
    (
        "R11 checklist_unofficial",
        {
            "format": "constructed",
            "main": DELVER_MAIN,
            "checklist_cards": delver_checklists(3) + delver_checklists(1, checklist="Think Twice"),
        },
        ["checklist_unofficial"],
    ),
    (
        "R11 checklist_not_listed",
        {
            "format": "constructed",
            "main": [{"name": "Emeria's Call", "count": 1}, {"name": "Plains", "count": 59}],
            "checklist_cards": [{"checklist": ISD, "marked": ["Emeria's Call"]}],
        },
        ["checklist_not_listed"],
    ),
    (
        "R12 checklist_partial (deck policy)",
        {
            "format": "constructed",
            "opaque_sleeves": True,
            "main": DELVER_MAIN[:1] + [{"name": "Gatstaf Shepherd", "count": 4}, islands(52)],
            "checklist_cards": delver_checklists(4),
        },
        ["checklist_partial"],
    ),
    (
        "R12 per_name policy allows different DFCs to differ",
        {
            "format": "constructed",
            "opaque_sleeves": True,
            "checklist_policy": "per_name",
            "main": DELVER_MAIN[:1] + [{"name": "Gatstaf Shepherd", "count": 4}, islands(52)],
            "checklist_cards": delver_checklists(4),
        },
        [],
    ),
    (
        "R12 checklist_partial (per_name policy)",
        {
            "format": "constructed",
            "opaque_sleeves": True,
            "checklist_policy": "per_name",
            "main": DELVER_MAIN,
            "checklist_cards": delver_checklists(3),
        },
        ["checklist_partial"],
    ),
    (
        "checklist_mismatch: one card too many",
        {"format": "constructed", "main": DELVER_MAIN, "checklist_cards": delver_checklists(5)},
        ["checklist_mismatch"],
    ),
    (
        "checklist_mismatch: DFC not in the deck",
        {
            "format": "constructed",
            "main": DELVER_MAIN,
            "checklist_cards": delver_checklists(4) + delver_checklists(1, marked="Gatstaf Shepherd"),
        },
        ["checklist_mismatch"],
    ),
    (
        "R9 dfc_needs_sleeves_or_checklist",
        {"format": "constructed", "main": DELVER_MAIN},
        ["dfc_needs_sleeves_or_checklist"],
    ),
    (
        "R9 checklist cards for every copy, no sleeves",
        {"format": "constructed", "main": DELVER_MAIN, "checklist_cards": delver_checklists(4)},
        [],
    ),
]


@pytest.mark.parametrize("label,body,expected", CASES, ids=[c[0] for c in CASES])
def test_error_codes(api_client, label, body, expected):
    _, codes = check(api_client, body)
    assert codes == expected


def test_two_names_marked_with_a_comma_are_named_in_the_message(api_client):
    data, codes = check(
        api_client,
        {
            "format": "constructed",
            "main": DELVER_MAIN,
            "checklist_cards": delver_checklists(3)
            + [{"checklist": ISD, "marked": ["Delver of Secrets, Gatstaf Shepherd"]}],
        },
    )
    assert codes == ["checklist_multiple_marks"]
    message = data["errors"][0]["message"]
    assert "2 names marked" in message and "Gatstaf Shepherd" in message and "R10" in message


def test_unknown_card_suggests_names(api_client):
    data, _ = check(
        api_client, {"format": "constructed", "main": [{"name": "Gatstaf Sheperd", "count": 4}, islands(56)]}
    )
    assert "Gatstaf Shepherd" in data["errors"][0]["suggestions"]
    assert data["errors"][0]["cards"] == ["Gatstaf Sheperd"]


def test_back_face_name_is_the_same_card(api_client):
    """Gatstaf Howler means Gatstaf Shepherd // Gatstaf Howler; copies count per card."""
    body = {
        "format": "constructed",
        "opaque_sleeves": True,
        "main": [{"name": "Gatstaf Shepherd", "count": 3}, {"name": "gatstaf howler", "count": 2}, islands(55)],
    }
    data, codes = check(api_client, body)
    assert codes == ["too_many_copies"]
    assert data["summary"]["dfcs"] == 5


def test_checklist_marked_with_the_back_face_name_is_the_same_dfc(api_client):
    body = {
        "format": "constructed",
        "main": [{"name": "Gatstaf Shepherd", "count": 1}, islands(59)],
        "checklist_cards": [{"checklist": ISD, "marked": ["Gatstaf Howler"]}],
    }
    assert check(api_client, body)[1] == []


@pytest.mark.parametrize(
    "name,is_dfc",
    [
        ("Sejiri Shelter", True),  # modal DFC
        ("Akki Lavarunner", False),  # flip
        ("Bottomless Pool", False),  # split (Room)
        ("Kellan, Inquisitive Prodigy", False),  # adventure
    ],
)
def test_which_layouts_are_dfcs(api_client, name, is_dfc, catalogue):
    data, codes = check(api_client, {"format": "constructed", "main": [{"name": name, "count": 1}, islands(59)]})
    assert data["summary"]["dfcs"] == (1 if is_dfc else 0)
    assert codes == (["dfc_needs_sleeves_or_checklist"] if is_dfc else [])


def _substitute_refs():
    first = ChecklistCard.objects.filter(set_code="SZNR").order_by("collector_number").first()
    return [
        "Double-Faced Substitute Card",
        "double-faced substitute card (sznr 3)",
        "Double-Faced Substitute Card (SZNR 1)",
        str(first.pk),
        first.pk,
    ]


def test_substitute_card_by_name_label_or_id(api_client):
    """Several cards share the substitute card's name: any of them will do (R11)."""
    for ref in _substitute_refs():
        body = {
            "format": "constructed",
            "main": [{"name": "Emeria's Call", "count": 1}, {"name": "Plains", "count": 59}],
            "checklist_cards": [{"checklist": ref, "marked": ["Emeria's Call"]}],
        }
        data, codes = check(api_client, body)
        assert codes == [], (ref, data)
        assert data["summary"]["checklist_cards"] == 1


def test_checklist_by_id_and_label(api_client):
    isd = ChecklistCard.objects.get(set_code="TISD")
    for ref in (isd.pk, str(isd.pk), "Innistrad Checklist (TISD 13)", "innistrad checklist"):
        body = {"format": "constructed", "main": DELVER_MAIN, "checklist_cards": delver_checklists(4, checklist=ref)}
        assert check(api_client, body)[1] == [], ref


def test_innistrad_checklist_lists_the_twenty_isd_front_faces(api_client):
    isd = ChecklistCard.objects.get(set_code="TISD")
    names = [e.printed_name for e in isd.entries.all()]
    assert len(names) == 20 and "Delver of Secrets" in names and "Gatstaf Shepherd" in names
    for name in names:
        body = {
            "format": "constructed",
            "main": [{"name": name, "count": 1}, islands(59)],
            "checklist_cards": [{"checklist": ISD, "marked": [name]}],
        }
        assert check(api_client, body)[1] == [], name


# --- malformed requests: 400 in the project format, nothing stored ------------------------------

BAD = [
    ("empty body", {}),
    ("unknown format", {"format": "vintage", "main": []}),
    ("main missing", {"format": "constructed"}),
    ("main not a list", {"format": "constructed", "main": "4 Island"}),
    ("count zero", {"format": "constructed", "main": [{"name": "Island", "count": 0}]}),
    ("count negative", {"format": "constructed", "main": [{"name": "Island", "count": -4}]}),
    ("count fractional", {"format": "constructed", "main": [{"name": "Island", "count": 2.5}]}),
    ("count float", {"format": "constructed", "main": [{"name": "Island", "count": 4.0}]}),
    ("count words", {"format": "constructed", "main": [{"name": "Island", "count": "four"}]}),
    ("count boolean", {"format": "constructed", "main": [{"name": "Island", "count": True}]}),
    ("count missing", {"format": "constructed", "main": [{"name": "Island"}]}),
    ("count huge", {"format": "constructed", "main": [{"name": "Island", "count": 10**9}]}),
    ("name missing", {"format": "constructed", "main": [{"count": 4}]}),
    ("name too long", {"format": "constructed", "main": [{"name": "x" * 500, "count": 4}]}),
    ("bad policy", {"format": "constructed", "main": [], "checklist_policy": "sometimes"}),
    ("sleeves not boolean", {"format": "constructed", "main": [], "opaque_sleeves": [1]}),
    ("checklist not an object", {"format": "constructed", "main": [], "checklist_cards": ["Innistrad Checklist"]}),
    (
        "checklist reference missing",
        {"format": "constructed", "main": [], "checklist_cards": [{"marked": ["Delver of Secrets"]}]},
    ),
    (
        "marked not a list",
        {"format": "constructed", "main": [], "checklist_cards": [{"checklist": ISD, "marked": "Delver"}]},
    ),
    ("too many lines", {"format": "constructed", "main": [{"name": f"Card {i}", "count": 1} for i in range(1001)]}),
    ("too many cards", {"format": "constructed", "main": [{"name": "Island", "count": 1000}] * 6}),
]


@pytest.mark.parametrize("label,body", BAD, ids=[b[0] for b in BAD])
def test_malformed_requests_are_400(api_client, label, body):
    response = post(api_client, body)
    assert response.status_code == 400, response.content
    data = response.json()
    assert data["detail"] and data["errors"] and all("code" in e and "message" in e for e in data["errors"])
    assert Deck.objects.count() == 0


def test_not_json_is_400(api_client):
    response = api_client.post(URL, data=b"\x89PNG\r\n\x1a\n\x00\x00", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "malformed_request"
    response = api_client.post(URL, data=b"[1, 2]", content_type="application/json")
    assert response.status_code == 400


def test_huge_body_is_400(api_client):
    body = b'{"format": "constructed", "main": [' + b'{"name": "Island", "count": 1},' * 40000 + b"]}"
    response = api_client.post(URL, data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "file_too_large"


def test_documented_in_the_openapi_schema(api_client):
    schema = api_client.get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    for path in (
        "/api/decks/validate",
        "/api/decks/parse",
        "/api/events/{event_id}/deck/",
        "/api/events/{event_id}/decks/",
        "/api/decks/{id}/",
        "/api/decks/{id}/corrections/",
        "/api/decks/{id}/checks/",
        "/api/events/{event_id}/deck-check-selections/",
    ):
        assert path in paths, path


def test_mtr_3_5_a_substitute_card_from_a_set_not_in_the_catalogue_stands_for_any_dfc(api_client):
    """Kaldheim's DFCs are not in the seed catalogue, so its substitute card "lists" nothing;
    under MTR 3.5 it still stands for the DFC written on it, from any set."""
    for marked, main in (
        ("Emeria's Call", [{"name": "Emeria's Call", "count": 1}, {"name": "Plains", "count": 59}]),
        ("Delver of Secrets", [{"name": "Delver of Secrets", "count": 1}, islands(59)]),
    ):
        data, codes = check(
            api_client,
            {
                "format": "constructed",
                "main": main,
                "checklist_cards": [{"checklist": "Double-Faced Substitute Card (SKHM 1)", "marked": [marked]}],
            },
        )
        assert codes == [], data["errors"]
    _, codes = check(
        api_client,
        {
            "format": "constructed",
            "main": [islands(60)],
            "checklist_cards": [{"checklist": "Double-Faced Substitute Card (SKHM 1)", "marked": ["Think Twice"]}],
        },
    )
    assert codes[0] == "checklist_not_listed"


def test_a_checklist_card_named_in_the_list_is_a_checklist_card_not_an_unknown_card(api_client):
    """ "1 Innistrad Checklist" in a pasted list used to say "Did you mean Hinterland Hermit?"."""
    parsed = api_client.post(
        "/api/decks/parse",
        {"text": "3 Delver of Secrets\n57 Island\n3 Innistrad Checklist: Delver of Secrets\n"},
        format="json",
    )
    body = {"format": "constructed", "main": parsed.json()["main"]}
    data, codes = check(api_client, body)
    assert codes == [] and data["summary"]["checklist_cards"] == 3 and data["summary"]["main"] == 60
    data, codes = check(
        api_client,
        {"format": "constructed", "main": DELVER_MAIN[:1] + [islands(56), {"name": "Innistrad Checklist", "count": 1}]},
    )
    assert "unknown_card" not in codes and "checklist_no_mark" in codes
    assert not any("Hinterland" in e["message"] for e in data["errors"])


def test_checklist_cards_are_found_by_name_in_the_card_look_up(api_client, client):
    data = api_client.get("/api/cards/", {"q": "Innistrad Checklist"}).json()
    assert data["suggestions"] == []
    (isd,) = [c for c in data["checklist_cards"] if c["set_code"] == "TISD"]
    listed = {e["printed_name"] for e in isd["entries"]}
    assert {"Delver of Secrets", "Gatstaf Shepherd"} <= listed
    substitutes = api_client.get("/api/cards/", {"q": "double-faced substitute"}).json()["checklist_cards"]
    assert substitutes and all(c["kind"] == "substitute" for c in substitutes)
    page = client.get("/cards/", {"q": "Innistrad Checklist"}).content.decode()
    assert "Innistrad Checklist" in page and "Delver of Secrets" in page and "Did you mean" not in page
    # The cards it lists are linked: follow one.
    import re

    link = re.search(r'<a href="(/cards/\d+/)">Delver of Secrets</a>', page).group(1)
    assert "Delver of Secrets" in client.get(link).content.decode()
