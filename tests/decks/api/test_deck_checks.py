"""Deck checks: picking decks (random share from a stored seed, or chosen), recording findings,
and the prefilled link to the penalties page (the contract with the penalties app)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client

from decks import services
from decks.models import Deck, DeckCheck, DeckCheckSelection
from events import services as draft_services
from events.access import SYSTEM
from tests.decks.conftest import client_for, make_event
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def event_with_decks(catalogue, users):
    event, regs = make_event(users, deck_format="constructed")
    for i in range(17):  # 20 players in all
        user = UserFactory(username=f"player{i}")
        regs[user.username] = draft_services.register_player(event_id=event.pk, user=user, actor=SYSTEM)
    for registration in regs.values():
        services.register_deck(event_id=event.pk, actor=registration.user, main=[{"name": "Island", "count": 60}])
    return event, regs


def selections_url(event):
    return f"/api/events/{event.pk}/deck-check-selections/"


def test_random_ten_percent_is_reproducible_from_its_seed(event_with_decks, users):
    event, regs = event_with_decks
    judge = client_for(users["judge"])
    first = judge.post(selections_url(event), {"method": "random", "seed": 1234}, format="json").json()
    again = judge.post(selections_url(event), {"method": "random", "seed": 1234}, format="json").json()
    assert len(first["registrations"]) == 2  # 10% of 20
    assert first["registrations"] == again["registrations"] and first["seed"] == 1234
    assert len(first["decks"]) == 2
    fresh = judge.post(selections_url(event), {"method": "random", "percent": 25}, format="json").json()
    assert fresh["seed"] is not None and len(fresh["registrations"]) == 5
    stored = DeckCheckSelection.objects.get(pk=fresh["id"])
    assert stored.seed == fresh["seed"] and stored.registration_ids == fresh["registrations"]
    assert len(judge.get(selections_url(event)).json()) == 3


def test_chosen_decks(event_with_decks, users):
    event, regs = event_with_decks
    judge = client_for(users["judge"])
    chosen = [regs["alice"].pk, regs["bob"].pk]
    data = judge.post(selections_url(event), {"method": "chosen", "registrations": chosen}, format="json").json()
    assert data["registrations"] == sorted(chosen) and data["seed"] is None
    Deck.objects.filter(registration=regs["carol"]).delete()
    bad = judge.post(selections_url(event), {"method": "chosen", "registrations": [regs["carol"].pk]}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "no_deck"


@pytest.mark.parametrize("who", ["alice", "outsider"])
def test_players_cannot_check_decks(event_with_decks, users, who):
    event, regs = event_with_decks
    deck = Deck.objects.get(registration=regs["bob"])
    assert client_for(users[who]).post(selections_url(event), {"method": "random"}, format="json").status_code == 403
    response = client_for(users[who]).post(f"/api/decks/{deck.pk}/checks/", {"matches": True}, format="json")
    assert response.status_code == 403
    assert not DeckCheck.objects.exists()


def test_a_deck_that_matches(event_with_decks, users):
    event, regs = event_with_decks
    deck = Deck.objects.get(registration=regs["bob"])
    response = client_for(users["judge"]).post(f"/api/decks/{deck.pk}/checks/", {"matches": True}, format="json")
    assert response.status_code == 201
    data = response.json()
    assert data["matches"] is True and data["findings"] == [] and data["penalty_links"] == []
    assert data["deck_version"] == deck.version


def test_findings_open_prefilled_penalties(event_with_decks, users):
    event, regs = event_with_decks
    deck = Deck.objects.get(registration=regs["bob"])
    selection = services.select_for_deck_check(
        event_id=event.pk, actor=users["judge"], method="chosen", registration_ids=[regs["bob"].pk]
    )
    body = {
        "selection": selection.pk,
        "notes": "Checked between rounds 2 and 3",
        "findings": [
            {
                "kind": "checklist_unmarked",
                "description": "One Innistrad Checklist had no name marked",
                "cards": ["Innistrad Checklist"],
            },
            {"kind": "checklist_mark_visible"},
            {"kind": "deck_differs", "description": "59 cards found", "cards": ["Island"]},
            {"kind": "decklist_illegal", "infraction": ""},  # the judge decides it is no infraction
        ],
    }
    response = client_for(users["judge"]).post(f"/api/decks/{deck.pk}/checks/", body, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["matches"] is False and data["selection"] == selection.pk
    assert [f["infraction"] for f in data["findings"]] == ["deck_problem", "marked_cards", "deck_problem", ""]
    links = data["penalty_links"]
    assert [link["infraction"] for link in links] == ["deck_problem", "marked_cards", "deck_problem"]
    url = urlparse(links[0]["url"])
    assert url.path == "/penalties/new/"
    query = {k: v[0] for k, v in parse_qs(url.query).items()}
    assert query == {
        "event": str(event.pk),
        "registration": str(regs["bob"].pk),
        "infraction": "deck_problem",
        "description": query["description"],
        "source": f"deck_check:{data['id']}",
    }
    assert "no name marked" in query["description"] and "Innistrad Checklist" in query["description"]
    check = DeckCheck.objects.get()
    with pytest.raises(ValueError):
        check.save()  # append-only
    assert [c["id"] for c in client_for(users["judge"]).get(f"/api/events/{event.pk}/deck-checks/").json()] == [
        check.pk
    ]


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"matches": True, "findings": [{"kind": "deck_differs"}]},
        {"matches": False},
        {"findings": [{"kind": "stolen_sleeves"}]},
        {"findings": [{"kind": "deck_differs", "infraction": "cheating"}]},
        {"findings": [{"kind": "other"}]},
        {"findings": "deck_differs"},
        {"matches": True, "selection": 999999},
    ],
    ids=[
        "empty",
        "matches with findings",
        "differs without findings",
        "unknown kind",
        "unknown infraction",
        "other without description",
        "findings not a list",
        "unknown selection",
    ],
)
def test_bad_deck_checks_are_400(event_with_decks, users, body):
    event, regs = event_with_decks
    deck = Deck.objects.get(registration=regs["bob"])
    response = client_for(users["judge"]).post(f"/api/decks/{deck.pk}/checks/", body, format="json")
    assert response.status_code == 400, response.content
    assert not DeckCheck.objects.exists()


def test_deck_check_pages(event_with_decks, users):
    event, regs = event_with_decks
    client = Client()
    client.force_login(users["judge"])
    response = client.post(f"/decks/events/{event.pk}/deck-checks/", {"method": "random", "percent": "10", "seed": "7"})
    assert response.status_code == 302
    selection = DeckCheckSelection.objects.get()
    assert selection.seed == 7 and len(selection.registration_ids) == 2
    page = client.get(f"/decks/events/{event.pk}/deck-checks/").content.decode()
    deck = Deck.objects.get(registration_id=selection.registration_ids[0])
    assert f"/decks/{deck.pk}/check/?selection={selection.pk}" in page
    form = client.get(f"/decks/{deck.pk}/check/?selection={selection.pk}")
    assert form.status_code == 200 and "What the deck box should hold (R13)" in form.content.decode()
    response = client.post(
        f"/decks/{deck.pk}/check/",
        {
            "selection": str(selection.pk),
            "finding-checklist_multiple_marks": "1",
            "description-checklist_multiple_marks": "Two names ticked",
            "cards-checklist_multiple_marks": "Innistrad Checklist",
        },
    )
    assert response.status_code == 302
    check = DeckCheck.objects.get()
    assert check.selection_id == selection.pk and check.findings[0]["kind"] == "checklist_multiple_marks"
    detail = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "/penalties/new/?event=" in detail and f"source=deck_check%3A{check.pk}" in detail
    # Neither matches nor findings: the form says so and nothing is stored.
    response = client.post(f"/decks/{deck.pk}/check/", {})
    assert response.status_code == 400 and DeckCheck.objects.count() == 1
    # Players get no deck check pages.
    player = Client()
    player.force_login(users["alice"])
    assert player.get(f"/decks/events/{event.pk}/deck-checks/").status_code == 403
    assert player.get(f"/decks/{deck.pk}/check/").status_code == 403


def test_the_penalty_link_opens_the_prefilled_penalties_form(event_with_decks, users):
    """The contract with the penalties app: the link lands on its form, prefilled."""
    event, regs = event_with_decks
    deck = Deck.objects.get(registration=regs["bob"])
    check = services.record_deck_check(
        deck_id=deck.pk,
        actor=users["judge"],
        found=[{"kind": "checklist_multiple_marks", "description": "Delver and Gatstaf both ticked"}],
    )
    from decks.selectors import check_penalty_links

    (link,) = check_penalty_links(check)
    client = Client()
    client.force_login(users["judge"])
    response = client.get(link["url"])
    assert response.status_code == 200
    html = response.content.decode()
    assert "Delver and Gatstaf both ticked" in html and f"deck_check:{check.pk}" in html


def test_an_opaque_sleeved_deck_is_not_said_to_hold_checklist_cards(event_with_decks, users):
    event, regs = event_with_decks
    deck, _ = services.register_deck(
        event_id=event.pk,
        actor=users["alice"],
        opaque_sleeves=True,
        main=[{"name": "Delver of Secrets", "count": 4}, {"name": "Island", "count": 56}],
    )
    judge = Client()
    judge.force_login(users["judge"])
    for url in (f"/decks/{deck.pk}/", f"/decks/{deck.pk}/check/"):
        html = judge.get(url).content.decode()
        assert "checklist cards are in the deck" not in html and "Checklist cards in the deck" not in html
        assert "opaque" in html
    with_checklists, _ = services.register_deck(
        event_id=event.pk,
        actor=users["bob"],
        main=[{"name": "Delver of Secrets", "count": 1}, {"name": "Island", "count": 59}],
        checklist_cards=[{"checklist": "Innistrad Checklist", "marked": ["Delver of Secrets"]}],
    )
    assert "their checklist cards are in the deck" in judge.get(f"/decks/{with_checklists.pk}/").content.decode()
