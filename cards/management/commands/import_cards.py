"""``manage.py import_cards FILE [FILE ...]`` / ``manage.py import_cards --bundled``."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from cards.importers import CardImportError, ImportSummary
from cards.importers.writer import ImportRun
from cards.services import bundled_files, import_card_file


class Command(BaseCommand):
    help = (
        "Import card files: Scryfall JSON arrays, MTGJSON set or list files, Cockatrice XML "
        "(plain or .gz; the format is read from the content). --bundled imports the data "
        "shipped in cards/data. Re-importing a file changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "files",
            nargs="*",
            help="card files to import, in this order (where files share a card, the first one given wins)",
        )
        parser.add_argument(
            "--bundled", action="store_true", help="import every bundled file (sets first, then checklists)"
        )
        parser.add_argument("--quiet", action="store_true", help="no progress bar and no per-file summaries")

    def handle(self, *args, files, bundled, quiet, **options):
        paths = [str(p) for p in bundled_files()] if bundled else []
        paths += files
        if not paths:
            raise CommandError("give one or more files to import, or --bundled")
        show_bar = not quiet and sys.stderr.isatty()
        total = ImportSummary(path="(all files)", format="mixed")
        run = ImportRun()  # files sharing cards: the first one given wins (see cards.services)
        for path in paths:
            summary = self._import(path, show_bar, run)
            total.merge(summary)
            if not quiet:
                self.stdout.write(f"{path} [{summary.format}]")
                self.stdout.write(_indent(summary.format_text()))
        if len(paths) > 1 or quiet:
            self.stdout.write(self.style.SUCCESS(f"Imported {len(paths)} file(s)"))
            self.stdout.write(_indent(total.format_text()))

    def _import(self, path: str, show_bar: bool, run: ImportRun) -> ImportSummary:
        bar = None
        if show_bar:
            from tqdm import tqdm

            bar = tqdm(desc=path.rsplit("/", 1)[-1], unit=" rec", file=sys.stderr, leave=False)
        try:
            return import_card_file(path, progress=bar.update if bar is not None else None, run=run)
        except CardImportError as exc:
            raise CommandError(f"import stopped: {exc}") from exc
        finally:
            if bar is not None:
                bar.close()


def _indent(text: str) -> str:
    return "\n".join(f"  {line}" for line in text.splitlines())
