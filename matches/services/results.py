"""Results: players report and confirm, staff enter or correct; drops; penalties applied.

A player reports games won, lost and drawn from their own side. The first report waits for
the opponent: the same score from them (or their confirmation) makes it the result; a
different score makes the match disputed, for a judge to settle. The round row and then the
match row are locked, so two players reporting at once are serialised: one dispute at most,
never two results.
"""

from __future__ import annotations

import re

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from draftsite.errors import ConflictError, DomainError, ForbiddenError, NotFoundError
from events.access import Permission, authorize
from events.models import Registration
from matches import error_codes, selectors
from matches.models import (
    Drop,
    Match,
    MatchLogAction,
    MatchPenalty,
    MatchPlayer,
    MatchStatus,
    ReportKey,
    ResultReport,
    RoundKind,
    RoundState,
)
from matches.services.common import STAFF_ONLY, clean_text, lock_match, lock_settings, log, match_changed, notify
from matches.swiss.results import score_problem
from penalties.models import PenaltyStatus

IDEMPOTENCY_KEY_RE = re.compile(r"[A-Za-z0-9_-]{8,64}")

MAX_REASON = 500


def _side(match: Match, actor) -> str:
    """ "a" or "b": which player of the match the actor is; refuses anyone else."""
    user_id = getattr(actor, "pk", None) if getattr(actor, "is_authenticated", False) else None
    ids = dict(
        Registration.objects.filter(pk__in=[match.player_a_id, match.player_b_id or 0]).values_list("pk", "user_id")
    )
    if user_id is not None and ids.get(match.player_a_id) == user_id:
        return "a"
    if user_id is not None and match.player_b_id and ids.get(match.player_b_id) == user_id:
        return "b"
    raise ForbiddenError(error_codes.NOT_YOUR_MATCH, _("You can only report the result of your own match."))


def require_match_player(actor, match: Match) -> None:
    """Only the match's own players report and confirm its result."""
    _side(match, actor)


def _check_score(match: Match, a_wins, b_wins, draws) -> None:
    problem = score_problem(a_wins, b_wins, draws, playoff=match.round.kind == RoundKind.PLAYOFF)
    if problem:
        raise DomainError(
            error_codes.IMPOSSIBLE_SCORE,
            _("Impossible score %(a)s-%(b)s-%(d)s: %(why)s")
            % {"a": a_wins, "b": b_wins, "d": draws, "why": _(problem)},
        )


def _player_may_report(match: Match) -> None:
    if match.is_bye:
        raise DomainError(error_codes.BYE_HAS_NO_RESULT, _("A bye needs no result."))
    if match.round.state == RoundState.FINISHED:
        raise ConflictError(error_codes.ROUND_CLOSED, _("This round is closed: ask a judge to correct the result."))
    if match.round.state != RoundState.RUNNING:
        raise ConflictError(error_codes.ROUND_NOT_STARTED, _("This round has not started."))
    if match.status == MatchStatus.CONFIRMED:
        raise ConflictError(
            error_codes.RESULT_CONFIRMED, _("The result is already confirmed: ask a judge to correct it.")
        )


def _confirm(match: Match, a_wins: int, b_wins: int, draws: int, *, by, at) -> None:
    match.status, match.a_wins, match.b_wins, match.draws = MatchStatus.CONFIRMED, a_wins, b_wins, draws
    match.result_by = by if getattr(by, "is_authenticated", False) else None
    match.result_at = at
    match.save(update_fields=["status", "a_wins", "b_wins", "draws", "result_by", "result_at"])


def _check_key(key: object) -> str:
    if not isinstance(key, str) or not IDEMPOTENCY_KEY_RE.fullmatch(key):
        raise DomainError(
            error_codes.INVALID_IDEMPOTENCY_KEY,
            _("An idempotency key is 8 to 64 letters, digits, hyphens or underscores."),
            field="idempotency_key",
        )
    return key


