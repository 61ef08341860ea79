"""Registering for an event from its page: a player joins (by the event's link, when it has one:
accounts' page, with its capacity and waitlist), an organiser registers an account by username
or a guest by name."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from draftsite.errors import DomainError
from draftsite.pages import run
from events import error_codes, extensions, services
from events.access import Permission
from events.forms import RegistrationForm
from events.views.common import get_event


@login_required
@require_POST
def event_join(request, event_id: int):
    event = get_event(event_id)
    token = extensions.players().join_link_token(event.pk)
    if token is not None:  # open registration has a capacity and a waitlist: its own page
        return redirect("accounts:join", token)
    return run(
        request,
        services.register_player,
        success=gettext("You are registered for %(name)s.") % {"name": event.name},
        back=reverse("drafts:event-detail", args=[event.pk]),
        event_id=event.pk,
        user=request.user,
        actor=request.user,
        share_pick_data=request.POST.get("share_pick_data") == "on",
    )[0]


@login_required
@require_POST
def event_register(request, event_id: int):
    """An organiser registers an account by username, or a guest by name."""
    event = get_event(event_id, request.user, Permission.ORGANISER)
    form = RegistrationForm(request.POST)
    if not form.is_valid():
        for error in form.non_field_errors() + [e for f in form.errors.values() for e in f]:
            messages.error(request, str(error))
        return redirect(reverse("drafts:event-detail", args=[event.pk]) + "#players")
    username = form.cleaned_data["username"].strip()

    def register():
        if not username:
            return services.register_player(event_id=event.pk, name=form.cleaned_data["name"], actor=request.user)
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise DomainError(
                error_codes.UNKNOWN_USER, gettext("No account is called “%(username)s”.") % {"username": username}
            )
        return services.register_player(event_id=event.pk, user=user, actor=request.user)

    return run(
        request,
        register,
        success=lambda registration: gettext("%(name)s is registered.") % {"name": registration.name},
        back=reverse("drafts:event-detail", args=[event.pk]) + "#players",
    )[0]
