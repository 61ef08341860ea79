"""Infractions (the IPG catalogue), penalties, appeals and their append-only audit trail.

A penalty's current state lives on ``Penalty``; every change to it is one ``PenaltyAudit`` row
that nobody can edit or delete: not the ORM (``save()`` of an existing row, ``delete()``, and
queryset ``update()``/``delete()`` all raise), not the admin (no change/delete permission), and
on PostgreSQL not even raw SQL (a trigger, see migration 0003).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy

from draftsite.errors import ForbiddenError
from penalties import error_codes


class Category(models.TextChoices):
    GAME_PLAY_ERROR = "game_play_error", gettext_lazy("Game Play Error")
    TOURNAMENT_ERROR = "tournament_error", gettext_lazy("Tournament Error")
    UNSPORTING_CONDUCT = "unsporting_conduct", gettext_lazy("Unsporting Conduct")


class PenaltyKind(models.TextChoices):
    """Ordered from lightest to heaviest (see SEVERITY)."""

    NO_PENALTY = "no_penalty", gettext_lazy("No penalty (fix only)")
    WARNING = "warning", gettext_lazy("Warning")
    GAME_LOSS = "game_loss", gettext_lazy("Game Loss")
    MATCH_LOSS = "match_loss", gettext_lazy("Match Loss")
    DISQUALIFICATION = "disqualification", gettext_lazy("Disqualification")


SEVERITY = {kind: rank for rank, kind in enumerate(PenaltyKind.values)}


def severity(kind: str) -> int:
    return SEVERITY[kind]


class Infraction(models.Model):
    """One infraction of the Infraction Procedure Guide with its default penalty per REL.

    Seeded by a data migration; staff may correct it in the admin when the IPG changes.
    """

    code = models.SlugField(max_length=60, unique=True)
    section = models.CharField(max_length=10, help_text=gettext_lazy('IPG section, e.g. "3.1".'))
    category = models.CharField(max_length=20, choices=Category.choices)
    name = models.CharField(max_length=100)
    summary = models.TextField(blank=True, help_text=gettext_lazy("Our own one-line summary, for judges."))
    default_regular = models.CharField(max_length=20, choices=PenaltyKind.choices)
    default_competitive = models.CharField(max_length=20, choices=PenaltyKind.choices)
    default_professional = models.CharField(max_length=20, choices=PenaltyKind.choices)
    # The n-th Warning for this infraction (same player, same event) becomes a Game Loss at
    # Competitive/Professional: 2 for Tournament Errors (IPG 3), 3 for Game Play Errors (IPG 2).
    # Empty: never upgraded automatically.
    upgrade_at = models.PositiveSmallIntegerField(null=True, blank=True)
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["section", "code"]

    def __str__(self) -> str:
        return f"{self.section} {self.get_category_display()} — {self.name}"

    def default_for(self, level: str) -> str:
        return {
            "regular": self.default_regular,
            "competitive": self.default_competitive,
            "professional": self.default_professional,
        }[level]

    @property
    def display_name(self) -> str:
        """The name in the reader's language (penalties/catalogue_texts.py lists the seeded ones)."""
        return gettext(self.name) if self.name else ""

    def default_label(self, level: str) -> str:
        return PenaltyKind(self.default_for(level)).label

    @property
    def section_key(self) -> tuple[int, ...]:
        return tuple(int(part) for part in self.section.split(".") if part.isdigit())


class PenaltyStatus(models.TextChoices):
    PENDING_REVIEW = "pending_review", gettext_lazy("Awaiting the head judge")
    FINAL = "final", gettext_lazy("Final")
    WITHDRAWN = "withdrawn", gettext_lazy("Withdrawn")


class Penalty(models.Model):
    event = models.ForeignKey("events.Event", on_delete=models.PROTECT, related_name="penalties")
    registration = models.ForeignKey("events.Registration", on_delete=models.PROTECT, related_name="penalties")
    infraction = models.ForeignKey(Infraction, on_delete=models.PROTECT, related_name="penalties")
    # Where it happened: a match round of the event, or a draft pod with round and pick.
    match_round = models.PositiveSmallIntegerField(null=True, blank=True)
    pod = models.ForeignKey("drafts.Pod", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    draft_round = models.PositiveSmallIntegerField(null=True, blank=True)
    pick_number = models.PositiveSmallIntegerField(null=True, blank=True)
    description = models.TextField(help_text=gettext_lazy("What happened."))
    fix = models.TextField(blank=True, help_text=gettext_lazy("The fix applied."))
    # "deck_check:<id>" or "pick:<id>": what prompted it (kept as text on purpose).
    source = models.CharField(max_length=60, blank=True, db_index=True)

    enforcement_level = models.CharField(max_length=12)  # the event's REL when issued
    default_penalty = models.CharField(max_length=20, choices=PenaltyKind.choices)
    # The catalogue default after the automatic repeat upgrade, if any: what the IPG says.
    expected_penalty = models.CharField(max_length=20, choices=PenaltyKind.choices)
    issued_penalty = models.CharField(max_length=20, choices=PenaltyKind.choices)
    penalty = models.CharField(max_length=20, choices=PenaltyKind.choices)  # in force now
    upgrade_reason = models.TextField(blank=True)
    deviation_reason = models.TextField(blank=True)
    status = models.CharField(max_length=16, choices=PenaltyStatus.choices)

    # Statements for a disqualification report (the judge's defaults to the description).
    judge_statement = models.TextField(blank=True)
    player_statement = models.TextField(blank=True)
    head_judge_statement = models.TextField(blank=True)

    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="issued_penalties"
    )
    issued_at = models.DateTimeField()
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="reviewed_penalties"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-issued_at", "-pk"]
        verbose_name_plural = "penalties"
        indexes = [
            models.Index(fields=["event", "status"]),
            models.Index(fields=["registration", "infraction"]),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.infraction.name} — {self.get_penalty_display()} ({self.registration.name})"

    @property
    def is_deviation(self) -> bool:
        return self.issued_penalty != self.expected_penalty

    @property
    def enforcement_level_label(self) -> str:
        """The REL it was issued at, in the reader's words (the stored code is the event's)."""
        from events.models import EnforcementLevel

        level = self.enforcement_level
        return str(EnforcementLevel(level).label) if level in EnforcementLevel.values else level

    @property
    def where(self) -> str:
        parts = []
        if self.match_round:
            parts.append(f"Round {self.match_round}")
        if self.pod_id:
            parts.append(f"Pod {self.pod.number}")
        if self.draft_round:
            parts.append(f"pack {self.draft_round}")
        if self.pick_number:
            parts.append(f"pick {self.pick_number}")
        return ", ".join(parts)


