#!/usr/bin/env python3
"""Benchmark: Swiss pairings for a 2,048-player event, every round under one second.

Plays the MTR-recommended number of rounds (10 for 2,048 players) with random results from a
fixed seed (some draws, a few drops each round so byes happen), timing ``pair_round`` for
each round, and checks every pairing: nobody twice, no rematch, byes only to players without
one. Writes ``bench/results/pairings.json`` and prints the figures.

Usage: ``bench/pairings [--players N] [--rounds N] [--seed N] [--output PATH]``
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from matches.swiss import Result, compute_standings, pair_round, recommended_rounds  # noqa: E402

TARGET_SECONDS = 1.0


def random_result(rng: random.Random, round_number: int, a, b) -> Result:
    roll = rng.random()
    if roll < 0.05:
        return Result(round_number, a, b, 1, 1, 0)  # a draw
    wins = rng.choice([(2, 0), (2, 1)])
    if roll < 0.5:
        return Result(round_number, a, b, wins[0], wins[1], 0)
    return Result(round_number, a, b, wins[1], wins[0], 0)


def run(players: int, rounds: int, seed: int) -> dict:
    rng = random.Random(seed)
    everyone = [f"player{n:05d}" for n in range(players)]
    active = list(everyone)
    history: list[Result] = []
    timings, cpu_timings, byes, rematches = [], [], [], 0
    for number in range(1, rounds + 1):
        started, cpu_started = time.perf_counter(), time.process_time()
        pairing = pair_round(active, history, seed, number, everyone=everyone)
        timings.append(time.perf_counter() - started)
        cpu_timings.append(time.process_time() - cpu_started)  # what neighbours on the machine do not inflate
        seen = [p for table in pairing.tables for p in table] + ([pairing.bye] if pairing.bye else [])
        assert sorted(seen) == sorted(active), "every active player exactly once"
        played = {(r.a, r.b) for r in history if r.b} | {(r.b, r.a) for r in history if r.b}
        rematches += sum((a, b) in played for a, b in pairing.tables)
        if pairing.bye:
            assert pairing.bye not in {r.a for r in history if r.is_bye}, "a second bye"
            byes.append(pairing.bye)
            history.append(Result(number, pairing.bye))
        history.extend(random_result(rng, number, a, b) for a, b in pairing.tables)
        for leaver in rng.sample(active, k=min(len(active) - 2, 3 if number % 2 else 2)):
            active.remove(leaver)  # drops: odd and even counts alternate
    started = time.perf_counter()
    compute_standings(everyone, history)
    standings_seconds = time.perf_counter() - started
    return {
        "players": players,
        "rounds": rounds,
        "seed": seed,
        "pairing_seconds_per_round": [round(t, 4) for t in timings],
        "pairing_seconds_max": round(max(timings), 4),
        "pairing_seconds_mean": round(sum(timings) / len(timings), 4),
        "pairing_cpu_seconds_max": round(max(cpu_timings), 4),
        "pairing_cpu_seconds_mean": round(sum(cpu_timings) / len(cpu_timings), 4),
        "standings_seconds": round(standings_seconds, 4),
        "byes": len(byes),
        "rematches": rematches,
        "target_seconds": TARGET_SECONDS,
        "passed": max(timings) < TARGET_SECONDS and rematches == 0,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--output", default=str(ROOT / "bench" / "results" / "pairings.json"))
    args = parser.parse_args()
    rounds = args.rounds or recommended_rounds(args.players)
    figures = run(args.players, rounds, args.seed)
    figures.update(
        {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
    )
    Path(args.output).write_text(json.dumps(figures, indent=2) + "\n")
    print(
        f"{figures['players']} players, {figures['rounds']} rounds: pairing a round takes "
        f"{figures['pairing_seconds_mean']:.3f} s on average, {figures['pairing_seconds_max']:.3f} s at most "
        f"(target < {TARGET_SECONDS:.0f} s); standings {figures['standings_seconds']:.3f} s; "
        f"{figures['byes']} byes, {figures['rematches']} rematches -> {'PASS' if figures['passed'] else 'FAIL'}"
    )
    print(f"written to {args.output}")
    return 0 if figures["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
