"""An organiser's list of players (CSV: name, email, optional username): accounts for the
new ones, each invited by email to choose a password, and everyone registered for the event.

The list is taken whole or not at all: any broken row refuses it, naming every broken line,
and nothing is created.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext

from accounts import error_codes, selectors
from accounts.models import Profile
from accounts.services.mail import send_user_mail
from draftsite.errors import DomainError
from events.access import Permission, access_event, authorize
from events.models import Registration
from events.services.registrations import register_player

MAX_ROWS = 2000
HEADER = ["name", "email", "username"]


@dataclasses.dataclass(frozen=True)
class PlayerRow:
    line: int
    name: str
    email: str
    username: str


@dataclasses.dataclass(frozen=True)
class ImportResult:
    registered: list[Registration]
    invited: int  # new accounts, each sent an invitation
    already: int  # already registered: left as they were


def parse_player_list(text: str) -> list[PlayerRow]:
    """Rows of ``name,email[,username]`` (a header row is allowed); DomainError naming every
    broken line otherwise."""
    if "\x00" in text:
        raise DomainError(error_codes.INVALID_CSV, gettext("The list is not text."), errors=[])
    rows: list[PlayerRow] = []
    problems: list[dict] = []
    reader = csv.reader(io.StringIO(text))
    try:
        for cells in reader:
            line = reader.line_num
            cells = [c.strip() for c in cells]
            if not any(cells):
                continue
            if not rows and not problems and [c.lower() for c in cells[:3]] == HEADER[: len(cells[:3])]:
                continue  # the header
            if len(cells) not in (2, 3):
                problems.append({"line": line, "message": gettext("Expected name, email and an optional username.")})
                continue
            name, email, username = cells[0], cells[1], (cells[2] if len(cells) == 3 else "")
            message = _row_problem(name, email, username)
            if message:
                problems.append({"line": line, "message": message})
            else:
                rows.append(PlayerRow(line, name, email, username))
    except csv.Error as exc:
        problems.append({"line": reader.line_num, "message": str(exc)})
    if len(rows) + len(problems) > MAX_ROWS:
        raise DomainError(
            error_codes.INVALID_CSV,
            gettext("A list has at most %(count)s players.") % {"count": MAX_ROWS},
            errors=[],
        )
    problems += _duplicates(rows)
    if not rows and not problems:
        raise DomainError(error_codes.INVALID_CSV, gettext("The list is empty."), errors=[])
    if problems:
        _refuse(problems)
    return rows


def _row_problem(name: str, email: str, username: str) -> str:
    if not name or len(name) > 100:
        return gettext("A name is needed (at most 100 characters).")
    try:
        validate_email(email)
    except ValidationError:
        return gettext("“%(email)s” is not an email address.") % {"email": email}
    if username:
        try:
            UnicodeUsernameValidator()(username)
        except ValidationError:
            return gettext("“%(username)s” is not a valid username.") % {"username": username}
        if len(username) > 150:
            return gettext("“%(username)s” is not a valid username.") % {"username": username}
    return ""


def _duplicates(rows: list[PlayerRow]) -> list[dict]:
    problems = []
    seen: dict[tuple[str, str], int] = {}
    for row in rows:
        for kind, value in (
            ("email", row.email.lower()),
            ("name", row.name.lower()),
            ("username", row.username.lower()),
        ):
            if not value:
                continue
            first = seen.setdefault((kind, value), row.line)
            if first != row.line:
                problems.append({"line": row.line, "message": gettext("Same as line %(line)s.") % {"line": first}})
                break
    return problems


def _refuse(problems: list[dict]) -> None:
    problems.sort(key=lambda p: p["line"])
    lines = ", ".join(str(p["line"]) for p in problems)
    raise DomainError(
        error_codes.INVALID_CSV,
        gettext("Nothing was imported: fix line(s) %(lines)s.") % {"lines": lines},
        errors=problems,
    )


def _free_username(base: str, taken: set[str]) -> str:
    base = "".join(c for c in base if c.isalnum() or c in "._-")[:140] or "player"
    candidate, n = base, 1
    User = get_user_model()
    while candidate.lower() in taken or User.objects.filter(username__iexact=candidate).exists():
        n += 1
        candidate = f"{base}{n}"
    taken.add(candidate.lower())
    return candidate


@transaction.atomic
def import_players(*, event_id: int, actor, text: str) -> ImportResult:
    event = access_event(event_id, for_update=True)
    authorize(actor, event, Permission.ORGANISER)
    rows = parse_player_list(text)
    User = get_user_model()
    problems: list[dict] = []
    plan: list[tuple[PlayerRow, Any]] = []
    registered_users = set(
        Registration.objects.filter(event=event, user__isnull=False).values_list("user_id", flat=True)
    )
    names = {n.lower() for n in Registration.objects.filter(event=event).values_list("name", flat=True)}
    for row in rows:
        user = User.objects.filter(email__iexact=row.email).order_by("pk").first()
        if row.username:
            by_name = User.objects.filter(username__iexact=row.username).first()
            if by_name is not None and (user is None or by_name.pk != user.pk):
                problems.append(
                    {
                        "line": row.line,
                        "message": gettext("The username “%(username)s” belongs to another account.")
                        % {"username": row.username},
                    }
                )
                continue
        if (user is None or user.pk not in registered_users) and row.name.lower() in names:
            problems.append(
                {
                    "line": row.line,
                    "message": gettext("Someone called %(name)s is already registered.") % {"name": row.name},
                }
            )
            continue
        plan.append((row, user))
    if problems:
        _refuse(problems)
    taken: set[str] = set()
    registered, invited, already = [], 0, 0
    for row, user in plan:
        if user is not None and user.pk in registered_users:
            already += 1
            continue
        if user is None:
            username = row.username or _free_username(row.email.split("@")[0], taken)
            user = User.objects.create_user(username=username, email=row.email, password=None)
            Profile.objects.create(user=user, display_name=row.name)
            invited += 1
            send_user_mail(user, "invitation", {"event": event, "url": _set_password_url(user)})
        else:
            send_user_mail(
                user,
                "added",
                {"event": event, "url": settings.SITE_URL + reverse("drafts:event-detail", args=[event.pk])},
            )
        # An existing account keeps the name its owner chose; the list's name is for accounts
        # without one (and is the new account's display name above).
        name = None if selectors.chosen_display_name(user) else row.name
        registered.append(register_player(event_id=event.pk, user=user, name=name, actor=actor))
    return ImportResult(registered, invited, already)


def _set_password_url(user) -> str:
    """A password-reset link: the new account's owner chooses their password with it."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return settings.SITE_URL + reverse("password_reset_confirm", args=[uid, token])