class ReviewQueueItem(Penalty):
    """The head judge's review queue in the admin (penalties awaiting review)."""

    class Meta:
        proxy = True
        verbose_name = "penalty awaiting review"
        verbose_name_plural = "review queue"


class Decision(models.TextChoices):
    """The head judge's decision on a penalty (a review) or on its appeal."""

    UPHOLD = "uphold", gettext_lazy("Uphold")
    UPGRADE = "upgrade", gettext_lazy("Upgrade")
    DOWNGRADE = "downgrade", gettext_lazy("Downgrade")
    WITHDRAW = "withdraw", gettext_lazy("Withdraw")


class AppealStatus(models.TextChoices):
    PENDING = "pending", gettext_lazy("Awaiting the head judge")
    DECIDED = "decided", gettext_lazy("Decided")


class Appeal(models.Model):
    """A player's appeal to the head judge; one per penalty, the decision is final."""

    penalty = models.OneToOneField(Penalty, on_delete=models.PROTECT, related_name="appeal")
    statement = models.TextField()
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    submitted_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=AppealStatus.choices, default=AppealStatus.PENDING)
    decision = models.CharField(max_length=10, choices=Decision.choices, blank=True)
    reason = models.TextField(blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-submitted_at"]


class DismissedSource(models.Model):
    """A judge looked at an automatic pick (or another source) and found no infraction."""

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="+")
    source = models.CharField(max_length=60)
    reason = models.TextField()
    dismissed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    dismissed_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "source"], name="dismissed_unique_source")]


class AuditImmutableError(ForbiddenError):
    def __init__(self):
        super().__init__(
            error_codes.AUDIT_IMMUTABLE, "Audit records are append-only: they cannot be changed or deleted."
        )


class AuditQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AuditImmutableError()

    def delete(self):
        raise AuditImmutableError()

    def bulk_update(self, objs, fields, batch_size=None):
        raise AuditImmutableError()

    def update_or_create(self, *args, **kwargs):
        raise AuditImmutableError()

    def _raw_delete(self, using):
        raise AuditImmutableError()

    _raw_delete.queryset_only = True


class AuditAction(models.TextChoices):
    ISSUED = "issued", gettext_lazy("Issued")
    AUTO_UPGRADED = "auto_upgraded", gettext_lazy("Upgraded automatically (repeat)")
    UPHOLD = "uphold", gettext_lazy("Upheld")
    UPGRADE = "upgrade", gettext_lazy("Upgraded")
    DOWNGRADE = "downgrade", gettext_lazy("Downgraded")
    WITHDRAW = "withdraw", gettext_lazy("Withdrawn")
    APPEALED = "appealed", gettext_lazy("Appealed")
    APPEAL_DECIDED = "appeal_decided", gettext_lazy("Appeal decided")
    STATEMENT = "statement", gettext_lazy("Statement added")
    JUDGE_CALL = "judge_call", gettext_lazy("Linked to a judge call")


class PenaltyAudit(models.Model):
    """One change to a penalty: who, when, from what to what, and why. Append-only."""

    penalty = models.ForeignKey(Penalty, on_delete=models.PROTECT, related_name="history")
    at = models.DateTimeField()
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=20, choices=AuditAction.choices)
    from_penalty = models.CharField(max_length=20, choices=PenaltyKind.choices, blank=True)
    to_penalty = models.CharField(max_length=20, choices=PenaltyKind.choices, blank=True)
    from_status = models.CharField(max_length=16, choices=PenaltyStatus.choices, blank=True)
    to_status = models.CharField(max_length=16, choices=PenaltyStatus.choices, blank=True)
    reason = models.TextField(blank=True)

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["at", "pk"]
        base_manager_name = "objects"  # related lookups and the deletion collector use the guarded queryset too
        constraints = [
            models.CheckConstraint(condition=~Q(action=""), name="penaltyaudit_action_set"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()} #{self.penalty_id}"

    def save(self, *args, **kwargs):
        if not self._state.adding or kwargs.get("force_update") or kwargs.get("update_fields"):
            raise AuditImmutableError()
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AuditImmutableError()
