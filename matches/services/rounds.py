"""Setting up matches, pairing rounds (Swiss or playoff), repairs, the round clock."""

from __future__ import annotations

import random
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from drafts import extensions
from drafts.models import Pod
from draftsite.errors import ConflictError, DomainError, NotFoundError
from events.access import Permission, authorize
from matches import error_codes, selectors
from matches.models import (
    EventMatchSettings,
    Match,
    MatchLogAction,
    MatchPlayer,
    MatchStatus,
    PairingMode,
    Round,
    RoundKind,
    RoundState,
)
from matches.services.common import (
    ORGANISERS_ONLY,
    STAFF_ONLY,
    clean_text,
    get_event,
    lock_match,
    lock_round,
    lock_settings,
    log,
    match_changed,
    notify,
    round_changed,
)
from matches.swiss import across_the_table, compute_standings, pair_round, recommended_rounds
from matches.swiss.playoff import playoff_first_round, playoff_next_round

MAX_ROUND_MINUTES = 240
MAX_EXTENSION_MINUTES = 60
POD_TABLES = 4  # pods seat at most eight: pod n plays at tables 4(n-1)+1 .. 4n


def _check_settings(mode: str, swiss_rounds: int | None, round_minutes: int, playoff_size: int) -> None:
    if mode not in PairingMode.values:
        raise DomainError(error_codes.INVALID_SETTINGS, _("Unknown pairing mode."), field="mode")
    if swiss_rounds is not None and not (1 <= swiss_rounds <= 20):
        raise DomainError(error_codes.INVALID_SETTINGS, _("Between 1 and 20 Swiss rounds."), field="swiss_rounds")
    if not (1 <= round_minutes <= MAX_ROUND_MINUTES):
        raise DomainError(error_codes.INVALID_SETTINGS, _("A round lasts 1 to 240 minutes."), field="round_minutes")
    if playoff_size not in (0, 4, 8):
        raise DomainError(
            error_codes.INVALID_SETTINGS, _("The playoff is none, a top 4 or a top 8."), field="playoff_size"
        )


@transaction.atomic
def configure_matches(
    *,
    event_id: int,
    actor,
    mode: str = PairingMode.PER_POD,
    swiss_rounds: int | None = None,
    round_minutes: int = 50,
    playoff_size: int = 0,
    seed: int | None = None,
    now=None,
) -> EventMatchSettings:
    """Create or change an event's match settings (the mode is fixed once a round exists)."""
    now = now or timezone.now()
    event = get_event(event_id)
    authorize(actor, event.pk, Permission.ORGANISER, message=ORGANISERS_ONLY)
    _check_settings(mode, swiss_rounds, round_minutes, playoff_size)
    row, created = EventMatchSettings.objects.get_or_create(
        event=event,
        defaults={"seed": seed if seed is not None else random.SystemRandom().randrange(2**48), "mode": mode},
    )
    row = EventMatchSettings.objects.select_for_update().get(pk=row.pk)
    has_rounds = Round.objects.filter(event=event).exists()
    if has_rounds and (row.mode != mode or (seed is not None and seed != row.seed)):
        raise ConflictError(
            error_codes.SETTINGS_LOCKED, _("The pairing mode and seed cannot change once rounds have been paired.")
        )
    before = {
        "mode": row.mode,
        "swiss_rounds": row.swiss_rounds,
        "round_minutes": row.round_minutes,
        "playoff_size": row.playoff_size,
    }
    row.mode, row.swiss_rounds, row.round_minutes, row.playoff_size = mode, swiss_rounds, round_minutes, playoff_size
    if seed is not None:
        row.seed = seed
    row.started_at = row.started_at or now
    row.save()
    log(
        event.pk,
        actor=actor,
        action=MatchLogAction.SETTINGS,
        at=now,
        before=None if created else before,
        after={
            "mode": mode,
            "swiss_rounds": swiss_rounds,
            "round_minutes": round_minutes,
            "playoff_size": playoff_size,
        },
    )
    notify(event.pk)
    return row


def _scope_pod(settings_row: EventMatchSettings, pod_id: int | None) -> Pod | None:
    if settings_row.mode == PairingMode.ACROSS_EVENT:
        if pod_id is not None:
            raise DomainError(
                error_codes.POD_NOT_ALLOWED, _("This event pairs across the event, not pod by pod."), field="pod"
            )
        return None
    if pod_id is None:
        raise DomainError(error_codes.POD_REQUIRED, _("Say which pod to pair."), field="pod")
    pod = Pod.objects.filter(pk=pod_id, event_id=settings_row.event_id).first()
    if pod is None:
        raise NotFoundError(error_codes.UNKNOWN_POD, _("That pod is not part of this event."))
    return pod


