"""Penalties the site proposes from what it recorded (it never issues them: a judge issues or
dismisses each one, and the head judge reviews as for any other penalty).

- a decklist missing at its deadline: IPG 3.1 Tardiness (registration obligations not met in
  time); a list a judge had to correct after the deadline: IPG 3.4 Decklist Problem;
- a digital pick the timer made (the automatic-pick list): IPG 3.6 Limited Procedure Violation
  at Competitive and Professional REL, nothing at Regular (educational: no proposal);
- a result not reported when the table's time (with its extension) ran out: IPG 3.1
  Tardiness for both players, as the judge's starting point.

Each proposal carries the rule, the default at the event's REL and what the repeat rules make
of it now (penalties.services.expected_penalty, the same logic the issue form uses).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from decks.models import Deck, DeckCorrection
from decks.selectors import pool_checked
from drafts.models import Seat
from events.models import DeckFormat, EnforcementLevel, Event, Registration
from matches import selectors as match_selectors
from matches.models import Match, RoundState
from penalties import selectors as penalty_selectors
from penalties.models import Infraction, PenaltyKind
from penalties.services import expected_penalty

MAX_SOURCES = 200  # handled in one request: a round's worth of tables, one short transaction

TARDINESS, DECKLIST_PROBLEM, LPV = "tardiness", "decklist_problem", "limited_procedure_violation"


@dataclass(frozen=True)
class Target:
    registration: Registration
    default: str  # the catalogue default at the event's REL
    expected: str  # after the repeat upgrade
    counted: int  # earlier Warnings for this infraction that count (today, for IPG 2/3)
    upgrade_reason: str = ""  # why ``expected`` differs from ``default`` ("" when it does not)

    @property
    def default_label(self) -> str:
        return str(PenaltyKind(self.default).label)

    @property
    def expected_label(self) -> str:
        return str(PenaltyKind(self.expected).label)


@dataclass(frozen=True)
class Proposal:
    source: str  # penalties.sources format; a penalty or a dismissal with it handles it
    infraction: Infraction
    targets: tuple[Target, ...]
    facts: str  # what the site saw (the penalty's description when issued)
    match_round: int | None = None
    pod_id: int | None = None
    draft_round: int | None = None
    pick_number: int | None = None

    @property
    def rule(self) -> str:
        return f"IPG {self.infraction.section}"


def _targets(event: Event, infraction: Infraction, registrations, now) -> tuple[Target, ...]:
    out = []
    for registration in registrations:
        e = expected_penalty(infraction=infraction, event=event, registration_id=registration.pk, now=now)
        out.append(Target(registration, e.default, e.expected, len(e.earlier), e.upgrade_reason))
    return tuple(out)


def proposals(event: Event, now) -> list[Proposal]:
    done = penalty_selectors.handled_sources(event)
    catalogue = {i.code: i for i in Infraction.objects.filter(code__in=[TARDINESS, DECKLIST_PROBLEM, LPV])}
    found = _decklists(event, now, catalogue) + _timeout_picks(event, now, catalogue) + _results(event, now, catalogue)
    return [p for p in found if p.source not in done]


def _decklists(event: Event, now, catalogue) -> list[Proposal]:
    deadline = event.decklist_deadline
    if deadline is None or now < deadline:
        return []
    out = []
    with_deck = set(Deck.objects.filter(event=event).values_list("registration_id", flat=True))
    for registration in _expected_to_register(event).exclude(pk__in=with_deck).order_by("pk"):
        out.append(
            Proposal(
                f"decklist:{registration.pk}",
                catalogue[TARDINESS],
                _targets(event, catalogue[TARDINESS], [registration], now),
                f"No decklist registered by the deadline ({deadline:%Y-%m-%d %H:%M} UTC).",
            )
        )
    corrections = DeckCorrection.objects.filter(deck__event=event, at__gt=deadline).select_related("deck__registration")
    for correction in corrections.order_by("at", "pk"):
        out.append(
            Proposal(
                f"correction:{correction.pk}",
                catalogue[DECKLIST_PROBLEM],
                _targets(event, catalogue[DECKLIST_PROBLEM], [correction.deck.registration], now),
                f"Decklist corrected after the deadline: {correction.reason}",
            )
        )
    return out


def _expected_to_register(event: Event):
    """Who owes the event a decklist. Once the pods are seated, a limited deck is built from a
    seat's pile (or a sealed pool): a player with neither, such as the one whose seat was handed
    to another player, has nothing to register (the seat's new holder owes its deck)."""
    registrations = Registration.objects.filter(event=event)
    seated = Seat.objects.filter(pod__event=event, registration__isnull=False)
    if event.deck_format != DeckFormat.LIMITED or not pool_checked(event) or not seated.exists():
        return registrations
    return registrations.filter(Q(pk__in=seated.values("registration_id")) | Q(sealed_pool__isnull=False))


def _timeout_picks(event: Event, now, catalogue) -> list[Proposal]:
    if event.enforcement_level == EnforcementLevel.REGULAR:
        return []  # Regular REL is educational: a slow pick gets a word, not a penalty
    return [
        Proposal(
            f"pick:{pick.pk}",
            catalogue[LPV],
            _targets(event, catalogue[LPV], [pick.seat.registration], now),
            f"The pick timer ran out; the site picked automatically (pack {pick.round}, pick {pick.pick_number}).",
            pod_id=pick.seat.pod_id,
            draft_round=pick.round,
            pick_number=pick.pick_number,
        )
        for pick in penalty_selectors.unhandled_timeout_picks(event)
        if pick.seat.registration is not None
    ]


def _results(event: Event, now, catalogue) -> list[Proposal]:
    out = []
    matches = (
        Match.objects.filter(round__event=event, round__state=RoundState.RUNNING, player_b__isnull=False)
        .exclude(status="confirmed")
        .select_related("round", "player_a", "player_b")
        .order_by("round__number", "table")
    )
    for match in matches:
        deadline = match_selectors.table_deadline(match.round, match)
        if deadline is None or now < deadline:
            continue
        players = [match.player_a, match.player_b]
        out.append(
            Proposal(
                f"result:{match.pk}",
                catalogue[TARDINESS],
                _targets(event, catalogue[TARDINESS], players, now),
                f"No result reported for round {match.round.number}, table {match.table} when its time ran out.",
                match_round=match.round.number,
            )
        )
    return out


__all__ = ["MAX_SOURCES", "Proposal", "Target", "proposals"]
