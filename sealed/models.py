"""Sealed events: the boosters each player opens, the pools the site opens for them, and, for
paper sealed, the pools players register at the table and the MTR 7.5 swap.

What a player builds from is always ``decks.SealedPool`` (the deck builder and the deck check
read it): opening writes one per player; the swap writes one per builder, a copy of the pool
they received. A pool stays private to its owner and the event's staff until decklists are
published (``sealed.selectors``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

DEFAULT_BOOSTERS = 6  # a prerelease kit (MTR 7.4: sealed decks are built from six boosters)
MAX_BOOSTERS = 12


class SealedEvent(models.Model):
    """How a sealed event's pools are made: the boosters per player, each ``{"set_code",
    "kind"}`` (``kind`` "" is the set's default booster), and the stored seed of the opening."""

    event = models.OneToOneField("events.Event", on_delete=models.CASCADE, related_name="sealed")
    boosters = models.JSONField(default=list)
    paper = models.BooleanField(default=False)  # players open real boosters and register the pools
    seed = models.BigIntegerField()
    opened_at = models.DateTimeField(null=True, blank=True)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    @property
    def booster_count(self) -> int:
        return len(self.boosters)


class SealedPack(models.Model):
    """One booster the site opened for a player: ``cards`` ``[{"card_id", "printing_id",
    "rarity", "foil", "slot"}]`` in pack order; ``removed`` what is not played (MTR)."""

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="sealed_packs")
    registration = models.ForeignKey("events.Registration", on_delete=models.CASCADE, related_name="sealed_packs")
    number = models.PositiveSmallIntegerField()  # 1-based
    set_code = models.CharField(max_length=10)
    kind = models.CharField(max_length=20, blank=True)
    cards = models.JSONField(default=list)
    removed = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["registration_id", "number"]
        constraints = [
            # Opening twice (two organisers at once) can never give a player a second pool.
            models.UniqueConstraint(fields=["registration", "number"], name="sealedpack_unique_number"),
        ]


class PoolStatus(models.TextChoices):
    REGISTERED = "registered", gettext_lazy("Registered")
    ASSIGNED = "assigned", gettext_lazy("Handed to a builder")
    CONFIRMED = "confirmed", gettext_lazy("Confirmed by its builder")
    DISPUTED = "disputed", gettext_lazy("Disputed: a judge is called")
    UNASSIGNED = "unassigned", gettext_lazy("Back with the organiser")


class PaperPool(models.Model):
    """The pool a player registered from the boosters they opened at the table (MTR 7.5):
    ``cards`` ``[{"card_id", "count"}]``. After the swap ``builder`` builds from it."""

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="paper_pools")
    registered_by = models.OneToOneField(
        "events.Registration", on_delete=models.CASCADE, related_name="registered_pool"
    )
    cards = models.JSONField(default=list)
    builder = models.OneToOneField(
        "events.Registration", null=True, blank=True, on_delete=models.SET_NULL, related_name="received_pool"
    )
    status = models.CharField(max_length=12, choices=PoolStatus.choices, default=PoolStatus.REGISTERED)
    judge_call = models.ForeignKey(
        "judgecalls.JudgeCall", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField()

    class Meta:
        ordering = ["event_id", "registered_by__name"]
        constraints = [
            # MTR 7.5: nobody builds from the pool they registered.
            models.CheckConstraint(condition=~Q(builder=models.F("registered_by")), name="paperpool_not_own"),
        ]

    @property
    def size(self) -> int:
        return sum(row["count"] for row in self.cards)


class PoolSwap(models.Model):
    """The organiser's swap: one per event (the unique event makes a second press a no-op);
    ``assignments`` ``[{"pool", "from", "to"}]`` derived from ``seed`` (a derangement)."""

    event = models.OneToOneField("events.Event", on_delete=models.CASCADE, related_name="pool_swap")
    seed = models.BigIntegerField()
    assignments = models.JSONField(default=list)
    at = models.DateTimeField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
