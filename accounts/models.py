"""A person's profile (display name, language, email wishes) and how players join an event:
its join link (capacity, deadline, waitlist) and the waitlist itself."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(gettext_lazy("Display name"), max_length=100, blank=True)
    # A code of settings.LANGUAGES; empty: the language switcher's cookie or the browser's.
    language = models.CharField(gettext_lazy("Preferred language"), max_length=10, blank=True)
    email_pairings = models.BooleanField(gettext_lazy("Email me when pairings are posted"), default=False)
    email_round_start = models.BooleanField(gettext_lazy("Email me when a round starts"), default=False)


class JoinLink(models.Model):
    """An event's open registration: whoever holds the token may join, up to ``capacity``
    (then onto the waitlist when there is one), until ``deadline``."""

    event = models.OneToOneField("events.Event", on_delete=models.CASCADE, related_name="join_link")
    token = models.CharField(max_length=64, unique=True)
    is_open = models.BooleanField(default=True)
    capacity = models.PositiveIntegerField(null=True, blank=True)  # None: no limit
    deadline = models.DateTimeField(null=True, blank=True)
    waitlist = models.BooleanField(default=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField()


class WaitlistEntry(models.Model):
    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="waitlist")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="waitlist_entries")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["event_id", "created_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["event", "user"], name="waitlist_unique_user")]


class EventCheckIn(models.Model):
    """Check-in for an event: once opened, seating takes the checked-in players only."""

    event = models.OneToOneField("events.Event", on_delete=models.CASCADE, related_name="check_in")
    is_open = models.BooleanField(default=True)
    opened_at = models.DateTimeField()


class CheckIn(models.Model):
    """A registered player is here: checked in from their phone or ticked by staff."""

    registration = models.OneToOneField("events.Registration", on_delete=models.CASCADE, related_name="check_in")
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
