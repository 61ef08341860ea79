"""Judge-call pages: the caller's buttons (match page, draft page), the staff queue (live),
the steps on a call (claim, escalate, extend, resolve). Every form posts to the services the
API calls; a refusal comes back as a message (PRG)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from drafts import permissions
from drafts.models import Seat
from draftsite.forms import posted, whole_number
from draftsite.pages import on_page, run
from events.access import Permission, access_event, authorize
from events.models import Event
from judgecalls import context as call_context_builder
from judgecalls import forms, selectors, services
from judgecalls import proposals as site_proposals
from judgecalls.models import JudgeCall


def _back(request, default: str) -> str:
    target = request.POST.get("next", "")
    # A path on this site only (``redirect`` would read a bare word as a URL name).
    if target.startswith("/") and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return default


def _run(request, step, *, success: str, back: str, **kwargs):
    # Staff steps are gated before the service; a caller who is not the table's is a 403.
    return run(request, step, success=success, back=back, refusals_as_pages=True, actor=request.user, **kwargs)[0]


def _call(request, service, *, success: str, **place):
    """A player calls a judge (from their table or their seat), then goes back to the page they
    called from (its ``next``), else home."""
    return _run(
        request,
        service,
        success=success,
        back=_back(request, reverse("home")),
        **place,
        **posted(forms.CallForm, request.POST),
    )


@login_required
@require_POST
def call_from_match(request, match_id: int):
    return _call(
        request, services.call_from_match, success=_("A judge has been called to your table."), match_id=match_id
    )


@login_required
@require_POST
def call_from_seat(request, seat_id: int):
    return _call(request, services.call_from_seat, success=_("A judge has been called to your seat."), seat_id=seat_id)


@login_required
def seat_call_box(request, seat_id: int):
    """The draft page's call box alone (static/js/callbox.js fetches it on a push or after a
    call). The seat's player only: the box is their own call, nobody else's."""
    seat = Seat.objects.select_related("registration").filter(pk=seat_id).first()
    if seat is None:
        raise Http404(_("No such seat"))
    registration_id = seat.registration_id
    if registration_id is None or not permissions.owns_seat(request.user, seat):
        raise PermissionDenied(_("Only the player in this seat sees its judge call."))
    call = selectors.players_open_call(registration_id)
    context = {
        "call": call,
        "resolved": None if call else selectors.players_recently_resolved(registration_id, timezone.now()),
        "seat": seat,
        "fragment": True,
        "next": reverse("drafts:seat", args=[seat.pk]),
        # The answer to a call posted by the script comes here: its message is shown in the box.
        "flash": list(get_messages(request)),
    }
    return _no_store(render(request, "judgecalls/_call_box.html", context))


# --- the staff queue --------------------------------------------------------------------


def _staff_event(request, event_id: int) -> Event:
    event = on_page(access_event, event_id, not_found=_("No such event"))
    on_page(
        authorize, request.user, event.pk, Permission.STAFF, message=_("Only the event's judges see its judge calls.")
    )
    return event


def _queue_context(request, event: Event) -> dict:
    now = timezone.now()
    calls = selectors.open_calls(event.pk)
    linkable = selectors.linkable_penalties(calls)
    return {
        "event": event,
        "now": now,
        "rows": [
            {"call": c, "age_minutes": selectors.age_seconds(c, now) // 60, "penalties": linkable[c.pk]} for c in calls
        ],
        "resolved": selectors.recently_resolved(event.pk),
        "me": request.user,
    }


def _no_store(response):
    response["Cache-Control"] = "no-store"
    return response


@login_required
def queue(request, event_id: int):
    event = _staff_event(request, event_id)
    context = _queue_context(request, event)
    context.update(
        socket=f"/ws/judgecalls/events/{event.pk}/",
        panel_url=reverse("judgecalls:queue-panel", args=[event.pk]),
        title=_("Judge calls · %(event)s") % {"event": event.name},
    )
    return _no_store(render(request, "judgecalls/queue.html", context))


@login_required
def queue_panel(request, event_id: int):
    event = _staff_event(request, event_id)
    return _no_store(render(request, "judgecalls/_queue_panel.html", _queue_context(request, event)))


def _staff_call(request, call_id: int) -> JudgeCall:
    call = selectors.call_by_id(call_id)
    if call is None:
        raise Http404(_("No such judge call"))
    on_page(
        authorize,
        request.user,
        call.event_id,
        Permission.STAFF,
        message=_("Only the event's judges see its judge calls."),
    )
    return call


@login_required
def call_context(request, call_id: int):
    """The table's context for the judge at the call (staff only: decklists and penalties)."""
    call = _staff_call(request, call_id)
    context = call_context_builder.call_context(call, timezone.now(), request.user)
    context["title"] = _("Judge call #%(id)s") % {"id": call.pk}
    # Back from the penalty form (``?penalty=<id>``): that penalty is chosen to close the call.
    context["linkable"] = selectors.linkable_penalties([call])[call.pk]
    # Only a penalty the form offers can be chosen; any other value chooses none.
    chosen = whole_number(request.GET.get("penalty"), 2**31)
    context["chosen_penalty"] = chosen if any(p.pk == chosen for p in context["linkable"]) else None
    return _no_store(render(request, "judgecalls/context.html", context))


_STEPS = {
    "claim": (services.claim_call, None, _("You have the call.")),
    "escalate": (services.escalate_call, forms.NoteForm, _("Escalated to the head judge.")),
    "extension": (services.extend_time, forms.ExtensionForm, _("Time extension set.")),
    "resolve": (services.resolve_call, forms.ResolveForm, _("Call resolved.")),
}


@login_required
@require_POST
def step(request, call_id: int, action: str):
    call = _staff_call(request, call_id)
    if action not in _STEPS:
        raise Http404(_("No such step"))
    service, form, success = _STEPS[action]
    values = posted(form, request.POST) if form is not None else {}
    if action == "resolve" and values.get("penalty_id") is None:
        values.pop("penalty_id", None)
    back = _back(request, reverse("judgecalls:queue", args=[call.event_id]))
    return _run(request, service, success=str(success), back=back, call_id=call.pk, **values)


# --- the site's proposals ----------------------------------------------------------------


@login_required
def proposals(request, event_id: int):
    """What the site proposes from the event's log; issue or dismiss one or many (POST)."""
    event = _staff_event(request, event_id)
    back = reverse("judgecalls:proposals", args=[event.pk])
    if request.method == "POST":
        sources = request.POST.getlist("source")
        if request.POST.get("action") == "dismiss":
            return _run(
                request,
                services.dismiss_proposals,
                success=_("Proposals dismissed."),
                back=back,
                event_id=event.pk,
                sources=sources,
                reason=request.POST.get("reason", ""),
            )
        return _run(
            request,
            services.issue_proposals,
            success=_("Penalties issued."),
            back=back,
            event_id=event.pk,
            sources=sources,
        )
    context = {
        "event": event,
        "proposals": site_proposals.proposals(event, timezone.now()),
        "title": _("Proposed penalties · %(event)s") % {"event": event.name},
    }
    return _no_store(render(request, "judgecalls/proposals.html", context))
