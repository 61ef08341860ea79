"""Reads of the penalties app. Callers check permissions first (penalties.permissions)."""

from __future__ import annotations

import csv
import io
from collections import OrderedDict

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from drafts.models import Pick, PickKind, Pod
from draftsite import whole_numbers
from draftsite.errors import DomainError
from draftsite.spreadsheets import safe_cell
from events.models import Event, EventStaff, Registration, StaffRole
from penalties.models import (
    Appeal,
    AppealStatus,
    DismissedSource,
    Infraction,
    Penalty,
    PenaltyKind,
    PenaltyStatus,
)
from penalties.sources import parse_source, source_pick


def penalty_queryset() -> QuerySet[Penalty]:
    return Penalty.objects.select_related(
        "event",
        "registration",
        "registration__user",
        "infraction",
        "pod",
        "issued_by",
        "reviewed_by",
        "appeal",
    )


def penalty_with_history(penalty_id: int) -> Penalty | None:
    return penalty_queryset().prefetch_related("history", "history__actor").filter(pk=penalty_id).first()


def infractions(active_only: bool = True) -> list[Infraction]:
    qs = Infraction.objects.all()
    if active_only:
        qs = qs.filter(active=True)
    return sorted(qs, key=lambda i: (i.section_key, i.code))


FILTERS = ("status", "infraction", "penalty", "registration", "q")


def event_penalties(
    event: Event | int,
    *,
    status: str = "",
    infraction: str = "",
    penalty: str = "",
    registration: int | str | None = None,
    q: str = "",
) -> QuerySet[Penalty]:
    qs = penalty_queryset().filter(event=event)
    if status in PenaltyStatus.values:
        qs = qs.filter(status=status)
    if infraction:
        qs = qs.filter(infraction__code=infraction)
    if penalty in PenaltyKind.values:
        qs = qs.filter(penalty=penalty)
    registration_id = whole_numbers.parse(registration)
    if registration_id is not None:
        qs = qs.filter(registration_id=registration_id)
    if q:
        qs = qs.filter(Q(registration__name__icontains=q) | Q(description__icontains=q))
    return qs.order_by("-issued_at", "-pk")


def player_penalties(user) -> QuerySet[Penalty]:
    """A player's own penalties, every event."""
    return penalty_queryset().filter(registration__user=user).order_by("-issued_at", "-pk")


def account_penalties(user_id: int) -> QuerySet[Penalty] | None:
    """One account's penalties across events, or None when there is no such account."""
    if not get_user_model().objects.filter(pk=user_id).exists():
        return None
    return penalty_queryset().filter(registration__user_id=user_id).order_by("-issued_at")


def events_judged(user) -> QuerySet[Event]:
    if not getattr(user, "is_authenticated", False):
        return Event.objects.none()
    if user.is_superuser:
        return Event.objects.all()
    return Event.objects.filter(pk__in=EventStaff.objects.filter(user=user).values("event_id")).distinct()


def events_head_judged(user) -> QuerySet[Event]:
    if not getattr(user, "is_authenticated", False):
        return Event.objects.none()
    if user.is_superuser:
        return Event.objects.all()
    return Event.objects.filter(
        pk__in=EventStaff.objects.filter(user=user, role=StaffRole.HEAD_JUDGE).values("event_id")
    )


def review_queue(user) -> QuerySet[Penalty]:
    """Penalties awaiting review in the events this user head-judges."""
    return (
        penalty_queryset()
        .filter(event__in=events_head_judged(user), status=PenaltyStatus.PENDING_REVIEW)
        .order_by("issued_at", "pk")
    )


def pending_appeals(user) -> QuerySet[Appeal]:
    return (
        Appeal.objects.select_related(
            "penalty", "penalty__event", "penalty__registration", "penalty__infraction", "penalty__issued_by"
        )
        .filter(penalty__event__in=events_head_judged(user), status=AppealStatus.PENDING)
        .order_by("submitted_at", "pk")
    )


def handled_sources(event: Event | int) -> set[str]:
    used = set(
        Penalty.objects.filter(event=event)
        .exclude(source="")
        .exclude(status=PenaltyStatus.WITHDRAWN)
        .values_list("source", flat=True)
    )
    return used | set(DismissedSource.objects.filter(event=event).values_list("source", flat=True))


def unhandled_timeout_picks(event: Event | int) -> list[Pick]:
    """Picks the timer made for a player that no judge has handled yet (penalised or dismissed)."""
    done = handled_sources(event)
    picks = (
        Pick.objects.select_related("seat__pod", "seat__registration")
        .filter(seat__pod__event=event, kind=PickKind.TIMEOUT, seat__registration__isnull=False)
        .order_by("made_at", "pk")
    )
    return [pick for pick in picks if f"pick:{pick.pk}" not in done]


def timeout_picks(event: Event, limit: int = 200) -> list[Pick]:
    """The event's automatic (timer) picks for a player, newest first: what may prompt a penalty."""
    return list(
        Pick.objects.select_related("seat__pod", "seat__registration")
        .filter(seat__pod__event=event, kind=PickKind.TIMEOUT, seat__registration__isnull=False)
        .order_by("-made_at", "-pk")[:limit]
    )


def deck_checks(event: Event, limit: int = 200) -> list:
    """The event's deck checks, newest first (through the event's relation: decks is not imported)."""
    return list(event.deck_checks.select_related("deck__registration").order_by("-at", "-pk")[:limit])


