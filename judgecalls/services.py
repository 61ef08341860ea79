"""Every write of judge calls: keyword arguments in (the acting user named), one transaction
each, a row lock on the call so two judges never both hold it, an event-log entry per step.

The life of a call: open -> claimed (one judge) -> [escalated -> claimed by the head judge]
-> resolved (ruling given, penalty issued, no action). A step that lost a race is refused
with a 409 naming what happened first; nothing is overwritten.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from drafts import extensions
from drafts import permissions as draft_permissions
from drafts.models import Seat
from draftsite.errors import ConflictError, DomainError, ForbiddenError, NotFoundError
from events.access import Permission, authorize
from events.models import Event
from events.services.staff import log_event
from judgecalls import error_codes, live, selectors
from judgecalls import proposals as site_proposals
from judgecalls.models import MAX_REASON, CallStatus, JudgeCall, Outcome
from matches import live as match_live
from matches import services as match_services
from matches.models import Match
from penalties import permissions as penalty_permissions
from penalties import services as penalty_services
from penalties.models import AuditAction, Penalty, PenaltyAudit
from penalties.sources import SOURCE_RE

LOG_CALLED = "judge_call.called"
LOG_CLAIMED = "judge_call.claimed"
LOG_ESCALATED = "judge_call.escalated"
LOG_EXTENSION = "judge_call.extension"
LOG_RESOLVED = "judge_call.resolved"
LOG_PROPOSALS_ISSUED = "proposals.issued"
LOG_PROPOSALS_DISMISSED = "proposals.dismissed"
MAX_SOURCES = site_proposals.MAX_SOURCES


def _reason(value, field: str = "reason") -> str:
    """A reason or note as stored: text of at most MAX_REASON characters, refused (never cut)
    when longer, so what the judge reads is what the caller wrote."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise DomainError(error_codes.INVALID, _("The reason is text."), field=field)
    text = value.replace("\x00", "").strip()
    if len(text) > MAX_REASON:
        raise DomainError(
            error_codes.TOO_LONG,
            _("Write at most %(limit)s characters; this text has %(length)s.")
            % {"limit": MAX_REASON, "length": len(text)},
            field=field,
        )
    return text


def _notify(call: JudgeCall) -> None:
    """The queue, the caller's call box (draft page) and the caller's match page hear of it
    once the change is committed."""
    event_id, call_id, caller_id = call.event_id, call.pk, call.caller_id
    transaction.on_commit(lambda: live.notify_queue(event_id, call_id))
    transaction.on_commit(lambda: live.notify_caller(caller_id))
    if call.match_id is not None:
        transaction.on_commit(lambda: match_live.notify_event(event_id))


def _create(
    *, event: Event, caller_id: int, match=None, seat=None, attachments=(), reason: str, actor, now
) -> JudgeCall:
    try:
        with transaction.atomic():
            call = JudgeCall.objects.create(
                event=event,
                caller_id=caller_id,
                match=match,
                seat=seat,
                attachments=list(attachments),
                reason=reason,
                created_at=now,
            )
    except IntegrityError as exc:
        # The partial unique index: this player already has a call waiting (a double tap).
        raise ConflictError(
            error_codes.ALREADY_CALLING, _("You have already called a judge; one is on the way.")
        ) from exc
    if match:
        where = {"table": match.table, "round": match.round.number}
    elif seat:
        where = {"pod": seat.pod.number, "seat": seat.position + 1}
    else:
        where = {"pools": [a.get("pool") for a in call.attachments]}
    log_event(event, now, LOG_CALLED, actor, call=call.pk, reason=reason, **where)
    _notify(call)
    return call


@transaction.atomic
def call_from_match(*, match_id: int, actor, reason: object = "", now=None) -> JudgeCall:
    """A player of the match calls a judge to their table (the round and table are known)."""
    now = now or timezone.now()
    match = Match.objects.select_related("round", "round__event").filter(pk=match_id).first()
    if match is None:
        raise NotFoundError(error_codes.UNKNOWN_MATCH, _("No match has id %(id)s.") % {"id": match_id})
    user_id = getattr(actor, "pk", None) if getattr(actor, "is_authenticated", False) else None
    players = {r.user_id: r.pk for r in (match.player_a, match.player_b) if r is not None and r.user_id}
    if user_id is None or user_id not in players:
        raise ForbiddenError(error_codes.NOT_YOUR_TABLE, _("Only the players of this match call a judge to it."))
    return _create(
        event=match.round.event, caller_id=players[user_id], match=match, reason=_reason(reason), actor=actor, now=now
    )


