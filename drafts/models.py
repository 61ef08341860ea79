"""Events, registrations, pods, seats, packs, the cards opened in them, and picks.

Conservation (every opened card is in exactly one pack or one pile) is held by the database:
a ``DraftCard`` has either ``pack`` or ``seat`` set, never both, never neither; a card can be
picked once (``Pick.draft_card`` is one-to-one); a seat makes one pick per pick number.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import F, Func, Q, Value
from django.utils.translation import gettext_lazy

from drafts.log_actions import log_action_choices
from events.models import Event, LogEntryFields, Registration


class PodState(models.TextChoices):
    NOT_STARTED = "not_started", gettext_lazy("Not started")
    DRAFTING = "drafting", gettext_lazy("Drafting")
    PAUSED = "paused", gettext_lazy("Paused")
    REVIEWING = "reviewing", gettext_lazy("Reviewing between rounds")
    DECK_BUILDING = "deck_building", gettext_lazy("Deck building")
    DONE = "done", gettext_lazy("Done")


# The states of a running pod: what a pause freezes (drafts_pause) and "Pause all" reaches.
ACTIVE_STATES = (PodState.DRAFTING, PodState.REVIEWING, PodState.DECK_BUILDING)


def effective_state(state: str, paused_from: str | None) -> str:
    """The state a pod is in, or, while paused, the state it was in (and resumes to)."""
    return paused_from if state == PodState.PAUSED else state


class Pod(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="pods")
    number = models.PositiveSmallIntegerField()
    # Packs, random seating and automatic picks all derive from this seed: reproducible.
    seed = models.BigIntegerField()
    state = models.CharField(max_length=16, choices=PodState.choices, default=PodState.NOT_STARTED)
    # While paused: the state to return to and the time that was left on pod-level clocks.
    paused_from = models.CharField(max_length=16, choices=PodState.choices, blank=True)
    paused_remaining_ms = models.BigIntegerField(null=True, blank=True)
    round = models.PositiveSmallIntegerField(default=0)
    review_deadline = models.DateTimeField(null=True, blank=True)
    deck_building_deadline = models.DateTimeField(null=True, blank=True)
    # Monotonic counter: the order in which packs reach a seat's queue.
    queue_seq = models.BigIntegerField(default=0)
    # Bumped on every change a viewer could see; live pages compare it.
    version = models.BigIntegerField(default=0)
    spectator_token = models.CharField(max_length=40, blank=True)
    # The organiser made every seat's draft log public (only once decklists are published).
    logs_public = models.BooleanField(default=False)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="pod_unique_number"),
        ]
        # Beat's sweep asks every second for the pods whose review or deck building is over
        # (drafts.tasks.sweep_due_pods): partial, so that it reads the few pods in those
        # states, not every pod the site ever had (a scan of 2,500 pods at 20 finished events).
        # A pick changes neither column: the pod's row still updates in place (HOT).
        indexes = [
            models.Index(fields=["review_deadline"], condition=Q(state=PodState.REVIEWING), name="pod_review_due"),
            models.Index(
                fields=["deck_building_deadline"], condition=Q(state=PodState.DECK_BUILDING), name="pod_building_due"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event.name} · pod {self.number}"

    @property
    def effective_state(self) -> str:
        return effective_state(self.state, self.paused_from)


# What a seat's pile may start with (R17), DFCs beneath it.
PILE_COVERS = ("", "basic_land", "checklist")
# The largest pile position a pick or a move may ask for (the API's, the forms', the socket's):
# a pile holds at most every card of a pod, well under it.
MAX_PILE_POSITION = 1000


class Seat(models.Model):
    pod = models.ForeignKey(Pod, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    registration = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    # An automatic drafter picks the moment a pack reaches it (a player who left).
    is_automatic = models.BooleanField(default=False)
    ready = models.BooleanField(default=False)  # done reviewing between rounds
    last_pick_at = models.DateTimeField(null=True, blank=True)
    # R17: the pile may start with a basic land or a checklist card with DFCs beneath it.
    pile_cover = models.CharField(max_length=20, blank=True)
    # The draft cards picked, in pile order (R17): a pick inserts one, a move reorders them.
    pile_ids = ArrayField(models.BigIntegerField(), default=list, blank=True)

    class Meta:
        ordering = ["pod_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["pod", "position"], name="seat_unique_position"),
            models.UniqueConstraint(
                fields=["registration"], condition=Q(registration__isnull=False), name="seat_unique_registration"
            ),
        ]

    def __str__(self) -> str:
        who = self.registration.name if self.registration_id else "automatic drafter"
        return f"Seat {self.position + 1} ({who})"


class Pack(models.Model):
    # No index of their own: pack_unique_opener leads with the pod, the queue index with the
    # holder (each extra index is one more write per pick, bench/pick_function).
    pod = models.ForeignKey(Pod, on_delete=models.CASCADE, related_name="packs", db_index=False)
    round = models.PositiveSmallIntegerField()
    opener = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="opened_packs")
    # The seat whose queue holds the pack; null once the last card is taken.
    holder = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.CASCADE, related_name="held_packs", db_index=False
    )
    queue_seq = models.BigIntegerField(default=0)
    arrived_at = models.DateTimeField(null=True, blank=True)  # reached its holder's queue
    initial_size = models.PositiveSmallIntegerField()
    picks_made = models.PositiveSmallIntegerField(default=0)
    # Set while the pack is first in its holder's queue and the pod's timer runs.
    deadline = models.DateTimeField(null=True, blank=True)
    remaining_ms = models.BigIntegerField(null=True, blank=True)  # frozen by a pause
    # Cards opened but not drafted (MTR): basic land, or the checklist card in that slot.
    removed = models.JSONField(default=list, blank=True)
    # The draft cards still in the pack, in pack order: a pick removes one in the same write that
    # passes the pack on, and no card row is written (docs/architecture.md, "Where a card is").
    card_ids = ArrayField(models.BigIntegerField(), default=list, blank=True)

    class Meta:
        ordering = ["pod_id", "round", "opener__position"]
        constraints = [
            models.UniqueConstraint(fields=["pod", "round", "opener"], name="pack_unique_opener"),
        ]
        # The queue index holds only the packs in a queue (holder set): a site keeps every
        # finished event's packs (holder null), which it leaves out. A pod's live packs are read
        # through pack_unique_opener (the pod's packs), never through this index, which holds the
        # site's every live pack: the stored functions keep "holder_id IS NOT NULL" out of their
        # pod scans (drafts/sql, drafts 0024; 12 times the buffers per pick with 20 finished events).
        indexes = [models.Index(fields=["holder", "queue_seq"], condition=Q(holder__isnull=False), name="pack_queue")]

    @property
    def cards_left(self) -> int:
        return self.initial_size - self.picks_made


class DraftCardQuerySet(models.QuerySet):
    """Where a card is, read through the array that lists it (``Pack.card_ids``, ``Seat.pile_ids``)."""

    def in_pack(self, pack: Pack | int) -> DraftCardQuerySet:
        """The cards in the pack now, in pack order (annotated ``place``: 1, 2, ...)."""
        return self.listed(Pack.objects.values_list("card_ids", flat=True).get(pk=getattr(pack, "pk", pack)))

    def in_pile(self, seat: Seat | int) -> DraftCardQuerySet:
        """The seat's pile now, in pile order (annotated ``place``: 1, 2, ...)."""
        return self.listed(Seat.objects.values_list("pile_ids", flat=True).get(pk=getattr(seat, "pk", seat)))

    def listed(self, ids: list[int]) -> DraftCardQuerySet:
        """The cards ``ids`` names, in that order (annotated ``place``)."""
        array = Value(list(ids), output_field=ArrayField(models.BigIntegerField()))
        place = Func(array, F("pk"), function="array_position", output_field=models.IntegerField())
        return self.filter(pk__in=ids).annotate(place=place).order_by("place")


