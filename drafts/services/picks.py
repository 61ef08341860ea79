"""The draft itself: start, pick, pass, clocks, pause/resume, seat replacement.

Every function here locks the pod row first (``lock_pod``) and runs in one transaction, so
two requests racing for the same seat (a double click, two tabs, a timer firing during a
manual pick) are serialised: one wins, the other sees the new state and gets a clean error.

``_settle`` is the engine's heartbeat: it applies everything that is due at ``now``, in
time order — expired pick timers (automatic picks), automatic drafters, last cards, round
ends and review/deck-building clocks. Every write and every read of a pod calls it, and so
does a Celery task at each deadline; it is idempotent, so calling it again does nothing.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from cards.models import Card
from draftsite.errors import ConflictError, DomainError, NotFoundError
from drafts import error_codes
from drafts.autopick import Candidate, choose
from drafts.locking import lock_pod
from drafts.models import DraftCard, Pack, Pick, PickKind, Pod, PodLogEntry, PodState, Seat
from drafts.services.packs import open_packs
from drafts.timing import ROUNDS, pass_direction, pick_seconds, review_seconds

ACTIVE_STATES = (PodState.DRAFTING, PodState.REVIEWING, PodState.DECK_BUILDING)


def _log(pod: Pod, at: dt.datetime, action: str, actor=None, **details) -> None:
    PodLogEntry.objects.create(pod=pod, at=at, actor=actor, action=action, details=details)


def _touch(pod: Pod) -> None:
    pod.version += 1


def _after_commit(pod: Pod) -> None:
    """Tell live pages, and schedule the next deadline check, once the write is committed."""
    from drafts import tasks  # local: tasks import services

    pod_id, version = pod.pk, pod.version
    transaction.on_commit(lambda: tasks.pod_changed(pod_id, version))


# --- start -----------------------------------------------------------------------------

@transaction.atomic
def start_pod(*, pod_id: int, actor=None, now: dt.datetime | None = None) -> Pod:
    """Open every pack of the pod (from its stored seed) and start round 1."""
    now = now or timezone.now()
    pod = lock_pod(pod_id)
    if pod.state != PodState.NOT_STARTED:
        raise ConflictError(error_codes.POD_ALREADY_STARTED, "This pod has already started.")
    seats = list(pod.seats.order_by("position"))
    if len(seats) < 2:
        raise DomainError(error_codes.TOO_FEW_PLAYERS, "A pod needs at least two seats to draft.")
    opened = open_packs(pod.event, pod.seed, len(seats))
    for round_number, packs in opened.items():
        pack_rows = Pack.objects.bulk_create(
            Pack(pod=pod, round=round_number, opener=seat, initial_size=len(p.cards), removed=p.removed)
            for seat, p in zip(seats, packs)
        )
        DraftCard.objects.bulk_create(
            DraftCard(pod=pod, card_id=c.card_id, printing_id=c.printing_id, opened_in=row, pack=row,
                      slot=slot, is_dfc=c.is_dfc, rarity=c.rarity, foil=c.foil)
            for row, p in zip(pack_rows, packs) for slot, c in enumerate(p.cards)
        )
    pod.started_at = now
    _log(pod, now, "start", actor, seed=pod.seed)
    _begin_round(pod, 1, now)
    _settle(pod, now)
    pod.save()
    _after_commit(pod)
    return pod


def _begin_round(pod: Pod, round_number: int, at: dt.datetime) -> None:
    pod.round = round_number
    pod.state = PodState.DRAFTING
    pod.review_deadline = None
    Seat.objects.filter(pod=pod).update(ready=False)
    for pack in Pack.objects.filter(pod=pod, round=round_number).select_related("opener"):
        pack.holder_id = pack.opener_id
        pod.queue_seq += 1
        pack.queue_seq = pod.queue_seq
        pack.arrived_at = at
        pack.deadline = _deadline(pod, pack.cards_left, at)
        pack.save(update_fields=["holder", "queue_seq", "arrived_at", "deadline"])
    _log(pod, at, "round_start", round=round_number)
    _touch(pod)


def _deadline(pod: Pod, cards_left: int, start: dt.datetime) -> dt.datetime | None:
    seconds = pick_seconds(cards_left)
    if not pod.event.pick_timer or seconds is None:
        return None
    return start + dt.timedelta(seconds=seconds)


# --- picking ---------------------------------------------------------------------------

def _head_pack(seat: Seat) -> Pack | None:
    return Pack.objects.filter(holder=seat).order_by("queue_seq").first()


def make_pick(*, seat_id: int, draft_card_id: int, actor=None, position: int | None = None,
              pack_id: int | None = None, now: dt.datetime | None = None) -> Pick:
    """A player picks a card from the first pack in their queue and passes the pack.

    ``pack_id``, when given, is the pack the player was looking at: if that pack has moved
    on (a double click, a second tab, the timer) the pick is refused with 409 instead of
    landing on the next pack. ``position`` places the card in the pile (R17; default: the
    end). Whatever fell due before the pick (a timer that ran out) is committed even when
    the pick itself is refused, so the player sees why.
    """
    now = now or timezone.now()
    seat = Seat.objects.filter(pk=seat_id).first()
    if seat is None:
        raise NotFoundError("unknown_seat", f"No seat has id {seat_id}.")
    with transaction.atomic():
        pod = lock_pod(seat.pod_id)
        changed = _settle(pod, now)
        refusal = _refuse_pick(pod, seat, draft_card_id, pack_id)
        pick = None
        if isinstance(refusal, DraftCard):
            card, refusal = refusal, None
            pick = _take(pod, seat, card.pack, card, PickKind.MANUAL, now, actor=actor, position=position)
            _settle(pod, now)
        if pick is not None or changed:
            pod.save()
            _after_commit(pod)
        if pick is not None:
            pick.pod_version = pod.version  # the version live pages hear for this pick
    if refusal is not None:
        raise refusal
    return pick


def _refuse_pick(pod: Pod, seat: Seat, draft_card_id: int, pack_id: int | None) -> DomainError | DraftCard:
    """Why this pick cannot be made, or the card to take."""
    if pod.state == PodState.PAUSED:
        return ConflictError(error_codes.POD_PAUSED, "The draft is paused; picks resume with the pod.")
    if pod.state != PodState.DRAFTING:
        return ConflictError(error_codes.POD_NOT_DRAFTING, "This pod is not drafting right now.")
    card = DraftCard.objects.filter(pk=draft_card_id, pod=pod).first()
    if card is not None and card.seat_id == seat.pk:
        return ConflictError(error_codes.ALREADY_PICKED, "You have already picked that card.")
    head = _head_of(seat.pk, pod._held)
    if head is None:
        return ConflictError(error_codes.NO_PACK, "No pack is waiting for you; the next one is on its way.")
    if pack_id is not None and pack_id != head.pk:
        return ConflictError(error_codes.WRONG_PACK,
                             "That pack has already moved on; pick from the pack now in front of you.")
    if card is None or card.pack_id != head.pk:
        # Deliberately vague: never confirm where some other card is (R16).
        return DomainError(error_codes.CARD_NOT_IN_PACK, "That card is not in the pack in front of you.")
    card.pack = head
    return card


def _take(pod: Pod, seat: Seat, pack: Pack, card: DraftCard, kind: str, at: dt.datetime,
          actor=None, position: int | None = None) -> Pick:
    """Move ``card`` from ``pack`` into ``seat``'s pile and pass the pack on."""
    contents = list(DraftCard.objects.filter(pack=pack).order_by("slot").values_list("pk", flat=True))
    pile_size = DraftCard.objects.filter(seat=seat).count()
    if position is None or position >= pile_size:
        position = pile_size
    elif position < 0:
        raise DomainError(error_codes.INVALID_POSITION, "A pile position is 0 or more.")
    else:
        DraftCard.objects.filter(seat=seat, pile_position__gte=position).update(
            pile_position=F("pile_position") + 1)
    pick_number = pack.picks_made + 1
    card.pack = None
    card.seat = seat
    card.pile_position = position
    card.save(update_fields=["pack", "seat", "pile_position"])
    pick = Pick.objects.create(seat=seat, draft_card=card, pack=pack, round=pack.round,
                               pick_number=pick_number, kind=kind, made_by=actor, made_at=at,
                               pack_contents=contents)
    seat.last_pick_at = at
    seat.save(update_fields=["last_pick_at"])
    if kind in (PickKind.TIMEOUT, PickKind.AUTOMATIC_DRAFTER):
        _log(pod, at, "automatic_pick", seat=seat.position, kind=kind, round=pack.round,
             pick=pick_number)
    pack.picks_made += 1
    _pass_on(pod, seat, pack, at)
    # The seat's next pack (if one is queued) starts its clock now.
    following = _head_pack(seat)
    if following is not None and following.deadline is None:
        following.deadline = _deadline(pod, following.cards_left, at)
        following.save(update_fields=["deadline"])
    _touch(pod)
    return pick