def swiss_round_count(settings_row: EventMatchSettings, players: int) -> int:
    return settings_row.swiss_rounds or recommended_rounds(players)


def _by_table(matches: list[Match]) -> list[Match]:
    """Matches as ``order_by("table")`` reads them back (the bye's table 0 first), without the
    read."""
    return sorted(matches, key=lambda m: m.table)


def _create_matches(round_obj: Round, tables: list, bye, offset: int, now) -> list[Match]:
    """Store a round's matches and who plays in each: two INSERTs whatever the round's size
    (one per match made pairing a 1,000-player round spend most of its time in statements).
    The tables in table order, then the bye, as ids were given before."""
    matches = [
        Match(round=round_obj, table=offset + index, player_a_id=a, player_b_id=b)
        for index, (a, b) in enumerate(tables, start=1)
    ]
    if bye is not None:
        # A bye is a match win 2-0 (MTR 3.1), decided from the start.
        matches.append(
            Match(
                round=round_obj,
                table=0,
                player_a_id=bye,
                status=MatchStatus.CONFIRMED,
                a_wins=2,
                b_wins=0,
                draws=0,
                result_at=now,
            )
        )
    Match.objects.bulk_create(matches)  # PostgreSQL returns the ids, in this order
    MatchPlayer.objects.bulk_create(
        MatchPlayer(round=round_obj, match=match, registration_id=player)
        for match in matches
        for player in (match.player_a_id, match.player_b_id)
        if player is not None
    )
    return matches


@transaction.atomic
def pair_next_round(*, event_id: int, actor, pod_id: int | None = None, now=None) -> Round:
    """Pair the next round of a pod (per-pod mode) or of the event: Swiss, then the playoff.

    Swiss round 1 of a pod pairs across the table (seat 1 v seat 5); every other Swiss round
    comes from the Swiss core with the event's stored seed, so it can be reproduced.
    """
    now = now or timezone.now()
    settings_row = lock_settings(event_id)
    authorize(actor, event_id, Permission.ORGANISER, message=ORGANISERS_ONLY)
    pod = _scope_pod(settings_row, pod_id)
    pod_id = pod.pk if pod else None
    event = settings_row.event
    previous = selectors.latest_round(event.pk, pod_id)
    if previous is not None and previous.state != RoundState.FINISHED:
        raise ConflictError(
            error_codes.ROUND_IN_PROGRESS, _("Round %(n)s is not finished yet.") % {"n": previous.number}
        )
    players = selectors.scope_players(event, pod_id)
    dropped = selectors.drops(event.pk)
    active = [r.pk for r in players if r.pk not in dropped]
    number = previous.number + 1 if previous else 1
    seed = f"{settings_row.seed}:{pod_id or 'event'}"
    swiss_played = Round.objects.filter(event=event, pod_id=pod_id, kind=RoundKind.SWISS).count()
    offset = (pod.number - 1) * POD_TABLES if pod else 0
    new_round = Round(event=event, pod=pod, number=number, seed=seed, minutes=settings_row.round_minutes, paired_at=now)
    if swiss_played < swiss_round_count(settings_row, len(players)):
        notes, matches = _pair_swiss(new_round, players, active, offset)
    else:
        tables = _playoff_tables(settings_row, event, pod_id, players, dropped)  # before the new round exists
        new_round.kind = RoundKind.PLAYOFF
        new_round.save(force_insert=True)
        matches = _create_matches(new_round, tables, None, offset, now)
        notes = []
    round_obj = new_round
    round_changed(
        round_obj,
        actor=actor,
        action=MatchLogAction.PAIRED,
        at=now,
        kind=round_obj.kind,
        tables=[[m.player_a_id, m.player_b_id] for m in _by_table(matches)],
        notes=notes,
    )
    extensions.notice_on_commit(extensions.PAIRINGS, round_obj.pk)  # accounts' mail, push's notice
    return round_obj


def _pair_swiss(round_obj: Round, players: list, active: list[int], offset: int) -> tuple[list, list[Match]]:
    """Store a Swiss round and its matches; returns the pairing's notes and the matches. Round 1
    of a pod pairs across the table; every other round comes from the Swiss core."""
    if len(active) < 2:
        raise DomainError(error_codes.TOO_FEW_PLAYERS, _("At least two players are needed to pair a round."))
    if round_obj.number == 1 and round_obj.pod is not None:
        pairing = across_the_table(active, seed=round_obj.seed, round_number=1)
    else:
        pairing = pair_round(
            active,
            selectors.history(round_obj.event_id, round_obj.pod_id),
            round_obj.seed,
            round_obj.number,
            everyone=[r.pk for r in players],
        )
    round_obj.kind, round_obj.rematches = RoundKind.SWISS, pairing.rematches
    round_obj.save(force_insert=True)
    return pairing.notes, _create_matches(round_obj, pairing.tables, pairing.bye, offset, round_obj.paired_at)


