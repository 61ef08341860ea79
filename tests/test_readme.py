"""The README's feature list reads once: no run of it is said twice (a merge once left a feature's
sentence repeated in the list)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
RUN = 10  # words: longer than any phrase the README may fairly repeat ("the deck-building clock")


def feature_list(text: str) -> str:
    """The README's opening: what the site does, before the first section (Quick start)."""
    return text.split("\n## ", 1)[0]


def word_runs(text: str) -> Counter:
    words = re.findall(r"[\w'()-]+", text.lower())
    return Counter(" ".join(words[i : i + RUN]) for i in range(len(words) - RUN + 1))


def test_no_run_of_the_feature_list_is_repeated():
    repeated = [run for run, count in word_runs(feature_list(README.read_text())).items() if count > 1]
    assert repeated == []
