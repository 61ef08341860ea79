"""The called paper draft: which call is current, computed from the start, the pauses and the
judges' jumps. Plain Python (no Django: an import-linter contract holds it), so a test can
walk a whole draft in microseconds with any clock.

A pod's draft is a fixed sequence of *steps*. Each round has one timed step per pick, with
the seconds of the MTR table (``drafts.core.timing``, the digital draft's own table) for the cards
left in the pack; the last card has no timer (MTR), so it is taken as the round's review
starts. The review after rounds 1 and 2 is a step of its own, deck building follows round 3.

Time only runs while the pod is not paused: the position in the sequence is the active time
(wall time minus paused time) since the last *anchor*: the start, or a judge's jump (repeat a
pick, skip to the review, restart a round), which restarts the sequence at a given step with
its full time. Nothing is stored per call, so a caller page that slept, or a second page
joining late, computes the same call as everyone else from the same inputs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from drafts.core.timing import ROUNDS, pass_direction, pick_seconds, review_seconds

NOT_STARTED = "not_started"
PICK = "pick"
REVIEW = "review"
DECK_BUILDING = "deck_building"
DONE = "done"


@dataclass(frozen=True)
class Step:
    index: int
    phase: str  # PICK, REVIEW or DECK_BUILDING
    round: int
    pick: int | None  # 1-based pick number (pick steps)
    cards_left: int | None  # cards in the pack at this pick (pick steps)
    seconds: int

    @property
    def direction(self) -> str:
        return "left" if pass_direction(self.round) > 0 else "right"


@dataclass(frozen=True)
class Pause:
    start: dt.datetime
    end: dt.datetime | None = None  # None: still paused


@dataclass(frozen=True)
class Jump:
    """From ``at`` on, the sequence runs again from step ``step``, with its full time."""

    at: dt.datetime
    step: int


@dataclass(frozen=True)
class Segment:
    """A step with the wall-clock moments it begins and ends, if nothing else changes."""

    step: Step
    begins_at: dt.datetime
    ends_at: dt.datetime


@dataclass(frozen=True)
class Call:
    phase: str
    step: Step | None
    remaining_ms: int | None  # time left in the step (frozen while paused)
    paused: bool
    ends_at: dt.datetime | None  # when the step ends if nothing changes; None while paused
    starts_at: dt.datetime | None = None  # not started yet: when the first call comes

    @property
    def round(self) -> int:
        return self.step.round if self.step else 0

    @property
    def pick(self) -> int | None:
        return self.step.pick if self.step else None

    @property
    def direction(self) -> str | None:
        return self.step.direction if self.step else None


def steps(pack_size: int, deck_building_minutes: int = 25, rounds: int = ROUNDS) -> list[Step]:
    """Every step of a pod's draft, in order."""
    if pack_size < 2:
        raise ValueError("A pack has at least two cards.")
    out: list[Step] = []
    for round_number in range(1, rounds + 1):
        for pick in range(1, pack_size):  # the last card (pick == pack_size) has no timer
            cards_left = pack_size - pick + 1
            seconds = pick_seconds(cards_left)
            assert seconds is not None  # only a pack's last card has no clock
            out.append(Step(len(out), PICK, round_number, pick, cards_left, seconds))
        if round_number < rounds:
            out.append(Step(len(out), REVIEW, round_number, None, None, review_seconds(round_number)))
        else:
            out.append(Step(len(out), DECK_BUILDING, round_number, None, None, deck_building_minutes * 60))
    return out


def active_time(since: dt.datetime, until: dt.datetime, pauses: Iterable[Pause]) -> dt.timedelta:
    """Time in [since, until) outside every pause (overlapping pauses count once)."""
    if until <= since:
        return dt.timedelta(0)
    spans = sorted((max(p.start, since), min(p.end or until, until)) for p in pauses)
    paused = dt.timedelta(0)
    cursor = since
    for begin, end in spans:
        begin = max(begin, cursor)
        if end > begin:
            paused += end - begin
            cursor = end
    return (until - since) - paused


def _anchor(start: dt.datetime, jumps: Sequence[Jump], now: dt.datetime) -> tuple[dt.datetime, int]:
    anchor = (start, 0)
    for jump in sorted(jumps, key=lambda j: j.at):  # stable: same-instant jumps keep their order
        if start <= jump.at <= now:
            anchor = (jump.at, jump.step)
    return anchor


def _ms(delta: dt.timedelta) -> int:
    return delta // dt.timedelta(milliseconds=1)


def schedule(
    start: dt.datetime | None,
    pauses: Sequence[Pause],
    pack_size: int,
    now: dt.datetime,
    *,
    jumps: Sequence[Jump] = (),
    deck_building_minutes: int = 25,
) -> Call:
    """The call in force at ``now``."""
    if start is None or now < start:
        return Call(NOT_STARTED, None, None, False, None, starts_at=start)
    sequence = steps(pack_size, deck_building_minutes)
    anchor_at, index = _anchor(start, jumps, now)
    elapsed = active_time(anchor_at, now, pauses)
    paused = any(p.start <= now and (p.end is None or p.end > now) for p in pauses)
    for step in sequence[min(index, len(sequence)) :]:
        length = dt.timedelta(seconds=step.seconds)
        if elapsed < length:
            remaining = length - elapsed
            return Call(step.phase, step, _ms(remaining), paused, None if paused else now + remaining)
        elapsed -= length
    return Call(DONE, None, None, paused, None)


def timeline(
    start: dt.datetime | None,
    pauses: Sequence[Pause],
    pack_size: int,
    now: dt.datetime,
    *,
    jumps: Sequence[Jump] = (),
    deck_building_minutes: int = 25,
) -> list[Segment]:
    """The current step and every one after it, with wall-clock times, if nothing changes.

    Empty while paused, before the start and after the end: a page then shows the frozen
    call and waits for the next change. A page ticks through these by itself, so it needs
    the server only when a judge changes something.
    """
    call = schedule(start, pauses, pack_size, now, jumps=jumps, deck_building_minutes=deck_building_minutes)
    if call.step is None or call.paused:
        return []
    sequence = steps(pack_size, deck_building_minutes)
    ends = call.ends_at
    assert ends is not None  # a call that runs has an end
    out = [Segment(call.step, ends - dt.timedelta(seconds=call.step.seconds), ends)]
    for step in sequence[call.step.index + 1 :]:
        begins, ends = ends, ends + dt.timedelta(seconds=step.seconds)
        out.append(Segment(step, begins, ends))
    return out


def round_start_step(pack_size: int, round_number: int) -> int:
    """Index of the first pick of a round (each round is pack_size - 1 picks and one review)."""
    return (round_number - 1) * pack_size


def round_end_step(pack_size: int, round_number: int) -> int:
    """Index of the review (or deck building) that ends a round."""
    return round_number * pack_size - 1
