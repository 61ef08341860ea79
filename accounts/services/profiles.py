"""Sign-up and profiles."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from accounts import error_codes, selectors
from accounts.models import Profile
from draftsite.errors import ConflictError, DomainError, ForbiddenError
from draftsite.names import has_visible_character

MAX_DISPLAY_NAME = 100  # Profile.display_name
OPEN = "open"  # settings.SIGNUP_MODE: anyone may sign up
LINK = "link"  # only someone holding an open event join link


def clean_display_name(display_name: str) -> str:
    """The display name as stored: trimmed; empty (the username stands in) or with at least one
    visible character and at most MAX_DISPLAY_NAME characters, refused rather than cut."""
    name = display_name.strip()
    if name and not has_visible_character(name):
        raise DomainError(
            error_codes.INVISIBLE_NAME,
            gettext("A display name needs at least one visible letter, digit or symbol."),
            field="display_name",
        )
    if len(name) > MAX_DISPLAY_NAME:
        raise DomainError(
            error_codes.NAME_TOO_LONG,
            gettext("A display name has at most %(limit)s characters.") % {"limit": MAX_DISPLAY_NAME},
            field="display_name",
        )
    return name


def signup_allowed(join_token: str | None) -> bool:
    if getattr(settings, "SIGNUP_MODE", OPEN) != LINK:
        return True
    link = selectors.open_join_link(join_token or "")
    return link is not None and link.is_open


@transaction.atomic
def sign_up(
    *,
    username: str,
    email: str,
    password: str,
    display_name: str = "",
    language: str = "",
    join_token: str | None = None,
):
    """Create an account and its profile. The password has been validated by the form."""
    if not signup_allowed(join_token):
        raise ForbiddenError(
            error_codes.SIGNUP_CLOSED, gettext("Accounts are made only through an event's join link on this site.")
        )
    if language and language not in selectors.LANGUAGE_CODES:
        raise DomainError(error_codes.INVALID_LANGUAGE, gettext("Unknown language."), field="language")
    display_name = clean_display_name(display_name)
    User = get_user_model()
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:
        raise ConflictError(error_codes.USERNAME_TAKEN, gettext("That username is taken."), field="username") from None
    Profile.objects.create(user=user, display_name=display_name, language=language)
    return user


@transaction.atomic
def update_profile(
    *, user, display_name: str, language: str, email_pairings: bool = False, email_round_start: bool = False
) -> Profile:
    if language and language not in selectors.LANGUAGE_CODES:
        raise DomainError(error_codes.INVALID_LANGUAGE, gettext("Unknown language."), field="language")
    display_name = clean_display_name(display_name)
    profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
    profile.display_name = display_name
    profile.language = language
    profile.email_pairings = email_pairings
    profile.email_round_start = email_round_start
    profile.save()
    return profile


def set_language(*, user, language: str) -> None:
    """The language switcher, signed in: the choice becomes the profile's too."""
    if language not in selectors.LANGUAGE_CODES:
        return
    Profile.objects.update_or_create(user=user, defaults={"language": language})
