"""Reads of the matches app (never writes): who plays, the history as the Swiss core sees it,
results with penalties applied, standings, round progress, clocks."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Q

from decks.models import Deck
from drafts.models import Pod, PodState, Seat
from events.models import Event, Registration
from matches.models import (
    Drop,
    EventMatchSettings,
    Match,
    MatchPenalty,
    MatchStatus,
    PairingMode,
    Round,
    RoundKind,
    RoundState,
)
from matches.swiss import Result, compute_standings
from penalties.models import PenaltyKind, PenaltyStatus

APPLIED_PENALTIES = (PenaltyKind.GAME_LOSS, PenaltyKind.MATCH_LOSS, PenaltyKind.DISQUALIFICATION)
LOSES_MATCH = (PenaltyKind.MATCH_LOSS, PenaltyKind.DISQUALIFICATION)
ADDITIONAL_TURNS = 5  # MTR 2.5: the active player finishes their turn (turn 0), then five more


@dataclass
class RoundOneWarning:
    """Why pairing round 1 now may be a mistake: players without a legal deck, pods still
    deck building (their clock running)."""

    no_deck: list[Registration]  # no deck registered
    illegal_deck: list[Registration]  # a deck that failed its check
    building_pods: list[Pod]  # pods whose deck-building time is not over

    def __bool__(self) -> bool:
        return bool(self.no_deck or self.illegal_deck or self.building_pods)

    @property
    def missing(self) -> int:
        return len(self.no_deck) + len(self.illegal_deck)

    def as_payload(self) -> dict:
        """The API's ``round_one_warning`` (``RoundOneWarningOutput``)."""

        def players(registrations: list[Registration]) -> list[dict]:
            return [{"registration": r.pk, "name": r.name} for r in registrations]

        return {
            "no_deck": players(self.no_deck),
            "illegal_deck": players(self.illegal_deck),
            "deck_building_pods": [{"pod": pod.pk, "number": pod.number} for pod in self.building_pods],
        }


def round_one_warning(event: Event, pod_id: int | None) -> RoundOneWarning | None:
    """What the organiser should know before pairing round 1 of a scope (None for later rounds)."""
    if Round.objects.filter(event_id=event.pk, pod_id=pod_id).exists():
        return None
    dropped = drops(event.pk)
    players = [r for r in scope_players(event, pod_id) if r.pk not in dropped]
    valid = dict(Deck.objects.filter(registration__in=[r.pk for r in players]).values_list("registration_id", "valid"))
    pods = Pod.objects.filter(event=event, state=PodState.DECK_BUILDING)
    if pod_id is not None:
        pods = pods.filter(pk=pod_id)
    return RoundOneWarning(
        no_deck=[r for r in players if r.pk not in valid],
        illegal_deck=[r for r in players if valid.get(r.pk) is False],
        building_pods=list(pods.order_by("number")),
    )


def match_settings(event_id: int) -> EventMatchSettings | None:
    return EventMatchSettings.objects.filter(event_id=event_id).first()


def scope_players(event: Event, pod_id: int | None) -> list[Registration]:
    """Who plays this Swiss: a pod's players in seat order, or the event's players by name.

    Across the event, players who drafted in a pod if the event has pods, else everybody
    registered (a sealed or constructed event).
    """
    if pod_id is not None:
        seats = Seat.objects.filter(pod_id=pod_id, registration__isnull=False).select_related("registration")
        return [seat.registration for seat in seats.order_by("position")]
    seated = Registration.objects.filter(event=event, seats__isnull=False).distinct()
    if seated.exists():
        return list(seated.order_by("name"))
    return list(Registration.objects.filter(event=event).order_by("name"))


def rounds_of(event_id: int, pod_id: int | None):
    return Round.objects.filter(event_id=event_id, pod_id=pod_id).order_by("number")


def has_next_round(rounds: list[Round], swiss_rounds: int, playoff_size: int) -> bool:
    """Whether pairing again would make a round (the same order as pairing: the planned Swiss
    rounds, then a playoff until one table is left), so no page offers a pairing that can only
    be refused (issue 46: "Pair next round" after the last Swiss round)."""
    swiss_played = sum(1 for r in rounds if r.kind == RoundKind.SWISS)
    if swiss_played < swiss_rounds:
        return True
    if not playoff_size:
        return False
    playoff = [r for r in rounds if r.kind == RoundKind.PLAYOFF]
    return not playoff or playoff[-1].matches.count() > 1


