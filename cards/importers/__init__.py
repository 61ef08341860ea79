"""Card importer: Scryfall JSON, MTGJSON (set and list files) and Cockatrice XML.

Formats are told apart by content (``sources.detect_format``), files may be gzipped, and every
reader streams (ijson / ElementTree ``iterparse``) so memory stays flat whatever the file size.
Readers turn records into the normalized items of ``records``; ``writer.CardWriter`` stores
them in batches. Use ``cards.services.import_card_file`` or the ``import_cards`` command.

Module map: ``sources`` (open, gzip, detection), ``scryfall``, ``mtgjson``, ``cockatrice``
(readers), ``records`` (normalized items, validation, hashes), ``text`` (type lines, costs),
``writer`` (batched upserts), ``store`` (database access: portable ORM, or COPY and
array look-ups on PostgreSQL), ``checklists`` (checklist/substitute cards and entry links),
``summary`` (``ImportSummary``), ``errors``.
"""

from .errors import CardImportError, ImportFormatError, RecordError
from .summary import ImportSummary

__all__ = ["CardImportError", "ImportFormatError", "ImportSummary", "RecordError", "import_file"]


def import_file(path, *, progress=None, batch_size=None, run=None):
    """See ``cards.importers.runner.import_file`` (imported lazily: it needs the app registry)."""
    from .runner import DEFAULT_BATCH_SIZE
    from .runner import import_file as import_one

    return import_one(path, progress=progress, batch_size=batch_size or DEFAULT_BATCH_SIZE, run=run)