def _playoff_tables(settings_row, event, pod_id, players, dropped) -> list:
    size = settings_row.playoff_size
    if not size:
        raise ConflictError(error_codes.ALL_ROUNDS_PLAYED, _("Every round has been played."))
    playoff_rounds = list(Round.objects.filter(event=event, pod_id=pod_id, kind=RoundKind.PLAYOFF).order_by("number"))
    if not playoff_rounds:
        rows = compute_standings(
            [r.pk for r in players],
            selectors.history(event.pk, pod_id),
            name_of=lambda pk: next(p.name for p in players if p.pk == pk).lower(),
        )
        seeded = [row.player for row in rows if row.player not in dropped]
        if len(seeded) < size:
            raise DomainError(
                error_codes.TOO_FEW_PLAYERS, _("A top %(n)s needs %(n)s players who have not dropped.") % {"n": size}
            )
        return playoff_first_round(seeded, size)
    last = playoff_rounds[-1]
    matches = list(last.matches.order_by("table"))
    if len(matches) == 1:
        raise ConflictError(error_codes.ALL_ROUNDS_PLAYED, _("The playoff is over."))
    penalties = selectors.penalties_by_match(m.pk for m in matches)
    winners = []
    for match in matches:
        score = selectors.effective_score(match, penalties.get(match.pk, []))
        winners.append(match.player_a_id if score.a_wins > score.b_wins else match.player_b_id)
    return playoff_next_round(winners)


def _lock_round_for_organiser(round_id: int, actor) -> Round:
    """Lock the event's settings, then the round (the one lock order), for its organiser."""
    event_id = Round.objects.filter(pk=round_id).values_list("event_id", flat=True).first()
    if event_id is None:
        raise NotFoundError(error_codes.UNKNOWN_ROUND, _("No round has id %(id)s.") % {"id": round_id})
    lock_settings(event_id)
    authorize(actor, event_id, Permission.ORGANISER, message=ORGANISERS_ONLY)
    return lock_round(round_id)


def _placed(tables, bye) -> list[int]:
    """Every registration id a repair places, refused unless tables are pairs of ids."""
    if not isinstance(tables, list) or not all(
        isinstance(t, (list, tuple)) and len(t) == 2 and all(isinstance(p, int) for p in t) for t in tables
    ):
        raise DomainError(
            error_codes.INVALID_REPAIR, _("Give each table as a pair of registration ids."), field="tables"
        )
    if bye is not None and not isinstance(bye, int):
        raise DomainError(error_codes.INVALID_REPAIR, _("The bye is one registration id."), field="bye")
    placed = [p for table in tables for p in table] + ([bye] if bye is not None else [])
    if len(placed) != len(set(placed)):
        raise DomainError(error_codes.INVALID_REPAIR, _("A player is placed twice."), field="tables")
    return placed


def _check_everyone_placed_once(round_obj: Round, current: list[Match], placed: list[int], bye) -> None:
    """The repair places every player of the round who has not dropped, nobody else, and gives a
    bye only to an odd count."""
    dropped = selectors.drops(round_obj.event_id)
    for player in placed:
        if player in dropped:
            raise DomainError(
                error_codes.PLAYER_DROPPED, _("A dropped player cannot be paired."), field="tables", registration=player
            )
    in_round = {m.player_a_id for m in current} | {m.player_b_id for m in current if m.player_b_id}
    scope = {r.pk for r in selectors.scope_players(round_obj.event, round_obj.pod_id)} | in_round
    if not set(placed) <= scope:
        raise DomainError(
            error_codes.NOT_REGISTERED, _("Only players of this round's Swiss can be paired."), field="tables"
        )
    missing = {p for p in in_round if p not in dropped} - set(placed)
    if missing:
        raise DomainError(
            error_codes.INVALID_REPAIR,
            _("Every player of the round must be placed."),
            field="tables",
            missing=sorted(missing),
        )
    if (bye is not None) != (len(placed) % 2 == 1):
        raise DomainError(error_codes.INVALID_REPAIR, _("A bye is given only when the count is odd."), field="bye")


