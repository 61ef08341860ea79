"""The organiser's list of an event's players as CSV: everyone registered and everyone on the
waitlist, one row each, as the organiser keeps it at the desk (issue 46 item 9)."""

from __future__ import annotations

import csv
import io

from django.http import HttpResponse

from accounts.models import WaitlistEntry
from accounts.selectors import chosen_display_name
from draftsite.spreadsheets import safe_cell
from events.models import Event, Registration

PLAYER_COLUMNS = [
    "status",  # registered | waitlisted
    "waitlist_place",
    "name",  # as the site shows the player (pairings, standings)
    "username",  # empty for a guest entered by name
    "registered_at",
    "checked_in",
    "checked_in_at",
    "pod",
    "seat",
    "dropped",
    "dropped_after_round",
    "share_pick_data",
]


def _iso(value) -> str:
    return value.isoformat() if value is not None else ""


def players_rows(event: Event) -> list[list]:
    """Registered players by name, then the waitlist in its order."""
    rows: list[list] = []
    registrations = (
        Registration.objects.filter(event=event)
        .select_related("user", "check_in", "match_drop")
        .prefetch_related("seats__pod")
        .order_by("name", "pk")
    )
    for registration in registrations:
        check_in = getattr(registration, "check_in", None)
        drop = getattr(registration, "match_drop", None)
        seat = next(iter(registration.seats.all()), None)
        rows.append(
            [
                "registered",
                "",
                registration.name,
                registration.user.get_username() if registration.user else "",
                _iso(registration.created_at),
                "yes" if check_in else "no",
                _iso(check_in.at) if check_in else "",
                seat.pod.number if seat else "",
                seat.position + 1 if seat else "",
                "yes" if drop else "no",
                drop.after_round if drop else "",
                "yes" if registration.share_pick_data else "no",
            ]
        )
    waiting = WaitlistEntry.objects.filter(event=event).select_related("user").order_by("created_at", "pk")
    for place, entry in enumerate(waiting, start=1):
        name = chosen_display_name(entry.user) or entry.user.get_username()
        rows.append(
            [
                "waitlisted",
                place,
                name,
                entry.user.get_username(),
                _iso(entry.created_at),
                "no",
                "",
                "",
                "",
                "no",
                "",
                "",
            ]
        )
    return rows


def players_csv(event: Event) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(PLAYER_COLUMNS)
    for row in players_rows(event):
        writer.writerow([safe_cell(value) for value in row])
    return buffer.getvalue()


def players_csv_response(event: Event) -> HttpResponse:
    response = HttpResponse(players_csv(event), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-players.csv"'
    return response