def _seat_ids(pod: Pod) -> list[int]:
    """Seat ids by position, loaded once per transaction (positions never change once started)."""
    if getattr(pod, "_seat_ids", None) is None:
        pod._seat_ids = list(Seat.objects.filter(pod=pod).order_by("position").values_list("pk", flat=True))
    return pod._seat_ids


def _pass_on(pod: Pod, seat: Seat, pack: Pack, at: dt.datetime) -> None:
    if pack.cards_left == 0:
        pack.holder = None
        pack.deadline = None
        pack.save(update_fields=["holder", "deadline", "picks_made"])
        return
    seat_ids = _seat_ids(pod)
    neighbour = Seat(pk=seat_ids[(seat.position + pass_direction(pack.round)) % len(seat_ids)])
    pod.queue_seq += 1
    pack.holder = neighbour
    pack.queue_seq = pod.queue_seq
    pack.arrived_at = at
    first_in_queue = not Pack.objects.filter(holder=neighbour).exclude(pk=pack.pk).exists()
    pack.deadline = _deadline(pod, pack.cards_left, at) if first_in_queue else None
    pack.save(update_fields=["holder", "queue_seq", "arrived_at", "deadline", "picks_made"])


# --- the heartbeat ---------------------------------------------------------------------

def _automatic_choice(pack: Pack, seat: Seat) -> DraftCard:
    cards = list(DraftCard.objects.filter(pack=pack).order_by("slot"))
    identities = dict(Card.objects.filter(pk__in={c.card_id for c in cards}).values_list("pk", "color_identity"))
    picked = list(Card.objects.filter(pk__in=DraftCard.objects.filter(seat=seat).values("card_id"))
                  .values_list("color_identity", flat=True))
    candidates = [Candidate(c.pk, c.rarity, identities.get(c.card_id, "")) for c in cards]
    best, _reason = choose(candidates, picked)
    return next(c for c in cards if c.pk == best.key)


