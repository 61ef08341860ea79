"""The organiser's dashboard, the pod page (organisers act, judges read), exports, and the
open board page for pod members.

Every control is a POST that first answers with a confirm page (``confirmed=yes`` acts; the
page's script asks in a dialog instead), is refused on the server to anyone but an organiser
of the event, and is logged by its service as a PodLogEntry.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from drafts import access, dashboards, extensions, live, permissions, selectors, services
from drafts.forms import PodControlForm
from drafts.models import ACTIVE_STATES
from drafts.views.common import cards_url, drafting_round, get_pod, present_board
from draftsite.errors import DomainError
from draftsite.pages import run
from events import permissions as event_permissions
from events.access import Permission
from events.models import Registration
from events.views.common import confirm_page, confirmed, event_role_label, get_event, posted


def _no_store(response):
    response["Cache-Control"] = "no-store"
    return response


# --- event dashboard --------------------------------------------------------------------


def _dashboard_context(request, event):
    now = timezone.now()
    other_app = extensions.dashboard_for(event.draft_format)  # a paper draft's called pods
    if other_app is not None:
        other_app.settle(event=event, now=now)
        pods = other_app.rows(event, now)
    else:
        pods = dashboards.event_glance(event, services.settle_event_pods_for_reading(event, now), now)
    return {
        "event": event,
        "pods": pods,
        "now": now,
        "is_organiser": event_permissions.is_organiser(request.user, event),
        "running_states": [str(state) for state in ACTIVE_STATES],
        "versions": json.dumps({str(p["pod"].pk): p["pod"].version for p in pods}),
    }


@login_required
def dashboard(request, event_id: int):
    event = get_event(event_id, request.user, Permission.STAFF)
    context = _dashboard_context(request, event)
    context.update(
        title=gettext("Dashboard · %(name)s") % {"name": event.name},
        role_label=event_role_label(request.user, event),
        socket=live.event_socket(event.pk),
        panel_url=reverse("drafts:dashboard-panel", args=[event.pk]),
    )
    return render(request, "drafts/dashboard.html", context)


@login_required
def dashboard_panel(request, event_id: int):
    event = get_event(event_id, request.user, Permission.STAFF)
    return _no_store(render(request, "drafts/_dashboard_panel.html", _dashboard_context(request, event)))


# --- one pod ----------------------------------------------------------------------------


def _pod_context(request, pod):
    now = timezone.now()
    detail = dashboards.pod_detail(services.settle_pod_for_reading(pod.pk, now), now)
    pod = detail["pod"]
    return {
        **detail,
        "event": pod.event,
        "is_organiser": event_permissions.is_organiser(request.user, pod.event),
        "spectator_url": request.build_absolute_uri(reverse("drafts:spectate", args=[pod.spectator_token]))
        if pod.spectator_token
        else "",
        "now": detail["server_time"],
        "versions": json.dumps({str(pod.pk): pod.version}),
        "effective_state": pod.effective_state,
    }


@login_required
def pod_detail(request, pod_id: int):
    pod = get_pod(pod_id, request.user, Permission.STAFF)
    context = _pod_context(request, pod)
    context.update(
        title=gettext("Pod %(number)s · %(name)s") % {"number": pod.number, "name": pod.event.name},
        role_label=event_role_label(request.user, pod.event),
        socket=live.pod_socket(pod.pk),
        panel_url=reverse("drafts:pod-panel", args=[pod.pk]),
        cards_url=cards_url(pod.event),
        opened_packs=selectors.opened_packs(pod),
    )
    return render(request, "drafts/pod_detail.html", context)


@login_required
def pod_panel(request, pod_id: int):
    pod = get_pod(pod_id, request.user, Permission.STAFF)
    return _no_store(render(request, "drafts/_pod_panel.html", _pod_context(request, pod)))


def _seat_of(pod, seat_id: int | None):
    """The posted seat of this pod, if there is one."""
    if not seat_id:
        return None
    try:
        return access.access_pod_seat(pod, seat_id)
    except DomainError:
        return None


def _seat_label(seat) -> str:
    who = seat.registration.name if seat.registration_id else gettext("automatic drafter")
    return gettext("seat %(number)s (%(name)s)") % {"number": seat.position + 1, "name": who}


@dataclass
class Control:
    """What one control asks, which service it calls with what, and what it says when done."""

    question: str
    service: Callable
    kwargs: dict
    done: str
    danger: bool = False


class Refused(Exception):
    """The control's input is incomplete: say so on the page it came from."""


def _pod_name(pod) -> str:
    return gettext("pod %(number)s") % {"number": pod.number}


