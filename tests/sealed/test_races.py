"""Two organisers pressing "open pools" (or "swap") at once open (swap) once (threads, real
transactions: the event's sealed row is locked, packs are unique per player and number)."""

from __future__ import annotations

import pytest

from decks.models import SealedPool
from draftsite.errors import DomainError
from sealed import error_codes, services
from sealed.models import PaperPool, PoolSwap, SealedPack
from tests.drafts.services.test_races import race
from tests.factories import EventStaffFactory
from tests.sealed.conftest import NOW, make_event
from tests.sealed.test_services import paper_pool

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_two_organisers_opening_at_once_open_once(organiser, players):
    event, regs = make_event(organiser, players[:4])
    other = EventStaffFactory(event=event, role="organiser").user
    results = race(
        lambda: services.open_pools(event_id=event.pk, actor=organiser, now=NOW),
        lambda: services.open_pools(event_id=event.pk, actor=other, now=NOW),
    )
    assert sorted(results) == [0, 4]
    assert SealedPack.objects.filter(event=event).count() == 4 * 6
    assert SealedPool.objects.filter(registration__event=event).count() == 4


def test_two_swaps_at_once_swap_once(organiser, players):
    event, regs = make_event(organiser, players[:3], paper=True)
    for player in players[:3]:
        services.register_paper_pool(event_id=event.pk, actor=player, cards=paper_pool(), now=NOW)
    results = race(
        lambda: services.swap_pools(event_id=event.pk, actor=organiser, now=NOW),
        lambda: services.swap_pools(event_id=event.pk, actor=organiser, now=NOW),
    )
    refused = [r for r in results if isinstance(r, DomainError)]
    assert len(refused) == 1 and refused[0].code == error_codes.SWAP_DONE
    assert PoolSwap.objects.filter(event=event).count() == 1
    assert all(p.builder_id not in (None, p.registered_by_id) for p in PaperPool.objects.filter(event=event))
