"""Sealed events and paper sealed (MTR 7.5) through the services: opening, hidden pools,
registering a pool a set's boosters can hold, the swap, disputes, handing pools out."""

from __future__ import annotations

import random

import pytest

from decks import services as deck_services
from decks.models import Deck, SealedPool
from draftsite.errors import DomainError
from events.access import SYSTEM
from events.models import DraftFormat, EventLogEntry
from judgecalls.models import JudgeCall
from sealed import core, error_codes, selectors, services
from sealed.models import PaperPool, PoolStatus, PoolSwap, SealedPack
from tests.factories import UserFactory
from tests.sealed.conftest import NOW, make_event

pytestmark = pytest.mark.django_db


def by_group(set_codes=("DSK",)):
    cards: dict[str, list[dict]] = {}
    for row in selectors.set_catalogue(list(set_codes)):
        cards.setdefault(row["group"], []).append(row)
    return cards


def paper_pool(commons=50, uncommons=15, rares=5):
    cards = by_group()
    return (
        [{"card_id": c["card_id"], "count": 1} for c in cards["common"][:commons]]
        + [{"card_id": c["card_id"], "count": 1} for c in cards["uncommon"][:uncommons]]
        + [{"card_id": c["card_id"], "count": 1} for c in cards[core.RARE_OR_MYTHIC][:rares]]
    )


def snapshot(event):
    return (
        sorted(SealedPack.objects.filter(event=event).values_list("registration_id", "number", "cards")),
        sorted(
            PaperPool.objects.filter(event=event).values_list("pk", "registered_by_id", "builder_id", "status", "cards")
        ),
        sorted(SealedPool.objects.filter(registration__event=event).values_list("registration_id", "cards")),
    )


def test_a_sealed_event_opens_six_boosters_per_player_once(organiser, players):
    event, regs = make_event(organiser, players[:3])
    assert event.draft_format == DraftFormat.SEALED and len(event.sealed.boosters) == 6
    assert services.open_pools(event_id=event.pk, actor=organiser, now=NOW) == 3
    for reg in regs:
        packs = selectors.packs_of(reg)
        assert [p["number"] for p in packs] == [1, 2, 3, 4, 5, 6]
        assert all(len(p["cards"]) == 14 for p in packs)  # DSK's plain collation: 1 + 3 + 10
        pool = SealedPool.objects.get(registration=reg)
        assert pool.size == 84
    before = snapshot(event)
    assert services.open_pools(event_id=event.pk, actor=organiser, now=NOW) == 0  # pressed again
    assert snapshot(event) == before
    assert EventLogEntry.objects.filter(event=event, action=services.LOG_OPENED).count() == 1


def test_the_opening_is_reproducible_from_the_stored_seed(organiser, players):
    event, regs = make_event(organiser, players[:2])
    services.open_pools(event_id=event.pk, actor=organiser, now=NOW)
    first = snapshot(event)[0]
    SealedPack.objects.filter(event=event).delete()
    SealedPool.objects.filter(registration__event=event).delete()
    services.open_pools(event_id=event.pk, actor=organiser, now=NOW)
    assert snapshot(event)[0] == first
    assert first[0][2] != first[1][2]  # two boosters are not the same booster


def test_a_late_player_gets_a_pool_when_the_organiser_opens_again(organiser, players):
    event, regs = make_event(organiser, players[:2])
    services.open_pools(event_id=event.pk, actor=organiser, now=NOW)
    before = list(SealedPack.objects.filter(event=event).order_by("pk").values_list("pk", "cards"))
    from events.services import register_player

    late = register_player(event_id=event.pk, actor=SYSTEM, user=players[5], name="late")
    assert services.open_pools(event_id=event.pk, actor=organiser, now=NOW) == 1
    assert SealedPack.objects.filter(registration=late).count() == 6
    assert (
        list(
            SealedPack.objects.filter(event=event).exclude(registration=late).order_by("pk").values_list("pk", "cards")
        )
        == before
    )


def test_mixed_sets_open_like_a_prerelease_kit(organiser, players):
    event, regs = make_event(organiser, players[:1], boosters=["DSK"] * 4 + ["ISD"] * 2, count=None)
    services.open_pools(event_id=event.pk, actor=organiser, now=NOW)
    assert [p["set_code"] for p in selectors.packs_of(regs[0])] == ["DSK"] * 4 + ["ISD"] * 2


