"""Every write of the penalties app: keyword arguments in, one transaction each, an audit row
for every change.

IPG rules implemented here (our summaries, see README/docs for the sections):
- the default penalty comes from the catalogue for the event's enforcement level;
- at Competitive and Professional REL a repeated Warning for the same infraction is upgraded to
  a Game Loss: the second for a Tournament Error (IPG 3 introduction), the third for a Game Play
  Error except Failure to Maintain Game State (IPG 2 introduction), the second Unsporting
  Conduct — Minor (IPG 4.1). Regular REL is educational (Judging at Regular REL): no automatic
  upgrades. For Game Play and Tournament Errors the count resets between the days of a
  multi-day tournament (IPG 2 and 3 introductions): only that day's Warnings count; Unsporting
  Conduct — Minor counts over the whole tournament;
- any other deviation from the default is the head judge's call, so it needs a reason and
  goes to the review queue, as does every Game Loss or heavier penalty;
- the head judge is the final authority at the event (MTR 1.7) and their rulings are final
  (MTR 2.9): a penalty the head judge issues is reviewed as it is issued, never left pending
  while its Game or Match Loss already counts; the player may appeal it only to another head
  judge of the event (an appeals judge), since with one head judge there is no second opinion.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from drafts.models import Pod
from draftsite.errors import ConflictError, DomainError, ForbiddenError, NotFoundError
from events.access import SYSTEM, Permission, authorize, recorded_user
from events.models import EnforcementLevel, Event, EventStaff, Registration, StaffRole
from penalties import error_codes, permissions
from penalties.models import (
    Appeal,
    AppealStatus,
    AuditAction,
    Category,
    Decision,
    DismissedSource,
    Infraction,
    Penalty,
    PenaltyAudit,
    PenaltyKind,
    PenaltyStatus,
    severity,
)
from penalties.signals import penalty_changed
from penalties.sources import parse_source, source_pick

DECISIONS = tuple(Decision.values)
MAX_TEXT = 5000

_CATEGORY_RULE = {
    Category.TOURNAMENT_ERROR: "IPG 3 (Tournament Errors)",
    Category.GAME_PLAY_ERROR: "IPG 2 (Game Play Errors)",
    Category.UNSPORTING_CONDUCT: "IPG 4.1 (Unsporting Conduct — Minor)",
}
_ORDINAL = {2: "second", 3: "third", 4: "fourth"}


# --- defaults and repeat upgrades ------------------------------------------------------


@dataclass(frozen=True)
class Expected:
    default: str  # the catalogue default for the REL
    expected: str  # after the automatic repeat upgrade
    upgrade_reason: str  # why it was upgraded ("" if not)
    earlier: tuple[int, ...]  # ids of the earlier warnings that count


# IPG 2 and 3: "for multi-day tournaments, the penalty count for these infractions resets
# between days".
_COUNTED_PER_DAY = (Category.GAME_PLAY_ERROR, Category.TOURNAMENT_ERROR)


def expected_penalty(*, infraction: Infraction, event: Event, registration_id: int, now=None) -> Expected:
    """What the IPG says this player gets for this infraction now (before any judge's call)."""
    default = infraction.default_for(event.enforcement_level)
    if (
        event.enforcement_level == EnforcementLevel.REGULAR
        or not infraction.upgrade_at
        or default != PenaltyKind.WARNING
    ):
        return Expected(default, default, "", ())
    counted = Penalty.objects.filter(
        event=event,
        registration_id=registration_id,
        infraction=infraction,
        default_penalty=PenaltyKind.WARNING,
    ).exclude(status=PenaltyStatus.WITHDRAWN)
    per_day = infraction.category in _COUNTED_PER_DAY
    if per_day:
        counted = counted.filter(issued_at__date=timezone.localdate(now or timezone.now()))
    earlier = tuple(counted.order_by("issued_at", "pk").values_list("pk", flat=True))
    number = len(earlier) + 1
    if number < infraction.upgrade_at:
        return Expected(default, default, "", earlier)
    rule = _CATEGORY_RULE.get(infraction.category, "The IPG")
    nth = _ORDINAL.get(infraction.upgrade_at, f"{infraction.upgrade_at}th")
    reason = (
        f"Repeat offence: this is Warning number {number} for {infraction.name} for this player "
        f"{'today (the count resets between the days of a tournament)' if per_day else 'in this tournament'}"
        f" (earlier: "
        f"{', '.join(f'#{pk}' for pk in earlier)}). {rule} upgrades the "
        f"{nth} and any later Warning for the same infraction to a Game Loss."
    )
    return Expected(default, PenaltyKind.GAME_LOSS, reason, earlier)


# --- helpers ---------------------------------------------------------------------------


def _text(value, *, code: str, field: str, message: str, required: bool = True) -> str:
    text = (value or "").strip() if isinstance(value, str) or value is None else None
    if text is None:
        raise DomainError(code, message, field=field)
    if required and not text:
        raise DomainError(code, message, field=field)
    if len(text) > MAX_TEXT:
        raise DomainError(
            error_codes.TOO_LONG, gettext("At most %(MAX_TEXT)s characters.") % {"MAX_TEXT": MAX_TEXT}, field=field
        )
    return text


def _kind(value, field: str = "penalty") -> str:
    if value not in PenaltyKind.values:
        raise DomainError(
            error_codes.INVALID_PENALTY,
            gettext("Penalty must be one of: %(join)s.") % {"join": ", ".join(PenaltyKind.values)},
            field=field,
        )
    return value


def _audit(
    penalty: Penalty,
    *,
    actor,
    action: str,
    at,
    reason: str = "",
    from_penalty: str = "",
    to_penalty: str = "",
    from_status: str = "",
    to_status: str = "",
) -> PenaltyAudit:
    return PenaltyAudit.objects.create(
        penalty=penalty,
        actor=recorded_user(actor),
        action=action,
        at=at,
        reason=reason,
        from_penalty=from_penalty,
        to_penalty=to_penalty,
        from_status=from_status,
        to_status=to_status,
    )


def _locked_penalty(penalty_id: int) -> Penalty:
    penalty = (
        Penalty.objects.select_for_update()
        .select_related("event", "registration", "infraction")
        .filter(pk=penalty_id)
        .first()
    )
    if penalty is None:
        raise NotFoundError(
            error_codes.UNKNOWN_PENALTY, gettext("No penalty has id %(penalty_id)s.") % {"penalty_id": penalty_id}
        )
    return penalty


def _judged_event(event_id: int, actor, refusal: str) -> Event:
    """The event, if ``actor`` judges it: 404 for no such event, else 403 with ``refusal``."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        raise NotFoundError(
            error_codes.UNKNOWN_EVENT, gettext("No event has id %(event_id)s.") % {"event_id": event_id}
        )
    authorize(actor, event, Permission.STAFF, message=refusal)
    return event


def _source_handled(event: Event, source: str) -> bool:
    return (
        Penalty.objects.filter(event=event, source=source).exclude(status=PenaltyStatus.WITHDRAWN).exists()
        or DismissedSource.objects.filter(event=event, source=source).exists()
    )


# --- issuing ---------------------------------------------------------------------------


@transaction.atomic
def issue_penalty(
    *,
    event_id: int,
    registration_id: int,
    infraction_code: str,
    actor,
    description: str,
    fix: str = "",
    penalty: str | None = None,
    deviation_reason: str = "",
    match_round: int | None = None,
    pod_id: int | None = None,
    draft_round: int | None = None,
    pick_number: int | None = None,
    source: str = "",
    judge_statement: str = "",
    now=None,
) -> Penalty:
    """A judge of the event records an infraction and its penalty.

    The penalty defaults to what the IPG says (catalogue default for the REL, upgraded for a
    repeat). Choosing anything else is a deviation: it needs a reason and the head judge.
    """
    now = now or timezone.now()
    event = _judged_event(event_id, actor, gettext("Only the event's judges may issue penalties."))
    infraction = _active_infraction(infraction_code)
    registration = _locked_registration(event, registration_id)
    description = _text(
        description, code=error_codes.DESCRIPTION_REQUIRED, field="description", message=gettext("Say what happened.")
    )
    fix = _text(fix, code=error_codes.INVALID, field="fix", message=gettext("The fix is text."), required=False)
    judge_statement = _text(
        judge_statement,
        code=error_codes.INVALID,
        field="judge_statement",
        message=gettext("The statement is text."),
        required=False,
    )
    if penalty is not None:
        _kind(penalty)
    place = _place(
        event,
        registration,
        pod=_event_pod(event, pod_id),
        draft_round=draft_round,
        pick_number=pick_number,
        source=source,
    )
    expected = expected_penalty(infraction=infraction, event=event, registration_id=registration.pk, now=now)
    chosen, deviation_reason, status = _choice(expected, penalty, deviation_reason)
    # MTR 2.9: the head judge's own ruling is final; nobody is left to review it.
    by_head_judge = permissions.is_head_judge(actor, event)
    if by_head_judge:
        status = PenaltyStatus.FINAL
    record = Penalty.objects.create(
        event=event,
        registration=registration,
        infraction=infraction,
        match_round=match_round,
        pod=place.pod,
        draft_round=place.draft_round,
        pick_number=place.pick_number,
        description=description,
        fix=fix,
        source=place.source,
        enforcement_level=event.enforcement_level,
        default_penalty=expected.default,
        expected_penalty=expected.expected,
        issued_penalty=chosen,
        penalty=chosen,
        upgrade_reason=expected.upgrade_reason,
        deviation_reason=deviation_reason,
        status=status,
        judge_statement=judge_statement,
        issued_by=actor,
        issued_at=now,
        reviewed_by=actor if by_head_judge else None,
        reviewed_at=now if by_head_judge else None,
    )
    _audit_issue(record, expected, actor=actor, at=now)
    penalty_changed.send(sender=Penalty, penalty=record)
    return record


def _active_infraction(code: str) -> Infraction:
    infraction = Infraction.objects.filter(code=code, active=True).first()
    if infraction is None:
        raise DomainError(
            error_codes.UNKNOWN_INFRACTION,
            gettext("No infraction in the catalogue has code %(infraction_code)s.") % {"infraction_code": repr(code)},
            field="infraction",
        )
    return infraction


def _locked_registration(event: Event, registration_id: int) -> Registration:
    # Lock the player's row: two judges recording the same repeat offence queue up here.
    registration = Registration.objects.select_for_update().filter(pk=registration_id).first()
    if registration is None or registration.event_id != event.pk:
        raise DomainError(
            error_codes.NOT_REGISTERED, gettext("That player is not registered for this event."), field="registration"
        )
    return registration


def _event_pod(event: Event, pod_id: int | None) -> Pod | None:
    if pod_id is None:
        return None
    pod = Pod.objects.filter(pk=pod_id, event=event).first()
    if pod is None:
        raise DomainError(error_codes.UNKNOWN_POD, gettext("That pod is not part of this event."), field="pod")
    return pod


@dataclass(frozen=True)
class _Place:
    """Where the infraction happened in the draft, and what prompted it."""

    source: str
    pod: Pod | None
    draft_round: int | None
    pick_number: int | None


def _place(
    event: Event,
    registration: Registration,
    *,
    pod: Pod | None,
    draft_round: int | None,
    pick_number: int | None,
    source: str,
) -> _Place:
    """The judge's pod, round and pick, completed from a timer pick named as the source."""
    parsed = parse_source(source)
    source = f"{parsed[0]}:{parsed[1]}" if parsed else ""
    if not (parsed and parsed[0] == "pick"):
        return _Place(source, pod, draft_round, pick_number)
    pick = source_pick(event=event, pick_id=parsed[1])
    if pick.seat.registration_id != registration.pk:
        raise DomainError(
            error_codes.SOURCE_MISMATCH, gettext("That pick was made for another player."), field="source"
        )
    if _source_handled(event, source):
        raise ConflictError(
            error_codes.ALREADY_HANDLED, gettext("That automatic pick has already been handled."), field="source"
        )
    if pod is None:
        pod = pick.seat.pod
    elif pod.pk != pick.seat.pod_id:
        raise DomainError(error_codes.SOURCE_MISMATCH, gettext("That pick was made in another pod."), field="pod")
    return _Place(source, pod, draft_round or pick.round, pick_number or pick.pick_number)


def _choice(expected: Expected, penalty: str | None, deviation_reason: str) -> tuple[str, str, str]:
    """(the penalty issued, the reason for deviating from the IPG's, the status): a deviation or a
    Game Loss or heavier waits for the head judge's review."""
    chosen = penalty or expected.expected
    deviation_reason = _text(
        deviation_reason,
        code=error_codes.REASON_REQUIRED,
        field="deviation_reason",
        message=gettext("Give the reason for deviating from the IPG penalty."),
        required=chosen != expected.expected,
    )
    if chosen == expected.expected:
        deviation_reason = ""
    needs_review = chosen != expected.expected or severity(chosen) >= severity(PenaltyKind.GAME_LOSS)
    return chosen, deviation_reason, PenaltyStatus.PENDING_REVIEW if needs_review else PenaltyStatus.FINAL


def _audit_issue(record: Penalty, expected: Expected, *, actor, at) -> None:
    """The automatic repeat upgrade (if any), then the judge's issue with its reason."""
    if expected.upgrade_reason:
        _audit(
            record,
            actor=SYSTEM,  # the repeat upgrade is the rules', not the judge's
            action=AuditAction.AUTO_UPGRADED,
            at=at,
            reason=expected.upgrade_reason,
            from_penalty=expected.default,
            to_penalty=expected.expected,
        )
    infraction, event = record.infraction, record.event
    why = record.deviation_reason or (
        f"Default for {infraction.name} (IPG {infraction.section}) at {event.get_enforcement_level_display()} REL"
        + (" after the repeat upgrade." if expected.upgrade_reason else ".")
    )
    _audit(
        record,
        actor=actor,
        action=AuditAction.ISSUED,
        at=at,
        reason=why,
        from_penalty=expected.expected,
        to_penalty=record.penalty,
        to_status=record.status,
    )


@transaction.atomic
def dismiss_source(*, event_id: int, source: str, actor, reason: str, now=None) -> DismissedSource:
    """A judge looked at an automatic pick and found nothing to penalise."""
    now = now or timezone.now()
    event = _judged_event(event_id, actor, gettext("Only the event's judges may do that."))
    parsed = parse_source(source)
    if parsed is None:
        raise DomainError(error_codes.INVALID_SOURCE, gettext("Say which pick you dismiss."), field="source")
    if parsed[0] == "pick":
        source_pick(event=event, pick_id=parsed[1])
    source = f"{parsed[0]}:{parsed[1]}"
    reason = _text(reason, code=error_codes.REASON_REQUIRED, field="reason", message=gettext("Give a reason."))
    if _source_handled(event, source):
        raise ConflictError(error_codes.ALREADY_HANDLED, gettext("That has already been handled."), field="source")
    return DismissedSource.objects.create(
        event=event, source=source, reason=reason, dismissed_by=actor, dismissed_at=now
    )


MAX_DISMISSED = 500  # automatic picks dismissed in one go (a whole event's timer picks fit)


@transaction.atomic
def dismiss_sources(*, event_id: int, sources: list[str], actor, reason: str, now=None) -> list[DismissedSource]:
    """A judge looked at several automatic picks and found nothing to penalise in any: one
    reason for all. All or nothing: a pick that is not this event's automatic pick, or that
    another judge handled meanwhile, refuses the whole dismissal (nothing is stored)."""
    now = now or timezone.now()
    event = _judged_event(event_id, actor, gettext("Only the event's judges may do that."))
    wanted = list(dict.fromkeys(str(source).strip() for source in sources or ()))
    if not wanted:
        raise DomainError(
            error_codes.NO_SOURCES, gettext("Choose at least one automatic pick to dismiss."), field="sources"
        )
    if len(wanted) > MAX_DISMISSED:
        raise DomainError(
            error_codes.TOO_MANY_SOURCES,
            gettext("At most %(count)s automatic picks at once.") % {"count": MAX_DISMISSED},
            field="sources",
        )
    keys = []
    for source in wanted:
        parsed = parse_source(source)
        if parsed is None or parsed[0] != "pick":
            raise DomainError(error_codes.INVALID_SOURCE, gettext("Say which pick you dismiss."), field="sources")
        source_pick(event=event, pick_id=parsed[1])
        keys.append(f"pick:{parsed[1]}")
    reason = _text(reason, code=error_codes.REASON_REQUIRED, field="reason", message=gettext("Give a reason."))
    # One judge's dismissal of many at a time per event; the unique constraint still settles a
    # single dismissal racing this one.
    Event.objects.select_for_update().filter(pk=event.pk).first()
    handled = [key for key in keys if _source_handled(event, key)]
    if handled:
        raise ConflictError(
            error_codes.ALREADY_HANDLED,
            gettext("%(count)s of the chosen picks were already handled: nothing was dismissed.")
            % {"count": len(handled)},
            field="sources",
            sources=handled,
        )
    try:
        with transaction.atomic():
            return DismissedSource.objects.bulk_create(
                [
                    DismissedSource(event=event, source=key, reason=reason, dismissed_by=actor, dismissed_at=now)
                    for key in keys
                ]
            )
    except IntegrityError:
        raise ConflictError(
            error_codes.ALREADY_HANDLED,
            gettext("Another judge dismissed one of these picks meanwhile: nothing was dismissed."),
            field="sources",
        ) from None


# --- review and appeals ----------------------------------------------------------------


def _transition(penalty: Penalty, decision: str, new_kind: str | None) -> tuple[str, str]:
    """(penalty in force, status) after a head judge's decision, or a refusal."""
    if decision not in DECISIONS:
        raise DomainError(
            error_codes.INVALID_DECISION,
            gettext("Decision must be one of: %(join)s.") % {"join": ", ".join(DECISIONS)},
            field="decision",
        )
    if new_kind is not None:
        _kind(new_kind)
    current = penalty.penalty
    if decision == Decision.UPHOLD:
        if new_kind not in (None, current):
            raise DomainError(
                error_codes.INVALID_TRANSITION,
                gettext("Upholding keeps the penalty as it is; to change it, upgrade or downgrade."),
                field="penalty",
            )
        return current, PenaltyStatus.FINAL
    if decision == Decision.WITHDRAW:
        if new_kind is not None:
            raise DomainError(
                error_codes.INVALID_TRANSITION, gettext("A withdrawal takes no new penalty."), field="penalty"
            )
        return current, PenaltyStatus.WITHDRAWN
    if new_kind is None:
        raise DomainError(
            error_codes.PENALTY_REQUIRED,
            gettext("Say which penalty to %(decision)s to.") % {"decision": decision},
            field="penalty",
        )
    if decision == Decision.UPGRADE and severity(new_kind) <= severity(current):
        raise DomainError(
            error_codes.INVALID_TRANSITION,
            gettext("An upgrade must be heavier than %(get_penalty_display)s.")
            % {"get_penalty_display": penalty.get_penalty_display()},
            field="penalty",
        )
    if decision == Decision.DOWNGRADE and severity(new_kind) >= severity(current):
        raise DomainError(
            error_codes.INVALID_TRANSITION,
            gettext("A downgrade must be lighter than %(get_penalty_display)s.")
            % {"get_penalty_display": penalty.get_penalty_display()},
            field="penalty",
        )
    return new_kind, PenaltyStatus.FINAL


def require_appellant(penalty: Penalty, actor) -> None:
    if not permissions.owns_penalty(actor, penalty):
        raise ForbiddenError(error_codes.NOT_YOUR_PENALTY, gettext("You can only appeal your own penalties."))


def require_statement_writer(penalty: Penalty, actor) -> None:
    if statement_role(penalty, actor) is None:
        raise ForbiddenError(
            error_codes.NOT_YOUR_PENALTY,
            gettext("Only the player, the issuing judge or the head judge write statements."),
        )


def require_reviewer(penalty: Penalty, actor) -> None:
    """The event's head judge, not the one who issued it (views check this before the body)."""
    authorize(actor, penalty.event_id, Permission.HEAD_JUDGE)
    if penalty.issued_by_id is not None and penalty.issued_by_id == getattr(actor, "pk", None):
        raise ForbiddenError(
            error_codes.CANNOT_REVIEW_OWN_PENALTY,
            gettext("You issued this penalty: another head judge must review it."),
        )


def check_decision(
    *, penalty: Penalty, actor, decision: str, reason: str, new_kind: str | None, appeal: bool = False
) -> tuple[str, str]:
    """Everything ``review_penalty``/``decide_appeal`` would refuse, without writing (the pages'
    confirm step). Returns the (penalty, status) the decision leads to."""
    require_reviewer(penalty, actor)
    _text(reason, code=error_codes.REASON_REQUIRED, field="reason", message=gettext("Give the reason."))
    existing = Appeal.objects.filter(penalty=penalty).first()
    if appeal:
        if existing is None:
            raise NotFoundError(error_codes.NO_APPEAL, gettext("This penalty has not been appealed."))
        if existing.status == AppealStatus.DECIDED:
            raise ConflictError(
                error_codes.APPEAL_DECIDED, gettext("This appeal has been decided; the decision is final.")
            )
    if penalty.status == PenaltyStatus.WITHDRAWN:
        raise ConflictError(
            error_codes.PENALTY_WITHDRAWN, gettext("This penalty was withdrawn; it takes no further decisions.")
        )
    if not appeal and existing is not None and existing.status == AppealStatus.DECIDED:
        raise ConflictError(
            error_codes.APPEAL_DECIDED,
            gettext("The head judge has decided the appeal on this penalty; that decision is final."),
        )
    if not appeal and penalty.reviewed_at is not None:
        # The head judge's review is the final decision; a player who disagrees appeals.
        raise ConflictError(
            error_codes.ALREADY_REVIEWED,
            gettext("The head judge has already reviewed this penalty; that decision is final."),
        )
    return _transition(penalty, decision, new_kind)


def _set_outcome(record: Penalty, kind: str, status: str, *, actor, at) -> None:
    """The head judge's decision takes effect (the review, or the appeal's decision)."""
    record.penalty, record.status = kind, status
    record.reviewed_by, record.reviewed_at = actor, at
    record.save(update_fields=["penalty", "status", "reviewed_by", "reviewed_at"])


def _close_appeal(appeal: Appeal, decision: str, reason: str, *, actor, at) -> None:
    appeal.status, appeal.decision, appeal.reason = AppealStatus.DECIDED, decision, reason
    appeal.decided_by, appeal.decided_at = actor, at
    appeal.save()


@transaction.atomic
def review_penalty(
    *, penalty_id: int, actor, decision: str, reason: str, penalty: str | None = None, now=None
) -> Penalty:
    """The head judge upholds, upgrades, downgrades or withdraws a penalty, with a reason."""
    now = now or timezone.now()
    record = _locked_penalty(penalty_id)
    appeal = Appeal.objects.select_for_update().filter(penalty=record).first()
    new_kind, new_status = check_decision(
        penalty=record, actor=actor, decision=decision, reason=reason, new_kind=penalty
    )
    reason = reason.strip()
    _audit(
        record,
        actor=actor,
        action=decision,
        at=now,
        reason=reason,
        from_penalty=record.penalty,
        to_penalty=new_kind,
        from_status=record.status,
        to_status=new_status,
    )
    _set_outcome(record, new_kind, new_status, actor=actor, at=now)
    if appeal is not None and new_status == PenaltyStatus.WITHDRAWN:
        # Nothing is left to appeal against: the appeal closes with the withdrawal.
        _close_appeal(appeal, Decision.WITHDRAW, reason, actor=actor, at=now)
    penalty_changed.send(sender=Penalty, penalty=record)
    return record


def appeal_can_be_heard(penalty: Penalty) -> bool:
    """MTR 2.9: an appeal goes to a head judge who did not make the ruling; a penalty the only
    head judge issued has nobody above it."""
    issuer = penalty.issued_by
    if issuer is None or not permissions.is_head_judge(issuer, penalty.event_id):
        return True
    heads = EventStaff.objects.filter(event_id=penalty.event_id, role=StaffRole.HEAD_JUDGE)
    return heads.exclude(user_id=issuer.pk).exists()


@transaction.atomic
def appeal_penalty(*, penalty_id: int, actor, statement: str, now=None) -> Appeal:
    """The penalised player appeals to the head judge (once per penalty)."""
    now = now or timezone.now()
    record = _locked_penalty(penalty_id)
    require_appellant(record, actor)
    statement = _text(
        statement, code=error_codes.STATEMENT_REQUIRED, field="statement", message=gettext("Say why you appeal.")
    )
    if record.status == PenaltyStatus.WITHDRAWN:
        raise ConflictError(
            error_codes.PENALTY_WITHDRAWN, gettext("This penalty was withdrawn; there is nothing to appeal.")
        )
    if Appeal.objects.filter(penalty=record).exists():
        raise ConflictError(error_codes.ALREADY_APPEALED, gettext("You have already appealed this penalty."))
    if not appeal_can_be_heard(record):
        raise ConflictError(
            error_codes.HEAD_JUDGE_RULING_FINAL,
            gettext("The head judge issued this penalty: the head judge's ruling is final and there is no appeal."),
        )
    appeal = Appeal.objects.create(penalty=record, statement=statement, submitted_by=actor, submitted_at=now)
    _audit(
        record,
        actor=actor,
        action=AuditAction.APPEALED,
        at=now,
        reason=statement,
        from_penalty=record.penalty,
        to_penalty=record.penalty,
        from_status=record.status,
        to_status=record.status,
    )
    return appeal


@transaction.atomic
def decide_appeal(
    *, penalty_id: int, actor, decision: str, reason: str, penalty: str | None = None, now=None
) -> Appeal:
    """The head judge decides an appeal; the decision is final."""
    now = now or timezone.now()
    record = _locked_penalty(penalty_id)
    Appeal.objects.select_for_update().filter(penalty=record).first()  # lock before checking
    new_kind, new_status = check_decision(
        penalty=record, actor=actor, decision=decision, reason=reason, new_kind=penalty, appeal=True
    )
    appeal = record.appeal
    reason = reason.strip()
    _audit(
        record,
        actor=actor,
        action=AuditAction.APPEAL_DECIDED,
        at=now,
        reason=f"{decision}: {reason}",
        from_penalty=record.penalty,
        to_penalty=new_kind,
        from_status=record.status,
        to_status=new_status,
    )
    _set_outcome(record, new_kind, new_status, actor=actor, at=now)
    _close_appeal(appeal, decision, reason, actor=actor, at=now)
    penalty_changed.send(sender=Penalty, penalty=record)
    return appeal


def decide(
    *, penalty_id: int, actor, decision: str, reason: str, penalty: str | None = None, appeal: bool, now=None
) -> Penalty | Appeal:
    """The head judge's decision: on the appeal (``decide_appeal``) or on the penalty itself
    (``review_penalty``)."""
    step = decide_appeal if appeal else review_penalty
    return step(penalty_id=penalty_id, actor=actor, decision=decision, reason=reason, penalty=penalty, now=now)


STATEMENT_FIELDS = {"player": "player_statement", "judge": "judge_statement", "head_judge": "head_judge_statement"}


def statement_role(penalty: Penalty, actor) -> str | None:
    """Whose statement this actor writes on this penalty, if any."""
    if permissions.owns_penalty(actor, penalty):
        return "player"
    if penalty.issued_by_id is not None and penalty.issued_by_id == getattr(actor, "pk", None):
        return "judge"
    if permissions.is_head_judge(actor, penalty.event_id):
        return "head_judge"
    return None


@transaction.atomic
def add_statement(*, penalty_id: int, actor, statement: str, now=None) -> Penalty:
    """The player, the issuing judge or the head judge writes their statement (for reports)."""
    now = now or timezone.now()
    record = _locked_penalty(penalty_id)
    require_statement_writer(record, actor)
    role = statement_role(record, actor)
    statement = _text(
        statement, code=error_codes.STATEMENT_REQUIRED, field="statement", message=gettext("Write the statement.")
    )
    field = STATEMENT_FIELDS[role]
    setattr(record, field, statement)
    record.save(update_fields=[field])
    _audit(
        record,
        actor=actor,
        action=AuditAction.STATEMENT,
        at=now,
        reason=f"{role.replace('_', ' ').capitalize()} statement: {statement}",
    )
    return record
