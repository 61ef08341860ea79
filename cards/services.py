"""Card catalogue services: importing card files (plain or gzip; any supported format)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from cards.importers import ImportSummary, import_file
from cards.importers.writer import ImportRun

BUNDLED_DATA_DIR = Path(__file__).resolve().parent / "data"
_DATA_SUFFIXES = (".json", ".json.gz", ".xml", ".xml.gz")
# Precedence where files share cards: within one run the first file to write a card wins, so
# the newest data comes first (Cockatrice 2024, MTGJSON 2022, then the Scryfall 2019 snapshot);
# substitute and checklist cards last. A second --bundled run then changes nothing.
_FOLDER_ORDER = {"cockatrice": 0, "mtgjson": 1, "scryfall": 2, "checklists": 4}
_SUBSTITUTE_SET = re.compile(r"^S[A-Z0-9]{3}\.json(\.gz)?$")


def import_card_file(
    path: str | Path, *, progress: Callable[[int], object] | None = None, run: ImportRun | None = None
) -> ImportSummary:
    """Import one file of cards into the catalogue and return what changed.

    Raises ``cards.importers.CardImportError`` (with a stable ``code``) for a missing, empty,
    unknown, truncated or malformed file; batches written before the error stay.
    """
    return import_file(path, progress=progress, run=run)


def bundled_files(data_dir: Path = BUNDLED_DATA_DIR) -> list[Path]:
    """Every bundled data file, sets first, then checklist and substitute cards."""
    files = [p for p in data_dir.rglob("*") if p.is_file() and p.name.endswith(_DATA_SUFFIXES)]

    def rank(path: Path) -> tuple:
        folder = path.parent.name
        order = _FOLDER_ORDER.get(folder, 3)
        if folder == "mtgjson" and _SUBSTITUTE_SET.match(path.name):
            order = 3
        return (order, path.name.lower())

    return sorted(files, key=rank)
