#!/usr/bin/env python3
"""Benchmark: the judge-call queue page of a 200-table event with 50 open calls updates within
250 ms of a new call (headless Chromium against daphne; the measurement is the e2e test
tests/e2e/test_judge_queue_figure.py). Writes ``bench/results/judge_queue.json``.

Usage: ``DATABASE_URL=postgres://... bench/judge_queue.py [--output PATH]``
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output", default=str(ROOT / "bench" / "results" / "judge_queue.json"))
    args = parser.parse_args()
    env = {**os.environ, "BENCH_OUTPUT": args.output}
    test = "tests/e2e/test_judge_queue_figure.py"
    code = subprocess.call(
        [sys.executable, "-m", "pytest", test, "-q", "-x", "-p", "no:cacheprovider"], cwd=ROOT, env=env
    )
    if Path(args.output).exists():
        print(json.dumps(json.loads(Path(args.output).read_text()), indent=2))
    return code


if __name__ == "__main__":
    sys.exit(main())
