"""Fetch the images of one or more sets before an event, so the venue's connection is never
asked for them: ``manage.py fetch_card_images DSK BLB``. Images already copied are skipped."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from cards import images


class Command(BaseCommand):
    help = "Keep the site's own copy of every card image of the given sets."

    def add_arguments(self, parser):
        parser.add_argument("sets", nargs="+", help="set codes, e.g. DSK")
        parser.add_argument("--retry", action="store_true", help="try again images that failed in the last hour")

    def handle(self, *args, **options):
        ids = images.printings_of_sets(options["sets"])
        if not ids:
            raise CommandError(f"no printings with images in {' '.join(options['sets'])}")
        counts = images.fetch(ids, now=timezone.now(), force=options["retry"])
        self.stdout.write(
            f"{counts['stored']} stored, {counts['skipped']} already there, {counts['failed']} not available"
        )
