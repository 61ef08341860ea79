"""What every page about an event uses: the event with the caller's permission (its refusal the
404 or 403 page), the caller's role in it, and the confirm step of a control."""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext

from draftsite.pages import on_page
from events import access, permissions
from events.access import Permission
from events.models import Event


def get_event(pk: int, user=None, permission: Permission | None = None) -> Event:
    return on_page(access.access_event, pk, user, permission=permission)


def event_role_label(user, event) -> str:
    roles = permissions.event_roles(user, event)
    for role, label in (
        ("organiser", gettext("Organiser")),
        ("head_judge", gettext("Head judge")),
        ("judge", gettext("Judge")),
    ):
        if role in roles:
            return label
    if getattr(user, "is_authenticated", False) and event.registrations.filter(user=user).exists():
        return gettext("Player")
    return ""


# --- the confirm step -------------------------------------------------------------------


def confirmed(request) -> bool:
    return request.POST.get("confirmed") == "yes"


def confirm_page(
    request,
    *,
    title: str,
    question: str,
    action: str,
    back: str,
    button: str = "",
    danger: bool = False,
    detail: str = "",
):
    """The page a control shows before it acts (the no-script confirmation; scripts ask in a
    dialog and send ``confirmed=yes`` straight away). Every posted field is carried over."""
    fields = [
        (k, v) for k, values in request.POST.lists() if k not in ("csrfmiddlewaretoken", "confirmed") for v in values
    ]
    return render(
        request,
        "events/confirm.html",
        {
            "title": title,
            "question": question,
            "action": action,
            "back": back,
            "fields": fields,
            "button": button or gettext("Confirm"),
            "danger": danger,
            "detail": detail,
        },
    )


def posted(form_class, request) -> dict:
    """The posted fields a form reads, each ``None`` where it is missing or not valid (the
    services then say what is wrong, in the page's message)."""
    form = form_class(request.POST)
    form.is_valid()
    return {name: form.cleaned_data.get(name) for name in form.fields}
