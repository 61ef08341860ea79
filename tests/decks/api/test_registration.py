"""Registering decks through the API: constructed (paste, upload, lists), commander, limited
from a draft pile or a sealed pool, the decklist deadline, and judges' corrections."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from cards.models import Card, ChecklistCard
from decks.models import Deck, DeckCorrection, SealedPool
from drafts.models import Pod
from tests.decks.conftest import FIXTURES, client_for, make_event, read_fixture
from tests.factories import DraftCardFactory, PackFactory, PodFactory, SeatFactory

pytestmark = pytest.mark.django_db


def deck_url(event):
    return f"/api/events/{event.pk}/deck/"


def put(user, event, body, fmt="json", url=None):
    return client_for(user).put(url or deck_url(event), body, format=fmt)


# --- constructed ------------------------------------------------------------------------


def test_paste_a_list_checks_and_stores_it(constructed, users):
    event, regs = constructed
    response = put(users["alice"], event, {"text": read_fixture("delver_isd.txt"), "opaque_sleeves": True})
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["valid"] is True and data["errors"] == []
    assert data["source_format"] == "text"
    assert data["summary"]["main"] == 60 and data["summary"]["sideboard"] == 7
    deck = Deck.objects.get(registration=regs["alice"])
    assert deck.valid and deck.version == 1
    delver = next(row for row in deck.main if row["name"].startswith("Delver"))
    assert delver == {
        "card_id": Card.objects.get(name=delver["name"]).pk,
        "name": "Delver of Secrets // Insectile Aberration",
        "count": 4,
    }
    assert client_for(users["alice"]).get(deck_url(event)).json()["id"] == deck.pk


@pytest.mark.parametrize(
    "fixture,fmt",
    [("werewolves_isd.dek", "mtgo_dek"), ("werewolves_isd.csv", "csv"), ("delver_isd_arena.txt", "arena")],
)
def test_upload_a_file(constructed, users, fixture, fmt):
    event, regs = constructed
    upload = SimpleUploadedFile("decklist", (FIXTURES / fixture).read_bytes())
    response = put(users["bob"], event, {"file": upload, "opaque_sleeves": "true"}, fmt="multipart")
    assert response.status_code == 200, response.content
    assert response.json()["source_format"] == fmt
    assert response.json()["valid"] is True


def test_checklist_cards_instead_of_sleeves(constructed, users):
    event, regs = constructed
    wolves = read_fixture("werewolves_isd.csv")
    lines = (
        "4 Innistrad Checklist: Gatstaf Shepherd\n4 Innistrad Checklist: Mayor of Avabruck\n"
        "4 Innistrad Checklist: Villagers of Estwald\n2 Innistrad Checklist: Daybreak Ranger\n"
    )
    response = put(users["bob"], event, {"text": wolves, "checklist_lines": lines})
    assert response.json()["valid"] is True, response.json()["errors"]
    deck = Deck.objects.get(registration=regs["bob"])
    isd = ChecklistCard.objects.get(set_code="TISD")
    assert len(deck.checklist_cards) == 14
    assert deck.checklist_cards[0] == {
        "checklist_id": isd.pk,
        "checklist": "Innistrad Checklist (TISD 13)",
        "marked": ["Gatstaf Shepherd"],
    }
    # The same deck missing one checklist card breaks R12 / R9.
    lines_short = lines.replace("2 Innistrad Checklist: Daybreak Ranger", "1 Innistrad Checklist: Daybreak Ranger")
    data = put(users["bob"], event, {"text": wolves, "checklist_lines": lines_short}).json()
    assert data["valid"] is False
    # One finding for the one card short (R12, saying R9 too), not one per code.
    assert [e["code"] for e in data["errors"]] == ["checklist_partial"]
    assert "Daybreak Ranger" in data["errors"][0]["message"] and "(R9)" in data["errors"][0]["message"]
    assert Deck.objects.get(registration=regs["bob"]).version == 2


def test_an_illegal_deck_is_stored_with_its_errors(constructed, users):
    event, regs = constructed
    data = put(
        users["alice"], event, {"main": [{"name": "Delver of Secrets", "count": 5}, {"name": "Islandd", "count": 50}]}
    ).json()
    assert data["valid"] is False
    codes = {e["code"] for e in data["errors"]}
    assert {"unknown_card", "deck_too_small", "too_many_copies", "dfc_needs_sleeves_or_checklist"} <= codes
    deck = Deck.objects.get(registration=regs["alice"])
    assert not deck.valid and deck.localized_errors == data["errors"]


@pytest.mark.parametrize(
    "body,fmt,code",
    [
        ({"text": "4 Delver of Secrets\n-1 Island"}, "json", "invalid_count"),
        ({"text": ""}, "json", "empty_decklist"),
        ({"text": "4 Island", "main": [{"name": "Island", "count": 4}]}, "json", "invalid_decklist"),
        ({"main": [{"name": "Island", "count": "4.5"}]}, "json", "invalid"),
        ({"file": SimpleUploadedFile("d.dek", b"\x00\x01\x02\xff binary")}, "multipart", "unreadable_file"),
        ({"file": SimpleUploadedFile("d.txt", b"1 Island\n" * 30000)}, "multipart", "file_too_large"),
        ({"text": "4 Delver of Secrets", "checklist_lines": "no colon here"}, "json", "invalid_checklist_line"),
    ],
    ids=["negative count", "empty", "two lists", "fractional count", "binary", "too large", "checklist line"],
)
def test_malformed_registration_is_400_and_stores_nothing(constructed, users, body, fmt, code):
    event, regs = constructed
    response = put(users["alice"], event, body, fmt=fmt)
    assert response.status_code == 400, response.content
    assert code in [e["code"] for e in response.json()["errors"]]
    assert not Deck.objects.filter(registration=regs["alice"]).exists()


def test_not_registered_is_403(constructed, users):
    event, _ = constructed
    response = put(users["outsider"], event, {"text": "60 Island"})
    assert response.status_code == 403
    assert response.json()["errors"][0]["code"] == "not_registered"
    assert client_for(None).put(deck_url(event), {"text": "60 Island"}, format="json").status_code in (401, 403)


def test_commander_deck(commander_event, users):
    event, regs = commander_event
    text = read_fixture("alandra_commander_arena.txt")
    data = put(users["carol"], event, {"text": text, "opaque_sleeves": True}).json()
    assert data["valid"] is True, data["errors"]
    assert data["summary"]["commander"] == 1 and data["summary"]["main"] == 99
    assert data["commander"][0]["name"] == "Alandra, Sky Dreamer"
    # R39: Civilized Scholar's back face is red, outside Alandra's blue identity.
    data = put(
        users["carol"],
        event,
        {"text": text.replace("1 Brainstorm (ISD) 44", "1 Civilized Scholar"), "opaque_sleeves": True},
    ).json()
    assert [e["code"] for e in data["errors"]] == ["color_identity"]


# --- the deadline and judges' corrections --------------------------------------------------------


def test_locked_at_the_deadline(constructed, users):
    event, regs = constructed
    assert put(users["alice"], event, {"text": read_fixture("delver_isd.txt")}).status_code == 200
    event.decklist_deadline = timezone.now() - dt.timedelta(minutes=1)
    event.save()
    response = put(users["alice"], event, {"text": "60 Island"})
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "decklist_locked"
    deck = Deck.objects.get(registration=regs["alice"])
    assert deck.version == 1 and deck.main_count == 60 and len(deck.main) == 12
    # A first registration after the deadline is refused too.
    assert put(users["bob"], event, {"text": "60 Island"}).status_code == 409
    assert not Deck.objects.filter(registration=regs["bob"]).exists()


def test_judge_correction_after_the_deadline_is_logged(constructed, users):
    event, regs = constructed
    put(users["alice"], event, {"text": read_fixture("delver_isd.txt")})  # no sleeves: invalid (R9)
    event.decklist_deadline = timezone.now() - dt.timedelta(minutes=1)
    event.save()
    deck = Deck.objects.get(registration=regs["alice"])
    url = f"/api/decks/{deck.pk}/corrections/"
    body = {
        "reason": "Player showed the judge opaque sleeves; list said 5 Snapcaster by mistake",
        "opaque_sleeves": True,
        "text": read_fixture("delver_isd.txt").replace("4 Snapcaster Mage", "3 Snapcaster Mage\n1 Think Twice"),
    }
    assert client_for(users["alice"]).post(url, body, format="json").status_code == 403  # players can't
    response = client_for(users["judge"]).post(url, body, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["judge"] == "judge" and data["valid_before"] is False and data["valid_after"] is False
    assert data["changes"]["main"] == {
        "added": [{"name": "Think Twice", "count": 1}],
        "removed": [{"name": "Snapcaster Mage", "count": 1}],
    }
    assert data["changes"]["opaque_sleeves"] == {"from": False, "to": True}
    assert data["penalty_url"].startswith(
        f"/penalties/new/?event={event.pk}&registration={regs['alice'].pk}&infraction=decklist_problem&description="
    )
    assert f"correction+%23{data['id']}" in data["penalty_url"] and "source=" not in data["penalty_url"]
    deck.refresh_from_db()
    assert deck.version == 2 and deck.opaque_sleeves
    assert [e["code"] for e in deck.check_errors] == ["too_many_copies"]  # 5 Think Twice now
    correction = DeckCorrection.objects.get()
    assert correction.before["opaque_sleeves"] is False and correction.after["opaque_sleeves"] is True
    # Append-only.
    with pytest.raises(ValueError):
        correction.save()
    with pytest.raises(ValueError):
        correction.delete()
    # The player can read the log of their own deck; nothing to correct is a 400.
    assert len(client_for(users["alice"]).get(url).json()) == 1
    again = client_for(users["judge"]).post(url, {"reason": "again", "opaque_sleeves": True}, format="json")
    assert again.status_code == 400 and again.json()["errors"][0]["code"] == "no_change"
    assert client_for(users["judge"]).post(url, {"opaque_sleeves": False}, format="json").status_code == 400


def test_revalidate_on_demand(constructed, users):
    event, regs = constructed
    put(users["alice"], event, {"text": read_fixture("delver_isd.txt"), "opaque_sleeves": True})
    deck = Deck.objects.get(registration=regs["alice"])
    Deck.objects.filter(pk=deck.pk).update(valid=False, check_errors=[{"code": "stale", "message": "", "cards": []}])
    assert client_for(users["bob"]).post(f"/api/decks/{deck.pk}/revalidate/").status_code == 403
    response = client_for(users["judge"]).post(f"/api/decks/{deck.pk}/revalidate/")
    assert response.status_code == 200 and response.json()["valid"] is True


def test_staff_enter_a_paper_list_for_a_player(constructed, users):
    event, regs = constructed
    url = deck_url(event) + f"?registration={regs['carol'].pk}"
    assert put(users["bob"], event, {"text": "60 Island"}, url=url).status_code == 403
    response = put(users["judge"], event, {"text": "60 Island"}, url=url)
    assert response.status_code == 200 and response.json()["registration"] == regs["carol"].pk


def test_checklist_policy_per_event(constructed, users):
    event, regs = constructed
    url = f"/api/events/{event.pk}/deck-rules/"
    assert client_for(users["judge"]).put(url, {"checklist_policy": "per_name"}, format="json").status_code == 403
    assert client_for(users["org"]).put(url, {"checklist_policy": "per_name"}, format="json").status_code == 200
    text = "4 Delver of Secrets\n4 Gatstaf Shepherd\n52 Island\n"
    data = put(
        users["alice"],
        event,
        {"text": text, "opaque_sleeves": True, "checklist_lines": "4 Innistrad Checklist: Delver of Secrets"},
    ).json()
    assert data["valid"] is True  # R12 per name: Gatstaf stays sleeved
    client_for(users["org"]).put(url, {"checklist_policy": "deck"}, format="json")
    data = client_for(users["alice"]).post(f"/api/decks/{data['id']}/revalidate/").json()
    assert [e["code"] for e in data["errors"]] == ["checklist_partial"]


# --- limited: draft piles and sealed pools -------------------------------------------------------

POOL = {
    "Delver of Secrets": 1,
    "Gatstaf Shepherd": 1,
    "Think Twice": 2,
    "Moon Heron": 1,
    "Stitched Drake": 1,
    "Darkthicket Wolf": 2,
    "Ambush Viper": 1,
    "Travel Preparations": 1,
    "Boneyard Wurm": 1,
    "Naturalize": 1,
    "Claustrophobia": 2,
    "Grasp of Phantoms": 1,
    "Invisible Stalker": 1,
    "Silent Departure": 1,
    "Forbidden Alchemy": 1,
    "Armored Skaab": 1,
    "Makeshift Mauler": 1,
    "Lantern Spirit": 1,
    "Murder of Crows": 1,
    "Spider Spawning": 1,
    "Dead Weight": 2,
    "Villagers of Estwald": 1,
}


def draft_pile(event, registration, *, state="deck_building"):
    cards = [Card.objects.get(faces__position=0, faces__name=name) for name, n in POOL.items() for _ in range(n)]
    pod = PodFactory(event=event, number=1, seed=1, state=state)
    seat = SeatFactory(pod=pod, position=0, registration=registration)
    pack = PackFactory(pod=pod, round=1, opener=seat, initial_size=len(cards))
    for card in cards:
        DraftCardFactory(pod=pod, card=card, opened_in=pack, seat=seat, is_dfc=card.is_dfc)
    return pod


@pytest.fixture
def limited(catalogue, users):
    return make_event(users, deck_format="limited", name="ISD draft")


BUILD = [
    {"name": "Delver of Secrets", "count": 1},
    {"name": "Think Twice", "count": 2},
    {"name": "Moon Heron", "count": 1},
    {"name": "Stitched Drake", "count": 1},
    {"name": "Claustrophobia", "count": 2},
    {"name": "Grasp of Phantoms", "count": 1},
    {"name": "Invisible Stalker", "count": 1},
    {"name": "Silent Departure", "count": 1},
    {"name": "Forbidden Alchemy", "count": 1},
    {"name": "Armored Skaab", "count": 1},
    {"name": "Makeshift Mauler", "count": 1},
    {"name": "Lantern Spirit", "count": 1},
    {"name": "Murder of Crows", "count": 1},
    {"name": "Gatstaf Shepherd", "count": 1},
    {"name": "Darkthicket Wolf", "count": 2},
    {"name": "Ambush Viper", "count": 1},
    {"name": "Travel Preparations", "count": 1},
    {"name": "Boneyard Wurm", "count": 1},
    {"name": "Island", "count": 12},
    {"name": "Forest", "count": 7},
]


def test_limited_deck_from_the_draft_pile(limited, users):
    event, regs = limited
    pod = draft_pile(event, regs["alice"], state="drafting")
    response = put(users["alice"], event, {"main": BUILD, "opaque_sleeves": True})
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "pool_not_ready"
    Pod.objects.filter(pk=pod.pk).update(state="deck_building")
    pool = client_for(users["alice"]).get(f"/api/events/{event.pk}/pool/").json()
    assert pool["source"] == "draft" and sum(c["count"] for c in pool["cards"]) == sum(POOL.values())
    data = put(users["alice"], event, {"main": BUILD, "opaque_sleeves": True}).json()
    assert data["valid"] is True, data["errors"]
    assert data["summary"]["main"] == 40
    # The sideboard is the rest of the pool.
    side = Counter({row["name"].split(" // ")[0]: row["count"] for row in data["sideboard"]})
    assert side == Counter({"Naturalize": 1, "Spider Spawning": 1, "Dead Weight": 2, "Villagers of Estwald": 1})
    # A card never drafted, or one copy too many, is not in the pool.
    data = put(
        users["alice"],
        event,
        {
            "main": BUILD + [{"name": "Snapcaster Mage", "count": 1}, {"name": "Think Twice", "count": 1}],
            "opaque_sleeves": True,
        },
    ).json()
    assert sorted(e["code"] for e in data["errors"]) == ["not_in_pool", "not_in_pool"]


def test_limited_without_a_pool_is_a_conflict(limited, users):
    event, _ = limited
    response = put(users["bob"], event, {"main": BUILD})
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "no_pool"


def test_basic_land_missing_from_the_catalogue_is_still_allowed(limited, users):
    event, regs = limited
    draft_pile(event, regs["alice"])
    Card.objects.filter(name="Forest").delete()  # rolled back with the test
    data = put(users["alice"], event, {"main": BUILD, "opaque_sleeves": True}).json()
    assert data["valid"] is True, data["errors"]
    forest = next(row for row in data["main"] if row["name"] == "Forest")
    assert forest["card_id"] is None and forest["count"] == 7


def test_sealed_pool_entered_by_the_organiser(limited, users):
    event, regs = limited
    url = f"/api/registrations/{regs['bob'].pk}/sealed-pool/"
    text = "".join(f"{n} {name}\n" for name, n in POOL.items())
    assert client_for(users["bob"]).put(url, {"text": text}, format="json").status_code == 403
    assert client_for(users["judge"]).put(url, {"text": text}, format="json").status_code == 403
    bad = client_for(users["org"]).put(url, {"text": text + "1 Gatstaf Sheperd\n"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "unknown_card"
    assert not SealedPool.objects.exists()
    response = client_for(users["org"]).put(url, {"text": text}, format="json")
    assert response.status_code == 200
    assert sum(c["count"] for c in response.json()["cards"]) == sum(POOL.values())
    assert client_for(users["bob"]).get(url).status_code == 200
    assert client_for(users["alice"]).get(url).status_code == 403
    data = put(users["bob"], event, {"main": BUILD, "opaque_sleeves": True}).json()
    assert data["valid"] is True, data["errors"]
