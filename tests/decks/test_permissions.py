"""Privacy: a player's deck is seen by that player and the event's judges and organisers only,
until decklists are published — by page and by API, never to other players or anonymous users."""

from __future__ import annotations

import pytest
from django.test import Client

from decks.models import Deck
from tests.decks.conftest import client_for, make_event, read_fixture
from tests.factories import EventStaffFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def decks(catalogue, users):
    event, regs = make_event(users, deck_format="constructed")
    for who, fixture in (("alice", "delver_isd.txt"), ("bob", "werewolves_isd.csv")):
        response = client_for(users[who]).put(
            f"/api/events/{event.pk}/deck/", {"text": read_fixture(fixture), "opaque_sleeves": True}, format="json"
        )
        assert response.status_code == 200
    return event, {who: Deck.objects.get(registration=regs[who]) for who in ("alice", "bob")}


def page_client(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def api_paths(event, deck):
    return [f"/api/decks/{deck.pk}/", f"/api/decks/{deck.pk}/corrections/", f"/api/decks/{deck.pk}/checks/"]


def page_paths(deck):
    return [f"/decks/{deck.pk}/", f"/decks/{deck.pk}/print/"]


@pytest.mark.parametrize("who", ["alice", "outsider", None], ids=["another player", "a stranger", "anonymous"])
def test_others_cannot_see_a_deck_before_publication(decks, users, who):
    event, by_player = decks
    bob = by_player["bob"]
    user = users[who] if who else None
    for path in api_paths(event, bob):
        response = client_for(user).get(path)
        assert response.status_code in (401, 403), (path, response.status_code)
        assert "Gatstaf" not in response.content.decode()
    for path in page_paths(bob):
        response = page_client(user).get(path)
        assert response.status_code in (302, 403), (path, response.status_code)
        assert "Gatstaf" not in response.content.decode()
    # Nor through the event's deck list, or the staff form for another registration.
    assert client_for(user).get(f"/api/events/{event.pk}/decks/").status_code in (401, 403)
    assert page_client(user).get(f"/decks/events/{event.pk}/judge/").status_code in (302, 403)
    listed = client_for(user).get(f"/api/events/{event.pk}/deck/?registration={bob.registration_id}")
    assert listed.status_code in (401, 403) and "Gatstaf" not in listed.content.decode()


def test_the_player_sees_their_own_deck(decks, users):
    _, by_player = decks
    bob = by_player["bob"]
    response = client_for(users["bob"]).get(f"/api/decks/{bob.pk}/")
    assert response.status_code == 200 and response.json()["player"] == "bob"
    page = page_client(users["bob"]).get(f"/decks/{bob.pk}/")
    assert page.status_code == 200 and "Gatstaf Shepherd" in page.content.decode()
    # ... but not the judges' deck checks of it.
    assert client_for(users["bob"]).get(f"/api/decks/{bob.pk}/checks/").status_code == 403


@pytest.mark.parametrize("who", ["judge", "org"])
def test_judges_and_organisers_see_every_deck(decks, users, who):
    event, by_player = decks
    for deck in by_player.values():
        assert client_for(users[who]).get(f"/api/decks/{deck.pk}/").status_code == 200
        for path in page_paths(deck):
            assert page_client(users[who]).get(path).status_code == 200
    rows = client_for(users[who]).get(f"/api/events/{event.pk}/decks/").json()
    assert {row["player"]: row["state"] for row in rows} == {"alice": "valid", "bob": "valid", "carol": "missing"}


def test_everyone_sees_decks_once_published(decks, users):
    event, by_player = decks
    event.decklists_published = True
    event.save()
    bob = by_player["bob"]
    for user in (users["alice"], users["outsider"], None):
        assert client_for(user).get(f"/api/decks/{bob.pk}/").status_code == 200
        assert page_client(user).get(f"/decks/{bob.pk}/print/").status_code == 200
    # Staff-only records stay staff-only.
    assert client_for(users["alice"]).get(f"/api/decks/{bob.pk}/checks/").status_code == 403
    assert client_for(users["alice"]).get(f"/api/events/{event.pk}/decks/").status_code == 403


def test_judges_of_another_event_see_nothing(decks, users, catalogue):
    event, by_player = decks
    other_event, _ = make_event(users, name="Elsewhere")
    stranger_judge = UserFactory(username="otherjudge")
    EventStaffFactory(event=other_event, user=stranger_judge, role="judge")
    assert client_for(stranger_judge).get(f"/api/decks/{by_player['bob'].pk}/").status_code == 403
    assert client_for(stranger_judge).get(f"/api/events/{event.pk}/decks/").status_code == 403


def test_the_judges_list_filters(decks, users):
    event, by_player = decks
    client_for(users["alice"]).put(
        f"/api/events/{event.pk}/deck/", {"text": read_fixture("delver_isd.txt")}, format="json"
    )  # now without sleeves: invalid
    judge = client_for(users["judge"])
    url = f"/api/events/{event.pk}/decks/"
    assert [r["player"] for r in judge.get(url, {"status": "invalid"}).json()] == ["alice"]
    assert [r["player"] for r in judge.get(url, {"status": "missing"}).json()] == ["carol"]
    assert [r["player"] for r in judge.get(url, {"error": "dfc_needs_sleeves_or_checklist"}).json()] == ["alice"]
    assert [r["player"] for r in judge.get(url, {"q": "BO"}).json()] == ["bob"]
    assert judge.get(url, {"status": "bogus"}).status_code == 400
    page = page_client(users["judge"]).get(f"/decks/events/{event.pk}/judge/", {"status": "invalid"})
    html = page.content.decode()
    assert page.status_code == 200 and "alice" in html and ">bob<" not in html