def event_rounds(event: Event, pod_id: int | None = None):
    """The event's rounds, pod by pod (only one pod's, given its id)."""
    rounds = Round.objects.filter(event=event).select_related("pod").order_by("pod__number", "number")
    return rounds if pod_id is None else rounds.filter(pod_id=pod_id)


def round_by_id(round_id: int) -> Round | None:
    return Round.objects.select_related("event", "pod").filter(pk=round_id).first()


def match_by_id(match_id: int) -> Match | None:
    return Match.objects.select_related("round", "round__event", "player_a", "player_b").filter(pk=match_id).first()


def latest_round(event_id: int, pod_id: int | None) -> Round | None:
    return rounds_of(event_id, pod_id).order_by("-number").first()


def drops(event_id: int) -> dict[int, Drop]:
    return {d.registration_id: d for d in Drop.objects.filter(registration__event_id=event_id)}


def penalties_by_match(match_ids) -> dict[int, list]:
    """Penalties in force (not withdrawn) that apply to each match."""
    links = (
        MatchPenalty.objects.filter(match_id__in=list(match_ids), penalty__penalty__in=APPLIED_PENALTIES)
        .exclude(penalty__status=PenaltyStatus.WITHDRAWN)
        .select_related("penalty", "penalty__infraction")
    )
    found: dict[int, list] = {}
    for link in links:
        found.setdefault(link.match_id, []).append(link.penalty)
    return found


@dataclass(frozen=True)
class Score:
    a_wins: int
    b_wins: int
    draws: int
    double_loss: bool = False
    penalised: bool = False


def effective_score(match: Match, penalties: list) -> Score | None:
    """The result that counts: the reported/entered score with penalties applied.

    A Match Loss or disqualification makes the match a 2-0 loss for that player (both: a loss
    for both); each Game Loss is a game won by the opponent (a side never exceeds two wins).
    None while the match has no result and no penalty decides it.
    """
    if match.is_bye:
        return Score(2, 0, 0)
    a_loses = any(p.penalty in LOSES_MATCH and p.registration_id == match.player_a_id for p in penalties)
    b_loses = any(p.penalty in LOSES_MATCH and p.registration_id == match.player_b_id for p in penalties)
    if a_loses and b_loses:
        return Score(0, 0, 0, double_loss=True, penalised=True)
    if a_loses:
        return Score(0, 2, 0, penalised=True)
    if b_loses:
        return Score(2, 0, 0, penalised=True)
    if match.status != MatchStatus.CONFIRMED:
        return None
    a_game_losses = sum(
        p.penalty == PenaltyKind.GAME_LOSS and p.registration_id == match.player_a_id for p in penalties
    )
    b_game_losses = sum(
        p.penalty == PenaltyKind.GAME_LOSS and p.registration_id == match.player_b_id for p in penalties
    )
    if a_game_losses or b_game_losses:
        return _with_game_losses(match, a_game_losses, b_game_losses)
    return Score(match.a_wins, match.b_wins, match.draws)


def _with_game_losses(match: Match, a_game_losses: int, b_game_losses: int) -> Score:
    """Each Game Loss is a game won by the opponent; a side never exceeds two wins."""
    b = min(2, match.b_wins + a_game_losses)
    a = min(2, match.a_wins + b_game_losses)
    if a == 2 and b == 2:  # the penalty decides the game the two wins clash over
        if a_game_losses > b_game_losses:
            a = 1
        elif b_game_losses > a_game_losses:
            b = 1
        else:
            a = b = 1
    return Score(a, b, match.draws, penalised=True)


# What ``history`` (and ``effective_score``) reads of a match; any other field would cost one
# query per match, which the pairing's bounded statement count (tests) would catch.
HISTORY_FIELDS = ("player_a", "player_b", "status", "a_wins", "b_wins", "draws", "round__number")


