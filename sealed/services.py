"""Writes of the sealed app. Each function takes keyword arguments, names who acts (``actor``)
and runs in one transaction; permissions go through ``events.access``.

- Sealed events: ``create_sealed_event``, then ``open_pools`` (the site opens every player's
  boosters from the event's stored seed, once: the event's sealed row is locked and each pack
  is unique per player and number; pressing again opens only for players added since).
- Paper sealed (MTR 7.5): ``register_paper_pool`` (the pool in front of the player, refused
  when the boosters could not hold it), ``swap_pools`` (a derangement from a stored seed,
  logged), ``answer_pool`` (the builder confirms or disputes: a dispute calls a judge with both
  pools), ``assign_pool`` (the organiser hands a pool without a builder to a player).
- Drops and late players (``matches.Drop``): the swap hands pools to players who have not
  dropped; a dropped player's pool goes to a late player (registered, no pool of their own),
  else back to the organiser; a builder who drops before registering a deck gives the pool
  back to the organiser (``release_dropped_builder``, run by ``sealed.hooks`` on the drop).

What a player builds from is written to ``decks.SealedPool``, so the deck builder, the deck
registration (R9-R14) and the deck check read generated, swapped and typed pools alike.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from cards.models import Printing
from decks import adapter
from decks import services as deck_services
from decks.models import Deck, SealedPool
from drafts.services import packs
from drafts.services.packs import SetPacks
from draftsite.errors import ConflictError, DomainError, ForbiddenError, NotFoundError
from events.access import Permission, access_event, authorize, recorded_user, require_event_creator
from events.models import DraftFormat, EnforcementLevel, Event, EventStaff, Registration, StaffRole
from events.services.staff import log_event
from judgecalls import services as judgecall_services
from matches import selectors as match_selectors
from sealed import core, error_codes, selectors
from sealed.models import DEFAULT_BOOSTERS, MAX_BOOSTERS, PaperPool, PoolStatus, PoolSwap, SealedEvent, SealedPack

MAX_COPIES = 60  # of one card in a registered pool (a sanity bound, far above any real pool)

LOG_OPENED = "sealed_pools_opened"
LOG_SWAP = "sealed_pool_swap"
LOG_ASSIGNED = "sealed_pool_assigned"
LOG_ANSWERED = "sealed_pool_answered"
LOG_RELEASED = "sealed_pool_released"


def _refuse_dropped(event: Event, registration: Registration) -> None:
    if registration.pk in match_selectors.drops(event.pk):
        raise ConflictError(
            error_codes.PLAYER_DROPPED,
            gettext("%(name)s has dropped from the event.") % {"name": registration.name},
        )


def _opener(event: Event, set_code: str, kind: str) -> SetPacks:
    return SetPacks(set_code, kind or None, collation_version=event.collation_version)


def _boosters(boosters: Sequence[Any], booster_count: int | None) -> list[dict]:
    """Boosters as stored, ``[{"set_code", "kind"}]``: a list of codes or of dicts; one
    booster given with ``booster_count`` is repeated (a kit of one set)."""
    rows = []
    for index, item in enumerate(boosters or ()):
        code: Any
        kind: Any
        if isinstance(item, str):
            code, kind = item, ""
        elif isinstance(item, dict):
            code, kind = item.get("set_code"), item.get("kind") or ""
        else:
            code, kind = None, ""
        if not isinstance(code, str) or not code.strip() or not isinstance(kind, str):
            raise DomainError(
                error_codes.INVALID_BOOSTERS,
                gettext("Each booster names a set code (and perhaps a booster kind)."),
                field=f"boosters[{index}]",
            )
        rows.append({"set_code": code.strip().upper(), "kind": kind.strip()})
    if len(rows) == 1 and booster_count:
        rows = rows * booster_count
    if not 1 <= len(rows) <= MAX_BOOSTERS:
        raise DomainError(
            error_codes.INVALID_BOOSTERS,
            gettext("A sealed pool is opened from 1 to %(max)s boosters.") % {"max": MAX_BOOSTERS},
            field="boosters",
        )
    for code in sorted({r["set_code"] for r in rows}):
        kinds = packs.booster_kinds(code)  # unknown_set
        for row in rows:
            if row["set_code"] == code:
                # Stored resolved ("" is the set's default kind today): the opening stays reproducible.
                row["kind"] = kinds.get(row["kind"]).name  # unknown_booster_kind
    return rows


@transaction.atomic
def create_sealed_event(
    *,
    actor,
    name: str,
    date: dt.date,
    boosters: Sequence[Any],
    booster_count: int | None = DEFAULT_BOOSTERS,
    paper: bool = False,
    enforcement_level: str = EnforcementLevel.REGULAR,
    seed: int | None = None,
) -> Event:
    """A sealed event (``paper``: players open real boosters and register them, MTR 7.5); its
    creator becomes an organiser of it. ``seed`` (stored) makes the opening reproducible."""
    require_event_creator(actor)
    rows = _boosters(boosters, booster_count)
    event = Event.objects.create(
        name=name,
        date=date,
        created_by=recorded_user(actor),
        enforcement_level=enforcement_level,
        draft_format=DraftFormat.PAPER_SEALED if paper else DraftFormat.SEALED,
        set_codes=[r["set_code"] for r in rows],
        pick_timer=False,
    )
    SealedEvent.objects.create(
        event=event, boosters=rows, paper=paper, seed=secrets.randbits(48) if seed is None else seed
    )
    if recorded_user(actor) is not None:
        EventStaff.objects.create(event=event, user=actor, role=StaffRole.ORGANISER)
    return event


def _locked(event_id: int, actor, *, paper: bool | None = None) -> tuple[Event, SealedEvent]:
    event = access_event(event_id)
    authorize(actor, event, Permission.ORGANISER)
    sealed = SealedEvent.objects.select_for_update().filter(event=event).first()
    return event, selectors.require_kind(event, sealed, paper=paper)


def _pool_rows(cards: Sequence[dict]) -> list[dict]:
    counts = Counter[int]()
    for card in cards:
        counts[card["card_id"]] += card.get("count", 1)
    return [{"card_id": card_id, "count": n} for card_id, n in sorted(counts.items())]


@transaction.atomic
def open_pools(*, event_id: int, actor, now: dt.datetime | None = None) -> int:
    """Open every player's boosters (organisers); returns how many players got a pool.

    Idempotent and race-safe: the event's sealed row is locked, a player's packs are unique,
    and a player who already has a pool (opened, or entered by the organiser) is skipped.
    Each player's packs come from ``seed:registration`` alone: reproducible whoever is added
    later."""
    now = now or timezone.now()
    event, sealed = _locked(event_id, actor, paper=False)
    done = set(SealedPool.objects.filter(registration__event=event).values_list("registration_id", flat=True))
    players = [r for r in Registration.objects.filter(event=event).order_by("pk") if r.pk not in done]
    if not players and not done:
        raise ConflictError(error_codes.NO_PLAYERS, gettext("No player is registered yet."))
    openers: dict[tuple[str, str], SetPacks] = {}
    for booster in sealed.boosters:
        key = (booster["set_code"], booster["kind"])
        if key not in openers:
            openers[key] = _opener(event, *key)
    for registration in players:
        rng = random.Random(f"{sealed.seed}:{registration.pk}")
        pool: list[dict] = []
        for number, booster in enumerate(sealed.boosters, start=1):
            opened = openers[(booster["set_code"], booster["kind"])].open(rng)
            cards = [
                {
                    "card_id": c.card_id,
                    "printing_id": c.printing_id,
                    "rarity": c.rarity,
                    "foil": c.foil,
                    "slot": c.slot,
                }
                for c in opened.cards
            ]
            SealedPack.objects.create(
                event=event,
                registration=registration,
                number=number,
                set_code=booster["set_code"],
                kind=booster["kind"],
                cards=cards,
                removed=opened.removed,
            )
            pool += cards
        SealedPool.objects.create(registration=registration, cards=_pool_rows(pool), entered_by=recorded_user(actor))
    if players:
        sealed.opened_at = sealed.opened_at or now
        sealed.opened_by = sealed.opened_by or recorded_user(actor)
        sealed.save(update_fields=["opened_at", "opened_by"])
        log_event(event, now, LOG_OPENED, actor, players=len(players), seed=sealed.seed)
    return len(players)


# --- paper sealed: MTR 7.5 pool registration ---------------------------------------------------


def _registration(actor, event: Event, registration_id: int | None) -> Registration:
    """The actor's own registration, or (organisers) the one named."""
    own = selectors.own_registration(actor, event)
    if registration_id is not None and (own is None or own.pk != registration_id):
        authorize(actor, event, Permission.ORGANISER)
        return selectors.registration_in(event, registration_id)
    if own is None:
        raise ForbiddenError(error_codes.NOT_REGISTERED, gettext("You are not registered for this event."))
    return own


