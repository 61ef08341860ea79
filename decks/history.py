"""Reads of a player's draft history: their drafts, a seat's pick-by-pick log and its MTGO text.

Who may read a seat's log: its player and the event's staff; anyone once the organiser made
the pod's logs public (possible only after decklists are published). The packs' contents
show only with ``drafts.access.sees_log_packs`` (staff, or after publication): the cards a
player passed sit in other seats' piles, hidden until then (R16).
"""

from __future__ import annotations

from collections import Counter

from django.utils import timezone
from django.utils.translation import gettext

from decks import error_codes, exporting, picks
from decks.exports.draftlog import LoggedPick, mtgo_draft_log
from drafts import access
from drafts.models import Pod, PodState, Seat
from draftsite.errors import ForbiddenError, NotFoundError
from events import permissions


def player_drafts(user) -> list[dict]:
    """The user's seats in pods that have started, newest event first."""
    seats = (
        Seat.objects.filter(registration__user=user)
        .exclude(pod__state=PodState.NOT_STARTED)
        .select_related("pod__event", "registration")
        .order_by("-pod__event__date", "-pod__event_id", "pod__number")
    )
    return [
        {
            "seat": s,
            "event": s.pod.event,
            "pod": s.pod,
            "picks": s.picks.count(),
            "share": s.registration.share_pick_data,
        }
        for s in seats
    ]


def pod_event_id(pod_id: int) -> int | None:
    return Pod.objects.filter(pk=pod_id).values_list("event_id", flat=True).first()


def event_pods(event) -> list[Pod]:
    return list(Pod.objects.filter(event=event).order_by("number"))


def logs_are_public(pod) -> bool:
    return pod.logs_public and pod.event.decklists_published


def readable_seat(user, seat_id: int) -> Seat:
    """The seat whose log the caller may read (its player, staff, or a public log)."""
    seat = Seat.objects.select_related("pod__event", "registration").filter(pk=seat_id).first()
    if seat is None or seat.registration_id is None:
        raise NotFoundError(error_codes.UNKNOWN_SEAT, gettext("No draft log has id %(id)s.") % {"id": seat_id})
    owner = getattr(user, "is_authenticated", False) and seat.registration.user_id == user.pk
    if not (owner or permissions.sees_everything(user, seat.pod.event) or logs_are_public(seat.pod)):
        raise ForbiddenError(
            error_codes.LOG_NOT_PUBLIC,
            gettext("A draft log is private to its player until the organiser publishes it."),
        )
    return seat


def shows_packs(user, seat: Seat) -> bool:
    return access.sees_log_packs(user, seat.pod.event) or logs_are_public(seat.pod)


def _rows(seat: Seat, include_packs: bool) -> list[picks.PickRow]:
    return picks.picks_of([seat], include_packs=include_packs)[seat.pk]


def log_view(seat: Seat, *, include_packs: bool) -> dict:
    """``{"rounds": [{"round", "label", "picks": [...]}], "pool": [{"name", "count"}], ...}``."""
    rows = _rows(seat, include_packs)
    ids = {r.card_id for r in rows} | {pk for r in rows for pk in (r.pack or ())}
    name_of = {pk: full for pk, (full, _front) in exporting.names(ids).items()}
    labels = seat.pod.event.set_codes or []
    rounds: dict[int, dict] = {}
    for r in rows:
        block = rounds.setdefault(
            r.round,
            {"round": r.round, "label": labels[r.round - 1] if r.round <= len(labels) else "", "picks": []},
        )
        pack = None
        if r.pack is not None:
            taken_once = False
            pack = []
            for pk in r.pack:
                taken = pk == r.card_id and not taken_once
                taken_once = taken_once or taken
                pack.append({"name": name_of.get(pk, "?"), "taken": taken})
        block["picks"].append(
            {
                "pick": r.pick,
                "card": name_of.get(r.card_id, "?"),
                "kind": r.kind,
                "automatic": r.kind != "manual",
                "seconds": None if r.seconds is None else round(r.seconds),
                "pack": pack,
            }
        )
    pool = Counter(name_of.get(r.card_id, "?") for r in rows)
    return {
        "rounds": [rounds[k] for k in sorted(rounds)],
        "pool": [{"name": name, "count": n} for name, n in sorted(pool.items())],
        "total": len(rows),
        "with_packs": include_packs,
    }


def mtgo_text(seat: Seat, *, include_packs: bool) -> str:
    rows = _rows(seat, include_packs)
    names = exporting.mtgo_names({r.card_id for r in rows} | {pk for r in rows for pk in (r.pack or ())})
    seats = list(seat.pod.seats.select_related("registration").order_by("position"))
    started = seat.pod.started_at
    return mtgo_draft_log(
        event_id=f"{seat.pod.event_id}-{seat.pod.number}",
        started=timezone.localtime(started) if started else None,  # MTGO writes the local time
        players=[s.registration.name if s.registration_id else gettext("Automatic drafter") for s in seats],
        me=next(i for i, s in enumerate(seats) if s.pk == seat.pk),
        round_labels=seat.pod.event.set_codes or [],
        picks=[
            LoggedPick(
                r.round,
                r.pick,
                names.get(r.card_id, "?"),
                None if r.pack is None else tuple(names.get(pk, "?") for pk in r.pack),
            )
            for r in rows
        ],
    )
