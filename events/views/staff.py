"""Organisers' pages for an event's staff (add by username, invitation links, roles, removal)
and its settings; and the page where an invited judge accepts. Every write goes through
events.services.staff, which checks the role again and logs the change."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from draftsite.errors import DomainError
from draftsite.pages import for_form, run, show_on_form
from events import extensions, permissions, selectors, services
from events.access import Permission
from events.forms import EventSettingsForm, InvitationForm, StaffForm, StaffRoleForm
from events.models import EnforcementLevel, StaffRole
from events.services.staff import EDITABLE_FIELDS
from events.views.common import confirm_page, confirmed, get_event, posted

T = TypeVar("T")


def _organiser_event(request, event_id: int):
    return get_event(event_id, request.user, Permission.ORGANISER)


def _back(event) -> str:
    return reverse("drafts:event-staff", args=[event.pk])


def _on_staff(
    request, event, service: Callable[..., T], *, success: str, **fields: Any
) -> tuple[HttpResponse, T | None]:
    """An organiser's control of the staff page: ``service`` on ``event`` by the caller, its
    refusal or ``success`` a message back on the staff page (the redirect and the result)."""
    return run(request, service, success=success, back=_back(event), event_id=event.pk, actor=request.user, **fields)


def _staff_rows(event) -> list:
    """The staff, each judge who is also seated as a player marked with that seat."""
    rows: list[Any] = selectors.event_staff(event)
    seated = extensions.seating().seated_players(event, [s.user_id for s in rows if s.role in selectors.JUDGING_ROLES])
    for row in rows:
        row.seated = seated.get(row.user_id) if row.role in selectors.JUDGING_ROLES else None
    return rows


def _shown_value(field: str, value) -> str:
    """A logged setting (stored as JSON: ISO dates, codes, booleans) as the reader says it."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if field == "enforcement_level" and value in EnforcementLevel.values:
        return str(EnforcementLevel(value).label)
    if field in ("date", "decklist_deadline") and isinstance(value, str):
        try:
            parsed = dt.datetime.fromisoformat(value)
        except ValueError:
            return value
        if field == "date":
            return date_format(parsed.date(), "DATE_FORMAT")
        return date_format(timezone.localtime(parsed) if timezone.is_aware(parsed) else parsed, "DATETIME_FORMAT")
    return str(value)


def _settings_log(event) -> list[dict]:
    """The settings page's earlier changes: each field by its form label, each value in words."""
    labels = EventSettingsForm.base_fields
    rows = []
    for entry in selectors.event_log(event, 30):
        if entry.action != "event_updated":
            continue
        changes = [
            (
                labels[field].label if field in labels else field,
                _shown_value(field, values[0]),
                _shown_value(field, values[1]),
            )
            for field, values in (entry.details.get("changes") or {}).items()
        ]
        rows.append({"at": entry.at, "actor": entry.actor, "changes": changes})
    return rows


@login_required
def staff_page(request, event_id: int):
    event = _organiser_event(request, event_id)
    return render(
        request,
        "events/event_staff.html",
        {
            "title": _("Staff · %(event)s") % {"event": event.name},
            "event": event,
            "staff": _staff_rows(event),
            "roles": StaffRole.choices,
            "invitations": selectors.invitations(event),
            "log": selectors.event_log(event, 30),
            "staff_form": StaffForm(),
            "invitation_form": InvitationForm(),
        },
    )


@login_required
@require_POST
def staff_add(request, event_id: int):
    event = _organiser_event(request, event_id)
    form = StaffForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return redirect(_back(event))
    response, staff = _on_staff(
        request,
        event,
        services.add_event_staff_by_username,
        success="",
        username=form.cleaned_data["username"],
        role=form.cleaned_data["role"],
    )
    if staff is not None:
        messages.success(
            request,
            _("%(name)s is now %(role)s of this event.")
            % {"name": staff.user.get_username(), "role": staff.get_role_display().lower()},
        )
        seat = extensions.seating().seated_players(event, [staff.user_id]).get(staff.user_id)
        if seat is not None and staff.role in selectors.JUDGING_ROLES:
            messages.warning(request, extensions.seating().seated_warning(seat))
    return response