def _held_packs(pod: Pod) -> list[Pack]:
    """Every pack now in a seat's queue, with its holder: the pod's whole live state in one query."""
    return list(Pack.objects.filter(pod=pod, holder__isnull=False).select_related("holder")
                .order_by("queue_seq"))


def _head_of(seat_id: int, held: list[Pack]) -> Pack | None:
    return next((p for p in held if p.holder_id == seat_id), None)  # held is in queue order


def _next_due(pod: Pod, now: dt.datetime, held: list[Pack]) -> tuple[dt.datetime, Pack, str] | None:
    """The earliest thing the engine must do by ``now`` while drafting, if any."""
    due: list[tuple[dt.datetime, int, Pack, str]] = []
    for pack in held:
        if pack.deadline is not None and pack.deadline <= now:
            due.append((pack.deadline, pack.pk, pack, PickKind.TIMEOUT))
        if pack.cards_left == 1:
            due.append((pack.arrived_at or now, pack.pk, pack, PickKind.LAST_CARD))
        if pack.holder.is_automatic and _head_of(pack.holder_id, held) is pack:
            due.append((pack.arrived_at or now, pack.pk, pack, PickKind.AUTOMATIC_DRAFTER))
    if not due:
        return None
    at, _, pack, kind = min(due, key=lambda item: (item[0], item[1]))
    return min(at, now), pack, kind