@pytest.mark.parametrize(
    ("boosters", "count", "code"),
    [
        (["XXX"], 6, error_codes.UNKNOWN_SET),
        (["DSK"] * 13, None, error_codes.INVALID_BOOSTERS),
        ([], 6, error_codes.INVALID_BOOSTERS),
        ([{"set_code": "DSK", "kind": "nope"}], 6, error_codes.UNKNOWN_BOOSTER_KIND),
    ],
)
def test_bad_boosters_are_refused(organiser, boosters, count, code):
    with pytest.raises(DomainError) as exc:
        services.create_sealed_event(actor=organiser, name="x", date=NOW.date(), boosters=boosters, booster_count=count)
    assert exc.value.code == code and exc.value.status_code == 400


def test_only_an_organiser_opens_pools(organiser, players):
    event, regs = make_event(organiser, players[:2])
    with pytest.raises(DomainError) as exc:
        services.open_pools(event_id=event.pk, actor=players[0], now=NOW)
    assert exc.value.status_code == 403
    assert not SealedPack.objects.filter(event=event).exists()


def test_a_pool_is_hidden_from_other_players_until_decklists_are_published(organiser, players):
    event, regs = make_event(organiser, players[:2])
    services.open_pools(event_id=event.pk, actor=organiser, now=NOW)
    assert selectors.access_player(players[0], event, None) == regs[0]
    with pytest.raises(DomainError) as exc:
        selectors.access_player(players[0], event, regs[1].pk)
    assert (exc.value.code, exc.value.status_code) == (error_codes.POOL_HIDDEN, 403)
    assert selectors.access_player(organiser, event, regs[1].pk) == regs[1]
    event.decklists_published = True
    event.save()
    assert selectors.access_player(players[0], event, regs[1].pk) == regs[1]


def test_a_generated_pool_feeds_the_deck_builder_and_flags_a_card_outside_it(organiser, players):
    event, regs = make_event(organiser, players[:1])
    services.open_pools(event_id=event.pk, actor=organiser, now=NOW)
    pool = SealedPool.objects.get(registration=regs[0]).cards
    main = [{"card_id": row["card_id"], "count": row["count"]} for row in pool][:23]
    deck, report = deck_services.register_deck(event_id=event.pk, actor=players[0], main=main, now=NOW)
    assert "not_in_pool" not in {e["code"] for e in report.errors}
    outside = next(r for r in selectors.set_catalogue(["ISD"]))
    deck, report = deck_services.register_deck(
        event_id=event.pk, actor=players[0], main=[*main, {"card_id": outside["card_id"], "count": 1}], now=NOW
    )
    assert not deck.valid and "not_in_pool" in {e["code"] for e in deck.check_errors}


# --- paper sealed: MTR 7.5 ----------------------------------------------------------------------


def test_a_player_registers_the_pool_in_front_of_them(organiser, players):
    event, regs = make_event(organiser, players[:2], paper=True)
    pool = services.register_paper_pool(event_id=event.pk, actor=players[0], cards=paper_pool(), now=NOW)
    assert pool.registered_by == regs[0] and pool.size == 70 and pool.status == PoolStatus.REGISTERED


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        (lambda: paper_pool(rares=19), error_codes.POOL_TOO_BIG),  # six Play Boosters hold 18 rares or mythics
        (lambda: paper_pool(commons=61, uncommons=19), error_codes.POOL_TOO_BIG),  # 84 cards at most
        (
            lambda: paper_pool() + [{"card_id": selectors.set_catalogue(["ISD"])[0]["card_id"], "count": 1}],
            error_codes.CARD_NOT_IN_SET,
        ),
        (lambda: [{"name": "No Such Card Anywhere", "count": 1}], error_codes.UNKNOWN_CARD),
        (lambda: [], error_codes.EMPTY_POOL),
        (lambda: [{"card_id": by_group()["common"][0]["card_id"], "count": 0}], error_codes.INVALID_COUNT),
    ],
)
def test_an_impossible_pool_is_refused_with_the_reason_and_nothing_changes(organiser, players, cards, code):
    event, regs = make_event(organiser, players[:2], paper=True)
    services.register_paper_pool(event_id=event.pk, actor=players[0], cards=paper_pool(), now=NOW)
    before = snapshot(event)
    with pytest.raises(DomainError) as exc:
        services.register_paper_pool(event_id=event.pk, actor=players[0], cards=cards(), now=NOW)
    assert (exc.value.code, exc.value.status_code) == (code, 400)
    assert snapshot(event) == before


