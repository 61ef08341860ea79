"""The event pages everyone reads: the events list (mine, and upcoming ones to join) and one
event (my registration and seat, its pods and players, the organiser's registering and
seating). Where players sit is the draft engine's, read through ``events.extensions``; creating
a drafted event and seating its players are the engine's pages (``drafts.views.events``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext

from events import extensions, permissions, selectors
from events.forms import RegistrationForm
from events.views.common import event_role_label, get_event


def my_event_rows(user) -> list[dict]:
    """The events ``user`` plays in, judges or organises, each with their role, their seat and
    whether they see its dashboard: the event list's and the home page's (one list, one look)."""
    seats = extensions.seating().seats_by_event(user)
    return [
        {
            "event": e,
            "role": event_role_label(user, e),
            "seat": seats.get(e.pk),
            "staff": permissions.sees_everything(user, e),
        }
        for e in selectors.events_taken_part_in(user)
    ]


def event_list(request):
    context = {"title": gettext("Events"), "can_create": permissions.can_create_event(request.user)}
    if request.user.is_authenticated:
        rows = my_event_rows(request.user)
        context.update(rows=rows, upcoming=selectors.upcoming_events(exclude=[r["event"].pk for r in rows]))
    return render(request, "events/event_list.html", context)


@login_required
def event_detail(request, event_id: int):
    event = get_event(event_id)
    staff = permissions.sees_everything(request.user, event)
    registration = event.registrations.filter(user=request.user).first()
    member = staff or registration is not None
    # my_seat, pods, seated_ids, any_started, seating_form: the draft engine's (events.extensions).
    seating = extensions.seating().event_page(event, registration, member)
    seated = seating.pop("seated_ids")
    registrations = list(event.registrations.order_by("name")) if member else []
    return render(
        request,
        "events/event_detail.html",
        {
            "title": event.name,
            "event": event,
            "staff": staff,
            "organiser": permissions.is_organiser(request.user, event),
            "registration": registration,
            "member": member,
            "registrations": [{"reg": r, "seated": r.pk in seated} for r in registrations],
            "unseated": sum(1 for r in registrations if r.pk not in seated),
            "role_label": event_role_label(request.user, event),
            "registration_form": RegistrationForm(),
            "deck_url": reverse("decks:my-deck", args=[event.pk]),
            **seating,
            # Check-in and joining by link: accounts' (events.extensions).
            **extensions.players().event_page(event.pk, request.user, registration),
        },
    )
