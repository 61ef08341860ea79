"""What every kind of event shares: the event, its staff and their invitations, its log and
its registered players. The apps that run a kind of event (drafts' pods, paper's called pods,
sealed) stand above this app and point at these models.

The tables keep the names they had in the draft engine (``db_table``: drafts_event, ...): the
stored functions of ``drafts/sql`` read them by name, and the move (events 0001, drafts 0032)
touched no row.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from events.boosters import COLLATION_VERSION, COLLATION_VERSIONS, KIND_LABELS


class EnforcementLevel(models.TextChoices):
    REGULAR = "regular", gettext_lazy("Regular")
    COMPETITIVE = "competitive", gettext_lazy("Competitive")
    PROFESSIONAL = "professional", gettext_lazy("Professional")


class DraftFormat(models.TextChoices):
    BOOSTER = "booster", gettext_lazy("Set booster draft")
    CUBE = "cube", gettext_lazy("Cube draft")
    # Players draft real boosters at real tables; the site seats and calls the pods (paper app).
    PAPER = "paper", gettext_lazy("Paper booster draft")
    # Sealed (sealed app): the site opens each player's boosters, or players open real ones and
    # register the pools for the MTR 7.5 swap.
    SEALED = "sealed", gettext_lazy("Sealed")
    PAPER_SEALED = "paper_sealed", gettext_lazy("Paper sealed with pool registration")


# The formats drafted in pods (the event form's and API's choices); sealed events are made by
# the sealed app's own form and API.
DRAFTED_FORMATS = [(value, label) for value, label in DraftFormat.choices if value not in ("sealed", "paper_sealed")]


class DeckFormat(models.TextChoices):
    LIMITED = "limited", gettext_lazy("Limited (draft or sealed)")
    CONSTRUCTED = "constructed", gettext_lazy("Constructed")
    COMMANDER = "commander", gettext_lazy("Commander")


class Event(models.Model):
    name = models.CharField(max_length=200)
    date = models.DateField()
    enforcement_level = models.CharField(
        max_length=12, choices=EnforcementLevel.choices, default=EnforcementLevel.REGULAR
    )
    draft_format = models.CharField(max_length=16, choices=DraftFormat.choices, default=DraftFormat.BOOSTER)
    # One set code per round, e.g. ["ISD", "ISD", "ISD"] (booster drafts).
    set_codes = models.JSONField(default=list, blank=True)
    # The booster kind of each round, parallel to set_codes ("play", "default", "arena"... as
    # drafts.services.packs.booster_kinds names them); empty, or "" for a round: the set's
    # default kind (events made before booster kinds open what they always opened).
    booster_kinds = models.JSONField(default=list, blank=True)
    # The collation its packs open with (events.boosters.COLLATION_VERSION), pinned at
    # creation: the stored seed opens the same packs whatever the collation becomes later.
    collation_version = models.PositiveSmallIntegerField(default=COLLATION_VERSION, db_default=COLLATION_VERSION)
    # Catalogue card ids of the cube list, dealt without replacement (cube drafts).
    cube_card_ids = models.JSONField(default=list, blank=True)
    pack_size = models.PositiveSmallIntegerField(default=15)
    pick_timer = models.BooleanField(default=True)
    deck_building_minutes = models.PositiveSmallIntegerField(default=25)
    # What decks are registered for: limited (from draft or sealed pools) or a constructed format.
    deck_format = models.CharField(max_length=12, choices=DeckFormat.choices, default=DeckFormat.LIMITED)
    # Registered decklists lock at this moment (MTR: a list cannot change once accepted).
    decklist_deadline = models.DateTimeField(null=True, blank=True)
    decklists_published = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="created_events"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "drafts_event"
        ordering = ["-date", "name"]
        constraints = [
            # A version this code cannot open refused (a backup file naming one, say).
            models.CheckConstraint(
                condition=Q(collation_version__in=COLLATION_VERSIONS), name="event_collation_version_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"

    def booster_summary(self) -> str:
        """Each round's set and booster kind, e.g. "DSK (Play Booster), DSK (Play Booster), ..."."""
        return ", ".join(
            f"{code} ({KIND_LABELS[kind]})" if kind in KIND_LABELS else (f"{code} ({kind})" if kind else code)
            for code, kind in self.round_boosters()
        )

    @property
    def older_collation(self) -> bool:
        """Its packs open with a collation older than the current one (shown to organisers)."""
        opens_packs = self.draft_format in (DraftFormat.BOOSTER, DraftFormat.SEALED)
        return opens_packs and self.collation_version < COLLATION_VERSION

    def round_boosters(self) -> list[tuple[str, str | None]]:
        """(set code, booster kind or None for the set's default) of each round."""
        kinds = list(self.booster_kinds or [])
        return [(code, (kinds[i] if i < len(kinds) else "") or None) for i, code in enumerate(self.set_codes)]


class StaffRole(models.TextChoices):
    ORGANISER = "organiser", gettext_lazy("Organiser")
    HEAD_JUDGE = "head_judge", gettext_lazy("Head judge")
    JUDGE = "judge", gettext_lazy("Judge")


class EventStaff(models.Model):
    """Who runs an event: its organisers and judges (permissions are checked per event)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles")
    role = models.CharField(max_length=12, choices=StaffRole.choices)

    class Meta:
        db_table = "drafts_eventstaff"
        constraints = [
            models.UniqueConstraint(fields=["event", "user", "role"], name="eventstaff_unique"),
        ]


class StaffInvitation(models.Model):
    """A link an organiser sends to make someone staff of an event in a given role.

    Used once: the first signed-in account to accept it takes the role. It expires, and the
    organiser may revoke it before then.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="staff_invitations")
    role = models.CharField(max_length=12, choices=StaffRole.choices)
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "drafts_staffinvitation"
        ordering = ["event_id", "-created_at", "-pk"]


class LogEntryFields(models.Model):
    """When, who, what and its details: the shape of the event and pod logs."""

    at = models.DateTimeField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=40)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        abstract = True


class EventLogEntry(LogEntryFields):
    """What changed in an event and who did it: staff added, removed or re-roled, invitations,
    settings (append-only, like the pods' log)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="log")

    class Meta:
        db_table = "drafts_eventlogentry"
        ordering = ["event_id", "at", "pk"]


class Registration(models.Model):
    """A player in an event: an account, or a guest entered by name by the organiser."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="registrations"
    )
    name = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)
    # The player agreed that their picks go, anonymised, into the event's public pick data.
    share_pick_data = models.BooleanField(default=False)

    class Meta:
        db_table = "drafts_registration"
        ordering = ["event_id", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user"], condition=Q(user__isnull=False), name="registration_unique_user"
            ),
            models.UniqueConstraint(fields=["event", "name"], name="registration_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name
