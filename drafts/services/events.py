"""Creating a drafted event (booster, cube or paper) and seating its players into pods."""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections.abc import Sequence

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext, ngettext

from cards import selectors as card_selectors
from cards.models import CardSet
from drafts import error_codes, extensions, live
from drafts.core.timing import ROUNDS
from drafts.models import Pod, PodState, Seat
from drafts.services import packs
from draftsite.errors import ConflictError, DomainError, NotFoundError
from events import extensions as event_extensions
from events import live as event_live
from events.access import Permission, access_event, authorize
from events.models import DraftFormat, EnforcementLevel, Event, EventStaff, Registration, StaffRole

MAX_POD_SIZE = 8


MAX_CUBE_SIZE = 1000


@transaction.atomic
def create_event(
    *,
    name: str,
    date: dt.date,
    created_by=None,
    enforcement_level: str = EnforcementLevel.REGULAR,
    draft_format: str = DraftFormat.BOOSTER,
    set_codes: Sequence[str] = (),
    booster_kinds: Sequence[str] = (),
    cube_list: Sequence[str] = (),
    pack_size: int = 15,
    pick_timer: bool = True,
    deck_building_minutes: int = 25,
) -> Event:
    """Create an event; its creator becomes an organiser of it.

    Booster drafts name one set per round (one code means the same set three times), and
    optionally the booster kind of each round (one for all, or one per round; "" or none: the
    set's default kind, its newest). Cube drafts give a list of card names (any face name),
    dealt without replacement.
    """
    cube_ids: list[int] = []
    codes: list[str] = []
    kinds: list[str] = []
    if draft_format in (DraftFormat.BOOSTER, DraftFormat.PAPER):  # paper: the sets are for reference
        codes = [code.strip().upper() for code in set_codes if code and code.strip()]
        if len(codes) == 1:
            codes = codes * ROUNDS
        if len(codes) != ROUNDS:
            raise DomainError(
                error_codes.INVALID_SETS,
                gettext("A booster draft needs one set, or one set per round (%(ROUNDS)s).") % {"ROUNDS": ROUNDS},
                field="set_codes",
            )
        known = set(CardSet.objects.filter(code__in=codes).values_list("code", flat=True))
        missing = sorted(set(codes) - known)
        if missing:
            raise DomainError(
                error_codes.UNKNOWN_SET,
                gettext("No set with code %(join)s is in the catalogue.") % {"join": ", ".join(missing)},
                field="set_codes",
                sets=missing,
            )
        kinds = _round_kinds(codes, booster_kinds)
    else:
        cube_ids = _resolve_cube(cube_list)
    event = Event.objects.create(
        name=name,
        date=date,
        created_by=created_by,
        enforcement_level=enforcement_level,
        draft_format=draft_format,
        set_codes=codes,
        booster_kinds=kinds,
        cube_card_ids=cube_ids,
        pack_size=pack_size,
        pick_timer=pick_timer,
        deck_building_minutes=deck_building_minutes,
    )
    if created_by is not None:
        EventStaff.objects.create(event=event, user=created_by, role=StaffRole.ORGANISER)
    return event


def _round_kinds(codes: list[str], kinds: Sequence[str]) -> list[str]:
    """Each round's booster kind, checked against what its set offers (stored by name, the
    default filled in, so a later catalogue change does not change what the event opens)."""
    wanted = [str(k or "").strip() for k in kinds]
    if len(wanted) <= 1:
        wanted = (wanted or [""]) * ROUNDS
    if len(wanted) != ROUNDS:
        raise DomainError(
            error_codes.INVALID_BOOSTER_KINDS,
            gettext("Give one booster kind for every round, or one per round (%(ROUNDS)s).") % {"ROUNDS": ROUNDS},
            field="booster_kinds",
        )
    return [packs.booster_kinds(code).get(kind or None).name for code, kind in zip(codes, wanted, strict=True)]