class DraftCard(models.Model):
    """One physical card opened in a pod, as it was opened; never written again. Where it is now
    is the one pack (``Pack.card_ids``) or pile (``Seat.pile_ids``) that lists it (conservation:
    ``drafts.simulation.check_conservation``)."""

    # pod is served by the composite index below (Meta), which leads with it.
    pod = models.ForeignKey(Pod, on_delete=models.CASCADE, related_name="cards", db_index=False)
    card = models.ForeignKey("cards.Card", on_delete=models.PROTECT, related_name="+")
    printing = models.ForeignKey("cards.Printing", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    opened_in = models.ForeignKey(Pack, on_delete=models.CASCADE, related_name="opened_cards")
    slot = models.PositiveSmallIntegerField(default=0)  # order in the opened pack
    # The pack slot it was opened in (drafts.core.collation.SLOT_CODES: rare_mythic, wildcard,
    # foil, land...); "" for a cube's cards and cards opened before slots were recorded.
    pack_slot = models.CharField(max_length=40, blank=True, default="")
    # Copied from the catalogue so the open-information board is one indexed query.
    is_dfc = models.BooleanField(default=False)
    rarity = models.CharField(max_length=10, blank=True)
    foil = models.BooleanField(default=False)

    objects = DraftCardQuerySet.as_manager()

    class Meta:
        ordering = ["pod_id", "pk"]
        indexes = [
            models.Index(fields=["pod", "is_dfc"]),
        ]


class PickKind(models.TextChoices):
    MANUAL = "manual", gettext_lazy("Picked by the player")
    TIMEOUT = "timeout", gettext_lazy("Picked automatically when the timer ran out")
    AUTOMATIC_DRAFTER = "automatic", gettext_lazy("Picked by an automatic drafter")
    LAST_CARD = "last_card", gettext_lazy("Last card of the pack, passed automatically")


class Pick(models.Model):
    # seat and pack: the unique constraints below lead with them and serve as their indexes.
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="picks", db_index=False)
    draft_card = models.OneToOneField(DraftCard, on_delete=models.CASCADE, related_name="pick")
    pack = models.ForeignKey(Pack, on_delete=models.CASCADE, related_name="picks", db_index=False)
    round = models.PositiveSmallIntegerField()
    pick_number = models.PositiveSmallIntegerField()  # 1-based within the round
    kind = models.CharField(max_length=10, choices=PickKind.choices, default=PickKind.MANUAL)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    made_at = models.DateTimeField()
    # The cards the pack held when this pick was made (draft logs show them).
    pack_contents = models.JSONField(default=list)

    class Meta:
        ordering = ["seat_id", "round", "pick_number"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "round", "pick_number"], name="pick_unique_seat_round_number"),
            models.UniqueConstraint(fields=["pack", "pick_number"], name="pick_unique_pack_number"),
        ]

    @property
    def is_automatic(self) -> bool:
        return self.kind in (PickKind.TIMEOUT, PickKind.AUTOMATIC_DRAFTER)


