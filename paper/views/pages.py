"""Pages of the called paper draft (mounted at /paper/, namespace "paper").

- ``room``: the organiser's call room for an event (start pods or a flight, the followers' link),
- ``caller``: the projector or tablet page of one pod (big countdown, speech, judges' controls),
- ``pod_page``: a player's phone page (the call, the open table, posting DFCs),
- ``follow``: the same without an account on the pod's link, when the organiser allows,
- ``slips`` and ``wall``: printable seating.

Every write is a POST that calls the same services as the API; the pages' script posts to
the API instead (no reload: a projector keeps its sound permission) and falls back to these.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from drafts import permissions
from drafts.access import access_own_seat, authorize_pod
from drafts.templatetags.draft_tags import clock
from draftsite.forms import back_to, posted
from draftsite.pages import on_page, run
from events import permissions as event_permissions
from events.access import Permission, access_event, authorize
from events.models import DraftFormat, Event
from events.views.common import confirm_page, confirmed
from paper import selectors, services
from paper.forms import ControlForm, PostDfcForm, RoomControlForm


def _paper_event(event_id: int) -> Event:
    return on_page(
        access_event, event_id, draft_format=DraftFormat.PAPER, not_found=gettext("No such paper draft event")
    )


def _staff_paper_event(request, event_id: int) -> Event:
    """The paper event, for its staff (judges and organisers) only: the 403 page otherwise."""
    event = _paper_event(event_id)
    on_page(authorize, request.user, event, Permission.STAFF, message=services.STAFF_ONLY)
    return event


def _paper_pod(pod_id: int):
    return on_page(selectors.paper_pod, pod_id, not_found=gettext("No such paper draft pod"))


def _act(request, back: str, service, success: str, **kwargs):
    """A control: the service's refusal or its success is a message on ``back``."""
    return run(request, service, success=success, back=back, **kwargs)[0]


PHASE_LABELS = {
    "not_started": gettext_lazy("Not called yet"),
    "pick": gettext_lazy("Pick"),
    "review": gettext_lazy("Review"),
    "deck_building": gettext_lazy("Deck building"),
    "done": gettext_lazy("Draft over"),
}


def _initial(pod, *, staff: bool) -> dict:
    """The call as the page first shows it (the script takes over; without one, this is it)."""
    now = timezone.now()
    call = selectors.call_view(services.settle_if_due(pod=pod, now=now), staff=staff, now=now)["call"]
    return {
        "phase_label": str(PHASE_LABELS.get(call["phase"], call["phase"])),
        "pick": call["pick"],
        "countdown": clock(call["remaining_ms"]) if call["remaining_ms"] is not None else "",
        "paused": call["paused"],
        "server_time": now,
    }


# --- the organiser's call room ---------------------------------------------------------------


@login_required
def room(request, event_id: int):
    event = _staff_paper_event(request, event_id)
    now = timezone.now()
    services.settle_event_if_due(event=event, now=now)
    pods = selectors.event_rows(event, now)
    called = selectors.calls_by_pod(event)
    for row in pods:
        call = called.get(row["pod"].pk)
        row["follow_url"] = (
            request.build_absolute_uri(reverse("paper:follow", args=[row["pod"].spectator_token]))
            if call and call.followers_allowed and row["pod"].spectator_token
            else ""
        )
    return render(
        request,
        "paper/room.html",
        {
            "title": _("Call room · %(event)s") % {"event": event.name},
            "event": event,
            "pods": pods,
            "now": now,
            "is_organiser": event_permissions.is_organiser(request.user, event),
            "flights": selectors.flights(event),
            "followers_allowed": any(c.followers_allowed for c in called.values()),
            "unstarted": [
                p
                for p in pods
                if p["call"].phase == "not_started" and not (called.get(p["pod"].pk) and called[p["pod"].pk].started_at)
            ],
        },
    )


