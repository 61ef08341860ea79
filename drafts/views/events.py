"""The draft engine's part of the event pages: creating a drafted event (booster, cube or paper),
seating its players into pods, and the pods and seats the event page shows (the event pages
themselves, and registering players: ``events.views``)."""

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
from events import access
from events.access import Permission
from events.views.common import confirm_page, confirmed, get_event


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


def event_page_seating(event, registration, member: bool) -> dict:
    """The event page's pods and seating (``events.extensions.Seating.event_page``): the caller's
    seat, and for the event's members its pods and who is seated."""
    pods = selectors.pods_with_seats(event) if member else []
    return {
        "my_seat": selectors.seat_of(registration) if registration else None,
        "pods": pods,
        "seated_ids": selectors.seated_registration_ids(event) if member else set(),
        "any_started": any(p["pod"].state != PodState.NOT_STARTED for p in pods),
        "seating_form": SeatingForm(),
    }


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
