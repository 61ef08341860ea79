"""The called paper draft: per-pod call state, flights, pauses, judges' jumps, posted DFCs.

A paper pod is an ordinary ``drafts.Pod`` (seated as any pod) of an event whose format is
"paper booster draft"; the players hold the cards, so no pack or pick is stored. What is
stored is only what the schedule needs (``paper.schedule``): when the call started, each
pause, and each judge's jump. Every control is also a ``drafts.PodLogEntry`` (who, when).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class CallAction(models.TextChoices):
    """A call's entries in its pod's log (``drafts.PodLogEntry``, registered in ``drafts.extensions``);
    the labels are what the pod log and the call log say of them."""

    START = "call_start", _("Call started")
    PAUSE = "call_pause", _("Paused")
    RESUME = "call_resume", _("Resumed")
    REPEAT_PICK = "call_repeat_pick", _("Pick repeated")
    SKIP_TO_REVIEW = "call_skip_to_review", _("Skipped to the review")
    RESTART_ROUND = "call_restart_round", _("Round restarted")
    FOLLOWERS = "call_followers", _("Following without an account changed")
    LINK_REGENERATED = "call_link_regenerated", _("New link for followers")
    OVER = "call_over", _("Draft over")


class Flight(models.Model):
    """Pods called in lockstep: one start, and controls that act on all of them at once."""

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="paper_flights")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["event_id", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="flight_unique_number")]

    def __str__(self) -> str:
        return f"Flight {self.number}"


class CalledPod(models.Model):
    """The call of one paper pod (created when the pod is first called or configured)."""

    pod = models.OneToOneField("drafts.Pod", on_delete=models.CASCADE, related_name="call")
    flight = models.ForeignKey(Flight, null=True, blank=True, on_delete=models.SET_NULL, related_name="pods")
    # The first call; may lie a little in the future (a countdown to the first pick).
    started_at = models.DateTimeField(null=True, blank=True)
    # Players may follow the call and the open table on the pod's spectator link, no account.
    followers_allowed = models.BooleanField(default=False)
    # Changes bump the pod's own ``version`` (one counter for the dashboard and paper pages).

    def __str__(self) -> str:
        return f"Call of pod {self.pod_id}"


class CallPause(models.Model):
    """A pause of one pod's call: by a judge for that pod, or part of a flight's pause."""

    called_pod = models.ForeignKey(CalledPod, on_delete=models.CASCADE, related_name="pauses")
    flight = models.ForeignKey(Flight, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=200)
    paused_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resumed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["called_pod_id", "started_at", "pk"]
        constraints = [
            # One open pause of the pod's own, and one per flight: racing pauses cannot stack.
            models.UniqueConstraint(
                fields=["called_pod"],
                condition=Q(ended_at__isnull=True, flight__isnull=True),
                name="callpause_one_open_per_pod",
            ),
            models.UniqueConstraint(
                fields=["called_pod", "flight"],
                condition=Q(ended_at__isnull=True, flight__isnull=False),
                name="callpause_one_open_per_flight",
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=F("started_at")), name="callpause_ends_after_start"
            ),
        ]


class JumpKind(models.TextChoices):
    REPEAT_PICK = "repeat_pick", _("Repeat the pick")
    SKIP_TO_REVIEW = "skip_to_review", _("Skip to the review")
    RESTART_ROUND = "restart_round", _("Restart the round")


class CallJump(models.Model):
    """A judge moved the call: from ``at`` the sequence runs again from ``step``, full time."""

    called_pod = models.ForeignKey(CalledPod, on_delete=models.CASCADE, related_name="jumps")
    at = models.DateTimeField()
    step = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=20, choices=JumpKind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["called_pod_id", "at", "pk"]


class PostedDfc(models.Model):
    """A double-faced card a player chose to show on the pod's open table (R15: may, never must)."""

    called_pod = models.ForeignKey(CalledPod, on_delete=models.CASCADE, related_name="posted")
    seat = models.ForeignKey("drafts.Seat", on_delete=models.CASCADE, related_name="+")
    card = models.ForeignKey("cards.Card", on_delete=models.PROTECT, related_name="+")
    count = models.PositiveSmallIntegerField(default=1)
    posted_at = models.DateTimeField()

    class Meta:
        ordering = ["called_pod_id", "seat_id", "posted_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["seat", "card"], name="posteddfc_unique_seat_card")]
