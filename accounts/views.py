"""Account pages (sign-up, profile, the language switcher that remembers) and joining an
event (the join link, the organiser's registration settings and QR code, the venue page,
dropping out)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts import error_codes, qr, selectors, services
from accounts.exports import players_csv_response
from accounts.forms import PlayerListForm, ProfileForm, RegistrationSettingsForm, SignUpForm
from accounts.services.invitations import import_players
from accounts.services.joining import WAITLISTED
from accounts.services.profiles import set_language as remember_language
from draftsite import whole_numbers
from draftsite.errors import DomainError
from draftsite.pages import run, show_on_form
from events import permissions
from events.access import Permission
from events.views.common import get_event

JOIN_PREFIX = "/join/"


def _safe_next(request) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    # A path on this site only: anything else (a bare word would be read as a URL name by
    # ``redirect``) is ignored.
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, {request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


def _join_token(next_url: str) -> str | None:
    """The token of a join link in ``next`` (sign-up by link only, settings.SIGNUP_MODE)."""
    if next_url.startswith(JOIN_PREFIX):
        return next_url[len(JOIN_PREFIX) :].strip("/").split("/")[0] or None
    return None


def signup(request):
    next_url = _safe_next(request)
    token = _join_token(next_url)
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    if not services.signup_allowed(token):
        raise PermissionDenied(gettext("Accounts are made only through an event's join link on this site."))
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.sign_up(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
                display_name=form.cleaned_data["display_name"],
                language=form.cleaned_data["language"],
                join_token=token,
            )
        except DomainError as exc:
            show_on_form(form, exc)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            # The language chosen on the form is the account's from this very response on
            # (issue 46: the welcome came in the browser's language).
            if form.cleaned_data["language"]:
                translation.activate(form.cleaned_data["language"])
                request.LANGUAGE_CODE = form.cleaned_data["language"]
            messages.success(request, gettext("Welcome! Your account is ready."))
            return redirect(next_url or "home")
    return render(request, "accounts/signup.html", {"title": gettext("Sign up"), "form": form, "next": next_url})


@login_required
def profile(request):
    current = selectors.profile_of(request.user)
    form = ProfileForm(
        request.POST or None,
        initial={
            "display_name": current.display_name,
            "language": current.language,
            "email_pairings": current.email_pairings,
            "email_round_start": current.email_round_start,
        },
    )
    saved = None
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.update_profile(user=request.user, **form.cleaned_data)
        except DomainError as exc:
            show_on_form(form, exc)
    if saved is not None:
        with translation.override(saved.language or translation.get_language()):
            messages.success(request, gettext("Your profile is saved."))
        response = redirect("accounts:profile")
        if saved.language:
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, saved.language, max_age=settings.LANGUAGE_COOKIE_AGE)
        return response
    return render(request, "accounts/profile.html", {"title": gettext("Your profile"), "form": form})


def set_language(request):
    """Django's switcher; signed in, the choice is also the profile's preferred language
    (which otherwise wins over the cookie)."""
    response = django_set_language(request)
    if request.method == "POST" and request.user.is_authenticated:
        remember_language(user=request.user, language=request.POST.get("language", ""))
    return response


# --- joining an event -----------------------------------------------------------------------


def _join_url(request, token: str) -> str:
    return request.build_absolute_uri(reverse("accounts:join", args=[token]))


def join(request, token: str):
    if request.method == "POST" and request.user.is_authenticated:
        # The service reads the link itself (under its lock): no second read of it here.
        refused, result = run(  # a link that is not (any more) valid: the 404 page
            request,
            services.join_event,
            success=None,
            back=reverse("accounts:join", args=[token]),
            refusals_as_pages=True,
            not_found=gettext("This join link is not valid."),
            token=token,
            user=request.user,
            now=timezone.now(),
        )
        if result is None:
            return refused
        assert result.event is not None
        if result.status == WAITLISTED:
            messages.info(
                request, gettext("The event is full: you are on the waitlist and get an email if a place frees.")
            )
        else:
            messages.success(request, gettext("You are registered for %(name)s.") % {"name": result.event.name})
        return redirect("drafts:event-detail", result.event.pk)
    link = selectors.open_join_link(token)
    if link is None:
        raise Http404(gettext("This join link is not valid."))
    event = link.event
    if request.method == "POST":  # signed out
        return redirect(f"{reverse('login')}?next={reverse('accounts:join', args=[token])}")
    registered = waitlisted = None
    taken, mine = selectors.places_taken(event.pk, request.user)
    if request.user.is_authenticated:
        registered = mine
        waitlisted = selectors.waitlist_position(event.pk, request.user)
    closed = not link.is_open or (link.deadline is not None and timezone.now() > link.deadline)
    return render(
        request,
        "accounts/join.html",
        {
            "title": gettext("Join %(name)s") % {"name": event.name},
            "event": event,
            "link": link,
            "closed": closed,
            "registered": registered,
            "waitlist_position": waitlisted,
            "full": link.capacity is not None and taken >= link.capacity,
            "taken": taken,
            "path": reverse("accounts:join", args=[token]),
            "signup_open": services.signup_allowed(token),
        },
    )


@login_required
def registration_settings(request, event_id: int):
    event = get_event(event_id, request.user, Permission.ORGANISER)
    link = selectors.join_link_of(event.pk)
    initial = {"capacity": link.capacity, "deadline": link.deadline, "waitlist": link.waitlist} if link else {}
    form = RegistrationSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST":
        try:
            if request.POST.get("action") == "close":
                services.close_registration(event_id=event.pk, actor=request.user, now=timezone.now())
                messages.success(request, gettext("Registration is closed."))
                return redirect("accounts:registration", event.pk)
            if form.is_valid():
                services.open_registration(
                    event_id=event.pk, actor=request.user, now=timezone.now(), **form.cleaned_data
                )
                messages.success(request, gettext("Registration is open."))
                return redirect("accounts:registration", event.pk)
        except DomainError as exc:
            form.add_error(None, exc.message)
    context = {
        "title": gettext("Registration"),
        "event": event,
        "link": link,
        "form": form,
        "list_form": PlayerListForm(),
    }
    if link is not None:
        url = _join_url(request, link.token)
        context.update(
            join_url=url,
            qr_svg=qr.svg(url),
            taken=event.registrations.count(),
            waitlist=selectors.waitlist(event.pk),
        )
    return render(request, "accounts/registration.html", context)


@login_required
def venue_sheet(request, event_id: int):
    """A page to print for the venue: the QR code and the instructions in every language."""
    event = get_event(event_id, request.user, Permission.ORGANISER)
    link = selectors.join_link_of(event.pk)
    if link is None:
        raise Http404(gettext("Registration was never opened for this event."))
    url = _join_url(request, link.token)
    instructions = []
    for code, name in settings.LANGUAGES:
        with translation.override(code):
            instructions.append(
                {
                    "code": code,
                    "name": name,
                    "text": gettext("Scan the code with your phone to join %(name)s, or open the address below.")
                    % {"name": event.name},
                }
            )
    return render(
        request,
        "accounts/venue.html",
        {
            "title": event.name,
            "event": event,
            "join_url": url,
            "qr_svg": qr.svg(url, scale=10),
            "instructions": instructions,
        },
    )


def _own_step(request, event_id: int, service, success: str):
    """The player's own step on the event (``service``: leave it, leave its waitlist, check in),
    back to the event's page; ``success`` may name the event as ``%(name)s``."""
    event = get_event(event_id)
    return run(
        request,
        service,
        success=success % {"name": event.name},
        back=reverse("drafts:event-detail", args=[event.pk]),
        event_id=event.pk,
        user=request.user,
        now=timezone.now(),
    )[0]