def history(event_id: int, pod_id: int | None, *, kind: str = RoundKind.SWISS) -> list[Result]:
    """Every decided match of the Swiss as the core sees it (registration ids as players)."""
    # Only what a result needs: every match of the Swiss is read at each pairing (5,000 rows by
    # round 10 of a 1,000-player event), and the unread dates were most of reading them.
    matches = list(
        Match.objects.filter(round__event_id=event_id, round__pod_id=pod_id, round__kind=kind)
        .select_related("round")
        .only(*HISTORY_FIELDS)
    )
    penalties = penalties_by_match(m.pk for m in matches)
    results = []
    for match in matches:
        score = effective_score(match, penalties.get(match.pk, []))
        if score is None:
            continue
        if match.is_bye:
            results.append(Result(match.round.number, match.player_a_id))
        else:
            results.append(
                Result(
                    match.round.number,
                    match.player_a_id,
                    match.player_b_id,
                    score.a_wins,
                    score.b_wins,
                    score.draws,
                    double_loss=score.double_loss,
                )
            )
    return results


@dataclass
class StandingRow:
    rank: int
    registration: Registration
    match_points: int
    record: str
    omw: float
    gw: float
    ogw: float
    dropped_after: int | None
    pod: int | None = None

    def as_dict(self) -> dict:
        return {
            "pod": self.pod,
            "rank": self.rank,
            "registration": self.registration.pk,
            "player": self.registration.name,
            "match_points": self.match_points,
            "record": self.record,
            "omw": self.omw,
            "gw": self.gw,
            "ogw": self.ogw,
            "dropped_after_round": self.dropped_after,
        }


def standings(event: Event, pod_id: int | None) -> list[StandingRow]:
    players = scope_players(event, pod_id)
    by_id = {r.pk: r for r in players}
    results = history(event.pk, pod_id)
    for result in results:  # a player moved out of the pod later still shows
        for player in result.players():
            if player not in by_id:
                by_id[player] = Registration.objects.get(pk=player)
    dropped = drops(event.pk)
    rows = compute_standings(list(by_id), results, name_of=lambda pk: by_id[pk].name.lower())
    out = []
    for row in rows:
        data = row.as_contract()
        drop = dropped.get(row.player)
        out.append(
            StandingRow(
                rank=data["rank"],
                registration=by_id[row.player],
                match_points=data["match_points"],
                record=data["record"],
                omw=data["omw"],
                gw=data["gw"],
                ogw=data["ogw"],
                dropped_after=drop.after_round if drop else None,
                pod=pod_id,
            )
        )
    return out


def event_standings(event: Event, pod_id: int | None = None) -> list[StandingRow]:
    """One pod's standings, or every scope's in turn (each pod's table in per-pod mode)."""
    if pod_id is not None:
        return standings(event, pod_id)
    rows = []
    for pod in scopes(event, match_settings(event.pk)):
        rows += standings(event, pod.pk if pod else None)
    return rows


def scopes(event: Event, settings_row: EventMatchSettings | None) -> list:
    """The pods that play their own Swiss (per-pod mode), or [None] for the whole event."""
    if settings_row is None or settings_row.mode == PairingMode.ACROSS_EVENT:
        return [None]
    return list(event.pods.order_by("number"))


def round_matches(round_obj: Round):
    return list(round_obj.matches.select_related("player_a", "player_b").order_by("table"))


def table_deadline(round_obj: Round, match: Match | None = None):
    if round_obj.ends_at is None:
        return None
    extra = match.extension_minutes if match is not None else 0
    return round_obj.ends_at + timedelta(minutes=extra)


def clock(round_obj: Round | None, now, match: Match | None = None) -> dict:
    """What a clock shows: seconds left (server time), and whether time has been called."""
    if round_obj is None:
        return {
            "state": "none",
            "remaining_seconds": None,
            "time_called": False,
            "ends_at": None,
            "extension_minutes": 0,
        }
    deadline = table_deadline(round_obj, match)
    remaining = None
    if deadline is not None and round_obj.state == RoundState.RUNNING:
        remaining = max(0, int((deadline - now).total_seconds()))
    return {
        "state": round_obj.state,
        "round": round_obj.number,
        "ends_at": deadline.isoformat() if deadline else None,
        "remaining_seconds": remaining,
        "time_called": remaining == 0,
        "extension_minutes": match.extension_minutes if match else 0,
        "additional_turns": ADDITIONAL_TURNS,
    }


@dataclass
class RoundProgress:
    round: Round
    tables: int
    outstanding: list
    disputed: list
    over_time: list  # running tables past their own deadline without a result


