"""One import run: detect the format, stream the reader into the writer, summarise."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from cards.signals import catalogue_imported

from .cockatrice import read_cockatrice
from .mtgjson import read_mtgjson_list, read_mtgjson_set
from .scryfall import read_scryfall
from .sources import Format, detect_format
from .summary import ImportSummary
from .writer import DEFAULT_BATCH_SIZE, CardWriter, ImportRun

READERS = {
    Format.SCRYFALL: lambda path: read_scryfall(path, "item"),
    Format.SCRYFALL_LIST: lambda path: read_scryfall(path, "data.item"),
    Format.MTGJSON_SET: read_mtgjson_set,
    Format.MTGJSON_LIST: read_mtgjson_list,
    Format.COCKATRICE: read_cockatrice,
}


def import_file(
    path: str | Path,
    *,
    progress: Callable[[int], object] | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    run: ImportRun | None = None,
) -> ImportSummary:
    """Import one card file (any supported format, plain or gzip).

    ``progress``, if given, is called now and then with the number of records read since
    the previous call (``tqdm.update`` fits). Files imported with one ``run`` share it: a card
    or printing an earlier file of the run wrote is not overwritten by a later one (the first
    file has precedence), so importing the same files again changes nothing. Raises
    ``CardImportError`` subclasses; batches
    written before the error stay, the batch being written is rolled back.
    """
    path = str(path)
    started = time.perf_counter()
    fmt = detect_format(path)
    summary = ImportSummary(path=path, format=fmt.value)
    writer = CardWriter(summary, path=path, batch_size=batch_size, progress=progress, run=run)
    try:
        for item in READERS[fmt](path):
            writer.add(item)
        writer.finish()
    finally:
        catalogue_imported.send(sender=import_file, path=path)
    summary.seconds = time.perf_counter() - started
    return summary