@transaction.atomic
def call_about_pools(*, event_id: int, caller_id: int, actor, attachments, reason: object = "", now=None) -> JudgeCall:
    """A sealed player disputes the pool they received (MTR 7.5): the call carries the pools
    (``attachments``, a snapshot). The sealed app checks the caller builds from the pool."""
    now = now or timezone.now()
    event = Event.objects.filter(pk=event_id).first()
    if event is None or not attachments:
        raise NotFoundError(error_codes.UNKNOWN_EVENT, _("No event has id %(id)s.") % {"id": event_id})
    return _create(
        event=event, caller_id=caller_id, attachments=attachments, reason=_reason(reason), actor=actor, now=now
    )


@transaction.atomic
def call_from_seat(*, seat_id: int, actor, reason: object = "", now=None) -> JudgeCall:
    """A drafter calls a judge to their seat (the pod and seat are known)."""
    now = now or timezone.now()
    seat = Seat.objects.select_related("pod", "pod__event", "registration").filter(pk=seat_id).first()
    if seat is None:
        raise NotFoundError(error_codes.UNKNOWN_SEAT, _("No seat has id %(id)s.") % {"id": seat_id})
    if seat.registration is None or not draft_permissions.owns_seat(actor, seat):
        raise ForbiddenError(error_codes.NOT_YOUR_SEAT, _("Only the player in this seat calls a judge to it."))
    return _create(
        event=seat.pod.event,
        caller_id=seat.registration.pk,  # owns_seat: the seat has a registration
        seat=seat,
        reason=_reason(reason),
        actor=actor,
        now=now,
    )


def _locked(call_id: int) -> JudgeCall:
    call = JudgeCall.objects.select_for_update().filter(pk=call_id).first()
    if call is None:
        raise NotFoundError(error_codes.UNKNOWN_CALL, _("No judge call has id %(id)s.") % {"id": call_id})
    return call


# The judge calls' wording of the staff refusal (the code is ``events.access``'s).
JUDGES_ONLY = gettext_lazy("Only the event's judges take judge calls.")


def _name(user) -> str:
    return (user.get_full_name() or user.get_username()) if user is not None else ""


def _refuse_resolved(call: JudgeCall) -> None:
    if call.status == CallStatus.RESOLVED:
        raise ConflictError(
            error_codes.CALL_RESOLVED,
            _("This call was resolved by %(judge)s.") % {"judge": _name(call.resolved_by)},
        )


def _may_act(call: JudgeCall, actor) -> None:
    """The judge who has the call acts on it; an escalated call is the head judge's."""
    head = penalty_permissions.is_head_judge(actor, call.event_id)
    if call.status == CallStatus.ESCALATED and not head:
        raise ConflictError(error_codes.ALREADY_ESCALATED, _("This call was escalated to the head judge."))
    if call.status == CallStatus.CLAIMED and call.claimed_by_id != actor.pk and not head:
        raise ConflictError(error_codes.NOT_CLAIMANT, _("%(judge)s has this call.") % {"judge": _name(call.claimed_by)})


@transaction.atomic
def claim_call(*, call_id: int, actor, now=None) -> JudgeCall:
    """A judge takes an open call (others then see who has it); the head judge takes an
    escalated one. Two judges claiming at once: the row lock lets one through, the other
    hears who has it."""
    now = now or timezone.now()
    call = _locked(call_id)
    authorize(actor, call.event_id, Permission.STAFF, message=JUDGES_ONLY)
    _refuse_resolved(call)
    if call.status == CallStatus.CLAIMED:
        raise ConflictError(
            error_codes.ALREADY_CLAIMED,
            _("%(judge)s has already claimed this call.") % {"judge": _name(call.claimed_by)},
            claimed_by=_name(call.claimed_by),
        )
    if call.status == CallStatus.ESCALATED and not penalty_permissions.is_head_judge(actor, call.event_id):
        raise ForbiddenError(error_codes.NOT_HEAD_JUDGE, _("Only the head judge takes an escalated call."))
    call.status, call.claimed_by, call.claimed_at = CallStatus.CLAIMED, actor, now
    call.save(update_fields=["status", "claimed_by", "claimed_at"])
    log_event(call.event, now, LOG_CLAIMED, actor, call=call.pk)
    _notify(call)
    extensions.notice_on_commit(extensions.JUDGE, call.pk)  # the caller's phone: a judge is on the way
    return call


