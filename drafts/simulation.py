"""A whole draft driven through the services with automatic drafters (command and benchmarks)."""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.utils import timezone

from drafts import services
from drafts.models import DraftCard, Pack, Pick, Pod, PodState, Seat
from events import services as event_services
from events.access import SYSTEM
from events.models import DraftFormat


@dataclass
class SimulationReport:
    event_id: int
    pod_id: int
    picks: Counter = field(default_factory=Counter)
    cards_opened: int = 0
    dfcs_opened: int = 0
    removed: Counter = field(default_factory=Counter)
    pile_sizes: dict[int, int] = field(default_factory=dict)
    conservation_errors: list[str] = field(default_factory=list)
    final_state: str = ""

    @property
    def conserved(self) -> bool:
        return not self.conservation_errors


def check_conservation(pod: Pod) -> list[str]:
    """Every opened card is in exactly one pack or pile; picks match piles; packs hold what they
    should. The arrays that say where a card is (``Pack.card_ids``, ``Seat.pile_ids``) are kept
    by the stored functions under the pod's lock; this is their invariant."""
    problems = []
    opened = set(DraftCard.objects.filter(pod=pod).values_list("pk", flat=True))
    packs = list(Pack.objects.filter(pod=pod).values_list("pk", "card_ids", "initial_size", "picks_made"))
    piles = list(Seat.objects.filter(pod=pod).values_list("position", "pile_ids"))
    places = Counter(pk for _, ids, *_ in packs for pk in ids) + Counter(pk for _, ids in piles for pk in ids)
    nowhere = len(opened - set(places))
    twice = sum(1 for n in places.values() if n > 1)
    strangers = len(set(places) - opened)
    if nowhere or twice or strangers:
        problems.append(f"{nowhere} card(s) in no place, {twice} in two places, {strangers} not of this pod")
    picked = sum(len(ids) for _, ids in piles)
    picks = Pick.objects.filter(seat__pod=pod).count()
    if picked != picks:
        problems.append(f"{picked} cards in piles but {picks} picks recorded")
    made = defaultdict(set)
    for position, pk in Pick.objects.filter(seat__pod=pod).values_list("seat__position", "draft_card_id"):
        made[position].add(pk)
    for position, ids in piles:
        if set(ids) != made[position]:
            problems.append(f"seat {position + 1}: the pile is not the cards its picks took")
    for pk, ids, initial_size, picks_made in packs:
        if len(ids) != initial_size - picks_made:
            problems.append(f"pack {pk}: holds {len(ids)} cards, expected {initial_size - picks_made}")
    return problems


def simulate_draft(
    *,
    set_code: str | None = None,
    cube_list: list[str] | None = None,
    players: int = 8,
    seed: int = 1,
    now: dt.datetime | None = None,
) -> SimulationReport:
    """Create an event, seat ``players`` automatic drafters and draft all three rounds."""
    now = now or timezone.now()
    event = services.create_event(
        name=f"Simulated {set_code or 'cube'} draft (seed {seed})",
        date=now.date(),
        draft_format=DraftFormat.CUBE if cube_list else DraftFormat.BOOSTER,
        set_codes=[set_code] if set_code else [],
        cube_list=cube_list or [],
    )
    registrations = [
        event_services.register_player(event_id=event.pk, name=f"Drafter {n}", actor=SYSTEM)
        for n in range(1, players + 1)
    ]
    # Drafters without accounts: seated as automatic drafters (``seat_players``, issues 27/28).
    (pod,) = services.seat_players(event_id=event.pk, seed=seed, pods=[[r.pk for r in registrations]], actor=SYSTEM)
    services.start_pod(pod_id=pod.pk, actor=SYSTEM, now=now)
    clock = now
    for _ in range(20):  # rounds and review clocks: a handful of steps
        pod.refresh_from_db()
        if pod.state in (PodState.DECK_BUILDING, PodState.DONE):
            break
        if pod.state == PodState.REVIEWING:
            services.advance_round(pod_id=pod.pk, actor=SYSTEM, now=clock)
        clock += dt.timedelta(minutes=5)
        services.enforce_deadlines(pod_id=pod.pk, now=clock)
    pod.refresh_from_db()
    report = SimulationReport(event_id=event.pk, pod_id=pod.pk, final_state=pod.state)
    report.picks = Counter(Pick.objects.filter(seat__pod=pod).values_list("kind", flat=True))
    cards = DraftCard.objects.filter(pod=pod)
    report.cards_opened = cards.count()
    report.dfcs_opened = cards.filter(is_dfc=True).count()
    for pack in Pack.objects.filter(pod=pod):
        report.removed.update(item["kind"] for item in pack.removed)
    report.pile_sizes = {
        position: len(ids) for position, ids in Seat.objects.filter(pod=pod).values_list("position", "pile_ids")
    }
    report.conservation_errors = check_conservation(pod)
    return report
