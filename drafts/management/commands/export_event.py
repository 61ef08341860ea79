"""Write one event, with everything that belongs to it, to a versioned JSON file."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError
from django.core.serializers.json import DjangoJSONEncoder

from draftsite.backup import BackupError, export_event


class Command(BaseCommand):
    help = (
        "Export an event (staff, registrations, pods, picks, decks, penalties with appeals and "
        "audit trail) as JSON for backup or moving it to another site. See docs/organisers.md (Backup and restore)."
    )

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)
        parser.add_argument("--output", "-o", help="File to write (default: standard output).")

    def handle(self, *args, event_id, output=None, **options):
        try:
            document = export_event(event_id)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        text = json.dumps(document, cls=DjangoJSONEncoder, indent=1, ensure_ascii=False)
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
            counts = ", ".join(
                f"{len(document[k])} {k}" for k in ("registrations", "pods", "picks", "decks", "penalties")
            )
            self.stderr.write(f"Event {event_id} written to {output} ({counts}).")
        else:
            sys.stdout.write(text + "\n")
