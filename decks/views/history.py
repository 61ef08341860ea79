"""Draft history pages: a player's drafts, a seat's pick-by-pick log and its MTGO text, the
organiser's switch that makes a pod's logs public, and a player's pick-data opt-in."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from decks import history, services
from decks.views.common import _event
from draftsite.pages import on_page, run


def _readable_seat(request, seat_id: int):
    return on_page(history.readable_seat, request.user, seat_id, not_found=gettext("No such draft log"))


@login_required
def my_drafts(request):
    return render(
        request,
        "decks/drafts.html",
        {"title": gettext("My drafts"), "drafts": history.player_drafts(request.user)},
    )


def draft_log(request, seat_id: int):
    seat = _readable_seat(request, seat_id)
    return render(
        request,
        "decks/draft_log.html",
        {
            "title": gettext("Draft log · %(name)s") % {"name": seat.registration.name},
            "seat": seat,
            "event": seat.pod.event,
            "log": history.log_view(seat, include_packs=history.shows_packs(request.user, seat)),
        },
    )


def draft_log_mtgo(request, seat_id: int):
    seat = _readable_seat(request, seat_id)
    text = history.mtgo_text(seat, include_packs=history.shows_packs(request.user, seat))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="draft-{seat.pod.event_id}-pod{seat.pod.number}-seat{seat.position + 1}.txt"'
    )
    return response


@login_required
@require_POST
def pod_logs_public(request, pod_id: int):
    public = request.POST.get("public") == "1"
    event_id = history.pod_event_id(pod_id)
    if event_id is None:
        raise Http404(gettext("No such pod"))
    # Not yours: the 403 page; not published yet: said on the page the switch is on.
    return run(
        request,
        services.set_pod_logs_public,
        success=lambda pod: (
            (
                gettext("The draft logs of pod %(number)s are public.")
                if public
                else gettext("The draft logs of pod %(number)s are private again.")
            )
            % {"number": pod.number}
        ),
        back=reverse("decks:event-decks", args=[event_id]),
        refusals_as_pages=True,
        not_found=gettext("No such pod"),
        pod_id=pod_id,
        actor=request.user,
        public=public,
    )[0]


@login_required
@require_POST
def pick_data_sharing(request, event_id: int):
    event = _event(event_id)
    share = request.POST.get("share") == "1"
    on_page(services.set_pick_data_sharing, event_id=event.pk, actor=request.user, share=share)
    messages.success(
        request,
        gettext("Your picks will be part of this event's anonymised pick data.")
        if share
        else gettext("Your picks will not be part of this event's pick data."),
    )
    return redirect("decks:drafts")