def _resolve_cube(names: Sequence[str]) -> list[int]:
    lines = [n.strip() for n in names if n and n.strip() and not n.strip().startswith("#")]
    if not lines:
        raise DomainError(error_codes.INVALID_CUBE, gettext("The cube list is empty."), field="cube_list")
    if len(lines) > MAX_CUBE_SIZE:
        raise DomainError(
            error_codes.INVALID_CUBE,
            gettext("A cube list has at most %(MAX_CUBE_SIZE)s cards.") % {"MAX_CUBE_SIZE": MAX_CUBE_SIZE},
            field="cube_list",
        )
    found = card_selectors.find_cards(lines)
    unknown = [line for line in lines if found[line] is None]
    ids = [found[line].pk for line in lines if found[line] is not None]
    if unknown:
        raise DomainError(
            error_codes.UNKNOWN_CARD,
            ngettext(
                "%(count)s card name in the cube list is not in the catalogue: %(names)s",
                "%(count)s card names in the cube list are not in the catalogue: %(names)s",
                len(unknown),
            )
            % {"count": len(unknown), "names": ", ".join(unknown[:10])},
            field="cube_list",
            cards=unknown[:50],
            suggestions={name: card_selectors.suggest_names(name, 3) for name in unknown[:10]},
        )
    return ids


def _locked_unstarted_pods(event: Event) -> list[Pod]:
    pods = list(Pod.objects.select_for_update().filter(event=event).order_by("pk"))
    if any(p.state != PodState.NOT_STARTED for p in pods):
        raise ConflictError(
            error_codes.SEATING_LOCKED, gettext("A pod of this event has started; seating can no longer change.")
        )
    return pods


