"""A whole draft driven through the services with automatic drafters (command and benchmarks)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.utils import timezone

from drafts import services
from drafts.access import SYSTEM
from drafts.models import DraftCard, DraftFormat, Pack, Pick, Pod, PodState, Seat


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
    """Every opened card is in exactly one pack or pile; picks match piles; piles are dense."""
    problems = []
    cards = DraftCard.objects.filter(pod=pod)
    nowhere = cards.filter(pack__isnull=True, seat__isnull=True).count()
    both = cards.filter(pack__isnull=False, seat__isnull=False).count()
    if nowhere or both:
        problems.append(f"{nowhere} card(s) in no place, {both} in two places")
    picked = cards.filter(seat__isnull=False).count()
    picks = Pick.objects.filter(seat__pod=pod).count()
    if picked != picks:
        problems.append(f"{picked} cards in piles but {picks} picks recorded")
    for seat in Seat.objects.filter(pod=pod).annotate(n=Count("pile")):
        positions = sorted(DraftCard.objects.filter(seat=seat).values_list("pile_position", flat=True))
        if positions != list(range(seat.n)):
            problems.append(f"seat {seat.position + 1}: pile positions are not 0..{seat.n - 1}")
    for pack in Pack.objects.filter(pod=pod).annotate(n=Count("cards")):
        if pack.n != pack.cards_left:
            problems.append(f"pack {pack.pk}: holds {pack.n} cards, expected {pack.cards_left}")
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
        services.register_player(event_id=event.pk, name=f"Drafter {n}", actor=SYSTEM) for n in range(1, players + 1)
    ]
    (pod,) = services.seat_players(event_id=event.pk, seed=seed, pods=[[r.pk for r in registrations]], actor=SYSTEM)
    Seat.objects.filter(pod=pod).update(is_automatic=True)
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
    report.pile_sizes = dict(
        Seat.objects.filter(pod=pod)
        .annotate(n=Count("pile", filter=Q(pile__isnull=False)))
        .values_list("position", "n")
    )
    report.conservation_errors = check_conservation(pod)
    return report