@transaction.atomic
def repair_pairings(*, round_id: int, actor, tables: list, bye: int | None = None, reason: str = "", now=None) -> Round:
    """The organiser re-pairs a round by hand before it starts (logged, with the old pairings).

    Every player of the round who has not dropped must be placed exactly once, and a dropped
    player cannot be paired.
    """
    now = now or timezone.now()
    round_obj = _lock_round_for_organiser(round_id, actor)
    if round_obj.state != RoundState.PAIRED:
        raise ConflictError(
            error_codes.ROUND_ALREADY_STARTED, _("Pairings can only be repaired before the round starts.")
        )
    placed = _placed(tables, bye)
    current = list(round_obj.matches.order_by("table"))
    _check_everyone_placed_once(round_obj, current, placed, bye)
    reason = clean_text(reason, 500)
    before = [[m.table, m.player_a_id, m.player_b_id] for m in current]
    offset = min((m.table for m in current if m.table), default=1) - 1
    round_obj.matches.all().delete()
    matches = _create_matches(round_obj, [tuple(t) for t in tables], bye, offset, now)
    round_changed(
        round_obj,
        actor=actor,
        action=MatchLogAction.REPAIRED,
        at=now,
        reason=reason,
        before=before,
        after=[[m.table, m.player_a_id, m.player_b_id] for m in _by_table(matches)],
    )
    extensions.notice_on_commit(extensions.PAIRINGS_REPAIRED, round_obj.pk)  # the new tables: push, no mail
    return round_obj


@transaction.atomic
def start_round(*, round_id: int, actor, now=None) -> Round:
    """Start the clock: the round ends ``minutes`` from now (extensions are per table)."""
    now = now or timezone.now()
    round_obj = _lock_round_for_organiser(round_id, actor)
    if round_obj.state != RoundState.PAIRED:
        raise ConflictError(error_codes.ROUND_ALREADY_STARTED, _("This round has already started."))
    round_obj.state, round_obj.started_at = RoundState.RUNNING, now
    round_obj.ends_at = now + timedelta(minutes=round_obj.minutes)
    round_obj.save(update_fields=["state", "started_at", "ends_at"])
    round_changed(
        round_obj,
        actor=actor,
        action=MatchLogAction.STARTED,
        at=now,
        ends_at=round_obj.ends_at.isoformat(),
    )
    extensions.notice_on_commit(extensions.ROUND_START, round_obj.pk)  # accounts' mail
    return round_obj


@transaction.atomic
def finish_round(*, round_id: int, actor, now=None) -> Round:
    """Close a round once every match has a result; players can no longer report."""
    now = now or timezone.now()
    round_obj = _lock_round_for_organiser(round_id, actor)
    if round_obj.state == RoundState.PAIRED:
        raise ConflictError(error_codes.ROUND_NOT_STARTED, _("This round has not started."))
    if round_obj.state == RoundState.FINISHED:
        raise ConflictError(error_codes.ROUND_CLOSED, _("This round is already closed."))
    progress = selectors.round_progress(round_obj, now)
    if progress.outstanding:
        raise ConflictError(
            error_codes.RESULTS_OUTSTANDING,
            _("Results are missing at tables %(tables)s.")
            % {"tables": ", ".join(str(m.table) for m in progress.outstanding)},
            tables=[m.table for m in progress.outstanding],
        )
    round_obj.state, round_obj.finished_at = RoundState.FINISHED, now
    round_obj.save(update_fields=["state", "finished_at"])
    return round_changed(round_obj, actor=actor, action=MatchLogAction.FINISHED, at=now)


@transaction.atomic
def grant_extension(*, match_id: int, actor, minutes: int, reason: str = "", now=None) -> Match:
    """A judge sets a table's time extension (minutes added to that table's clock)."""
    now = now or timezone.now()
    match = lock_match(match_id)
    authorize(actor, match.round.event_id, Permission.STAFF, message=STAFF_ONLY)
    if not isinstance(minutes, int) or isinstance(minutes, bool) or not 0 <= minutes <= MAX_EXTENSION_MINUTES:
        raise DomainError(error_codes.INVALID_EXTENSION, _("An extension is 0 to 60 minutes."), field="minutes")
    if match.round.state == RoundState.FINISHED:
        raise ConflictError(error_codes.ROUND_CLOSED, _("This round is closed."))
    if match.is_bye:
        raise DomainError(error_codes.BYE_HAS_NO_RESULT, _("A bye has no clock."))
    reason = clean_text(reason, 500)
    before = match.extension_minutes
    match.extension_minutes = minutes
    match.save(update_fields=["extension_minutes"])
    return match_changed(
        match,
        actor=actor,
        action=MatchLogAction.EXTENSION,
        at=now,
        before=before,
        after=minutes,
        reason=reason,
    )
