"""Input validation and the typed output shapes of the matches API (OpenAPI via spectacular)."""

from __future__ import annotations

from rest_framework import serializers

from draftsite.bounds import INTEGER_MAX
from matches.models import PairingMode

MAX_ID = 2**31 - 1


# --- input -----------------------------------------------------------------------------


class SettingsInput(serializers.Serializer):
    mode = serializers.ChoiceField(PairingMode.choices, default=PairingMode.PER_POD)
    swiss_rounds = serializers.IntegerField(
        min_value=1,
        max_value=20,
        required=False,
        allow_null=True,
        help_text="Empty: the MTR recommendation for the player count.",
    )
    round_minutes = serializers.IntegerField(min_value=1, max_value=240, default=50)
    playoff_size = serializers.ChoiceField([0, 4, 8], default=0)
    seed = serializers.IntegerField(min_value=0, max_value=2**48, required=False)


class PairInput(serializers.Serializer):
    pod = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, allow_null=True, help_text="Per-pod mode: the pod to pair."
    )


class RepairInput(serializers.Serializer):
    tables = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=MAX_ID), min_length=2, max_length=2
        ),
        max_length=1100,
    )
    bye = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False, allow_null=True)
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class ReportInput(serializers.Serializer):
    # Bounds are the service's (impossible_score), so every impossible score gets one code; the
    # column's range (draftsite.bounds) only keeps a number PostgreSQL would refuse out of it.
    won = serializers.IntegerField(min_value=-INTEGER_MAX, max_value=INTEGER_MAX, help_text="Games you won (0-2).")
    lost = serializers.IntegerField(min_value=-INTEGER_MAX, max_value=INTEGER_MAX, help_text="Games you lost (0-2).")
    drawn = serializers.IntegerField(
        min_value=-INTEGER_MAX, max_value=INTEGER_MAX, default=0, help_text="Games drawn (0-3)."
    )


class ResultInput(serializers.Serializer):
    a_wins = serializers.IntegerField(min_value=-INTEGER_MAX, max_value=INTEGER_MAX)
    b_wins = serializers.IntegerField(min_value=-INTEGER_MAX, max_value=INTEGER_MAX)
    draws = serializers.IntegerField(min_value=-INTEGER_MAX, max_value=INTEGER_MAX, default=0)
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class ExtensionInput(serializers.Serializer):
    minutes = serializers.IntegerField(
        min_value=-INTEGER_MAX, max_value=INTEGER_MAX, help_text="0-60 (invalid_extension otherwise)"
    )
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class DropInput(serializers.Serializer):
    registration = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="Staff: whom to drop. Players drop themselves."
    )
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


# --- output ----------------------------------------------------------------------------


class SettingsOutput(serializers.Serializer):
    event = serializers.IntegerField()
    mode = serializers.CharField()
    swiss_rounds = serializers.IntegerField(allow_null=True)
    round_minutes = serializers.IntegerField()
    playoff_size = serializers.IntegerField()
    seed = serializers.IntegerField()


class PlayerRef(serializers.Serializer):
    registration = serializers.IntegerField()
    name = serializers.CharField()


class PenaltyOnMatch(serializers.Serializer):
    registration = serializers.IntegerField()
    penalty = serializers.CharField(help_text="game_loss, match_loss or disqualification")
    id = serializers.IntegerField(required=False, help_text="Staff only.")
    infraction = serializers.CharField(required=False, help_text="Staff only.")


class ScoreOutput(serializers.Serializer):
    a_wins = serializers.IntegerField()
    b_wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    double_loss = serializers.BooleanField()
    penalised = serializers.BooleanField()


class ClockOutput(serializers.Serializer):
    state = serializers.CharField()
    round = serializers.IntegerField(required=False)
    ends_at = serializers.CharField(allow_null=True)
    remaining_seconds = serializers.IntegerField(allow_null=True)
    time_called = serializers.BooleanField()
    extension_minutes = serializers.IntegerField()
    additional_turns = serializers.IntegerField(required=False)


class MatchOutput(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    round_number = serializers.IntegerField()
    table = serializers.IntegerField(help_text="0 for a bye")
    player_a = PlayerRef()
    player_b = PlayerRef(allow_null=True)
    status = serializers.CharField()
    result = ScoreOutput(allow_null=True, help_text="The result in force, penalties applied.")
    extension_minutes = serializers.IntegerField()
    penalties = PenaltyOnMatch(
        many=True, required=False, help_text="Only for the match's players and the event's staff."
    )
    reports = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="Only for the match's players and the event's staff."
    )


class RoundOutput(serializers.Serializer):
    id = serializers.IntegerField()
    event = serializers.IntegerField()
    pod = serializers.IntegerField(allow_null=True)
    number = serializers.IntegerField()
    kind = serializers.CharField()
    state = serializers.CharField()
    seed = serializers.CharField()
    minutes = serializers.IntegerField(help_text="0-60 (invalid_extension otherwise)")
    started_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True)
    rematches = serializers.IntegerField()
    outstanding = serializers.IntegerField()
    matches = MatchOutput(many=True, required=False)


class WarnedPlayerOutput(serializers.Serializer):
    registration = serializers.IntegerField()
    name = serializers.CharField()


class DeckBuildingPodOutput(serializers.Serializer):
    pod = serializers.IntegerField()
    number = serializers.IntegerField()


class RoundOneWarningOutput(serializers.Serializer):
    no_deck = WarnedPlayerOutput(many=True)
    illegal_deck = WarnedPlayerOutput(many=True, help_text="Players whose registered deck failed its check.")
    deck_building_pods = DeckBuildingPodOutput(many=True, help_text="Pods whose deck-building time was not over.")


class PairedRoundOutput(RoundOutput):
    round_one_warning = RoundOneWarningOutput(
        allow_null=True,
        help_text="Round 1 only: what the dashboard warns of before pairing (players without a legal "
        "deck, pods still deck building), as it stood when the round was paired; null when nothing was wrong.",
    )


class StandingRowOutput(serializers.Serializer):
    pod = serializers.IntegerField(allow_null=True, help_text="Per-pod mode: the pod whose table this is.")
    rank = serializers.IntegerField()
    registration = serializers.IntegerField()
    player = serializers.CharField()
    match_points = serializers.IntegerField()
    record = serializers.CharField()
    omw = serializers.FloatField()
    gw = serializers.FloatField()
    ogw = serializers.FloatField()
    dropped_after_round = serializers.IntegerField(allow_null=True)


class StandingsOutput(serializers.Serializer):
    event = serializers.IntegerField()
    pod = serializers.IntegerField(allow_null=True)
    standings = StandingRowOutput(many=True)


class MyMatchOutput(serializers.Serializer):
    registration = serializers.IntegerField()
    dropped = serializers.BooleanField()
    match = MatchOutput(allow_null=True)
    opponent = PlayerRef(allow_null=True)
    clock = ClockOutput()


class DropOutput(serializers.Serializer):
    registration = serializers.IntegerField()
    after_round = serializers.IntegerField()