@transaction.atomic
def escalate_call(*, call_id: int, actor, note: str = "", now=None) -> JudgeCall:
    """The floor judge hands the call to the head judge (an appeal, or a hard one)."""
    now = now or timezone.now()
    call = _locked(call_id)
    authorize(actor, call.event_id, Permission.STAFF, message=JUDGES_ONLY)
    _refuse_resolved(call)
    if call.status == CallStatus.ESCALATED:
        raise ConflictError(error_codes.ALREADY_ESCALATED, _("This call was already escalated to the head judge."))
    _may_act(call, actor)
    call.status, call.escalated_by, call.escalated_at = CallStatus.ESCALATED, actor, now
    call.save(update_fields=["status", "escalated_by", "escalated_at"])
    log_event(call.event, now, LOG_ESCALATED, actor, call=call.pk, note=_reason(note, "note"))
    _notify(call)
    return call


@transaction.atomic
def extend_time(*, call_id: int, actor, minutes: int, reason: str = "", now=None) -> JudgeCall:
    """A time extension given from the call: set on the match and logged there as any other
    extension (matches.services.grant_extension), and on the call's event log."""
    now = now or timezone.now()
    call = _locked(call_id)
    authorize(actor, call.event_id, Permission.STAFF, message=JUDGES_ONLY)
    _refuse_resolved(call)
    if call.match_id is None:
        raise DomainError(error_codes.NOT_A_MATCH_CALL, _("Only a call from a table has a round clock."))
    _may_act(call, actor)
    reason = _reason(reason) or _("Judge call #%(id)s") % {"id": call.pk}
    match_services.grant_extension(match_id=call.match_id, actor=actor, minutes=minutes, reason=reason, now=now)
    log_event(call.event, now, LOG_EXTENSION, actor, call=call.pk, minutes=minutes)
    _notify(call)
    return call


@transaction.atomic
def resolve_call(
    *, call_id: int, actor, outcome: str, note: str = "", penalty_id: int | None = None, now=None
) -> JudgeCall:
    """The judge closes the call with its outcome; a penalty issued for it is linked, and the
    penalty's audit trail says which call it came from."""
    now = now or timezone.now()
    if outcome not in Outcome.values:
        raise DomainError(
            error_codes.INVALID_OUTCOME,
            _("Outcome must be one of: %(join)s.") % {"join": ", ".join(Outcome.values)},
            field="outcome",
        )
    call = _locked(call_id)
    authorize(actor, call.event_id, Permission.STAFF, message=JUDGES_ONLY)
    _refuse_resolved(call)
    _may_act(call, actor)
    penalty = _call_penalty(call, penalty_id) if outcome == Outcome.PENALTY else None
    if outcome != Outcome.PENALTY and penalty_id is not None:
        raise DomainError(error_codes.INVALID, _("Only the outcome 'penalty' names a penalty."), field="penalty")
    note = _reason(note, "note")
    call.status, call.outcome, call.note = CallStatus.RESOLVED, outcome, note
    call.resolved_by, call.resolved_at, call.penalty = actor, now, penalty
    if call.claimed_by_id is None:
        call.claimed_by, call.claimed_at = actor, now
    call.save()
    if penalty is not None:
        PenaltyAudit.objects.create(
            penalty=penalty,
            actor=actor,
            action=AuditAction.JUDGE_CALL,
            at=now,
            reason=f"From judge call #{call.pk}" + (f": {note}" if note else ""),
            from_penalty=penalty.penalty,
            to_penalty=penalty.penalty,
        )
    log_event(
        call.event, now, LOG_RESOLVED, actor, call=call.pk, outcome=outcome, penalty=penalty.pk if penalty else None
    )
    _notify(call)
    extensions.notice_on_commit(extensions.JUDGE, call.pk)  # the caller's phone: the judge answered
    return call