def _start(pod, post, actor) -> Control:
    return Control(
        gettext("Start %(name)s? Packs open and the first pick timer starts.") % {"name": _pod_name(pod)},
        services.start_pod,
        {"pod_id": pod.pk, "actor": actor},
        gettext("Pod %(number)s started.") % {"number": pod.number},
    )


def _pause(pod, post, actor) -> Control:
    return Control(
        gettext("Pause %(name)s? Every clock stops where it is.") % {"name": _pod_name(pod)},
        services.pause_pod,
        {"pod_id": pod.pk, "actor": actor},
        gettext("Pod %(number)s paused.") % {"number": pod.number},
    )


def _resume(pod, post, actor) -> Control:
    return Control(
        gettext("Resume %(name)s? Every clock restarts with the time it had left.") % {"name": _pod_name(pod)},
        services.resume_pod,
        {"pod_id": pod.pk, "actor": actor},
        gettext("Pod %(number)s resumed.") % {"number": pod.number},
    )


def _advance(pod, post, actor) -> Control:
    return Control(
        gettext("End the review in %(name)s now and open the next packs?") % {"name": _pod_name(pod)},
        services.advance_round,
        {"pod_id": pod.pk, "actor": actor},
        gettext("Next round started."),
    )


def _extend(pod, post, actor) -> Control:
    seconds, seat = post["seconds"], post["seat"]
    if seconds is None:
        raise Refused(gettext("Give the number of seconds to add."))
    if seat:
        question = gettext("Give %(seconds)s more seconds on the running clocks of %(name)s for %(seat)s?") % {
            "seconds": seconds,
            "name": _pod_name(pod),
            "seat": _seat_label(seat),
        }
    else:
        question = gettext("Give %(seconds)s more seconds on the running clocks of %(name)s?") % {
            "seconds": seconds,
            "name": _pod_name(pod),
        }
    return Control(
        question,
        services.extend_clocks,
        {"pod_id": pod.pk, "actor": actor, "seconds": seconds, "seat_id": seat.pk if seat else None},
        gettext("Clocks extended by %(seconds)s s.") % {"seconds": seconds},
    )


def _deck_building_clock(pod, post, actor) -> Control:
    minutes = post["minutes"]
    if minutes is None:
        raise Refused(gettext("Give the deck-building minutes."))
    return Control(
        gettext("Set the deck-building time of %(name)s to %(minutes)s minutes?")
        % {"name": _pod_name(pod), "minutes": minutes},
        services.set_deck_building_clock,
        {"pod_id": pod.pk, "actor": actor, "minutes": minutes},
        gettext("Deck-building time set to %(minutes)s min.") % {"minutes": minutes},
    )


def _start_deck_building(pod, post, actor) -> Control:
    return Control(
        gettext("Start the deck-building clock of %(name)s now?") % {"name": _pod_name(pod)},
        services.start_deck_building,
        {"pod_id": pod.pk, "actor": actor, "minutes": post["minutes"]},
        gettext("Deck-building clock started."),
    )


def _replace(pod, post, actor) -> Control:
    seat = post["seat"]
    if seat is None:
        raise Refused(gettext("Choose the seat to replace."))
    return Control(
        gettext("Replace %(seat)s with an automatic drafter? It picks for the seat from now on; the pile stays.")
        % {"seat": _seat_label(seat)},
        services.replace_with_automatic,
        {"seat_id": seat.pk, "actor": actor},
        gettext("Seat %(number)s is now an automatic drafter.") % {"number": seat.position + 1},
        danger=True,
    )


def _hand_seat(pod, post, actor) -> Control:
    seat = post["seat"]
    registration = Registration.objects.filter(pk=post["registration"], event=pod.event).first()
    if seat is None or registration is None:
        raise Refused(gettext("Choose the seat and the player who takes it."))
    return Control(
        gettext("Hand %(seat)s, with its packs and pile, to %(player)s?")
        % {"seat": _seat_label(seat), "player": registration.name},
        services.hand_seat,
        {"seat_id": seat.pk, "registration_id": registration.pk, "actor": actor},
        gettext("Seat %(number)s handed to %(player)s.") % {"number": seat.position + 1, "player": registration.name},
        danger=True,
    )


def _spectator_link(pod, post, actor) -> Control:
    return Control(
        gettext("Make a new spectator link for %(name)s? The current link stops working at once.")
        % {"name": _pod_name(pod)},
        services.regenerate_spectator_token,
        {"pod_id": pod.pk, "actor": actor},
        gettext("New spectator link made."),
        danger=True,
    )


# Every control of the pod page, by the action in its URL (the API has one endpoint each).
CONTROLS = {
    "start": _start,
    "pause": _pause,
    "resume": _resume,
    "advance": _advance,
    "extend": _extend,
    "deck-building-clock": _deck_building_clock,
    "start-deck-building": _start_deck_building,
    "replace": _replace,
    "hand-seat": _hand_seat,
    "spectator-link": _spectator_link,
}


