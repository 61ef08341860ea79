"""Print a new VAPID key pair for Web Push, as environment lines (docs/running-at-scale.md)."""

from django.core.management.base import BaseCommand

from push.config import make_key_pair


class Command(BaseCommand):
    help = "Print a new VAPID key pair (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY) for Web Push."

    def handle(self, *args, **options):
        public, private = make_key_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")
