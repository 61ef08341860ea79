"""Sealed events in the event backup (sealed/backup.py, format version 3): the settings, the
opened boosters with each card's pack slot, the pools registered at the table and the swap
survive export -> delete -> import; a version-2 file (no sealed sections) still imports."""

from __future__ import annotations

import json

import pytest

from decks.models import SealedPool
from draftsite.backup import BackupError, export_event, import_event
from events.models import Event
from judgecalls.models import JudgeCall
from sealed import services
from sealed.models import PaperPool, PoolStatus, PoolSwap, SealedEvent, SealedPack
from tests.sealed.conftest import NOW, make_event
from tests.sealed.test_services import paper_pool

pytestmark = pytest.mark.django_db

SEALED_SECTIONS = ("sealed_events", "sealed_packs", "paper_pools", "pool_swaps")


def state(event: Event) -> dict:
    """Everything sealed about the event, by player name (nothing here is an id of the event's rows)."""
    name = {r.pk: r.name for r in event.registrations.all()}
    sealed = SealedEvent.objects.get(event=event)
    swap = PoolSwap.objects.filter(event=event).first()
    pools = {p.pk: p for p in PaperPool.objects.filter(event=event)}
    return {
        "sealed": (sealed.boosters, sealed.paper, sealed.seed, sealed.opened_at, sealed.opened_by_id),
        "packs": sorted(
            (name[p.registration_id], p.number, p.set_code, p.kind, json.dumps(p.cards), json.dumps(p.removed))
            for p in SealedPack.objects.filter(event=event)
        ),
        "paper": sorted(
            (name[p.registered_by_id], name.get(p.builder_id), p.status, json.dumps(p.cards), p.updated_at)
            for p in pools.values()
        ),
        "swap": swap
        and (
            swap.seed,
            swap.at,
            swap.actor_id,
            sorted((name[pools[a["pool"]].registered_by_id], name[a["from"]], name[a["to"]]) for a in swap.assignments),
        ),
        "builds_from": sorted(
            (name[p.registration_id], json.dumps(p.cards)) for p in SealedPool.objects.filter(registration__event=event)
        ),
    }


def restored(event: Event, document: dict | None = None) -> Event:
    """Export, delete the event, import the file into the database that no longer has it."""
    document = json.loads(json.dumps(document or export_event(event.pk)))
    JudgeCall.objects.filter(event=event).delete()
    Event.objects.filter(pk=event.pk).delete()
    assert not SealedPack.objects.exists() and not PaperPool.objects.exists()
    copy = import_event(document).event
    assert isinstance(copy, Event)
    return copy


def test_a_generated_sealed_event_round_trips_with_its_packs_and_slots(organiser, players):
    event, _ = make_event(organiser, players[:3], boosters=["DSK"] * 3 + ["ISD"] * 3, count=None)
    services.open_pools(event_id=event.pk, actor=organiser, now=NOW)
    before = state(event)
    document = export_event(event.pk)
    assert len(document["sealed_packs"]) == 18 and document["sealed_events"][0]["seed"] == 1234
    card = document["sealed_packs"][0]["cards"][0]
    # No ids of this database: the card by name, the printing by Scryfall id or set and number.
    assert set(card["card_id"]) == {"card"} and set(card["printing_id"]["printing"]) == {"scryfall_id", "set", "number"}
    assert card["slot"] and {c["slot"] for p in document["sealed_packs"] for c in p["cards"]} > {card["slot"]}
    copy = restored(event, document)
    assert state(copy) == before
    # The copy goes on as the original would: a late player gets the same pool from the seed.
    assert SealedEvent.objects.get(event=copy).opened_at == NOW


def test_a_paper_sealed_event_round_trips_with_the_swap_and_the_answers(organiser, players):
    event, regs = make_event(organiser, players[:5], paper=True)
    for player in players[:4]:  # the fifth came late
        services.register_paper_pool(event_id=event.pk, actor=player, cards=paper_pool(), now=NOW)
    services.swap_pools(event_id=event.pk, actor=organiser, seed=7, now=NOW)
    services.answer_pool(event_id=event.pk, actor=players[0], confirm=True, now=NOW)
    services.answer_pool(event_id=event.pk, actor=players[1], confirm=False, reason="a rare short", now=NOW)
    dropped = PaperPool.objects.get(builder=regs[2])
    services.assign_pool(pool_id=dropped.pk, actor=organiser, registration_id=None, now=NOW)
    before = state(event)
    statuses = sorted(row[2] for row in before["paper"])
    assert statuses == sorted([PoolStatus.CONFIRMED, PoolStatus.DISPUTED, PoolStatus.UNASSIGNED, PoolStatus.ASSIGNED])
    copy = restored(event)
    assert state(copy) == before
    # The restored rows keep their rules: the swap is done, so registering again is refused.
    with pytest.raises(Exception) as exc:
        services.register_paper_pool(event_id=copy.pk, actor=players[4], cards=paper_pool(), now=NOW)
    assert getattr(exc.value, "code", None) == "swap_done"


def test_a_version_2_file_without_sealed_sections_still_imports(organiser, players):
    event, _ = make_event(organiser, players[:2])
    services.open_pools(event_id=event.pk, actor=organiser, now=NOW)
    document = export_event(event.pk)
    for name in SEALED_SECTIONS:
        del document[name]
    document["format_version"] = 2
    pools = state(event)["builds_from"]
    copy = import_event(json.loads(json.dumps(document)), rename="Prerelease (v2)").event
    assert not SealedEvent.objects.filter(event=copy).exists() and not SealedPack.objects.filter(event=copy).exists()
    assert (
        sorted((p.registration.name, json.dumps(p.cards)) for p in SealedPool.objects.filter(registration__event=copy))
        == pools
    )
    # A version-3 file must carry them: one without is incomplete.
    document["format_version"] = 3
    with pytest.raises(BackupError, match="missing sealed_events"):
        import_event(json.loads(json.dumps(document)), rename="Prerelease (v3, cut)")


def test_a_swap_naming_a_pool_the_file_lacks_is_refused_and_stores_nothing(organiser, players):
    event, _ = make_event(organiser, players[:2], paper=True)
    for player in players[:2]:
        services.register_paper_pool(event_id=event.pk, actor=player, cards=paper_pool(), now=NOW)
    services.swap_pools(event_id=event.pk, actor=organiser, seed=1, now=NOW)
    document = export_event(event.pk)
    document["pool_swaps"][0]["assignments"][0]["pool"] = 99
    events = Event.objects.count()
    with pytest.raises(BackupError, match="paper_pools key 99"):
        import_event(document, rename="Prerelease (bad)")
    assert Event.objects.count() == events
