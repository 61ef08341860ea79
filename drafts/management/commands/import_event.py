"""Recreate an event from a file written by export_event (one transaction, new ids)."""

import json

from django.core.management.base import BaseCommand, CommandError

from draftsite.backup import BackupError, import_event


class Command(BaseCommand):
    help = (
        "Import an event written by export_event. Everything is created in one transaction "
        "with new ids; nothing is stored if the file is malformed or the event already exists."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The JSON file (- for standard input).")
        parser.add_argument("--rename", help="Import under this event name (to make a copy).")

    def handle(self, *args, file, rename=None, **options):
        try:
            if file == "-":
                import sys

                document = json.load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as handle:
                    document = json.load(handle)
        except FileNotFoundError:
            raise CommandError(f"No such file: {file}") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise CommandError(f"{file} is not valid JSON: {exc}") from exc
        try:
            result = import_event(document, rename=rename)
        except BackupError as exc:
            raise CommandError(f"Nothing was imported. {exc}") from exc
        for warning in result.warnings:
            self.stderr.write(self.style.WARNING(warning))
        if result.created_users:
            self.stderr.write(
                f"Created {len(result.created_users)} account(s) without a usable password "
                f"(they need a password reset): {', '.join(result.created_users)}"
            )
        counts = ", ".join(f"{n} {name}" for name, n in result.counts.items() if n)
        self.stdout.write(self.style.SUCCESS(f'Imported "{result.event.name}" as event {result.event.pk} ({counts}).'))
