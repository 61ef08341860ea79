#!/usr/bin/env python3
"""Benchmark: the deck check (decks.validation.validate) in decks per second, one process.

Generates 10,000 decks (seeded, reproducible): limited decks with their pools, constructed
decks with sideboards and commander decks, about half with double-faced cards represented by
official checklist or substitute cards (some of them faulty: unmarked, marked twice,
unofficial, not listed, one too many), the rest sleeved or not. Cards come from the catalogue
database when Django is configured and it holds cards (real DFCs and the checklist cards that
list them); otherwise from a synthetic card pool of the same shape. Only the check is timed:
names are resolved beforehand, as the Django layer does once per request.

Usage: ``bench/validate_decks [--decks N] [--seconds S] [--seed N] [--output PATH] [--synthetic]``
Writes ``bench/results/validate_decks.json``; exits 1 below the target.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from decks import validation as core  # noqa: E402  (plain Python: no Django needed)

TARGET = 5_000  # decks per second
BASICS = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


class Pool:
    """Cards to build decks from: basics, other cards, and DFCs with the checklists listing them."""

    def __init__(self, cards: list[core.CardInfo], checklists: list[core.Checklist], source: str):
        self.source = source
        self.basics = [c for c in cards if c.is_basic and c.name in BASICS]
        self.spells = [c for c in cards if not c.is_basic and not c.is_dfc]
        listed: dict = {}
        for checklist in checklists:
            for key in checklist.lists:
                listed.setdefault(key, []).append(checklist)
        self.dfcs = [c for c in cards if c.is_dfc and c.key in listed]
        self.listed = listed
        self.checklists = checklists
        self.commanders = [c for c in self.spells if c.color_identity]


def load_catalogue() -> Pool | None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "draftsite.settings")
    try:
        import django

        django.setup()
        from cards.models import Card, ChecklistCard
        from decks import adapter

        if not Card.objects.exists() or not ChecklistCard.objects.exists():
            return None
        infos = adapter.card_infos(Card.objects.all())
        labels = [str(pk) for pk in ChecklistCard.objects.values_list("pk", flat=True)]
        checklists = [c for group in adapter.resolve_checklists(labels).values() for c in group]
        pool = Pool(list(infos.values()), checklists, "catalogue")
        if len(pool.basics) < 5 or len(pool.dfcs) < 10:
            return None
        return pool
    except Exception as exc:  # no database, no tables, no settings: synthetic cards
        print(f"catalogue unavailable ({type(exc).__name__}: {exc}); using synthetic cards", file=sys.stderr)
        return None


def synthetic_pool() -> Pool:
    cards = [core.CardInfo(f"basic:{n}", n, is_basic=True, color_identity=c) for n, c in BASICS.items()]
    colors = "WUBRG"
    cards += [
        core.CardInfo(i, f"Spell {i:04d}", color_identity=colors[i % 5] + (colors[(i + 1) % 5] if i % 7 == 0 else ""))
        for i in range(1, 1500)
    ]
    dfcs = [
        core.CardInfo(10_000 + i, f"Front {i:03d} // Back {i:03d}", is_dfc=True, color_identity=colors[i % 5])
        for i in range(200)
    ]
    cards += dfcs
    checklists = [
        core.Checklist(
            20_000 + n,
            f"Checklist {n}",
            f"Checklist {n} (TST {n})",
            core.CHECKLIST if n % 2 else core.SUBSTITUTE,
            frozenset(d.key for d in dfcs[n * 20 : (n + 1) * 20]),
        )
        for n in range(10)
    ]
    return Pool(cards, checklists, "synthetic")


def front(card: core.CardInfo) -> str:
    return card.name.split(" // ")[0]


def represent(rng: random.Random, pool: Pool, dfc_copies: Counter) -> tuple[bool, list[core.ChecklistUse]]:
    """Sleeves and checklist cards for a deck's DFC copies: mostly right, sometimes not."""
    style = rng.random()
    if not dfc_copies or style < 0.3:
        return rng.random() < 0.8, []
    uses = []
    for card, count in dfc_copies.items():
        checklist = rng.choice(pool.listed[card.key])
        for _ in range(count):
            uses.append(core.ChecklistUse(checklist.name, (checklist,), (core.Mark(front(card), card),)))
    if style > 0.8 and uses:  # a faulty deck
        fault = rng.randrange(5)
        victim = rng.randrange(len(uses))
        use = uses[victim]
        if fault == 0:
            uses[victim] = core.ChecklistUse(use.given, use.candidates, ())
        elif fault == 1:
            other = rng.choice(pool.dfcs)
            uses[victim] = core.ChecklistUse(use.given, use.candidates, use.marked + (core.Mark(front(other), other),))
        elif fault == 2:
            uses[victim] = core.ChecklistUse("Homemade proxy", (), use.marked)
        elif fault == 3:
            uses.append(uses[victim])
        else:
            uses.pop(victim)
    return rng.random() < 0.5, uses


