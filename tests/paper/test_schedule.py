"""The call schedule (paper.schedule) against the MTR table, with pauses, resumes and judges'
jumps, on an injected clock. Pure Python: no database."""

from __future__ import annotations

import datetime as dt

import pytest

from drafts.core.timing import PICK_SECONDS, REVIEW_SECONDS
from paper import schedule
from paper.schedule import Jump, Pause

T0 = dt.datetime(2026, 11, 30, 18, 0, tzinfo=dt.UTC)


def s(n: float) -> dt.timedelta:
    return dt.timedelta(seconds=n)


# The MTR table as printed, pick by pick, for a 15-card pack (the last card has no timer).
MTR_15 = [40, 40, 35, 30, 25, 25, 20, 20, 15, 10, 10, 5, 5, 5]


def walk(pack_size: int, pauses=(), jumps=(), until: float = 4000.0, step: float = 0.25):
    """Every distinct call from the start, sampled on a fine clock: [(phase, round, pick, t)]."""
    seen: list[tuple] = []
    t = 0.0
    while t < until:
        call = schedule.schedule(T0, list(pauses), pack_size, T0 + s(t), jumps=list(jumps))
        key = (call.phase, call.round, call.pick)
        if not seen or seen[-1][:3] != key:
            seen.append((*key, t))
        if call.phase == schedule.DONE:
            break
        t += step
    return seen


def durations(calls):
    return [(phase, rnd, pick, round(calls[i + 1][3] - t, 2)) for i, (phase, rnd, pick, t) in enumerate(calls[:-1])]


@pytest.mark.parametrize("pack_size", [15, 14, 12])
def test_every_pick_gets_the_mtr_table_time_for_the_cards_left(pack_size):
    calls = walk(pack_size)
    got = durations(calls)
    expected = []
    for rnd in (1, 2, 3):
        for pick in range(1, pack_size):
            expected.append(("pick", rnd, pick, float(PICK_SECONDS[pack_size - pick + 1])))
        if rnd < 3:
            expected.append(("review", rnd, None, float(REVIEW_SECONDS[rnd])))
        else:
            expected.append(("deck_building", rnd, None, 25 * 60.0))
    assert got == expected
    assert calls[-1][:3] == ("done", 0, None)


def test_fifteen_card_pack_is_the_printed_table():
    assert [st.seconds for st in schedule.steps(15)[:14]] == MTR_15
    # A 14-card pack starts lower in the same table (drafts.core.timing); 12 lower still.
    assert [st.seconds for st in schedule.steps(14)[:13]] == MTR_15[1:]
    assert [st.seconds for st in schedule.steps(12)[:11]] == MTR_15[3:]


def test_passing_direction_is_left_right_left():
    calls = {st.round: st.direction for st in schedule.steps(15)}
    assert calls == {1: "left", 2: "right", 3: "left"}


def test_before_the_start_the_call_waits():
    call = schedule.schedule(T0, [], 15, T0 - s(5))
    assert call.phase == "not_started" and call.starts_at == T0 and call.step is None
    assert schedule.schedule(None, [], 15, T0).phase == "not_started"


def test_a_pause_freezes_the_call_and_a_resume_continues_with_the_time_left():
    # Paused 12 s into pick 1 (40 s) for 100 s: pick 1 ends at 140 s instead of 40 s.
    pauses = [Pause(T0 + s(12), T0 + s(112))]
    during = schedule.schedule(T0, pauses, 15, T0 + s(50))
    assert (during.phase, during.pick, during.paused, during.remaining_ms, during.ends_at) == (
        "pick",
        1,
        True,
        28_000,
        None,
    )
    after = schedule.schedule(T0, pauses, 15, T0 + s(120))
    assert (after.pick, after.paused, after.remaining_ms) == (1, False, 20_000)
    assert after.ends_at == T0 + s(140)
    calls = walk(15, pauses=pauses, until=200)
    assert [c[:3] for c in calls[:3]] == [("pick", 1, 1), ("pick", 1, 2), ("pick", 1, 3)]
    assert [c[3] for c in calls[1:3]] == [140, 180]


def test_an_open_pause_holds_for_ever():
    pauses = [Pause(T0 + s(30))]
    for later in (31, 500, 5000):
        call = schedule.schedule(T0, pauses, 15, T0 + s(later))
        assert (call.pick, call.paused, call.remaining_ms) == (1, True, 10_000)