@login_required
@require_POST
def room_control(request, event_id: int, action: str):
    event = _paper_event(event_id)
    on_page(authorize, request.user, event, Permission.ORGANISER)
    back = back_to(request.POST, reverse("paper:room", args=[event.pk]))
    form = RoomControlForm(request.POST)
    form.is_valid()  # never refuses: the services check the values
    if action == "flight":
        return _act(
            request,
            back,
            services.start_flight,
            _("Flight started: the pods are called together."),
            event_id=event.pk,
            pod_ids=form.pod_ids(),
            actor=request.user,
            delay_seconds=form.cleaned_data["delay_seconds"],
        )
    if action in ("followers-on", "followers-off"):
        allowed = action == "followers-on"
        return _act(
            request,
            back,
            services.set_followers_allowed,
            _("Players may now follow their pod on its link.") if allowed else _("The follow links are turned off."),
            event_id=event.pk,
            allowed=allowed,
            actor=request.user,
        )
    raise Http404(gettext("No such control"))


# --- one pod: the caller page and its controls ----------------------------------------------------

CONFIRMED_CONTROLS = {
    "skip-to-review": gettext_lazy("Skip to the review now? Players take their last card and review."),
    "restart-round": gettext_lazy("Restart this round from pick 1? Players must put the round's picks back first."),
}


def _confirmation(request, action: str, url: str, back: str):
    """The confirmation page a drastic control asks for first, or None once it is confirmed."""
    if action not in CONFIRMED_CONTROLS or confirmed(request):
        return None
    return confirm_page(
        request, title=_("Please confirm"), question=CONFIRMED_CONTROLS[action], action=url, back=back, danger=True
    )


@login_required
def caller(request, pod_id: int):
    pod = _paper_pod(pod_id)
    on_page(authorize, request.user, pod.event, Permission.STAFF, message=services.STAFF_ONLY)
    called = selectors.called_pod(pod)
    return render(
        request,
        "paper/caller.html",
        {
            "title": _("Caller · pod %(number)s") % {"number": pod.number},
            "pod": pod,
            "event": pod.event,
            "called": called,
            "is_organiser": event_permissions.is_organiser(request.user, pod.event),
            "flight": called.flight if called and called.flight_id else None,
            "log": selectors.call_log(pod),
            "speaks": True,
            "controls": True,
            "initial": _initial(pod, staff=True),
            "state_url": reverse("paper-api-call", args=[pod.pk]),
            "socket": f"/ws/paper/pods/{pod.pk}/",
        },
    )


@login_required
@require_POST
def pod_control(request, pod_id: int, action: str):
    """Start (organisers) or a judge's control (organisers and judges); no-script fallback."""
    pod = _paper_pod(pod_id)
    on_page(authorize, request.user, pod.event, Permission.STAFF, message=services.STAFF_ONLY)
    back = back_to(request.POST, reverse("paper:caller", args=[pod.pk]))
    data = posted(ControlForm, request.POST)
    if action == "start":
        on_page(authorize, request.user, pod.event, Permission.ORGANISER)
        return _act(
            request,
            back,
            services.start_call,
            _("Pod %(number)s is being called.") % {"number": pod.number},
            pod_id=pod.pk,
            actor=request.user,
            delay_seconds=data["delay_seconds"],
        )
    if action == "follow-link":
        on_page(authorize, request.user, pod.event, Permission.ORGANISER)
        return _act(
            request,
            back,
            services.regenerate_follow_link,
            _("New link made; the old one stops working."),
            pod_id=pod.pk,
            actor=request.user,
        )
    if action not in services.CONTROLS:
        raise Http404(gettext("No such control"))
    if (asked := _confirmation(request, action, reverse("paper:control", args=[pod.pk, action]), back)) is not None:
        return asked
    return _act(
        request,
        back,
        services.control_pod,
        _("Done."),
        pod_id=pod.pk,
        action=action,
        actor=request.user,
        reason=data["reason"],
    )


@login_required
@require_POST
def flight_control(request, flight_id: int, action: str):
    flight = selectors.flight(flight_id)
    if flight is None:
        raise Http404(gettext("No such flight"))
    on_page(authorize, request.user, flight.event, Permission.STAFF, message=services.STAFF_ONLY)
    if action not in services.CONTROLS:
        raise Http404(gettext("No such control"))
    back = back_to(request.POST, reverse("paper:room", args=[flight.event_id]))
    if (
        asked := _confirmation(request, action, reverse("paper:flight-control", args=[flight.pk, action]), back)
    ) is not None:
        return asked
    return _act(
        request,
        back,
        services.control_flight,
        _("Done for flight %(number)s.") % {"number": flight.number},
        flight_id=flight.pk,
        action=action,
        actor=request.user,
        reason=posted(ControlForm, request.POST)["reason"],
    )


