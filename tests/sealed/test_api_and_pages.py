"""The sealed API and pages: the site's error shape and codes (400/403, never a 500, nothing
changed), and a pool hidden from every other player until decklists are published."""

from __future__ import annotations

import pytest
from django.urls import reverse

from decks.models import Deck
from sealed import error_codes, services
from sealed.models import PaperPool, SealedEvent
from tests.sealed.conftest import NOW, leaks, make_event
from tests.sealed.test_services import by_group, paper_pool, snapshot

pytestmark = pytest.mark.django_db


def codes(response):
    return [e["code"] for e in response.json()["errors"]]


def test_an_organiser_creates_a_sealed_event_through_the_api(api_client, organiser, players):
    api_client.force_authenticate(organiser)
    body = {"name": "DSK sealed", "date": "2026-12-06", "boosters": [{"set_code": "dsk"}], "booster_count": 6}
    response = api_client.post("/api/sealed/events/", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["boosters"] == [{"set_code": "DSK", "kind": "play"}] * 6
    assert SealedEvent.objects.get(event_id=response.json()["id"]).seed == response.json()["seed"]
    response = api_client.post("/api/sealed/events/", {**body, "boosters": [{"set_code": "NOPE"}]}, format="json")
    assert response.status_code == 400 and codes(response) == [error_codes.UNKNOWN_SET]
    api_client.force_authenticate(players[0])
    response = api_client.post("/api/sealed/events/", body, format="json")
    assert response.status_code == 403 and codes(response) == ["not_event_staff"]


def test_a_pool_is_hidden_from_other_players_through_the_api_and_the_pages(client, api_client, organiser, players):
    event, regs = make_event(organiser, players[:2])
    api_client.force_authenticate(players[0])
    assert api_client.post(f"/api/sealed/events/{event.pk}/open/").status_code == 403
    api_client.force_authenticate(organiser)
    assert api_client.post(f"/api/sealed/events/{event.pk}/open/").json() == {"opened": 2}
    rows = api_client.get(f"/api/sealed/events/{event.pk}/").json()["players"]
    assert {r["pool_size"] for r in rows} == {84}
    theirs = api_client.get(f"/api/sealed/events/{event.pk}/pool/?registration={regs[1].pk}").json()
    their_names = {c["name"] for p in theirs["packs"] for c in p["cards"]}

    api_client.force_authenticate(players[0])
    mine = api_client.get(f"/api/sealed/events/{event.pk}/pool/")
    assert mine.status_code == 200 and len(mine.json()["packs"]) == 6
    refused = api_client.get(f"/api/sealed/events/{event.pk}/pool/?registration={regs[1].pk}")
    assert refused.status_code == 403 and codes(refused) == [error_codes.POOL_HIDDEN]
    assert "players" not in api_client.get(f"/api/sealed/events/{event.pk}/").json()
    # the decks app's pool read of another registration is staff only too
    assert api_client.get(f"/api/registrations/{regs[1].pk}/sealed-pool/").status_code == 403

    client.force_login(players[0])
    page = client.get(reverse("sealed:event", args=[event.pk])).content.decode()
    my_names = {c["name"] for p in mine.json()["packs"] for c in p["cards"]}
    only_theirs = their_names - my_names
    assert only_theirs and not leaks({"page": page}, only_theirs, my_names)
    assert any(name in page for name in my_names)

    event.decklists_published = True
    event.save()
    assert api_client.get(f"/api/sealed/events/{event.pk}/pool/?registration={regs[1].pk}").status_code == 200


def test_paper_pool_refusals_have_a_code_and_change_nothing(api_client, organiser, players):
    event, regs = make_event(organiser, players[:2], paper=True)
    api_client.force_authenticate(players[0])
    url = f"/api/sealed/events/{event.pk}/paper-pool/"
    ok = api_client.put(url, {"cards": paper_pool()}, format="json")
    assert ok.status_code == 200 and ok.json()["size"] == 70
    before = snapshot(event)
    isd = by_group(("ISD",))["common"][0]
    for body, status, code in [
        ({"cards": [*paper_pool(), {"card_id": isd["card_id"], "count": 1}]}, 400, error_codes.CARD_NOT_IN_SET),
        ({"cards": paper_pool(rares=19)}, 400, error_codes.POOL_TOO_BIG),
        ({"cards": paper_pool(commons=61, uncommons=19)}, 400, error_codes.POOL_TOO_BIG),
        ({"cards": paper_pool(), "registration": regs[1].pk}, 403, "not_event_staff"),
        ({"text": "1 Nothing Like This Card"}, 400, error_codes.UNKNOWN_CARD),
        ({}, 400, error_codes.EMPTY_POOL),
    ]:
        response = api_client.put(url, body, format="json")
        assert (response.status_code, codes(response)) == (status, [code]), body
    assert snapshot(event) == before
    # a swap with one pool: 400 with a code; a player may not swap
    assert codes(api_client.post(f"/api/sealed/events/{event.pk}/swap/", {}, format="json")) == ["not_event_staff"]
    api_client.force_authenticate(organiser)
    response = api_client.post(f"/api/sealed/events/{event.pk}/swap/", {}, format="json")
    assert response.status_code == 400 and codes(response) == [error_codes.SWAP_NEEDS_TWO]
    assert snapshot(event) == before


def test_registering_a_deck_from_a_pool_that_is_not_yours_is_a_403(api_client, organiser, players):
    event, regs = make_event(organiser, players[:2], paper=True)
    for player in players[:2]:
        services.register_paper_pool(event_id=event.pk, actor=player, cards=paper_pool(), now=NOW)
    services.swap_pools(event_id=event.pk, actor=organiser, seed=2, now=NOW)
    theirs = PaperPool.objects.get(builder=regs[1])
    api_client.force_authenticate(players[0])
    main = [{"card_id": r["card_id"], "count": 1} for r in theirs.cards[:23]]
    response = api_client.put(f"/api/events/{event.pk}/deck/?registration={regs[1].pk}", {"main": main}, format="json")
    assert response.status_code == 403, response.content
    assert not Deck.objects.filter(event=event).exists()
    response = api_client.post(f"/api/sealed/pools/{theirs.pk}/assign/", {"registration": None}, format="json")
    assert response.status_code == 403 and codes(response) == ["not_event_staff"]


def test_the_pages_run_a_paper_sealed_event(client, organiser, players):
    event, regs = make_event(organiser, players[:2], paper=True)
    client.force_login(players[0])
    page = client.get(reverse("sealed:register-pool", args=[event.pk]))
    assert page.status_code == 200 and b'id="set-cards"' in page.content
    rares = by_group()["rare_mythic"][:19]
    text = "\n".join(f"1 {c['name']}" for c in rares)
    refused = client.post(reverse("sealed:register-pool", args=[event.pk]), {"pool": text})
    assert refused.status_code == 400 and "19 rares and mythics" in refused.content.decode()
    assert not PaperPool.objects.exists()
    text = "\n".join(f"1 {c['name']}" for c in rares[:5])
    assert client.post(reverse("sealed:register-pool", args=[event.pk]), {"pool": text}).status_code == 302
    client.force_login(players[1])
    client.post(reverse("sealed:register-pool", args=[event.pk]), {"pool": "1 " + rares[18]["name"]})
    client.force_login(organiser)
    client.post(reverse("sealed:swap", args=[event.pk]))
    assert PaperPool.objects.get(registered_by=regs[0]).builder == regs[1]
    client.force_login(players[1])
    page = client.get(reverse("sealed:event", args=[event.pk])).content.decode()
    assert 'id="confirm-pool"' in page and rares[0]["name"] in page
    client.post(reverse("sealed:answer", args=[event.pk]), {"confirm": "on"})
    assert PaperPool.objects.get(registered_by=regs[0]).status == "confirmed"


def test_the_pages_refuse_in_the_players_language(client, organiser, players):
    event, regs = make_event(organiser, players[:2], paper=True)
    client.force_login(players[0])
    client.cookies["django_language"] = "pt-br"
    refused = client.post(reverse("sealed:register-pool", args=[event.pk]), {"pool": "1 Nothing Like This Card"})
    assert refused.status_code == 400 and "Fora do catálogo" in refused.content.decode()
