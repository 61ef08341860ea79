"""Mail to one person, written in their preferred language, sent once the transaction
commits (a rolled-back change sends nothing)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from accounts import selectors


def render_user_mail(user, template: str, context: dict[str, Any]) -> tuple[str, str]:
    """(subject, body) of ``accounts/email/<template>_subject.txt`` and ``_body.txt``."""
    with translation.override(selectors.language_of(user)):
        context = {"user": user, "name": selectors.display_name(user), **context}
        subject = " ".join(render_to_string(f"accounts/email/{template}_subject.txt", context).split())
        body = render_to_string(f"accounts/email/{template}_body.txt", context)
    return subject, body


def send_user_mail(user, template: str, context: dict[str, Any]) -> None:
    if not user.email:
        return  # nobody to write to (accounts made by an organiser without an address)
    subject, body = render_user_mail(user, template, context)
    address = user.email
    transaction.on_commit(lambda: send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address], fail_silently=False))