# --- players: the phone page, the open table -----------------------------------------------------------


def _table_context(pod, *, me=None) -> dict:
    return {"pod": pod, "seats": selectors.posted_dfcs(pod), "my_seat": me}


def _pod_page(request, pod, *, me=None, state_url: str, socket: str, table_url: str, **extra):
    """A pod's phone page, for one of its players or a follower by the pod's link: the call as
    it runs (no sound, no controls) and the open table; ``extra``: what only one of them sees."""
    return render(
        request,
        "paper/pod.html",
        {
            "title": _("Pod %(number)s · %(event)s") % {"number": pod.number, "event": pod.event.name},
            "event": pod.event,
            **extra,
            **_table_context(pod, me=me),
            "speaks": False,
            "controls": False,
            "initial": _initial(pod, staff=False),
            "state_url": state_url,
            "socket": socket,
            "table_url": table_url,
        },
    )


@login_required
def pod_page(request, pod_id: int):
    pod = _paper_pod(pod_id)
    on_page(authorize_pod, request.user, pod, Permission.POD_MEMBER, message=services.FOLLOWERS_ONLY)
    me = permissions.seat_in_pod(request.user, pod.pk)
    return _pod_page(
        request,
        pod,
        me=me,
        state_url=reverse("paper-api-call", args=[pod.pk]),
        socket=f"/ws/paper/pods/{pod.pk}/",
        table_url=reverse("paper:table", args=[pod.pk]),
        dfcs=selectors.event_dfcs(pod.event) if me else [],
    )


@login_required
def table(request, pod_id: int):
    pod = _paper_pod(pod_id)
    on_page(authorize_pod, request.user, pod, Permission.POD_MEMBER, message=services.FOLLOWERS_ONLY)
    response = render(
        request, "paper/_table.html", _table_context(pod, me=permissions.seat_in_pod(request.user, pod.pk))
    )
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def post_dfc(request, pod_id: int):
    pod = _paper_pod(pod_id)
    on_page(access_own_seat, request.user, pod, message=services.PLAYERS_ONLY)
    form = PostDfcForm(request.POST)
    form.is_valid()  # never refuses: the service checks the card and the count
    return _act(
        request,
        reverse("paper:pod", args=[pod.pk]) + "#table",
        services.post_dfc,
        _("Shown to your pod."),
        pod_id=pod.pk,
        actor=request.user,
        card=form.card_name_or_id(),
        count=form.cleaned_data["count"],
    )


@login_required
@require_POST
def withdraw_dfc(request, posted_id: int):
    posted = on_page(services.access_posted_dfc, request.user, posted_id)
    return _act(
        request,
        reverse("paper:pod", args=[posted.seat.pod_id]) + "#table",
        services.withdraw_dfc,
        _("Taken back."),
        posted_id=posted.pk,
        actor=request.user,
    )


def _followed(token: str):
    pod = selectors.followed_pod(token)
    if pod is None:
        raise Http404(gettext("This link does not work (any more)."))
    return pod


def follow(request, token: str):
    pod = _followed(token)
    return _pod_page(
        request,
        pod,
        state_url=reverse("paper-api-follow", args=[token]),
        socket=f"/ws/paper/follow/{token}/",
        table_url=reverse("paper:follow-table", args=[token]),
        follower=True,
    )


def follow_table(request, token: str):
    pod = _followed(token)
    response = render(request, "paper/_table.html", _table_context(pod))
    response["Cache-Control"] = "no-store"
    return response


# --- printable seating ---------------------------------------------------------------------------------------


def _printed_seating(request, event_id: int, template: str, title: str, **seating: Callable[[Event], Any]):
    """A printable seating page, for the event's staff: ``seating`` names each list the template
    reads and the selector that makes it."""
    event = _staff_paper_event(request, event_id)
    context = {"title": title % {"event": event.name}, "event": event}
    return render(request, template, context | {name: select(event) for name, select in seating.items()})


@login_required
def slips(request, event_id: int):
    return _printed_seating(
        request, event_id, "paper/slips.html", _("Seating slips · %(event)s"), pods=selectors.seating
    )


@login_required
def wall(request, event_id: int):
    return _printed_seating(
        request, event_id, "paper/wall.html", _("Seating by name · %(event)s"), rows=selectors.seating_by_name
    )