def test_too_many_rares_says_how_many_the_boosters_hold(organiser, players):
    # A DSK Play Booster holds at most 3 rares or mythics: the rare slot, the wildcard and the
    # traditional foil (the published slots, drafts/collations/dsk-play.yaml); 14 cards played.
    event, regs = make_event(organiser, players[:1], paper=True)
    assert services.pool_limits(event.sealed) == {"cards": 84, "rare_mythic": 18, "uncommon": 30, "common": 60}
    with pytest.raises(DomainError) as exc:
        services.register_paper_pool(event_id=event.pk, actor=players[0], cards=paper_pool(rares=19), now=NOW)
    assert exc.value.extra["problems"] == [
        {"code": "too_many_of_rarity", "group": "rare_mythic", "found": 19, "allowed": 18}
    ]
    assert "18" in exc.value.message and "19" in exc.value.message
    # the plain rarity collation (a set with no booster data): one rare or mythic a booster
    plain, _ = make_event(organiser, [], paper=True, boosters=["CHK"], count=2, seed=1)
    assert services.pool_limits(plain.sealed)["rare_mythic"] == 2


def test_the_swap_never_hands_a_player_their_own_pool(organiser, players):
    for seed in range(30):
        mapping = core.derangement(list(range(8)), random.Random(seed))
        assert sorted(mapping.values()) == list(range(8)) and all(k != v for k, v in mapping.items())
    event, regs = make_event(organiser, players, paper=True)
    for player in players:
        services.register_paper_pool(event_id=event.pk, actor=player, cards=paper_pool(), now=NOW)
    swap = services.swap_pools(event_id=event.pk, actor=organiser, seed=99, now=NOW)
    pools = PaperPool.objects.filter(event=event)
    assert all(p.builder_id not in (None, p.registered_by_id) for p in pools)
    assert sorted(p.builder_id for p in pools) == sorted(r.pk for r in regs)
    # deterministic from the stored seed, and logged
    expected = core.derangement([p.registered_by_id for p in pools.order_by("pk")], random.Random(99))
    assert {a["from"]: a["to"] for a in swap.assignments} == expected
    assert EventLogEntry.objects.get(event=event, action=services.LOG_SWAP).details["seed"] == 99
    # each builder's deck pool is the pool they received
    for pool in pools:
        assert SealedPool.objects.get(registration_id=pool.builder_id).cards == pool.cards


def test_a_swap_with_one_player_is_refused_and_a_second_swap_too(organiser, players):
    event, regs = make_event(organiser, players[:3], paper=True)
    services.register_paper_pool(event_id=event.pk, actor=players[0], cards=paper_pool(), now=NOW)
    with pytest.raises(DomainError) as exc:
        services.swap_pools(event_id=event.pk, actor=organiser, now=NOW)
    assert (exc.value.code, exc.value.status_code) == (error_codes.SWAP_NEEDS_TWO, 400)
    assert not PoolSwap.objects.filter(event=event).exists()
    services.register_paper_pool(event_id=event.pk, actor=players[1], cards=paper_pool(), now=NOW)
    services.swap_pools(event_id=event.pk, actor=organiser, now=NOW)
    before = snapshot(event)
    with pytest.raises(DomainError) as exc:
        services.swap_pools(event_id=event.pk, actor=organiser, now=NOW)
    assert exc.value.code == error_codes.SWAP_DONE
    with pytest.raises(DomainError) as exc:
        services.register_paper_pool(event_id=event.pk, actor=players[2], cards=paper_pool(), now=NOW)
    assert exc.value.code == error_codes.SWAP_DONE
    assert snapshot(event) == before