def round_progress(round_obj: Round, now) -> RoundProgress:
    matches = round_matches(round_obj)
    penalties = penalties_by_match(m.pk for m in matches)
    outstanding = [m for m in matches if effective_score(m, penalties.get(m.pk, [])) is None]
    over = []
    if round_obj.state == RoundState.RUNNING and round_obj.ends_at:
        over = [m for m in outstanding if now >= table_deadline(round_obj, m)]
    return RoundProgress(
        round=round_obj,
        tables=sum(1 for m in matches if not m.is_bye),
        outstanding=outstanding,
        disputed=[m for m in matches if m.status == MatchStatus.DISPUTED],
        over_time=over,
    )


def player_registration(user, event_id: int) -> Registration | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Registration.objects.filter(event_id=event_id, user=user).first()


def current_match(registration: Registration) -> Match | None:
    """The player's match in their latest round (the one to play or just played)."""
    return (
        Match.objects.filter(Q(player_a=registration) | Q(player_b=registration))
        .select_related("round", "player_a", "player_b")
        .order_by("-round__number", "-pk")
        .first()
    )


def matches_of(registration: Registration):
    return (
        Match.objects.filter(Q(player_a=registration) | Q(player_b=registration))
        .select_related("round", "player_a", "player_b")
        .order_by("round__number")
    )


# --- what each viewer may see -----------------------------------------------------------


def viewer_is_staff(user, event_id: int) -> bool:
    from events import permissions

    return permissions.sees_everything(user, event_id)


def _player(registration) -> dict | None:
    if registration is None:
        return None
    return {"registration": registration.pk, "name": registration.name}


def match_payload(match: Match, penalties: list, *, user=None, staff: bool = False) -> dict:
    """A match as the API shows it. Pairings and results are public; penalties and the
    players' reports only to the match's two players and the event's staff."""
    score = effective_score(match, penalties)
    data = {
        "id": match.pk,
        "round": match.round_id,
        "round_number": match.round.number,
        "table": match.table,
        "player_a": _player(match.player_a),
        "player_b": _player(match.player_b),
        "status": match.status,
        "result": None
        if score is None
        else {
            "a_wins": score.a_wins,
            "b_wins": score.b_wins,
            "draws": score.draws,
            "double_loss": score.double_loss,
            "penalised": score.penalised,
        },
        "extension_minutes": match.extension_minutes,
    }
    user_id = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    involved = user_id is not None and user_id in (
        getattr(match.player_a, "user_id", None),
        getattr(match.player_b, "user_id", None),
    )
    if staff or involved:
        data["penalties"] = [
            {
                "registration": p.registration_id,
                "penalty": p.penalty,
                **({"id": p.pk, "infraction": p.infraction.name} if staff else {}),
            }
            for p in penalties
        ]
        data["reports"] = [
            {
                "registration": r.registration_id,
                "a_wins": r.a_wins,
                "b_wins": r.b_wins,
                "draws": r.draws,
                "at": r.at.isoformat(),
            }
            for r in match.reports.all()
        ]
    return data


def round_payload(round_obj: Round, now, *, user=None, staff: bool = False, with_matches: bool = True) -> dict:
    matches = round_matches(round_obj)
    penalties = penalties_by_match(m.pk for m in matches)
    outstanding = sum(1 for m in matches if effective_score(m, penalties.get(m.pk, [])) is None)
    data = {
        "id": round_obj.pk,
        "event": round_obj.event_id,
        "pod": round_obj.pod_id,
        "number": round_obj.number,
        "kind": round_obj.kind,
        "state": round_obj.state,
        "seed": round_obj.seed,
        "minutes": round_obj.minutes,
        "started_at": round_obj.started_at,
        "ends_at": round_obj.ends_at,
        "rematches": round_obj.rematches,
        "outstanding": outstanding,
    }
    if with_matches:
        data["matches"] = [match_payload(m, penalties.get(m.pk, []), user=user, staff=staff) for m in matches]
    return data


def my_match_payload(registration: Registration, user, now) -> dict:
    match = current_match(registration)
    dropped = Drop.objects.filter(registration=registration).exists()
    if match is None:
        return {
            "registration": registration.pk,
            "dropped": dropped,
            "match": None,
            "opponent": None,
            "clock": clock(None, now),
        }
    penalties = penalties_by_match([match.pk]).get(match.pk, [])
    opponent = match.player_b if match.player_a_id == registration.pk else match.player_a
    return {
        "registration": registration.pk,
        "dropped": dropped,
        "match": match_payload(match, penalties, user=user),
        "opponent": _player(opponent),
        "clock": clock(match.round, now, match),
    }