def _control(action: str, request, pod) -> Control:
    if action not in CONTROLS:
        raise Http404(gettext("No such control"))
    post = posted(PodControlForm, request)
    post["seat"] = _seat_of(pod, post["seat"])
    return CONTROLS[action](pod, post, request.user)


@login_required
@require_POST
def pod_control(request, pod_id: int, action: str):
    """Every organiser control of a pod: confirm, act, log (the services log), go back."""
    pod = get_pod(pod_id, request.user, Permission.ORGANISER)
    back = posted(PodControlForm, request)["next"] or ""
    if not back.startswith("/") or back.startswith("//"):
        back = reverse("drafts:pod-detail", args=[pod.pk])
    try:
        control = _control(action, request, pod)
    except Refused as refusal:
        messages.error(request, str(refusal))
        return redirect(back)
    if not confirmed(request):
        return confirm_page(
            request,
            title=gettext("Please confirm"),
            question=control.question,
            action=reverse("drafts:pod-control", args=[pod.pk, action]),
            back=back,
            danger=control.danger,
        )
    return run(request, control.service, success=control.done, back=back, **control.kwargs)[0]


# "Pause all" and "Resume all" on the dashboard: (question, service, what the page says after).
EVENT_POD_CONTROLS: dict[str, tuple[Promise, Callable, Promise]] = {
    "pause": (
        gettext_lazy("Pause every running pod? Every clock of every pod stops where it is."),
        services.pause_all_pods,
        gettext_lazy("Every running pod is paused."),
    ),
    "resume": (
        gettext_lazy("Resume every paused pod? Each clock restarts with the time it had left."),
        services.resume_all_pods,
        gettext_lazy("Every paused pod is resumed."),
    ),
}


@login_required
@require_POST
def event_pods_control(request, event_id: int, action: str):
    """The dashboard's controls of every pod at once: confirm, act (the services log each pod)."""
    event = get_event(event_id, request.user, Permission.ORGANISER)
    if action not in EVENT_POD_CONTROLS:
        raise Http404(gettext("No such control"))
    question, service, done = EVENT_POD_CONTROLS[action]
    back = reverse("drafts:dashboard", args=[event.pk])
    if not confirmed(request):
        return confirm_page(
            request,
            title=gettext("Please confirm"),
            question=str(question),
            action=reverse("drafts:event-pods-control", args=[event.pk, action]),
            back=back,
        )
    return run(request, service, success=str(done), back=back, event_id=event.pk, actor=request.user)[0]


# --- downloads --------------------------------------------------------------------------


def _download(body: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def pod_log_text(request, pod_id: int):
    pod = get_pod(pod_id, request.user, Permission.STAFF)
    return _download(
        dashboards.pod_log_text(pod), "text/plain; charset=utf-8", f"event{pod.event_id}-pod{pod.number}-log.txt"
    )


@login_required
def pod_log_json(request, pod_id: int):
    pod = get_pod(pod_id, request.user, Permission.STAFF)
    return _download(
        dashboards.pod_log_json(pod), "application/json; charset=utf-8", f"event{pod.event_id}-pod{pod.number}-log.json"
    )


@login_required
def event_report(request, event_id: int):
    event = get_event(event_id, request.user, Permission.STAFF)
    return _download(dashboards.event_report_csv(event), "text/csv; charset=utf-8", f"event{event.pk}-report.csv")


# --- the open board for pod members and staff (R15) ---------------------------------------


def _board_context(request, pod):
    pod = services.settle_pod_for_reading(pod.pk)
    me = permissions.seat_in_pod(request.user, pod.pk)
    return {
        "pod": pod,
        "event": pod.event,
        "summary": selectors.pod_summary(pod),
        "my_seat": me,
        "board": present_board(
            selectors.open_board(pod),
            my_position=me.position if me else None,
            pod_round=drafting_round(pod.state, pod.paused_from, pod.round),
        ),
        "versions": json.dumps({str(pod.pk): pod.version}),
    }


@login_required
def pod_board(request, pod_id: int):
    pod = get_pod(pod_id, request.user, Permission.POD_MEMBER)
    context = _board_context(request, pod)
    context.update(
        title=gettext("Open board · pod %(number)s") % {"number": pod.number},
        socket=live.pod_socket(pod.pk),
        panel_url=reverse("drafts:pod-board-panel", args=[pod.pk]),
        cards_url=cards_url(pod.event),
    )
    return render(request, "drafts/board.html", context)


@login_required
def pod_board_panel(request, pod_id: int):
    pod = get_pod(pod_id, request.user, Permission.POD_MEMBER)
    return _no_store(render(request, "drafts/_board_panel.html", _board_context(request, pod)))