def _refs(node) -> list:
    """Every card a published-rates sheet can draw (through its mixes)."""
    options = getattr(node, "options", None)
    if options is None:
        return list(node.refs)
    return [ref for option in options for ref in _refs(option[0])]


def booster_limits(opener: SetPacks) -> core.BoosterLimits:
    """The most one booster of this collation holds, read from its slots: per booster
    variant, each sheet's count towards every rarity group the sheet has cards of."""
    collation = opener.collation
    rarity = {key: info.rarity for key, info in opener.printings.items()}
    variants = getattr(collation, "variants", None)
    sheets = getattr(collation, "sheets", None)
    if variants is not None and sheets is not None:
        best_cards, best = 0, dict[str, int]()
        skip = getattr(collation, "non_draftable_sheets", {"basic"})
        for contents, _weight in variants:
            cards, groups = 0, Counter[str]()
            for name, count in contents.items():
                sheet = sheets.get(name)
                if sheet is None or not sheet.refs or name in skip:
                    continue
                cards += count
                for group in {core.rarity_group(rarity.get(str(ref), "")) for ref in sheet.refs}:
                    groups[group] += count
            best_cards = max(best_cards, cards)
            for group, count in groups.items():
                best[group] = max(best.get(group, 0), count)
        return core.BoosterLimits(best_cards, best)
    positions = getattr(collation, "positions", None)
    if positions is not None:  # the published-rates collation (Play Boosters)
        cards, groups = 0, Counter[str]()
        for position in positions:
            if not position.draftable:
                continue
            cards += position.count
            for group in {core.rarity_group(rarity.get(str(ref), "")) for ref in _refs(position.node)}:
                groups[group] += position.count
        return core.BoosterLimits(cards, dict(groups))
    # The plain rarity collation: one rare or mythic, three uncommons, ten commons.
    by_rarity = getattr(collation, "by_rarity", {})
    commons = 10 if by_rarity.get("common") else 0
    return core.BoosterLimits(
        1 + 3 + commons, {core.RARE_OR_MYTHIC: 1, core.UNCOMMON: 3, core.COMMON: commons, core.OTHER: 0}
    )


