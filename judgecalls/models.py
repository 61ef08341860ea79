"""Judge calls: a player asks for a judge from their table (a match) or their seat (a draft).

A call is open, then claimed by one judge, possibly escalated to the head judge, and finally
resolved with an outcome. Its steps are kept on the row (who and when) and in the event's log;
a penalty that follows is linked and written into the penalty's audit trail.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

MAX_REASON = 200


class CallStatus(models.TextChoices):
    OPEN = "open", _("Waiting for a judge")
    CLAIMED = "claimed", _("A judge is coming")
    ESCALATED = "escalated", _("Escalated to the head judge")
    RESOLVED = "resolved", _("Resolved")


class Outcome(models.TextChoices):
    RULING = "ruling", _("Ruling given")
    PENALTY = "penalty", _("Penalty issued")
    NO_ACTION = "no_action", _("No action")


class JudgeCall(models.Model):
    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="judge_calls")
    caller = models.ForeignKey("events.Registration", on_delete=models.CASCADE, related_name="judge_calls")
    # From a table: the match (its round and table); from a draft: the pod and seat.
    match = models.ForeignKey("matches.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    seat = models.ForeignKey("drafts.Seat", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=MAX_REASON, blank=True)
    status = models.CharField(max_length=10, choices=CallStatus.choices, default=CallStatus.OPEN)
    created_at = models.DateTimeField()
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    escalated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    escalated_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)
    note = models.TextField(blank=True)
    penalty = models.ForeignKey(
        "penalties.Penalty", null=True, blank=True, on_delete=models.SET_NULL, related_name="judge_calls"
    )
    # A call from neither a table nor a seat carries what it is about: a sealed pool dispute
    # (MTR 7.5) attaches both pools, ``[{"kind", "pool", "registered_by", "cards": [{"name", "count"}]}]``.
    attachments = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["event", "status"])]
        constraints = [
            # A double tap (or two tabs) never makes two calls: one unresolved call per player.
            models.UniqueConstraint(
                fields=["caller"], condition=~Q(status="resolved"), name="judgecall_one_open_per_player"
            ),
            models.CheckConstraint(
                condition=Q(match__isnull=False) | Q(seat__isnull=False) | ~Q(attachments=[]),
                name="judgecall_has_a_place",
            ),
        ]

    def __str__(self) -> str:
        return f"Call #{self.pk} ({self.get_status_display()})"

    @property
    def is_open(self) -> bool:
        return self.status != CallStatus.RESOLVED