def prefill(*, event: Event, params) -> dict:
    """Initial values of the issue form from query parameters (all optional, all checked).

    ``source=pick:<id>`` (a timer pick of this event) fills in the player, the infraction
    (Limited Procedure Violation), the pod, the pack round and the pick number.
    """
    initial: dict = {}
    registration = whole_numbers.parse(params.get("registration", ""))
    if registration is not None and Registration.objects.filter(pk=registration, event=event).exists():
        initial["registration"] = registration
    code = params.get("infraction", "")
    if code and Infraction.objects.filter(code=code, active=True).exists():
        initial["infraction"] = code
    description = params.get("description", "")
    if description:
        initial["description"] = description[:2000]
    # A judge call's "issue a penalty" link also says where: the match round or the pod.
    match_round = whole_numbers.parse(params.get("match_round", ""), minimum=1, maximum=99)
    if match_round is not None:
        initial["match_round"] = match_round
    pod = whole_numbers.parse(params.get("pod", ""))
    if pod is not None and Pod.objects.filter(pk=pod, event=event).exists():
        initial["pod"] = pod
    _prefill_source(event, params.get("source", ""), initial)
    return initial


def _prefill_source(event: Event, source: str, initial: dict) -> None:
    """The source, if it is one; a timer pick of this event also says who, where and what."""
    try:
        parsed = parse_source(source)
    except DomainError:
        return
    if not parsed:
        return
    initial["source"] = f"{parsed[0]}:{parsed[1]}"
    if parsed[0] != "pick":
        return
    try:
        pick = source_pick(event=event, pick_id=parsed[1])
    except DomainError:
        initial.pop("source")
        return
    initial.setdefault("registration", pick.seat.registration_id)
    initial.setdefault("infraction", "limited_procedure_violation")
    initial["pod"] = pick.seat.pod_id
    initial["draft_round"] = pick.round
    initial["pick_number"] = pick.pick_number
    initial.setdefault(
        "description",
        gettext(
            "The pick timer ran out in pod %(pod)s, pack %(pack)s, pick %(pick)s; the card was picked automatically."
        )
        % {"pod": pick.seat.pod.number, "pack": pick.round, "pick": pick.pick_number},
    )


def player_report(*, q: str = "", user_id: int | None = None) -> list[dict]:
    """Penalties per player across events (staff): grouped by account, or by name for guests."""
    qs = penalty_queryset().order_by("registration__user_id", "registration__name", "-issued_at")
    if user_id is not None:
        qs = qs.filter(registration__user_id=user_id)
    if q:
        qs = qs.filter(Q(registration__name__icontains=q) | Q(registration__user__username__icontains=q))
    groups: OrderedDict = OrderedDict()
    for penalty in qs[:2000]:
        reg = penalty.registration
        key = f"user:{reg.user_id}" if reg.user_id else f"guest:{reg.name}"
        group = groups.setdefault(
            key,
            {
                "key": key,
                "user_id": reg.user_id,
                "name": reg.user.get_username() if reg.user_id else f"{reg.name} (guest)",
                "penalties": [],
                "counts": {},
            },
        )
        group["penalties"].append(penalty)
        group["counts"][penalty.penalty] = group["counts"].get(penalty.penalty, 0) + 1
    return list(groups.values())


CSV_COLUMNS = [
    "id",
    "issued_at",
    "event",
    "player",
    "infraction_code",
    "ipg_section",
    "category",
    "infraction",
    "penalty",
    "status",
    "default_penalty",
    "expected_penalty",
    "issued_penalty",
    "upgrade_reason",
    "deviation_reason",
    "match_round",
    "pod",
    "draft_round",
    "pick_number",
    "description",
    "fix",
    "source",
    "issued_by",
    "reviewed_by",
    "reviewed_at",
    "appeal",
]


def _cell(value) -> str:
    return safe_cell("" if value is None else str(value))


def penalty_row(p: Penalty) -> list[str]:
    appeal = getattr(p, "appeal", None) if hasattr(p, "appeal") else None
    return [
        _cell(v)
        for v in (
            p.pk,
            p.issued_at.isoformat(),
            p.event.name,
            p.registration.name,
            p.infraction.code,
            p.infraction.section,
            p.infraction.get_category_display(),
            p.infraction.name,
            p.penalty,
            p.status,
            p.default_penalty,
            p.expected_penalty,
            p.issued_penalty,
            p.upgrade_reason,
            p.deviation_reason,
            p.match_round,
            p.pod.number if p.pod_id else "",
            p.draft_round,
            p.pick_number,
            p.description,
            p.fix,
            p.source,
            p.issued_by.get_username() if p.issued_by_id else "",
            p.reviewed_by.get_username() if p.reviewed_by_id else "",
            p.reviewed_at.isoformat() if p.reviewed_at else "",
            f"{appeal.status}{':' + appeal.decision if appeal.decision else ''}" if appeal else "",
        )
    ]


def event_csv(event: Event) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for penalty in event_penalties(event).order_by("issued_at", "pk"):
        writer.writerow(penalty_row(penalty))
    return out.getvalue()


def event_summary(event: Event) -> dict:
    qs = Penalty.objects.filter(event=event)
    return {
        "total": qs.count(),
        "pending": qs.filter(status=PenaltyStatus.PENDING_REVIEW).count(),
        "withdrawn": qs.filter(status=PenaltyStatus.WITHDRAWN).count(),
        "by_penalty": {
            kind: qs.exclude(status=PenaltyStatus.WITHDRAWN).filter(penalty=kind).count() for kind in PenaltyKind.values
        },
    }