def _limits(sealed: SealedEvent) -> list[core.BoosterLimits]:
    openers: dict[tuple[str, str], core.BoosterLimits] = {}
    for b in sealed.boosters:
        key = (b["set_code"], b["kind"])
        if key not in openers:
            openers[key] = booster_limits(_opener(sealed.event, *key))
    return [openers[(b["set_code"], b["kind"])] for b in sealed.boosters]


def pool_limits(sealed: SealedEvent) -> dict[str, int]:
    """The most the event's boosters hold together: ``{"cards": n, "<group>": n}`` (reads
    only; the registration page shows it beside the running counts)."""
    limits = _limits(sealed)
    out = {"cards": sum(b.cards for b in limits)}
    for group in (core.RARE_OR_MYTHIC, core.UNCOMMON, core.COMMON):
        out[group] = sum(b.per_group.get(group, 0) for b in limits)
    return out


def _check_pool(sealed: SealedEvent, cards: Sequence[dict]) -> list[dict]:
    """The pool as stored, or a refusal saying why no N boosters of the event hold it."""
    if not cards:
        raise DomainError(error_codes.EMPTY_POOL, gettext("The pool is empty."), field="cards")
    for index, card in enumerate(cards):
        count = card.get("count", 1) if isinstance(card, dict) else None
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COPIES:
            raise DomainError(
                error_codes.INVALID_COUNT,
                gettext("A count is a whole number from 1 to %(max)s.") % {"max": MAX_COPIES},
                field=f"cards[{index}].count",
            )
    rows = _pool_rows(deck_services.resolved_pool(cards, suggest=False))
    codes = sorted({b["set_code"] for b in sealed.boosters})
    rarities: dict[int, str] = {}
    for card_id, rarity in (
        Printing.objects.filter(card_id__in=[r["card_id"] for r in rows], card_set__code__in=codes, in_boosters=True)
        .order_by("card_id", "pk")
        .values_list("card_id", "rarity")
    ):
        rarities.setdefault(card_id, rarity)
    outside = [row["card_id"] for row in rows if row["card_id"] not in rarities]
    if outside:
        names = adapter.resolve_ids(outside)
        listed = [names[i].name for i in outside if i in names]
        raise DomainError(
            error_codes.CARD_NOT_IN_SET,
            gettext("Not in the boosters of %(sets)s: %(join)s.")
            % {"sets": ", ".join(codes), "join": ", ".join(listed[:10])},
            field="cards",
            cards=listed[:50],
        )
    counts = Counter[str]()
    for row in rows:
        counts[core.rarity_group(rarities[row["card_id"]])] += row["count"]
    limits = _limits(sealed)
    problems = core.pool_problems(dict(counts), limits)
    if problems:
        raise DomainError(
            error_codes.POOL_TOO_BIG,
            " ".join(_problem_text(p, len(limits)) for p in problems),
            field="cards",
            problems=[{"code": p.code, "group": p.group, "found": p.found, "allowed": p.allowed} for p in problems],
        )
    return rows