@login_required
@require_POST
def drop(request, event_id: int):
    return _own_step(request, event_id, services.drop_registration, gettext("You have left %(name)s."))


@login_required
def players_export(request, event_id: int):
    """The organiser's list of registered and waitlisted players (CSV)."""
    event = get_event(event_id, request.user, Permission.ORGANISER)
    return players_csv_response(event)


@login_required
@require_POST
def leave_waitlist(request, event_id: int):
    return _own_step(request, event_id, services.leave_waitlist, gettext("You have left the waitlist of %(name)s."))


@login_required
@require_POST
def import_player_list(request, event_id: int):
    """The organiser's CSV of players: all registered (new accounts invited), or none."""
    event = get_event(event_id, request.user, Permission.ORGANISER)
    form = PlayerListForm(request.POST, request.FILES)
    problems: list[dict] = []
    if form.is_valid():
        try:
            result = import_players(event_id=event.pk, actor=request.user, text=form.cleaned_data["text"])
        except DomainError as exc:
            form.add_error(None, exc.message)
            problems = exc.extra.get("errors") or []
        else:
            messages.success(
                request,
                gettext("%(count)s players registered; %(invited)s new accounts invited by email.")
                % {"count": len(result.registered), "invited": result.invited},
            )
            return redirect("accounts:registration", event.pk)
    link = selectors.join_link_of(event.pk)
    return render(
        request,
        "accounts/registration.html",
        {
            "title": gettext("Registration"),
            "event": event,
            "link": None,
            "has_link": link is not None,
            "form": RegistrationSettingsForm(),
            "list_form": form,
            "problems": problems,
        },
        status=400,
    )


# --- check-in -------------------------------------------------------------------------------


@login_required
@require_POST
def check_in_me(request, event_id: int):
    return _own_step(
        request,
        event_id,
        services.check_in,
        gettext("You are checked in. Your seat appears here once the players are seated."),
    )


@login_required
def check_in_list(request, event_id: int):
    """The staff's list: tick players off; the page re-reads itself every few seconds."""
    event = get_event(event_id, request.user, Permission.STAFF)
    if request.method == "POST":
        action = request.POST.get("action", "")

        def tick():
            if action in ("open", "close"):
                return services.set_check_in_open(
                    event_id=event.pk, actor=request.user, now=timezone.now(), is_open=action == "open"
                )
            registration_id = whole_numbers.parse(request.POST.get("registration", ""))
            if registration_id is None:
                raise DomainError(error_codes.UNKNOWN_REGISTRATION, gettext("No such player in this event."))
            return services.staff_check_in(
                event_id=event.pk,
                registration_id=registration_id,
                actor=request.user,
                now=timezone.now(),
                checked=action != "uncheck",
            )

        return run(request, tick, success=None, back=reverse("accounts:check-in-list", args=[event.pk]))[0]
    context = {
        "title": gettext("Check-in"),
        "event": event,
        "window": selectors.check_in_of(event.pk),
        "organiser": permissions.is_organiser(request.user, event),
        **selectors.check_in_list(event.pk),
    }
    template = "accounts/_check_in_lists.html" if request.GET.get("fragment") else "accounts/check_in.html"
    return render(request, template, context)
