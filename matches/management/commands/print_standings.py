from django.core.management.base import BaseCommand, CommandError

from events.models import Event
from matches import selectors


class Command(BaseCommand):
    help = "Print an event's standings (each pod's table in per-pod mode) by MTR tiebreakers."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)
        parser.add_argument("--pod", type=int, default=None, help="Only this pod (its id).")

    def handle(self, *args, event_id, pod=None, **options):
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"No event has id {event_id}.")
        rows = selectors.event_standings(event, pod)
        pods = dict(event.pods.values_list("pk", "number"))
        self.stdout.write(f"{event.name}: standings")
        current = object()
        for row in rows:
            if row.pod != current:
                current = row.pod
                self.stdout.write(f"\n{'Pod ' + str(pods[row.pod]) if row.pod else 'Whole event'}")
                self.stdout.write(
                    f"{'Rank':>4}  {'Player':<24} {'Pts':>3}  {'Record':<7} {'OMW%':>6} {'GW%':>6} {'OGW%':>6}"
                )
            dropped = f"  (dropped after round {row.dropped_after})" if row.dropped_after is not None else ""
            self.stdout.write(
                f"{row.rank:>4}  {row.registration.name:<24} {row.match_points:>3}  {row.record:<7} "
                f"{row.omw:6.4f} {row.gw:6.4f} {row.ogw:6.4f}{dropped}"
            )