def _problem_text(problem: core.Problem, boosters: int) -> str:
    values = {"found": problem.found, "allowed": problem.allowed, "boosters": boosters}
    if problem.code == "too_many_cards":
        return gettext("%(found)s cards: %(boosters)s boosters hold at most %(allowed)s.") % values
    group = str(selectors.GROUP_NAMES.get(problem.group, problem.group))
    return gettext("%(found)s %(group)s: %(boosters)s boosters hold at most %(allowed)s.") % {**values, "group": group}


@transaction.atomic
def register_paper_pool(
    *,
    event_id: int,
    actor,
    cards: Sequence[dict],
    registration_id: int | None = None,
    now: dt.datetime | None = None,
) -> PaperPool:
    """A player registers the pool they opened at the table (or an organiser does, for them),
    until the swap; again replaces it. Cards are ``{"name"|"card_id", "count"}``."""
    now = now or timezone.now()
    event = access_event(event_id)
    registration = _registration(actor, event, registration_id)
    sealed = SealedEvent.objects.select_for_update().filter(event=event).first()
    sealed = selectors.require_kind(event, sealed, paper=True)
    if PoolSwap.objects.filter(event=event).exists():
        raise ConflictError(error_codes.SWAP_DONE, gettext("The pools are already swapped: registration is closed."))
    _refuse_dropped(event, registration)
    rows = _check_pool(sealed, cards)
    pool, _ = PaperPool.objects.update_or_create(
        registered_by=registration, defaults={"event": event, "cards": rows, "updated_at": now}
    )
    return pool


