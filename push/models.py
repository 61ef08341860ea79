"""Web Push: a browser's subscription (one per endpoint the push service gave it), a player's
choices per event (which triggers), what was already sent once (a pack's wait, a round's last
ten minutes) and the organisers' announcements."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy


class Trigger(models.TextChoices):
    """What a player may be told; each is a switch of ``EventPush``."""

    PAIRINGS = "pairings", gettext_lazy("Pairings are posted (your table and opponent)")
    DRAFT_START = "draft_start", gettext_lazy("Your pod is seated or your draft starts")
    PACK_WAITING = "pack_waiting", gettext_lazy("A pack is waiting while the draft page is hidden or closed")
    DECK_DEADLINE = "deck_deadline", gettext_lazy("Deck registration closes in 10 minutes")
    JUDGE = "judge", gettext_lazy("A judge is on the way or answered your call")
    ROUND_ENDING = "round_ending", gettext_lazy("10 minutes left in the round")


class PushSubscription(models.Model):
    """A browser the player allowed to notify: where to send (``endpoint``, the push service's
    URL) and the keys that encrypt the payload for it (RFC 8291)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=2000, unique=True)
    p256dh = models.CharField(max_length=200)  # the browser's P-256 public key, base64url
    auth = models.CharField(max_length=100)  # its 16-byte auth secret, base64url
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["user_id", "pk"]


class EventPush(models.Model):
    """A player turned notifications on for an event, with one switch per trigger.
    Announcements from the organisers reach everyone who turned them on."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_pushes")
    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="pushes")
    pairings = models.BooleanField(default=True)
    draft_start = models.BooleanField(default=True)
    pack_waiting = models.BooleanField(default=True)
    deck_deadline = models.BooleanField(default=True)
    judge = models.BooleanField(default=True)
    round_ending = models.BooleanField(default=True)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "event"], name="eventpush_unique_user_event")]

    def triggers(self) -> list[str]:
        return [trigger for trigger in Trigger.values if getattr(self, trigger)]


class PushSent(models.Model):
    """A notice that must go at most once (a pack's wait, a round's last ten minutes, a
    deadline): its key is taken in the same statement that decides to send it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=120)
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="pushsent_unique_user_key")]


class Announcement(models.Model):
    """An organiser's message to every checked-in player of the event who turned push on."""

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="announcements")
    text = models.CharField(max_length=200)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField()