def split_into_pods(count: int, max_size: int = MAX_POD_SIZE) -> list[int]:
    """Pod sizes for ``count`` players: as few pods as possible, sizes differing by one."""
    pods = -(-count // max_size)
    base, extra = divmod(count, pods)
    return [base + 1 if i < extra else base for i in range(pods)]


@transaction.atomic
def seat_players(
    *, event_id: int, seed: int | None = None, pods: Sequence[Sequence[int]] | None = None, actor
) -> list[Pod]:
    """Seat every registered player into pods of up to eight.

    Random seating shuffles with a stored seed (reproducible); ``pods`` seats by hand, one
    list of registration ids per pod in seat order. Re-seating replaces earlier seating as
    long as no pod has started.
    """
    event = access_event(event_id, for_update=True)
    authorize(actor, event, Permission.ORGANISER)
    old = _locked_unstarted_pods(event)
    # Once check-in is open, only the players who checked in are seated (accounts).
    registrations = event_extensions.players().seatable_registration_ids(event.pk)
    seed = seed if seed is not None else secrets.randbits(48)
    groups = _random_groups(registrations, seed) if pods is None else _groups_by_hand(pods, registrations)
    # A guest (no account) can never sign in to pick: in an online draft their seat is an
    # automatic drafter's from the start (issues 27/28); on paper they draft at the table.
    guests = set()
    if event.draft_format != DraftFormat.PAPER:
        guests = set(Registration.objects.filter(event=event, user__isnull=True).values_list("pk", flat=True))
    Seat.objects.filter(pod__in=old).delete()
    Pod.objects.filter(pk__in=[p.pk for p in old]).delete()
    created = []
    rng = random.Random(seed)
    for number, group in enumerate(groups, start=1):
        pod = Pod.objects.create(
            event=event, number=number, seed=rng.randrange(2**48), spectator_token=secrets.token_urlsafe(24)
        )
        Seat.objects.bulk_create(
            Seat(pod=pod, position=i, registration_id=rid, is_automatic=rid in guests) for i, rid in enumerate(group)
        )
        created.append(pod)
        extensions.notice_on_commit(extensions.DRAFT_START, pod.pk)  # "you are seated: pod, seat"
    event_live.notify_event_on_commit(event.pk)  # dashboards follow the new pods at once
    return created


def _random_groups(registrations: set[int], seed: int) -> list[list[int]]:
    """Every registration in pods of as equal sizes as can be, shuffled from ``seed``."""
    if len(registrations) < 2:
        raise DomainError(error_codes.TOO_FEW_PLAYERS, gettext("At least two players are needed to draft."))
    order = sorted(registrations)
    random.Random(seed).shuffle(order)
    groups, start = [], 0
    for size in split_into_pods(len(order)):
        groups.append(order[start : start + size])
        start += size
    return groups


def _groups_by_hand(pods: Sequence[Sequence[int]], registrations: set[int]) -> list[list[int]]:
    """The organiser's own seating, checked: this event's registrations, each once, 2-8 a pod."""
    groups = [list(g) for g in pods]
    flat = [rid for g in groups for rid in g]
    if len(flat) != len(set(flat)) or not set(flat) <= registrations:
        raise DomainError(
            error_codes.INVALID_SEATING, gettext("Each pod lists registrations of this event, each one once.")
        )
    if any(len(g) > MAX_POD_SIZE for g in groups):
        raise DomainError(
            error_codes.POD_TOO_LARGE,
            gettext("A pod seats at most %(MAX_POD_SIZE)s players.") % {"MAX_POD_SIZE": MAX_POD_SIZE},
        )
    if any(len(g) < 2 for g in groups):
        raise DomainError(error_codes.TOO_FEW_PLAYERS, gettext("Every pod needs at least two players."))
    return groups


@transaction.atomic
def move_player(*, registration_id: int, pod_id: int, position: int | None = None, actor) -> Seat:
    """Move a seated player to another pod (or seat) before that pod starts.

    Into an occupied seat the two players swap; with no position the player takes the next
    free seat.
    """
    registration = Registration.objects.filter(pk=registration_id).first()
    target = Pod.objects.select_for_update().filter(pk=pod_id).first()
    if registration is None or target is None or target.event_id != registration.event_id:
        raise NotFoundError(error_codes.UNKNOWN_SEAT, gettext("No such player or pod in this event."))
    authorize(actor, target.event, Permission.ORGANISER)
    current = Seat.objects.select_related("pod").filter(registration=registration).first()
    pods = sorted({target.pk, current.pod_id} if current else {target.pk})
    locked = {p.pk: p for p in Pod.objects.select_for_update().filter(pk__in=pods).order_by("pk")}
    if any(p.state != PodState.NOT_STARTED for p in locked.values()):
        raise ConflictError(error_codes.SEATING_LOCKED, gettext("Players can only move before their pods start."))
    seats = {s.position: s for s in Seat.objects.filter(pod=target)}
    if position is None:
        position = next(i for i in range(MAX_POD_SIZE + 1) if i not in seats)
    if not 0 <= position < MAX_POD_SIZE:
        raise DomainError(
            error_codes.INVALID_POSITION,
            gettext("Seats are numbered 0 to %(MAX_POD_SIZE_1)s.") % {"MAX_POD_SIZE_1": MAX_POD_SIZE - 1},
        )
    occupant = seats.get(position)
    if current is not None and occupant is not None and occupant.pk == current.pk:
        return current
    if occupant is not None:
        if current is None:
            raise ConflictError(error_codes.SEAT_TAKEN, gettext("That seat is taken."))
        return _swap(current, occupant)
    if current is not None:
        current.delete()
        _compact_positions(current.pod_id)
        seats = {s.position: s for s in Seat.objects.filter(pod=target)}
    if len(seats) >= MAX_POD_SIZE:
        raise DomainError(
            error_codes.POD_TOO_LARGE,
            gettext("A pod seats at most %(MAX_POD_SIZE)s players.") % {"MAX_POD_SIZE": MAX_POD_SIZE},
        )
    seat = Seat.objects.create(pod=target, position=max(seats, default=-1) + 1, registration=registration)
    _compact_positions(target.pk)
    return seat


def _swap(current: Seat, occupant: Seat) -> Seat:
    """Two seated players change seats; returns the mover's new seat."""
    # Park one registration to keep the unique constraint satisfied mid-way.
    other = occupant.registration_id
    occupant.registration_id = None
    occupant.save(update_fields=["registration"])
    current.registration_id, old_reg = other, current.registration_id
    current.save(update_fields=["registration"])
    occupant.registration_id = old_reg
    occupant.save(update_fields=["registration"])
    return occupant


def _compact_positions(pod_id: int) -> None:
    """Renumber seats 0..n-1 after someone leaves an unstarted pod."""
    for index, seat in enumerate(Seat.objects.filter(pod_id=pod_id).order_by("position")):
        if seat.position != index:
            seat.position = index
            seat.save(update_fields=["position"])


def pods_follow_event_settings(event: Event) -> None:
    """The events app's settings listener (``DraftsConfig.ready``), inside the transaction that
    changed them: every live page of the event's pods refreshes (their versions move)."""
    pods = list(Pod.objects.filter(event=event).values_list("pk", flat=True))
    if not pods:
        return
    Pod.objects.filter(pk__in=pods).update(version=F("version") + 1)
    versions = dict(Pod.objects.filter(pk__in=pods).values_list("pk", "version"))

    def tell():
        for pod_id, version in versions.items():
            live.notify_pod(pod_id, version)

    transaction.on_commit(tell)
