from django.core.management import call_command
from django.core.management.base import BaseCommand

from cards.models import Card
from drafts import extensions
from drafts.demo import create_demo_accounts, create_demo_event


class Command(BaseCommand):
    help = (
        "Load the demo: bundled real card data, an account for every role and the demo events. Run "
        "again, it restores that state (the demo events start over, the accounts get their passwords back)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--skip-cards", action="store_true", help="Do not import the bundled card data.")
        parser.add_argument(
            "--keep-catalogue",
            action="store_true",
            help="Do not re-check the bundled card files (the catalogue is loaded already); still make the events.",
        )

    def handle(self, *args, skip_cards=False, keep_catalogue=False, **options):
        if not skip_cards and not keep_catalogue:
            if Card.objects.exists():
                self.stdout.write("Card catalogue already loaded; re-checking bundled files.")
            call_command("import_cards", "--bundled", "--quiet", stdout=self.stdout)
        accounts = create_demo_accounts()
        if not skip_cards:
            event = create_demo_event()
            self.stdout.write(f"Demo event: {event.name} (/events/{event.pk}/), one pod drafting round 1.")
            for add_to_demo in extensions.demo_parts():  # matches, paper: drafts.extensions
                self.stdout.write(add_to_demo(event))
        self.stdout.write(self.style.SUCCESS("\nDemo ready. Log in at http://127.0.0.1:8000/accounts/login/ as:"))
        for account in accounts:
            if account.username in ("organiser", "headjudge", "judge", "player1"):
                self.stdout.write(f"  {account.role:<11} {account.username} / {account.password}")
        self.stdout.write("  (players player1..player8, password demo-playerN)")
