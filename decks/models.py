"""Registered decks, sealed pools, judges' corrections and deck checks.

A deck's lists are JSON rows ``{"card_id": int | None, "name": str, "count": int}`` (the
catalogue card and its full name; ``card_id`` is None for a name the catalogue does not know
or a basic land missing from it). Checklist cards are ``{"checklist_id": int | None,
"checklist": str, "marked": [str]}``, one row per physical card. The result of the last check
is stored with the deck so lists of decks need no re-check.

Corrections and deck checks are append-only: rows are created, never changed or deleted.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

from draftsite.i18n import localize_problems


class ChecklistPolicy(models.TextChoices):
    DECK = "deck", gettext_lazy("All or none across the deck (Innistrad rule, R12)")
    PER_NAME = "per_name", gettext_lazy("All copies of the same card alike (MTR 3.5)")


class DeckRules(models.Model):
    """How an event checks decks (only the R12 policy varies)."""

    event = models.OneToOneField("events.Event", on_delete=models.CASCADE, related_name="deck_rules")
    checklist_policy = models.CharField(max_length=10, choices=ChecklistPolicy.choices, default=ChecklistPolicy.DECK)


class SealedPool(models.Model):
    """The pool a sealed player builds from, entered by the organiser: ``[{"card_id", "count"}]``."""

    registration = models.OneToOneField("events.Registration", on_delete=models.CASCADE, related_name="sealed_pool")
    cards = models.JSONField(default=list)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    @property
    def size(self) -> int:
        return sum(row["count"] for row in self.cards)


class Deck(models.Model):
    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="decks")
    registration = models.OneToOneField("events.Registration", on_delete=models.CASCADE, related_name="deck")
    format = models.CharField(max_length=12)  # the event's deck_format when registered
    main = models.JSONField(default=list)
    sideboard = models.JSONField(default=list)
    commander = models.JSONField(default=list)
    opaque_sleeves = models.BooleanField(default=False)
    checklist_cards = models.JSONField(default=list)
    # How the list arrived: text, arena, mtgo_dek, csv (pasted or uploaded), builder, api.
    source_format = models.CharField(max_length=12, blank=True)
    # The last validation (decks.validation), kept for lists of decks.
    valid = models.BooleanField(default=False)
    check_errors = models.JSONField(default=list)
    check_warnings = models.JSONField(default=list)
    summary = models.JSONField(default=dict)
    checked_at = models.DateTimeField(null=True, blank=True)
    submitted_at = models.DateTimeField()  # first registration
    updated_at = models.DateTimeField()  # last change by the player (or a judge's correction)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["event_id", "registration__name"]
        indexes = [models.Index(fields=["event", "valid"])]

    def __str__(self) -> str:
        return f"Deck of {self.registration.name}"

    @property
    def localized_errors(self) -> list[dict]:
        """The stored check errors, their messages in the active language."""
        return localize_problems(self.check_errors)

    @property
    def localized_warnings(self) -> list[dict]:
        return localize_problems(self.check_warnings)

    @property
    def main_count(self) -> int:
        return sum(row["count"] for row in self.main)

    @property
    def sideboard_count(self) -> int:
        return sum(row["count"] for row in self.sideboard)


class AppendOnly(models.Model):
    """Rows are written once: saving an existing row or deleting one is refused."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError(f"{type(self).__name__} rows are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError(f"{type(self).__name__} rows are append-only.")


class DeckCorrection(AppendOnly):
    """A judge's change to a registered list: who, when, what changed, why."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="corrections")
    judge = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField()
    reason = models.TextField()
    # {"main": {"added": [{"name", "count"}], "removed": [...]}, "sideboard": {...},
    #  "opaque_sleeves": {"from": x, "to": y}, "checklist_cards": {"from": [...], "to": [...]}}
    changes = models.JSONField(default=dict)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    valid_before = models.BooleanField(default=False)
    valid_after = models.BooleanField(default=False)

    class Meta:
        ordering = ["deck_id", "at", "pk"]


class SelectionMethod(models.TextChoices):
    RANDOM = "random", gettext_lazy("Random share of the decks (stored seed)")
    CHOSEN = "chosen", gettext_lazy("Chosen by the judge")


class DeckCheckSelection(AppendOnly):
    """Which decks a judge picked for a deck check, and how (a random pick is reproducible)."""

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="deck_check_selections")
    method = models.CharField(max_length=8, choices=SelectionMethod.choices)
    seed = models.BigIntegerField(null=True, blank=True)
    percent = models.PositiveSmallIntegerField(null=True, blank=True)
    registration_ids = models.JSONField(default=list)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["event_id", "-created_at", "-pk"]


class DeckCheck(AppendOnly):
    """What a judge found checking one deck at the table.

    ``findings``: ``[{"kind": str, "description": str, "cards": [str], "infraction": str | ""}]``
    (kinds in :data:`decks.checks.FINDING_KINDS`); an empty list means the deck matched.
    """

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="deck_checks")
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="checks")
    selection = models.ForeignKey(
        DeckCheckSelection, null=True, blank=True, on_delete=models.SET_NULL, related_name="checks"
    )
    judge = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField()
    deck_version = models.PositiveIntegerField()
    matches = models.BooleanField()
    findings = models.JSONField(default=list)
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["event_id", "-at", "-pk"]