def test_a_deck_with_a_card_outside_its_registered_pool_is_flagged(organiser, players):
    event, regs = make_event(organiser, players[:2], paper=True)
    services.register_paper_pool(event_id=event.pk, actor=players[0], cards=paper_pool(), now=NOW)
    services.register_paper_pool(event_id=event.pk, actor=players[1], cards=paper_pool(commons=40), now=NOW)
    services.swap_pools(event_id=event.pk, actor=organiser, seed=1, now=NOW)
    received = PaperPool.objects.get(builder=regs[0])  # player 0 builds from player 1's pool
    assert received.registered_by == regs[1]
    main = [dict(row) for row in received.cards[:22]]
    deck, _ = deck_services.register_deck(event_id=event.pk, actor=players[0], main=main, now=NOW)
    assert "not_in_pool" not in {e["code"] for e in deck.check_errors}
    extra = by_group()["common"][45]  # in player 0's own pool, not in the one received
    deck, _ = deck_services.register_deck(
        event_id=event.pk, actor=players[0], main=[*main, {"card_id": extra["card_id"], "count": 1}], now=NOW
    )
    assert not deck.valid
    flagged = next(e for e in deck.check_errors if e["code"] == "not_in_pool")
    assert extra["name"] in flagged["cards"]


def test_the_builder_confirms_or_disputes_and_a_dispute_calls_a_judge_with_both_pools(organiser, players):
    event, regs = make_event(organiser, players[:3], paper=True)
    for player in players[:3]:
        services.register_paper_pool(event_id=event.pk, actor=player, cards=paper_pool(), now=NOW)
    services.swap_pools(event_id=event.pk, actor=organiser, seed=5, now=NOW)
    assert (
        services.answer_pool(event_id=event.pk, actor=players[0], confirm=True, now=NOW).status == PoolStatus.CONFIRMED
    )
    with pytest.raises(DomainError) as exc:
        services.answer_pool(event_id=event.pk, actor=players[0], confirm=False, now=NOW)
    assert exc.value.code == error_codes.ALREADY_ANSWERED
    pool = services.answer_pool(event_id=event.pk, actor=players[1], confirm=False, reason="two rares missing", now=NOW)
    call = JudgeCall.objects.get(pk=pool.judge_call_id)
    assert pool.status == PoolStatus.DISPUTED and call.caller == regs[1] and call.reason == "two rares missing"
    assert [a["kind"] for a in call.attachments] == ["received", "own"]
    assert call.attachments[0]["pool"] == pool.pk and call.attachments[1]["registered_by"] == regs[1].name
    assert sum(line["count"] for line in call.attachments[0]["cards"]) == 70


def test_a_pool_without_a_builder_goes_back_to_the_organiser_who_assigns_it(organiser, players):
    event, regs = make_event(organiser, players[:4], paper=True)
    for player in players[:3]:
        services.register_paper_pool(event_id=event.pk, actor=player, cards=paper_pool(), now=NOW)
    services.swap_pools(event_id=event.pk, actor=organiser, seed=3, now=NOW)
    dropped = PaperPool.objects.get(builder=regs[0])
    services.assign_pool(pool_id=dropped.pk, actor=organiser, registration_id=None, now=NOW)  # player 0 drops
    assert [p.pk for p in selectors.unassigned_pools(event)] == [dropped.pk]
    assert not SealedPool.objects.filter(registration=regs[0]).exists()
    late = regs[3]  # registered no pool: came late
    pool = services.assign_pool(pool_id=dropped.pk, actor=organiser, registration_id=late.pk, now=NOW)
    assert pool.builder == late and SealedPool.objects.get(registration=late).cards == pool.cards
    own = PaperPool.objects.get(registered_by=regs[1])
    services.assign_pool(pool_id=own.pk, actor=organiser, registration_id=None, now=NOW)
    with pytest.raises(DomainError) as exc:
        services.assign_pool(pool_id=own.pk, actor=organiser, registration_id=regs[1].pk, now=NOW)
    assert exc.value.code == error_codes.OWN_POOL
    with pytest.raises(DomainError) as exc:
        services.assign_pool(pool_id=own.pk, actor=players[2], registration_id=regs[0].pk, now=NOW)
    assert exc.value.status_code == 403


def test_registering_a_deck_from_a_pool_that_is_not_yours_is_refused(organiser, players):
    event, regs = make_event(organiser, players[:2])
    services.open_pools(event_id=event.pk, actor=organiser, now=NOW)
    with pytest.raises(DomainError) as exc:
        deck_services.register_deck(event_id=event.pk, actor=players[0], main=[], registration_id=regs[1].pk, now=NOW)
    assert exc.value.status_code == 403
    assert not Deck.objects.filter(event=event).exists()
    stranger = UserFactory(username="stranger")
    with pytest.raises(DomainError) as exc:
        services.register_paper_pool(event_id=event.pk, actor=stranger, cards=paper_pool(), now=NOW)
    assert exc.value.status_code == 403