def make_deck(rng: random.Random, pool: Pool) -> core.DeckData:
    fmt = rng.choices(core.FORMATS, weights=(50, 35, 15))[0]
    policy = rng.choice(core.POLICIES)
    side: list[core.CardInfo] = []
    commander: list[core.Line] = []
    pool_lines = None
    if fmt == core.LIMITED:
        dfc_count = rng.randint(0, 3)
        spells = rng.sample(pool.spells, 23 - dfc_count) + rng.sample(pool.dfcs, dfc_count)
        main = Counter(spells)
        side = rng.sample(pool.spells, 6)
        basics = rng.sample(pool.basics, 2)
        lands = Counter({basics[0]: 9, basics[1]: 8 - (rng.random() < 0.05)})  # a few 39-card decks
        pool_counter = Counter(spells) + Counter(side)
        if rng.random() < 0.05:
            main[rng.choice(pool.spells)] += 1  # a card not opened
        pool_lines = [core.Line(front(c), n, c) for c, n in pool_counter.items()]
        main.update(lands)
    elif fmt == core.CONSTRUCTED:
        picks = rng.sample(pool.spells, 7) + rng.sample(pool.dfcs, rng.randint(0, 3))
        main = Counter({c: 4 for c in picks})
        main[rng.choice(pool.basics)] += 60 - sum(main.values()) + (rng.random() < 0.03)
        if rng.random() < 0.05:
            main[picks[0]] += 1  # five copies
        side = [c for c in rng.sample(pool.spells, 5) for _ in range(3)]
    else:
        leader = rng.choice(pool.commanders)
        commander = [core.Line(front(leader), 1, leader)]
        colors = set(leader.color_identity)
        fitting = [c for c in pool.spells if set(c.color_identity) <= colors and c is not leader]
        dfcs = [c for c in pool.dfcs if set(c.color_identity) <= colors]
        picks = rng.sample(fitting, min(58, len(fitting))) + rng.sample(dfcs, min(len(dfcs), rng.randint(0, 4)))
        if rng.random() < 0.05:
            picks.append(rng.choice(pool.spells))  # maybe outside the commander's colors (R39)
        main = Counter(picks)
        basics = [b for b in pool.basics if set(b.color_identity) <= colors] or pool.basics
        main[rng.choice(basics)] += 99 - sum(main.values())
    dfc_copies = Counter({c: n for c, n in (main + Counter(side)).items() if c.is_dfc})
    sleeves, uses = represent(rng, pool, dfc_copies)
    return core.DeckData(
        format=fmt,
        main=[core.Line(front(c), n, c) for c, n in main.items()],
        sideboard=[core.Line(front(c), n, c) for c, n in Counter(side).items()],
        commander=commander,
        pool=pool_lines,
        opaque_sleeves=sleeves,
        checklist_policy=policy,
        checklist_cards=uses,
    )


def measure(decks: list[core.DeckData], seconds: float) -> tuple[float, float, Counter, int]:
    start = time.perf_counter()
    reports = [core.validate(deck) for deck in decks]
    first = len(decks) / max(time.perf_counter() - start, 1e-9)
    codes = Counter(code for report in reports for code in report.codes)
    invalid = sum(1 for report in reports if not report.valid)
    checked, elapsed = 0, 0.0
    while elapsed < seconds:
        start = time.perf_counter()
        for deck in decks:
            core.validate(deck)
        elapsed += time.perf_counter() - start
        checked += len(decks)
    return first, checked / elapsed, codes, invalid


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=3.0, help="how long to repeat the measurement")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--output", default=str(ROOT / "bench" / "results" / "validate_decks.json"))
    parser.add_argument("--synthetic", action="store_true", help="skip the catalogue")
    args = parser.parse_args(argv)

    pool = None if args.synthetic else load_catalogue()
    pool = pool or synthetic_pool()
    rng = random.Random(args.seed)
    decks = [make_deck(rng, pool) for _ in range(args.decks)]
    first, rate, codes, invalid = measure(decks, args.seconds)

    result = {
        "benchmark": "decks.validation.validate",
        "source": pool.source,
        "decks": len(decks),
        "formats": dict(Counter(d.format for d in decks)),
        "decks_with_checklist_cards": sum(1 for d in decks if d.checklist_cards),
        "checklist_cards": sum(len(d.checklist_cards) for d in decks),
        "cards_checked": sum(line.count for d in decks for line in (*d.main, *d.sideboard, *d.commander)),
        "invalid_decks": invalid,
        "error_codes": dict(codes.most_common()),
        "first_pass_decks_per_second": round(first),
        "decks_per_second": round(rate),
        "target_decks_per_second": TARGET,
        "meets_target": rate >= TARGET,
        "seed": args.seed,
        "python": platform.python_version(),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(result, indent=2) + "\n")
    tmp.replace(output)
    print(
        f"validate(): {rate:,.0f} decks/s ({len(decks):,} {pool.source} decks, "
        f"{result['checklist_cards']:,} checklist cards, {invalid:,} invalid; first pass {first:,.0f}/s; "
        f"target {TARGET:,}/s) -> {output}"
    )
    return 0 if rate >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