def _hand_to(pool: PaperPool, builder: Registration | None, actor) -> None:
    """Make ``builder`` the one who builds from ``pool`` (its copy in ``decks.SealedPool``)."""
    if pool.builder_id is not None and (builder is None or pool.builder_id != builder.pk):
        SealedPool.objects.filter(registration_id=pool.builder_id).delete()
    pool.builder = builder
    if builder is not None:
        SealedPool.objects.update_or_create(
            registration=builder, defaults={"cards": pool.cards, "entered_by": recorded_user(actor)}
        )


@transaction.atomic
def swap_pools(*, event_id: int, actor, seed: int | None = None, now: dt.datetime | None = None) -> PoolSwap:
    """The organiser swaps the registered pools (MTR 7.5): each goes to another player, by a
    derangement drawn from ``seed`` (stored, logged). Once per event: the row lock and the
    one-swap-per-event row keep two presses from swapping twice.

    Only players who have not dropped receive a pool: the derangement runs over the pools of
    those who registered one; a dropped player's pool goes to a late player (registered
    without a pool, no deck yet), in an order drawn from the same seed, else it waits with the
    organiser (``assign_pool``)."""
    now = now or timezone.now()
    event, sealed = _locked(event_id, actor, paper=True)
    if PoolSwap.objects.filter(event=event).exists():
        raise ConflictError(error_codes.SWAP_DONE, gettext("The pools are already swapped."))
    pools = list(PaperPool.objects.select_for_update().filter(event=event).order_by("pk"))
    dropped = set(match_selectors.drops(event.pk))
    staying = [p for p in pools if p.registered_by_id not in dropped]
    if len(staying) < 2:
        raise DomainError(
            error_codes.SWAP_NEEDS_TWO,
            gettext("A swap needs at least two registered pools (%(count)s so far).") % {"count": len(staying)},
        )
    seed = secrets.randbits(48) if seed is None else seed
    rng = random.Random(seed)
    to: dict[int, int | None] = dict(core.derangement([p.registered_by_id for p in staying], rng))
    left = [p for p in pools if p.registered_by_id in dropped]
    if left:
        givers = {p.registered_by_id for p in pools}
        late = list(
            Registration.objects.filter(event=event, deck__isnull=True)
            .exclude(pk__in=givers | dropped)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        rng.shuffle(late)
        for pool in left:
            to[pool.registered_by_id] = late.pop(0) if late else None
    builders = {r.pk: r for r in Registration.objects.filter(pk__in=[v for v in to.values() if v])}
    assignments = []
    for pool in pools:
        pool.builder = None  # released first: the one-builder constraint holds at every row
        pool.save(update_fields=["builder"])
    for pool in pools:
        receiver = to[pool.registered_by_id]
        _hand_to(pool, builders[receiver] if receiver else None, actor)
        pool.status = PoolStatus.ASSIGNED if receiver else PoolStatus.UNASSIGNED
        pool.updated_at = now
        pool.save(update_fields=["builder", "status", "updated_at"])
        assignments.append({"pool": pool.pk, "from": pool.registered_by_id, "to": receiver})
    swap = PoolSwap.objects.create(event=event, seed=seed, assignments=assignments, at=now, actor=recorded_user(actor))
    log_event(event, now, LOG_SWAP, actor, seed=seed, assignments=assignments)
    return swap


def release_dropped_builder(*, registration: Registration, actor, now: dt.datetime) -> PaperPool | None:
    """A builder who drops before registering a deck gives the pool back to the organiser
    (status unassigned, their deck pool removed, logged); None when there is nothing to give
    back. Runs in the drop's transaction (``sealed.hooks``)."""
    pool = PaperPool.objects.select_for_update().filter(builder=registration).first()
    if pool is None or Deck.objects.filter(registration=registration).exists():
        return None
    _hand_to(pool, None, actor)
    pool.status = PoolStatus.UNASSIGNED
    pool.updated_at = now
    pool.save(update_fields=["builder", "status", "updated_at"])
    log_event(pool.event, now, LOG_RELEASED, actor, pool=pool.pk, registration=registration.pk)
    return pool


@transaction.atomic
def assign_pool(*, pool_id: int, actor, registration_id: int | None, now: dt.datetime | None = None) -> PaperPool:
    """The organiser hands a pool to a player (a late player, a pool whose builder dropped),
    or takes it back (``registration_id`` None: the pool waits with the organiser)."""
    now = now or timezone.now()
    selectors.access_pool(pool_id, actor, permission=Permission.ORGANISER)
    pool = PaperPool.objects.select_for_update().select_related("event").get(pk=pool_id)
    if not PoolSwap.objects.filter(event=pool.event).exists():
        raise ConflictError(error_codes.SWAP_NOT_DONE, gettext("Pools are handed out by the swap first."))
    builder = None
    if registration_id is not None:
        builder = Registration.objects.filter(event=pool.event, pk=registration_id).first()
        if builder is None:
            raise NotFoundError(
                error_codes.NOT_REGISTERED,
                gettext("No registration %(registration_id)s in this event.") % {"registration_id": registration_id},
            )
        if builder.pk == pool.registered_by_id:
            raise DomainError(error_codes.OWN_POOL, gettext("Nobody builds from the pool they registered (MTR 7.5)."))
        _refuse_dropped(pool.event, builder)
        if PaperPool.objects.filter(builder=builder).exclude(pk=pool.pk).exists():
            raise ConflictError(error_codes.ALREADY_BUILDING, gettext("That player already builds from a pool."))
        if Deck.objects.filter(registration=builder).exists():
            raise ConflictError(error_codes.DECK_REGISTERED, gettext("That player has already registered a deck."))
    if pool.builder_id is not None and Deck.objects.filter(registration_id=pool.builder_id).exists():
        raise ConflictError(
            error_codes.DECK_REGISTERED, gettext("Its builder has already registered a deck from this pool.")
        )
    _hand_to(pool, builder, actor)
    pool.status = PoolStatus.ASSIGNED if builder is not None else PoolStatus.UNASSIGNED
    pool.updated_at = now
    pool.save(update_fields=["builder", "status", "updated_at"])
    log_event(pool.event, now, LOG_ASSIGNED, actor, pool=pool.pk, to=registration_id)
    return pool


@transaction.atomic
def answer_pool(*, event_id: int, actor, confirm: bool, reason: str = "", now: dt.datetime | None = None) -> PaperPool:
    """The builder confirms the pool they received matches its list, or disputes it: a
    dispute calls a judge with both pools (as registered, and the builder's own)."""
    now = now or timezone.now()
    event = access_event(event_id)
    own = selectors.own_registration(actor, event)
    if own is None:
        raise ForbiddenError(error_codes.NOT_REGISTERED, gettext("You are not registered for this event."))
    pool = PaperPool.objects.select_for_update().filter(builder=own).first()
    if pool is None:
        raise ConflictError(error_codes.NO_POOL, gettext("You have not received a pool yet."))
    if pool.status != PoolStatus.ASSIGNED:
        raise ConflictError(error_codes.ALREADY_ANSWERED, gettext("You have already answered for this pool."))
    if confirm:
        pool.status = PoolStatus.CONFIRMED
    else:
        own_pool = PaperPool.objects.filter(registered_by=own).first()
        attachments = [selectors.pool_attachment(pool, "received")]
        if own_pool is not None:
            attachments.append(selectors.pool_attachment(own_pool, "own"))
        pool.judge_call = judgecall_services.call_about_pools(
            event_id=event.pk, caller_id=own.pk, reason=reason, attachments=attachments, actor=actor, now=now
        )
        pool.status = PoolStatus.DISPUTED
    pool.updated_at = now
    pool.save(update_fields=["status", "judge_call", "updated_at"])
    log_event(event, now, LOG_ANSWERED, actor, pool=pool.pk, confirmed=confirm)
    return pool