@login_required
@require_POST
def staff_role(request, event_id: int, staff_id: int):
    event = _organiser_event(request, event_id)
    return _on_staff(
        request,
        event,
        services.change_staff_role,
        success=_("Role changed."),
        staff_id=staff_id,
        role=posted(StaffRoleForm, request)["role"],
    )[0]


@login_required
@require_POST
def staff_remove(request, event_id: int, staff_id: int):
    event = _organiser_event(request, event_id)
    if not confirmed(request):
        return confirm_page(
            request,
            title=_("Remove from the staff"),
            question=_("Remove this staff member from %(event)s?") % {"event": event.name},
            action=reverse("drafts:event-staff-remove", args=[event.pk, staff_id]),
            back=_back(event),
            danger=True,
            button=_("Remove"),
        )
    return _on_staff(
        request, event, services.remove_event_staff, success=_("Removed from the staff."), staff_id=staff_id
    )[0]


@login_required
@require_POST
def staff_invite(request, event_id: int):
    event = _organiser_event(request, event_id)
    form = InvitationForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a role for the invitation."))
        return redirect(_back(event))
    response, invitation = _on_staff(request, event, services.invite_staff, success="", role=form.cleaned_data["role"])
    if invitation is not None:
        messages.success(
            request, _("Invitation link created: send it to the person you invite. It works once, for 7 days.")
        )
    return response


@login_required
@require_POST
def staff_invitation_revoke(request, event_id: int, invitation_id: int):
    event = _organiser_event(request, event_id)
    return _on_staff(
        request,
        event,
        services.revoke_staff_invitation,
        success=_("Invitation withdrawn."),
        invitation_id=invitation_id,
    )[0]


@login_required
def invitation_page(request, token: str):
    """An invited judge or organiser opens the link, sees what it is for, and accepts."""
    invitation = selectors.invitation_by_token(token)
    if invitation is None:
        raise Http404(_("This invitation link is not valid."))
    state = selectors.invitation_state(invitation, timezone.now())
    status = 200
    seat = (
        extensions.seating().seated_players(invitation.event, [request.user.pk]).get(request.user.pk)
        if invitation.role in selectors.JUDGING_ROLES
        else None
    )
    if request.method == "POST":
        _accepted, refusal, status = for_form(lambda: services.accept_staff_invitation(token=token, user=request.user))
        if refusal is not None:  # said on the invitation's page, answered with the refusal's status
            messages.error(request, refusal.message)
        else:
            messages.success(
                request,
                _("You are now %(role)s of %(event)s.")
                % {"role": invitation.get_role_display().lower(), "event": invitation.event.name},
            )
            if seat is not None:
                messages.warning(request, extensions.seating().seated_warning(seat))
            return redirect("drafts:event-detail", invitation.event_id)
    return render(
        request,
        "events/staff_invitation.html",
        {
            "title": _("Invitation"),
            "invitation": invitation,
            "state": state,
            "already": invitation.role in permissions.event_roles(request.user, invitation.event),
            "seated_warning": extensions.seating().seated_warning(seat) if seat is not None else "",
        },
        status=status,
    )


@login_required
def settings_page(request, event_id: int):
    event = _organiser_event(request, event_id)
    status = 200
    if request.method == "POST":
        form = EventSettingsForm(request.POST)
        if form.is_valid():
            changes = {field: form.cleaned_data[field] for field in EDITABLE_FIELDS}
            try:
                services.update_event(event_id=event.pk, actor=request.user, changes=changes)
            except DomainError as exc:
                show_on_form(form, exc)
                status = exc.status_code
            else:
                messages.success(request, _("Event settings saved."))
                return redirect("drafts:event-detail", event.pk)
        else:
            status = 400
    else:
        form = EventSettingsForm(initial={field: getattr(event, field) for field in EDITABLE_FIELDS})
    return render(
        request,
        "events/event_settings.html",
        {
            "title": _("Settings · %(event)s") % {"event": event.name},
            "event": event,
            "form": form,
            "log": _settings_log(event),
        },
        status=status,
    )
