from django.core.management.base import BaseCommand, CommandError

from drafts.simulation import simulate_draft
from draftsite.errors import DomainError


class Command(BaseCommand):
    help = "Run a whole draft through the services with automatic drafters and print a summary."

    def add_arguments(self, parser):
        parser.add_argument("--set", dest="set_code", help="Set code, e.g. ISD (booster draft).")
        parser.add_argument("--cube", help="A file with one card name per line (cube draft).")
        parser.add_argument("--players", type=int, default=8)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, set_code=None, cube=None, players=8, seed=1, **options):
        if bool(set_code) == bool(cube):
            raise CommandError("Give either --set CODE or --cube FILE.")
        if not 2 <= players <= 8:
            raise CommandError("A pod seats 2 to 8 players.")
        cube_list = None
        if cube:
            try:
                with open(cube, encoding="utf-8") as handle:
                    cube_list = [line.strip() for line in handle if line.strip()]
            except OSError as exc:
                raise CommandError(f"Cannot read {cube}: {exc.strerror}") from None
        try:
            report = simulate_draft(
                set_code=set_code.upper() if set_code else None, cube_list=cube_list, players=players, seed=seed
            )
        except DomainError as exc:
            hint = (
                " Import card data first: python manage.py import_cards --bundled" if exc.code == "unknown_set" else ""
            )
            raise CommandError(f"{exc.message}{hint}") from None
        w = self.stdout.write
        w(f"Event {report.event_id}, pod {report.pod_id}: {report.final_state}")
        w(f"Cards opened: {report.cards_opened} ({report.dfcs_opened} double-faced, seen by the whole pod)")
        if report.removed:
            w("Removed from packs (not drafted): " + ", ".join(f"{n} {k}" for k, n in sorted(report.removed.items())))
        w(
            "Picks: "
            + ", ".join(f"{n} {k}" for k, n in sorted(report.picks.items()))
            + f" (total {sum(report.picks.values())})"
        )
        w("Pile sizes: " + ", ".join(f"seat {p + 1}: {n}" for p, n in sorted(report.pile_sizes.items())))
        if report.conserved:
            w(self.style.SUCCESS("Conservation check: every card is in exactly one pack or pile."))
        else:
            for problem in report.conservation_errors:
                w(self.style.ERROR(f"Conservation check failed: {problem}"))
            raise CommandError("Conservation check failed.")
