"""Match rounds after the draft: per-event settings, rounds, matches, reports, drops, a log.

A round belongs to an event and, in per-pod mode, to one pod (each pod plays its own Swiss);
in across-the-event mode ``pod`` is empty. Nobody plays twice in a round (``MatchPlayer`` is
unique per round and registration); a match holds one result in force, and each player at
most one report of it (``ResultReport`` is unique per match and reporter), so two players
reporting at once can make a dispute but never two results.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class PairingMode(models.TextChoices):
    PER_POD = "per_pod", _("Per pod (each pod plays its own rounds)")
    ACROSS_EVENT = "event", _("Across the event (Swiss over every player)")


class EventMatchSettings(models.Model):
    """How an event plays its matches; kept here so events.Event stays the events app's."""

    event = models.OneToOneField("events.Event", on_delete=models.CASCADE, related_name="match_settings")
    mode = models.CharField(max_length=10, choices=PairingMode.choices, default=PairingMode.PER_POD)
    # Empty: the MTR recommendation for the player count (three for an eight-player pod).
    swiss_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    round_minutes = models.PositiveSmallIntegerField(default=50)
    playoff_size = models.PositiveSmallIntegerField(
        default=0, choices=[(0, _("No playoff")), (4, _("Top 4")), (8, _("Top 8"))]
    )
    # Every pairing derives from this seed and the history: the same inputs, the same pairings.
    seed = models.BigIntegerField()
    started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("event match settings")
        verbose_name_plural = _("event match settings")

    def __str__(self) -> str:
        return f"{self.event.name}: {self.get_mode_display()}"


class RoundKind(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    PLAYOFF = "playoff", _("Playoff")


class RoundState(models.TextChoices):
    PAIRED = "paired", _("Paired (not started)")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Round(models.Model):
    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="match_rounds")
    pod = models.ForeignKey("drafts.Pod", null=True, blank=True, on_delete=models.CASCADE, related_name="match_rounds")
    number = models.PositiveSmallIntegerField()  # playoff rounds continue the numbering
    kind = models.CharField(max_length=8, choices=RoundKind.choices, default=RoundKind.SWISS)
    state = models.CharField(max_length=10, choices=RoundState.choices, default=RoundState.PAIRED)
    seed = models.CharField(max_length=80)  # what the pairing was derived from
    minutes = models.PositiveSmallIntegerField(default=50)
    paired_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    rematches = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["event_id", "pod_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["pod", "number"], condition=Q(pod__isnull=False), name="round_unique_pod_number"
            ),
            models.UniqueConstraint(
                fields=["event", "number"], condition=Q(pod__isnull=True), name="round_unique_event_number"
            ),
        ]

    def __str__(self) -> str:
        where = f" · pod {self.pod.number}" if self.pod_id else ""
        return f"{self.event.name}{where} · round {self.number}"


class MatchStatus(models.TextChoices):
    PENDING = "pending", _("Not reported")
    REPORTED = "reported", _("Reported, awaiting the opponent")
    DISPUTED = "disputed", _("Disputed: reports differ")
    CONFIRMED = "confirmed", _("Confirmed")


class Match(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveSmallIntegerField()  # 0 for a bye
    player_a = models.ForeignKey("events.Registration", on_delete=models.RESTRICT, related_name="+")
    player_b = models.ForeignKey(
        "events.Registration", null=True, blank=True, on_delete=models.RESTRICT, related_name="+"
    )  # empty: a bye
    status = models.CharField(max_length=10, choices=MatchStatus.choices, default=MatchStatus.PENDING)
    # The result in force, from player A's side (set when confirmed or entered by staff).
    a_wins = models.PositiveSmallIntegerField(null=True, blank=True)
    b_wins = models.PositiveSmallIntegerField(null=True, blank=True)
    draws = models.PositiveSmallIntegerField(null=True, blank=True)
    result_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    result_at = models.DateTimeField(null=True, blank=True)
    extension_minutes = models.PositiveSmallIntegerField(default=0)  # judges' time extension

    class Meta:
        ordering = ["round_id", "table"]
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], condition=Q(table__gt=0), name="match_unique_table"),
            models.CheckConstraint(condition=~Q(player_a=models.F("player_b")), name="match_two_players"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · table {self.table}"

    @property
    def is_bye(self) -> bool:
        return self.player_b_id is None

    @property
    def has_result(self) -> bool:
        return self.is_bye or self.status == MatchStatus.CONFIRMED


class MatchPlayer(models.Model):
    """One row per player per round: the database refuses anyone twice in a round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    registration = models.ForeignKey("events.Registration", on_delete=models.RESTRICT, related_name="match_seats")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "registration"], name="matchplayer_once_per_round"),
        ]


class ResultReport(models.Model):
    """What one player says the result was (from player A's side of the match)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    registration = models.ForeignKey("events.Registration", on_delete=models.RESTRICT, related_name="+")
    a_wins = models.PositiveSmallIntegerField()
    b_wins = models.PositiveSmallIntegerField()
    draws = models.PositiveSmallIntegerField(default=0)
    at = models.DateTimeField()

    class Meta:
        ordering = ["match_id", "at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["match", "registration"], name="report_once_per_player"),
        ]


class ReportKey(models.Model):
    """A report's idempotency key (a phone queues a result typed offline and may send it more
    than once when the connection returns): a key already used answers the match as it is and
    changes nothing, even after a later report of the same player replaced that one."""

    key = models.CharField(max_length=64, unique=True)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    registration = models.ForeignKey("events.Registration", on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField()


class Drop(models.Model):
    """A player left the Swiss after ``after_round``: never paired again, kept in standings."""

    registration = models.OneToOneField("events.Registration", on_delete=models.CASCADE, related_name="match_drop")
    after_round = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=200, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField()


class MatchPenalty(models.Model):
    """A penalty of the penalties app applied to the match it happened in.

    The link lives here, not on Penalty: matches reads penalties, penalties never imports
    matches (it only sends ``penalties.signals.penalty_changed``), so imports go one way.
    Whether it still applies is read from the penalty itself (withdrawn ones don't).
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="penalty_links")
    penalty = models.OneToOneField("penalties.Penalty", on_delete=models.CASCADE, related_name="match_link")


class MatchLogAction(models.TextChoices):
    SETTINGS = "settings", _("Settings changed")
    PAIRED = "paired", _("Round paired")
    REPAIRED = "repaired", _("Pairings repaired")
    STARTED = "started", _("Round started")
    FINISHED = "finished", _("Round closed")
    EXTENSION = "extension", _("Time extension")
    REPORTED = "reported", _("Result reported")
    CONFIRMED = "confirmed", _("Result confirmed")
    DISPUTED = "disputed", _("Reports differ")
    ENTERED = "entered", _("Result entered")
    CORRECTED = "corrected", _("Result corrected")
    DROPPED = "dropped", _("Player dropped")
    PENALTY = "penalty", _("Penalty applied to the match")


class MatchLogEntry(models.Model):
    """Who did what and when: pairings, repairs, reports, confirmations, staff entries, drops."""

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="match_log")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE, related_name="log")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE, related_name="log")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=40, choices=MatchLogAction.choices)
    details = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["event_id", "at", "pk"]