@transaction.atomic
def report_result(*, match_id: int, actor, won: int, lost: int, drawn: int = 0, key: str = "", now=None) -> Match:
    """A player of the match reports it: games they won, lost, and drawn. With ``key`` (a
    result queued offline, sent again when the connection returns) a key already used answers
    the match as it stands: never a second report, whatever happened since."""
    now = now or timezone.now()
    match = lock_match(match_id)  # the row lock also orders two sends of one key
    side = _side(match, actor)
    mine_id = match.player_a_id if side == "a" else match.player_b_id
    theirs_id = match.player_b_id if side == "a" else match.player_a_id
    if key:
        _check_key(key)
        used = ReportKey.objects.filter(key=key).first()
        if used is not None:
            if (used.match_id, used.registration_id) != (match.pk, mine_id):
                raise ConflictError(
                    error_codes.INVALID_IDEMPOTENCY_KEY,
                    _("This idempotency key was used for another report."),
                    field="idempotency_key",
                )
            return match
    _player_may_report(match)
    a_wins, b_wins = (won, lost) if side == "a" else (lost, won)
    _check_score(match, a_wins, b_wins, drawn)
    if key:
        ReportKey.objects.create(key=key, match=match, registration_id=mine_id, at=now)
    ResultReport.objects.update_or_create(
        match=match, registration_id=mine_id, defaults={"a_wins": a_wins, "b_wins": b_wins, "draws": drawn, "at": now}
    )
    theirs = ResultReport.objects.filter(match=match, registration_id=theirs_id).first()
    if theirs is None:
        match.status = MatchStatus.REPORTED
        match.save(update_fields=["status"])
        action = MatchLogAction.REPORTED
    elif (theirs.a_wins, theirs.b_wins, theirs.draws) == (a_wins, b_wins, drawn):
        _confirm(match, a_wins, b_wins, drawn, by=actor, at=now)
        action = MatchLogAction.CONFIRMED
    else:
        match.status = MatchStatus.DISPUTED
        match.save(update_fields=["status"])
        action = MatchLogAction.DISPUTED
    return match_changed(
        match,
        actor=actor,
        action=action,
        at=now,
        reporter=mine_id,
        a_wins=a_wins,
        b_wins=b_wins,
        draws=drawn,
    )


@transaction.atomic
def confirm_result(*, match_id: int, actor, now=None) -> Match:
    """The opponent confirms the other player's report (settling a dispute their way)."""
    now = now or timezone.now()
    match = lock_match(match_id)
    side = _side(match, actor)
    _player_may_report(match)
    mine_id = match.player_a_id if side == "a" else match.player_b_id
    reports = {r.registration_id: r for r in match.reports.all()}
    theirs = next((r for reg, r in reports.items() if reg != mine_id), None)
    if theirs is None:
        if mine_id in reports:
            raise DomainError(
                error_codes.CANNOT_CONFIRM_OWN_REPORT, _("You reported this result: your opponent confirms it.")
            )
        raise DomainError(error_codes.NOTHING_TO_CONFIRM, _("Your opponent has not reported a result yet."))
    ResultReport.objects.update_or_create(
        match=match,
        registration_id=mine_id,
        defaults={"a_wins": theirs.a_wins, "b_wins": theirs.b_wins, "draws": theirs.draws, "at": now},
    )
    _confirm(match, theirs.a_wins, theirs.b_wins, theirs.draws, by=actor, at=now)
    return match_changed(
        match,
        actor=actor,
        action=MatchLogAction.CONFIRMED,
        at=now,
        reporter=mine_id,
        a_wins=theirs.a_wins,
        b_wins=theirs.b_wins,
        draws=theirs.draws,
    )


@transaction.atomic
def enter_result(
    *, match_id: int, actor, a_wins: int, b_wins: int, draws: int = 0, reason: str = "", now=None
) -> Match:
    """A judge or organiser enters or corrects a result (also after the round closed)."""
    now = now or timezone.now()
    match = lock_match(match_id)
    authorize(actor, match.round.event_id, Permission.STAFF, message=STAFF_ONLY)
    if match.is_bye:
        raise DomainError(error_codes.BYE_HAS_NO_RESULT, _("A bye needs no result."))
    if match.round.state == RoundState.PAIRED:
        raise ConflictError(error_codes.ROUND_NOT_STARTED, _("This round has not started."))
    _check_score(match, a_wins, b_wins, draws)
    reason = clean_text(reason, MAX_REASON)
    before = {"a_wins": match.a_wins, "b_wins": match.b_wins, "draws": match.draws, "status": match.status}
    corrected = match.status == MatchStatus.CONFIRMED
    if corrected and match.round.state == RoundState.FINISHED and not reason:
        raise DomainError(error_codes.REASON_REQUIRED, _("Say why a closed round's result changes."), field="reason")
    _confirm(match, a_wins, b_wins, draws, by=actor, at=now)
    action = MatchLogAction.CORRECTED if corrected else MatchLogAction.ENTERED
    return match_changed(
        match,
        actor=actor,
        action=action,
        at=now,
        before=before,
        a_wins=a_wins,
        b_wins=b_wins,
        draws=draws,
        reason=reason,
    )


