"""Drops and late players in sealed events: at the paper pool registration, at the swap, after
it (a pool without a builder goes back to the organiser) and once matches have started."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from decks import services as deck_services
from decks.models import SealedPool
from draftsite.errors import DomainError
from events.models import EventLogEntry
from matches import services as match_services
from matches.models import Match
from sealed import error_codes, selectors, services
from sealed.models import PaperPool, PoolStatus
from tests.sealed.conftest import NOW, make_event
from tests.sealed.test_services import paper_pool, snapshot

pytestmark = pytest.mark.django_db


def with_matches(event, organiser):
    match_services.configure_matches(event_id=event.pk, actor=organiser, mode="event", seed=1, now=NOW)


def drop(event, registration, actor):
    return match_services.drop_player(event_id=event.pk, registration_id=registration.pk, actor=actor, now=NOW)


def test_a_dropped_players_pool_goes_to_a_late_player_and_the_dropped_player_gets_none(organiser, players):
    event, regs = make_event(organiser, players[:6], paper=True)
    with_matches(event, organiser)
    for player in players[:4]:
        services.register_paper_pool(event_id=event.pk, actor=player, cards=paper_pool(), now=NOW)
    drop(event, regs[0], players[0])  # registered a pool, then left
    drop(event, regs[5], organiser)  # came late and left: no pool for them either
    swap = services.swap_pools(event_id=event.pk, actor=organiser, seed=11, now=NOW)
    pools = {p.registered_by_id: p for p in PaperPool.objects.filter(event=event)}
    assert pools[regs[0].pk].builder == regs[4]  # the late player who stayed builds from it
    builders = [p.builder_id for p in pools.values()]
    assert sorted(builders) == sorted(r.pk for r in regs[1:5])  # everyone staying, nobody dropped
    assert all(p.builder_id != p.registered_by_id for p in pools.values())
    assert {a["to"] for a in swap.assignments} == {r.pk for r in regs[1:5]}
    assert not SealedPool.objects.filter(registration__in=[regs[0], regs[5]]).exists()


def test_without_a_late_player_the_dropped_players_pool_waits_with_the_organiser(client, organiser, players):
    event, regs = make_event(organiser, players[:4], paper=True)
    with_matches(event, organiser)
    for player in players[:4]:
        services.register_paper_pool(event_id=event.pk, actor=player, cards=paper_pool(), now=NOW)
    drop(event, regs[0], players[0])
    services.swap_pools(event_id=event.pk, actor=organiser, seed=2, now=NOW)
    waiting = PaperPool.objects.get(registered_by=regs[0])
    assert waiting.builder is None and waiting.status == PoolStatus.UNASSIGNED
    assert selectors.unassigned_pools(event) == [waiting]
    assert PaperPool.objects.filter(builder__isnull=False).count() == 3
    before = snapshot(event)
    with pytest.raises(DomainError) as exc:  # nobody hands a pool to a player who dropped
        services.assign_pool(pool_id=waiting.pk, actor=organiser, registration_id=regs[0].pk, now=NOW)
    assert (exc.value.code, exc.value.status_code) == (error_codes.OWN_POOL, 400)
    other = PaperPool.objects.get(registered_by=regs[1])
    services.assign_pool(pool_id=other.pk, actor=organiser, registration_id=None, now=NOW)
    with pytest.raises(DomainError) as exc:
        services.assign_pool(pool_id=other.pk, actor=organiser, registration_id=regs[0].pk, now=NOW)
    assert (exc.value.code, exc.value.status_code) == (error_codes.PLAYER_DROPPED, 409)
    assert PaperPool.objects.get(pk=other.pk).builder is None and before[0] == snapshot(event)[0]
    # The organiser's page marks the drop and never offers the pool to the player who dropped.
    client.force_login(organiser)
    page = client.get(reverse("sealed:event", args=[event.pk])).content.decode()
    assert "Player dropped" in page
    offered = [chunk.split("</select>")[0] for chunk in page.split('id="assign-')[1:]]
    assert offered and all(f'<option value="{regs[0].pk}">' not in select for select in offered)


def test_a_dropped_player_cannot_register_a_pool_and_two_staying_players_are_needed(organiser, players):
    event, regs = make_event(organiser, players[:3], paper=True)
    with_matches(event, organiser)
    services.register_paper_pool(event_id=event.pk, actor=players[0], cards=paper_pool(), now=NOW)
    services.register_paper_pool(event_id=event.pk, actor=players[1], cards=paper_pool(), now=NOW)
    drop(event, regs[2], players[2])
    with pytest.raises(DomainError) as exc:
        services.register_paper_pool(event_id=event.pk, actor=players[2], cards=paper_pool(), now=NOW)
    assert exc.value.code == error_codes.PLAYER_DROPPED
    drop(event, regs[1], players[1])
    with pytest.raises(DomainError) as exc:  # one pool of a player who stays: nobody to swap with
        services.swap_pools(event_id=event.pk, actor=organiser, now=NOW)
    assert exc.value.code == error_codes.SWAP_NEEDS_TWO
    assert not PaperPool.objects.filter(builder__isnull=False).exists()


def test_a_builder_who_drops_gives_the_pool_back_to_the_organiser(organiser, players):
    event, regs = make_event(organiser, players[:5], paper=True)
    with_matches(event, organiser)
    for player in players[:4]:
        services.register_paper_pool(event_id=event.pk, actor=player, cards=paper_pool(), now=NOW)
    services.swap_pools(event_id=event.pk, actor=organiser, seed=4, now=NOW)
    received = PaperPool.objects.get(builder=regs[0])
    drop(event, regs[0], players[0])
    received.refresh_from_db()
    assert received.builder is None and received.status == PoolStatus.UNASSIGNED
    assert not SealedPool.objects.filter(registration=regs[0]).exists()
    assert EventLogEntry.objects.filter(event=event, action=services.LOG_RELEASED).count() == 1
    # The organiser hands it to the late player, who builds and registers from it.
    services.assign_pool(pool_id=received.pk, actor=organiser, registration_id=regs[4].pk, now=NOW)
    deck, _ = deck_services.register_deck(event_id=event.pk, actor=players[4], main=received.cards, now=NOW)
    assert "not_in_pool" not in {e["code"] for e in deck.check_errors}
    # A builder who drops after registering a deck keeps the pool: it is their deck's.
    drop(event, regs[4], players[4])
    assert PaperPool.objects.get(pk=received.pk).builder == regs[4]
    assert EventLogEntry.objects.filter(event=event, action=services.LOG_RELEASED).count() == 1


def test_a_player_who_drops_after_matches_start_breaks_nothing(client, api_client, organiser, players):
    event, regs = make_event(organiser, players[:5])
    services.open_pools(event_id=event.pk, actor=organiser, now=NOW)
    for player, reg in zip(players[:5], regs, strict=True):
        pool = SealedPool.objects.get(registration=reg)
        deck_services.register_deck(event_id=event.pk, actor=player, main=pool.cards[:40], now=NOW)
    with_matches(event, organiser)
    first = match_services.pair_next_round(event_id=event.pk, actor=organiser, now=NOW)
    match_services.start_round(round_id=first.pk, actor=organiser, now=NOW)
    for match in Match.objects.filter(round=first).exclude(player_b__isnull=True):
        match_services.enter_result(match_id=match.pk, actor=organiser, a_wins=2, b_wins=0, now=NOW)
    match_services.finish_round(round_id=first.pk, actor=organiser, now=NOW + dt.timedelta(minutes=50))
    drop(event, regs[0], players[0])
    second = match_services.pair_next_round(event_id=event.pk, actor=organiser, now=NOW + dt.timedelta(hours=1))
    paired = {p for m in Match.objects.filter(round=second) for p in (m.player_a_id, m.player_b_id)}
    assert regs[0].pk not in paired and {r.pk for r in regs[1:]} <= paired
    # The pages and the API still serve the player who dropped, and the organiser.
    client.force_login(players[0])
    assert client.get(reverse("sealed:event", args=[event.pk])).status_code == 200
    api_client.force_authenticate(players[0])
    response = api_client.get(f"/api/sealed/events/{event.pk}/pool/")
    assert response.status_code == 200 and len(response.json()["packs"]) == 6
    client.force_login(organiser)
    page = client.get(reverse("sealed:event", args=[event.pk]))
    assert page.status_code == 200 and regs[0].name in page.content.decode()
    assert SealedPool.objects.filter(registration=regs[0]).exists()  # a generated pool stays the player's