def _settle(pod: Pod, now: dt.datetime) -> bool:
    """Apply everything due by ``now``, in time order. Returns whether anything changed.

    Leaves ``pod._held`` (the packs in queues) as of the end, for the caller's checks.
    """
    changed = False
    pod._held = []
    for _ in range(10_000):  # bounded: a whole 8-seat draft is 360 picks
        if pod.state == PodState.DRAFTING:
            held = pod._held = _held_packs(pod)
            due = _next_due(pod, now, held)
            if due is not None:
                at, pack, kind = due
                seat = pack.holder
                card = _automatic_choice(pack, seat)
                _take(pod, seat, pack, card, kind, at)
                changed = True
                continue
            if not any(p.round == pod.round for p in held):
                _end_round(pod, now)
                changed = True
                continue
        elif pod.state == PodState.REVIEWING and pod.review_deadline and pod.review_deadline <= now:
            _begin_round(pod, pod.round + 1, pod.review_deadline)
            changed = True
            continue
        elif (pod.state == PodState.DECK_BUILDING and pod.deck_building_deadline
              and pod.deck_building_deadline <= now):
            pod.state = PodState.DONE
            pod.finished_at = pod.deck_building_deadline
            _log(pod, pod.deck_building_deadline, "deck_building_over")
            _touch(pod)
            changed = True
            continue
        break
    return changed


def _end_round(pod: Pod, now: dt.datetime) -> None:
    last = (Pick.objects.filter(pack__pod=pod, round=pod.round).order_by("-made_at")
            .values_list("made_at", flat=True).first()) or now
    _log(pod, last, "round_end", round=pod.round)
    if pod.round >= ROUNDS:
        pod.state = PodState.DECK_BUILDING
        pod.deck_building_deadline = last + dt.timedelta(minutes=pod.event.deck_building_minutes)
        _log(pod, last, "deck_building_start")
    else:
        pod.state = PodState.REVIEWING
        seconds = review_seconds(pod.round)
        pod.review_deadline = last + dt.timedelta(seconds=seconds) if pod.event.pick_timer else None
    _touch(pod)


@transaction.atomic
def enforce_deadlines(*, pod_id: int, now: dt.datetime | None = None) -> bool:
    """Apply whatever is due (idempotent): called by the Celery task and before reads."""
    now = now or timezone.now()
    pod = lock_pod(pod_id)
    if pod.state not in ACTIVE_STATES:
        return False
    changed = _settle(pod, now)
    if changed:
        pod.save()
        _after_commit(pod)
    return changed


def next_due_at(pod: Pod) -> dt.datetime | None:
    """When the engine next has something to do on its own (for the scheduler and reads)."""
    if pod.event.draft_format == "paper":  # called by the paper app: nothing for this engine
        return None
    if pod.state == PodState.REVIEWING:
        return pod.review_deadline
    if pod.state == PodState.DECK_BUILDING:
        return pod.deck_building_deadline
    if pod.state != PodState.DRAFTING:
        return None
    held = _held_packs(pod)
    if not any(p.round == pod.round for p in held):
        return pod.started_at or timezone.now()  # a round end is pending
    soonest = _next_due(pod, dt.datetime.max.replace(tzinfo=dt.timezone.utc), held)
    return soonest[0] if soonest else None


# --- organiser controls ----------------------------------------------------------------

@transaction.atomic
def pause_pod(*, pod_id: int, actor=None, now: dt.datetime | None = None) -> Pod:
    """Freeze every clock of the pod with the time that was left on it."""
    now = now or timezone.now()
    pod = lock_pod(pod_id)
    _settle(pod, now)
    if pod.state == PodState.PAUSED:
        raise ConflictError(error_codes.POD_PAUSED, "The pod is already paused.")
    if pod.state not in ACTIVE_STATES:
        raise ConflictError(error_codes.POD_NOT_DRAFTING, "Only a running pod can be paused.")
    for pack in Pack.objects.filter(pod=pod, holder__isnull=False).exclude(deadline=None):
        pack.remaining_ms = max(0, int((pack.deadline - now).total_seconds() * 1000))
        pack.deadline = None
        pack.save(update_fields=["remaining_ms", "deadline"])
    clock = pod.review_deadline if pod.state == PodState.REVIEWING else (
        pod.deck_building_deadline if pod.state == PodState.DECK_BUILDING else None)
    pod.paused_remaining_ms = max(0, int((clock - now).total_seconds() * 1000)) if clock else None
    pod.paused_from = pod.state
    pod.state = PodState.PAUSED
    _log(pod, now, "pause", actor)
    _touch(pod)
    pod.save()
    _after_commit(pod)
    return pod