def _last_round_played(registration_id: int) -> int:
    return MatchPlayer.objects.filter(registration_id=registration_id).aggregate(n=Max("round__number"))["n"] or 0


def _drop(registration: Registration, *, actor, reason: str, at) -> Drop:
    drop = Drop.objects.create(
        registration=registration,
        after_round=_last_round_played(registration.pk),
        reason=reason,
        by=actor if getattr(actor, "is_authenticated", False) else None,
        at=at,
    )
    log(
        registration.event_id,
        actor=actor,
        action=MatchLogAction.DROPPED,
        at=at,
        registration=registration.pk,
        after_round=drop.after_round,
        reason=reason,
    )
    return drop


@transaction.atomic
def drop_player(*, event_id: int, registration_id: int, actor, reason: str = "", now=None) -> Drop:
    """A player drops themselves, or staff drop them: never paired again, kept in standings."""
    now = now or timezone.now()
    lock_settings(event_id)
    registration = Registration.objects.filter(pk=registration_id, event_id=event_id).first()
    if registration is None:
        raise NotFoundError(error_codes.NOT_REGISTERED, _("That player is not registered for this event."))
    own = getattr(actor, "is_authenticated", False) and registration.user_id == actor.pk
    if not own:
        authorize(actor, event_id, Permission.STAFF, message=STAFF_ONLY)
    if Drop.objects.filter(registration=registration).exists():
        raise ConflictError(error_codes.ALREADY_DROPPED, _("That player has already dropped."))
    reason = clean_text(reason, 200)
    drop = _drop(registration, actor=actor, reason=reason, at=now)
    notify(event_id)
    return drop


@transaction.atomic
def apply_penalty(penalty, *, now=None) -> Match | None:
    """Hook for penalties.signals.penalty_changed (runs inside the penalty's transaction).

    A Game Loss, Match Loss or disqualification is linked to the match it belongs to: the
    player's match in the penalty's match round, else their match of the round in progress.
    Whether it still counts is read from the penalty (a withdrawn one doesn't). A
    disqualification also drops the player.
    """
    now = now or timezone.now()
    if penalty.penalty not in selectors.APPLIED_PENALTIES:
        return None
    mine = Q(player_a_id=penalty.registration_id) | Q(player_b_id=penalty.registration_id)
    matches = Match.objects.filter(mine, round__event_id=penalty.event_id).select_related("round")
    if penalty.match_round:
        match = matches.filter(round__number=penalty.match_round).first()
    else:
        match = matches.exclude(round__state=RoundState.FINISHED).order_by("-round__number").first()
    if match is not None and not match.is_bye:
        link, created = MatchPenalty.objects.get_or_create(penalty=penalty, defaults={"match": match})
        if created:
            log(
                penalty.event_id,
                actor=penalty.issued_by,
                action=MatchLogAction.PENALTY,
                at=now,
                round_obj=match.round,
                match=match,
                penalty=penalty.pk,
                kind=penalty.penalty,
                registration=penalty.registration_id,
            )
    if (
        penalty.penalty == "disqualification"
        and penalty.status != PenaltyStatus.WITHDRAWN
        and selectors.match_settings(penalty.event_id) is not None
    ):
        lock_settings(penalty.event_id)
        if not Drop.objects.filter(registration_id=penalty.registration_id).exists():
            _drop(
                penalty.registration,
                actor=penalty.reviewed_by or penalty.issued_by,
                reason=f"Disqualified (penalty #{penalty.pk})",
                at=now,
            )
    notify(penalty.event_id)
    return match
