"""bench/validate_decks runs and writes its result (a small run, synthetic cards)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_validate_decks_smoke(tmp_path):
    output = tmp_path / "validate_decks.json"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "validate_decks.py"),
            "--synthetic",
            "--decks",
            "300",
            "--seconds",
            "0.05",
            "--output",
            str(output),
        ],
        check=False,
        capture_output=True,
        timeout=120,
    )
    result = json.loads(output.read_text())
    assert result["decks"] == 300 and result["source"] == "synthetic"
    assert result["decks_with_checklist_cards"] > 0 and result["invalid_decks"] > 0
    assert result["decks_per_second"] > 0 and result["target_decks_per_second"] == 5000