@transaction.atomic
def resume_pod(*, pod_id: int, actor=None, now: dt.datetime | None = None) -> Pod:
    """Restart every clock with exactly the time it had left when paused."""
    now = now or timezone.now()
    pod = lock_pod(pod_id)
    if pod.state != PodState.PAUSED:
        raise ConflictError(error_codes.POD_NOT_PAUSED, "The pod is not paused.")
    for pack in Pack.objects.filter(pod=pod, holder__isnull=False).exclude(remaining_ms=None):
        pack.deadline = now + dt.timedelta(milliseconds=pack.remaining_ms)
        pack.remaining_ms = None
        pack.save(update_fields=["remaining_ms", "deadline"])
    pod.state = pod.paused_from or PodState.DRAFTING
    if pod.paused_remaining_ms is not None:
        deadline = now + dt.timedelta(milliseconds=pod.paused_remaining_ms)
        if pod.state == PodState.REVIEWING:
            pod.review_deadline = deadline
        elif pod.state == PodState.DECK_BUILDING:
            pod.deck_building_deadline = deadline
    pod.paused_from = ""
    pod.paused_remaining_ms = None
    _log(pod, now, "resume", actor)
    _touch(pod)
    _settle(pod, now)
    pod.save()
    _after_commit(pod)
    return pod


def _start_next_round(pod: Pod, now: dt.datetime) -> None:
    _begin_round(pod, pod.round + 1, now)
    _settle(pod, now)


@transaction.atomic
def advance_round(*, pod_id: int, actor=None, now: dt.datetime | None = None) -> Pod:
    """End the review between rounds early and open the next packs."""
    now = now or timezone.now()
    pod = lock_pod(pod_id)
    _settle(pod, now)
    if pod.state != PodState.REVIEWING:
        raise ConflictError(error_codes.POD_NOT_REVIEWING, "The pod is not between rounds.")
    _log(pod, now, "advance_round", actor, round=pod.round + 1)
    _start_next_round(pod, now)
    pod.save()
    _after_commit(pod)
    return pod


@transaction.atomic
def mark_ready(*, seat_id: int, now: dt.datetime | None = None) -> Seat:
    """A player is done reviewing; when every player is, the next round starts."""
    now = now or timezone.now()
    seat = Seat.objects.filter(pk=seat_id).first()
    if seat is None:
        raise NotFoundError("unknown_seat", f"No seat has id {seat_id}.")
    pod = lock_pod(seat.pod_id)
    _settle(pod, now)
    if pod.state != PodState.REVIEWING:
        raise ConflictError(error_codes.POD_NOT_REVIEWING, "The pod is not between rounds.")
    Seat.objects.filter(pk=seat.pk).update(ready=True)
    waiting = Seat.objects.filter(pod=pod, ready=False, is_automatic=False).exists()
    if not waiting:
        _log(pod, now, "all_ready", round=pod.round + 1)
        _start_next_round(pod, now)
    _touch(pod)
    pod.save()
    _after_commit(pod)
    seat.refresh_from_db()
    return seat


def _refuse_if_finished(pod: Pod) -> None:
    """A finished pod's seats and pools belong to their players: no hand-over, no robot."""
    if pod.state == PodState.DONE:
        raise ConflictError(error_codes.POD_FINISHED, "This pod has finished; its seats can no longer change.")


