#!/usr/bin/env python3
"""Benchmark: rules-core characteristics() evaluations per second over every catalogue card.

Loads every card from the catalogue database (through ``rulesdesk.adapter``) when Django is
configured and the catalogue has cards; otherwise falls back to the seed cards of the rules
tests. Each card is evaluated in several states (library, hand, stack, battlefield, tapped,
face down with disguise/manifest/cloak, back face up, flipped, lost abilities) and the figure
is written to ``bench/results/rules.json``.

Usage: ``bench/rules [--seconds N] [--output PATH] [--seed-only]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET = 200_000  # evaluations per second


def load_catalogue() -> list | None:
    """Every catalogue card as CardData, or None when Django or the catalogue isn't there."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "draftsite.settings")
    try:
        import django

        django.setup()
        from cards.models import Card
        from rulesdesk.adapter import iter_card_data

        if not Card.objects.exists():
            return None
        cards = Card.objects.prefetch_related("faces").order_by("pk").iterator(chunk_size=2000)
        return list(iter_card_data(cards))
    except Exception as exc:  # no database, no tables, no settings: use the seed cards
        print(f"catalogue unavailable ({type(exc).__name__}: {exc}); using the seed cards", file=sys.stderr)
        return None


def load_seed() -> list:
    from tests.cards.rules.seed_cards import ALL_CARDS

    return list(ALL_CARDS)


def objects_for(cards: list) -> list:
    """Each card in every state the core distinguishes."""
    from cards.rules import GameObject

    objects = []
    for card in cards:
        objects.append(GameObject(card=card, zone="library"))
        objects.append(GameObject(card=card, zone="hand"))
        objects.append(GameObject(card=card, zone="graveyard"))
        objects.append(GameObject(card=card, zone="stack"))
        objects.append(GameObject(card=card, zone="battlefield"))
        objects.append(GameObject(card=card, zone="battlefield", tapped=True, lost_abilities=True))
        objects.append(GameObject(card=card, zone="stack", face_down=True, face_down_by="disguise"))
        objects.append(GameObject(card=card, zone="battlefield", face_down=True, face_down_by="manifest"))
        objects.append(GameObject(card=card, zone="battlefield", face_down=True, face_down_by="cloak"))
        if len(card.faces) > 1:
            objects.append(GameObject(card=card, zone="battlefield", face_up="back"))
            objects.append(GameObject(card=card, zone="stack", face_up="back"))
        if card.is_flip:
            objects.append(GameObject(card=card, zone="battlefield", flipped=True))
    return objects


def measure(objects: list, seconds: float) -> tuple[float, float, int]:
    """(first-pass rate, mean rate over ``seconds``, evaluations); the first pass fills the
    per-card memo."""
    from cards.rules import characteristics

    start = time.perf_counter()
    for obj in objects:
        characteristics(obj)
    cold = len(objects) / max(time.perf_counter() - start, 1e-9)

    evaluations = 0
    elapsed = 0.0
    while elapsed < seconds:
        start = time.perf_counter()
        for obj in objects:
            characteristics(obj)
        elapsed += time.perf_counter() - start
        evaluations += len(objects)
    return cold, evaluations / elapsed, evaluations


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="how long to measure")
    parser.add_argument("--output", default=str(ROOT / "bench" / "results" / "rules.json"))
    parser.add_argument("--seed-only", action="store_true", help="skip the catalogue")
    args = parser.parse_args(argv)

    cards = None if args.seed_only else load_catalogue()
    source = "catalogue"
    if not cards:
        cards, source = load_seed(), "seed"
    objects = objects_for(cards)
    cold, warm, evaluations = measure(objects, args.seconds)

    result = {
        "benchmark": "rules.characteristics",
        "source": source,
        "cards": len(cards),
        "objects": len(objects),
        "evaluations": evaluations,
        "cold_per_second": round(cold),
        "evaluations_per_second": round(warm),
        "target_per_second": TARGET,
        "meets_target": warm >= TARGET,
        "python": platform.python_version(),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(result, indent=2) + "\n")
    tmp.replace(output)
    print(
        f"characteristics(): {warm:,.0f} evaluations/s over {len(cards)} {source} cards in "
        f"{len(objects)} states (first pass {cold:,.0f}/s; target {TARGET:,}/s) -> {output}"
    )
    return 0 if warm >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
