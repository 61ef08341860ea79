"""Event pages for everyone: my events, one event (my seat, its pods), and for organisers
creating an event, seating its players and starting pods (registering players: events.views)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from drafts import selectors, services
from drafts.forms import EventForm, SeatingForm
from drafts.models import PodState
from drafts.services import packs
from draftsite.errors import DomainError
from draftsite.pages import on_page, run, show_on_form
from events import access, permissions
from events import extensions as event_extensions
from events import selectors as event_selectors
from events.access import Permission
from events.forms import RegistrationForm
from events.views.common import confirm_page, confirmed, event_role_label, get_event


def my_event_rows(user) -> list[dict]:
    """The events ``user`` plays in, judges or organises, each with their role, their seat and
    whether they see its dashboard: the event list's and the home page's (one list, one look)."""
    seats = selectors.seats_by_event(user)
    return [
        {
            "event": e,
            "role": event_role_label(user, e),
            "seat": seats.get(e.pk),
            "staff": permissions.sees_everything(user, e),
        }
        for e in event_selectors.events_taken_part_in(user)
    ]


def event_list(request):
    context = {"title": gettext("Events"), "can_create": permissions.can_create_event(request.user)}
    if request.user.is_authenticated:
        rows = my_event_rows(request.user)
        context.update(rows=rows, upcoming=event_selectors.upcoming_events(exclude=[r["event"].pk for r in rows]))
    return render(request, "drafts/event_list.html", context)


@login_required
def event_create(request):
    on_page(access.require_event_creator, request.user)
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = services.create_event(created_by=request.user, **form.service_arguments())
        except DomainError as exc:
            show_on_form(form, exc)
            field = exc.extra.get("field")
            suggestions = exc.extra.get("suggestions") or {}
            for name, options in list(suggestions.items())[:5]:
                if options:
                    form.add_error(
                        field if field in form.fields else None,
                        gettext("“%(name)s”: did you mean %(options)s?")
                        % {"name": name, "options": ", ".join(options)},
                    )
        else:
            messages.success(
                request, gettext("Event “%(name)s” created. Register players, then seat them.") % {"name": event.name}
            )
            return redirect("drafts:event-detail", event.pk)
    context = {"title": gettext("Create an event"), "form": form, "set_boosters": packs.catalogue_booster_kinds()}
    return render(request, "drafts/event_form.html", context)


@login_required
def event_detail(request, event_id: int):
    event = get_event(event_id)
    staff = permissions.sees_everything(request.user, event)
    organiser = permissions.is_organiser(request.user, event)
    registration = event.registrations.filter(user=request.user).first()
    my_seat = selectors.seat_of(registration) if registration else None
    member = staff or registration is not None
    pods = selectors.pods_with_seats(event) if member else []
    seated = selectors.seated_registration_ids(event)
    registrations = list(event.registrations.order_by("name")) if member else []
    return render(
        request,
        "drafts/event_detail.html",
        {
            "title": event.name,
            "event": event,
            "staff": staff,
            "organiser": organiser,
            "registration": registration,
            "my_seat": my_seat,
            "member": member,
            "pods": pods,
            "registrations": [{"reg": r, "seated": r.pk in seated} for r in registrations],
            "unseated": sum(1 for r in registrations if r.pk not in seated),
            "role_label": event_role_label(request.user, event),
            "any_started": any(p["pod"].state != PodState.NOT_STARTED for p in pods),
            "registration_form": RegistrationForm(),
            "seating_form": SeatingForm(),
            "deck_url": reverse("decks:my-deck", args=[event.pk]),
            # Check-in and joining by link: accounts' (events.extensions).
            **event_extensions.players().event_page(event.pk, request.user, registration),
        },
    )


@login_required
@require_POST
def event_seating(request, event_id: int):
    """Random seating from a seed (confirm first: it replaces any earlier seating)."""
    event = get_event(event_id, request.user, Permission.ORGANISER)
    form = SeatingForm(request.POST)
    back = reverse("drafts:event-detail", args=[event.pk]) + "#pods"
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect(back)
    if not confirmed(request):
        count = event.registrations.count()
        return confirm_page(
            request,
            title=gettext("Seat the players"),
            question=gettext("Seat all %(count)s registered players into pods of up to 8?") % {"count": count},
            detail=gettext("Any earlier seating is replaced (seating is locked once a pod starts)."),
            action=reverse("drafts:event-seating", args=[event.pk]),
            back=back,
        )
    return run(
        request,
        services.seat_players,
        success=lambda pods: gettext("Players seated in %(count)s pod(s).") % {"count": len(pods)},
        back=back,
        event_id=event.pk,
        seed=form.cleaned_data.get("seed"),
        actor=request.user,
    )[0]