def _call_penalty(call: JudgeCall, penalty_id) -> Penalty:
    if penalty_id is None:
        raise DomainError(error_codes.PENALTY_REQUIRED, _("Name the penalty issued for this call."), field="penalty")
    if not isinstance(penalty_id, int) or isinstance(penalty_id, bool):
        raise DomainError(error_codes.INVALID, _("The penalty is a number."), field="penalty")
    penalty = Penalty.objects.filter(
        pk=penalty_id, event_id=call.event_id, registration_id__in=selectors.call_players(call)
    ).first()
    if penalty is None:
        raise DomainError(
            error_codes.PENALTY_MISMATCH, _("That penalty is not for a player of this call."), field="penalty"
        )
    return penalty


# --- the site's proposals (judgecalls.proposals): a judge issues or dismisses them ---------


def _chosen_proposals(event_id: int, actor, sources, now):
    """The event's open proposals named by ``sources``, under the event's row lock (two judges
    acting on one proposal at once: the second finds it handled)."""
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise NotFoundError(error_codes.UNKNOWN_EVENT, _("No event has id %(id)s.") % {"id": event_id})
    authorize(actor, event.pk, Permission.STAFF, message=JUDGES_ONLY)
    if not isinstance(sources, list | tuple) or not sources or not all(isinstance(s, str) for s in sources):
        raise DomainError(error_codes.INVALID, _("Choose at least one proposal."), field="sources")
    if len(sources) > MAX_SOURCES:
        raise DomainError(
            error_codes.TOO_MANY_SOURCES,
            _("Handle at most %(count)s proposals at once.") % {"count": MAX_SOURCES},
            field="sources",
        )
    malformed = [s for s in sources if not SOURCE_RE.match(s)]
    if malformed:
        # A typo is bad input (400), not "someone handled it first" (409).
        raise DomainError(
            error_codes.INVALID_SOURCE,
            _('A proposal is named by its source as listed, such as "result:12": %(sources)s.')
            % {"sources": ", ".join(m[:60] for m in malformed[:5])},
            field="sources",
        )
    open_ones = {p.source: p for p in site_proposals.proposals(event, now)}
    missing = [s for s in sources if s not in open_ones]
    if missing:
        raise ConflictError(
            error_codes.PROPOSAL_HANDLED,
            _("Already handled or no longer proposed: %(sources)s.") % {"sources": ", ".join(missing)},
            sources=missing,
        )
    return event, [open_ones[s] for s in dict.fromkeys(sources)]


@transaction.atomic
def issue_proposals(*, event_id: int, actor, sources, now=None) -> list[Penalty]:
    """Issue the chosen proposals as penalties at their IPG default (repeat upgrades applied;
    a Game Loss or heavier goes to the head judge's review, as any penalty)."""
    now = now or timezone.now()
    event, chosen = _chosen_proposals(event_id, actor, sources, now)
    issued = []
    for proposal in chosen:
        for target in proposal.targets:
            issued.append(
                penalty_services.issue_penalty(
                    event_id=event.pk,
                    registration_id=target.registration.pk,
                    infraction_code=proposal.infraction.code,
                    actor=actor,
                    description=proposal.facts,
                    match_round=proposal.match_round,
                    pod_id=proposal.pod_id,
                    draft_round=proposal.draft_round,
                    pick_number=proposal.pick_number,
                    source=proposal.source,
                    now=now,
                )
            )
    log_event(event, now, LOG_PROPOSALS_ISSUED, actor, sources=[p.source for p in chosen])
    return issued


@transaction.atomic
def dismiss_proposals(*, event_id: int, actor, sources, reason: str, now=None) -> int:
    """Dismiss the chosen proposals (a judge looked and found nothing to penalise)."""
    now = now or timezone.now()
    event, chosen = _chosen_proposals(event_id, actor, sources, now)
    for proposal in chosen:
        penalty_services.dismiss_source(event_id=event.pk, source=proposal.source, actor=actor, reason=reason, now=now)
    log_event(event, now, LOG_PROPOSALS_DISMISSED, actor, sources=[p.source for p in chosen])
    return len(chosen)