def test_several_pauses_and_overlapping_ones_count_once():
    # Pod pause 10-20 s, flight pause 15-30 s (overlap), pod pause 50-55 s: 25 s paused by 60 s.
    pauses = [Pause(T0 + s(10), T0 + s(20)), Pause(T0 + s(15), T0 + s(30)), Pause(T0 + s(50), T0 + s(55))]
    assert schedule.active_time(T0, T0 + s(60), pauses) == s(35)
    call = schedule.schedule(T0, pauses, 15, T0 + s(60))
    assert (call.pick, call.remaining_ms) == (1, 5_000)


def test_review_and_deck_building_are_paused_too():
    review_at = sum(MTR_15)  # round 1's picks
    pauses = [Pause(T0 + s(review_at + 10), T0 + s(review_at + 70))]
    call = schedule.schedule(T0, pauses, 15, T0 + s(review_at + 40))
    assert (call.phase, call.round, call.paused, call.remaining_ms) == ("review", 1, True, 50_000)
    call = schedule.schedule(T0, pauses, 15, T0 + s(review_at + 70))
    assert (call.phase, call.remaining_ms, call.ends_at) == ("review", 50_000, T0 + s(review_at + 120))


def test_repeat_a_pick_restarts_it_with_full_time():
    # At 50 s pick 2 (40 s) has 30 s left; repeating it gives it 40 s again from 50 s.
    jumps = [Jump(T0 + s(50), 1)]
    call = schedule.schedule(T0, [], 15, T0 + s(60), jumps=jumps)
    assert (call.pick, call.remaining_ms) == (2, 30_000)
    assert schedule.schedule(T0, [], 15, T0 + s(90), jumps=jumps).pick == 3


def test_skip_to_review_and_restart_a_round():
    review = schedule.round_end_step(15, 1)
    jumps = [Jump(T0 + s(100), review)]
    call = schedule.schedule(T0, [], 15, T0 + s(101), jumps=jumps)
    assert (call.phase, call.round, call.remaining_ms) == ("review", 1, 59_000)
    assert schedule.schedule(T0, [], 15, T0 + s(160), jumps=jumps).step.index == schedule.round_start_step(15, 2)
    restart = jumps + [Jump(T0 + s(170), schedule.round_start_step(15, 2))]
    call = schedule.schedule(T0, [], 15, T0 + s(175), jumps=restart)
    assert (call.round, call.pick, call.direction, call.remaining_ms) == (2, 1, "right", 35_000)


def test_a_jump_while_paused_waits_for_the_resume():
    pauses = [Pause(T0 + s(10), T0 + s(60))]
    jumps = [Jump(T0 + s(30), 0)]  # repeat pick 1 during the pause
    call = schedule.schedule(T0, pauses, 15, T0 + s(59), jumps=jumps)
    assert (call.pick, call.paused, call.remaining_ms) == (1, True, 40_000)
    assert schedule.schedule(T0, pauses, 15, T0 + s(99), jumps=jumps).remaining_ms == 1_000


def test_timeline_lists_the_calls_ahead_with_wall_times():
    pauses = [Pause(T0 + s(5), T0 + s(15))]
    segments = schedule.timeline(T0, pauses, 15, T0 + s(20))
    assert segments[0].step.pick == 1 and segments[0].ends_at == T0 + s(50)
    assert [seg.step.seconds for seg in segments[:14]] == MTR_15
    assert all(a.ends_at == b.begins_at for a, b in zip(segments, segments[1:]))
    assert segments[-1].step.phase == "deck_building"
    assert schedule.timeline(T0, [Pause(T0 + s(5))], 15, T0 + s(20)) == []  # paused: nothing ahead


def test_timeline_agrees_with_schedule_at_every_boundary():
    jumps = [Jump(T0 + s(77), 2)]
    pauses = [Pause(T0 + s(3), T0 + s(9))]
    now = T0 + s(80)
    for seg in schedule.timeline(T0, pauses, 14, now, jumps=jumps):
        call = schedule.schedule(T0, pauses, 14, seg.begins_at + s(0.001), jumps=jumps)
        if seg.begins_at > now:
            assert call.step == seg.step


def test_a_pack_needs_two_cards():
    with pytest.raises(ValueError):
        schedule.steps(1)