class PodAction(models.TextChoices):
    """What the draft engine records in a pod's log (``drafts_pick`` writes round_end and
    deck_building_start too). Other apps log their own actions (``drafts.extensions``)."""

    START = "start"
    PAUSE = "pause"
    RESUME = "resume"
    ROUND_START = "round_start"
    ROUND_END = "round_end"
    ALL_READY = "all_ready"
    ADVANCE_ROUND = "advance_round"
    AUTOMATIC_PICK = "automatic_pick"
    REPLACE_WITH_AUTOMATIC = "replace_with_automatic"
    HAND_SEAT = "hand_seat"
    DECK_BUILDING_START = "deck_building_start"
    DECK_BUILDING_OVER = "deck_building_over"
    EXTEND_CLOCKS = "extend_clocks"
    DECK_BUILDING_CLOCK = "deck_building_clock"
    START_DECK_BUILDING = "start_deck_building"
    SPECTATOR_LINK_REGENERATED = "spectator_link_regenerated"


class PodLogEntry(LogEntryFields):
    """What happened to a pod and who did it: organiser controls, automatic picks, rounds."""

    pod = models.ForeignKey(Pod, on_delete=models.CASCADE, related_name="log")
    # PodAction and the actions the apps above register (paper's calls): a callable, read when used.
    action = models.CharField(max_length=40, choices=log_action_choices)

    class Meta:
        ordering = ["pod_id", "at", "pk"]