@transaction.atomic
def replace_with_automatic(*, seat_id: int, actor=None, now: dt.datetime | None = None) -> Seat:
    """A player left: an automatic drafter takes the seat and its pile stays."""
    now = now or timezone.now()
    seat = Seat.objects.filter(pk=seat_id).first()
    if seat is None:
        raise NotFoundError("unknown_seat", f"No seat has id {seat_id}.")
    pod = lock_pod(seat.pod_id)
    _refuse_if_finished(pod)
    seat.is_automatic = True
    seat.save(update_fields=["is_automatic"])
    _log(pod, now, "replace_with_automatic", actor, seat=seat.position)
    _touch(pod)
    _settle(pod, now)
    pod.save()
    _after_commit(pod)
    return seat


@transaction.atomic
def hand_seat(*, seat_id: int, registration_id: int, actor=None, now: dt.datetime | None = None) -> Seat:
    """Give a seat, its queue and its pile, to another registered player."""
    from drafts.models import Registration

    now = now or timezone.now()
    seat = Seat.objects.filter(pk=seat_id).first()
    if seat is None:
        raise NotFoundError("unknown_seat", f"No seat has id {seat_id}.")
    pod = lock_pod(seat.pod_id)
    _refuse_if_finished(pod)
    registration = Registration.objects.filter(pk=registration_id, event_id=pod.event_id).first()
    if registration is None:
        raise DomainError(error_codes.NOT_REGISTERED, "That player is not registered for this event.")
    if Seat.objects.filter(registration=registration).exclude(pk=seat.pk).exists():
        raise ConflictError(error_codes.SEAT_TAKEN, "That player already has a seat.")
    previous = seat.registration.name if seat.registration_id else None
    seat.registration = registration
    seat.is_automatic = False
    seat.save(update_fields=["registration", "is_automatic"])
    _log(pod, now, "hand_seat", actor, seat=seat.position, previous=previous, to=registration.name)
    _touch(pod)
    pod.save()
    _after_commit(pod)
    return seat


# --- the pile (R17) --------------------------------------------------------------------

@transaction.atomic
def move_pile_card(*, seat_id: int, draft_card_id: int, position: int) -> DraftCard:
    """R17: a player may reorder their pile at any time."""
    seat = Seat.objects.filter(pk=seat_id).first()
    if seat is None:
        raise NotFoundError("unknown_seat", f"No seat has id {seat_id}.")
    pod = lock_pod(seat.pod_id)
    card = DraftCard.objects.filter(pk=draft_card_id, seat=seat).first()
    if card is None:
        raise DomainError(error_codes.CARD_NOT_IN_PILE, "That card is not in your pile.")
    size = DraftCard.objects.filter(seat=seat).count()
    if position < 0 or position >= size:
        raise DomainError(error_codes.INVALID_POSITION, f"Pile positions run from 0 to {size - 1}.")
    old = card.pile_position
    if position < old:
        DraftCard.objects.filter(seat=seat, pile_position__gte=position, pile_position__lt=old).update(
            pile_position=F("pile_position") + 1)
    elif position > old:
        DraftCard.objects.filter(seat=seat, pile_position__gt=old, pile_position__lte=position).update(
            pile_position=F("pile_position") - 1)
    card.pile_position = position
    card.save(update_fields=["pile_position"])
    _touch(pod)
    pod.save(update_fields=["version"])
    _after_commit(pod)  # the board shows piles' DFCs in order: other seats must refresh
    return card


PILE_COVERS = ("", "basic_land", "checklist")


@transaction.atomic
def set_pile_cover(*, seat_id: int, cover: str) -> Seat:
    """R17: start the pile with a basic land or checklist card, DFCs beneath it."""
    if cover not in PILE_COVERS:
        raise DomainError(error_codes.INVALID_POSITION,
                          "The pile can start with nothing, a basic land or a checklist card.",
                          field="cover")
    seat = Seat.objects.filter(pk=seat_id).first()
    if seat is None:
        raise NotFoundError("unknown_seat", f"No seat has id {seat_id}.")
    pod = lock_pod(seat.pod_id)
    seat.pile_cover = cover
    seat.save(update_fields=["pile_cover"])
    _touch(pod)  # the cover shows on the open board
    pod.save(update_fields=["version"])
    _after_commit(pod)
    return seat
