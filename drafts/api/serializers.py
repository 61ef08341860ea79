"""What the draft API reads and answers: input validation and the typed answer bodies (the
OpenAPI schema documents these)."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy
from rest_framework import serializers

from cards import selectors as card_selectors
from drafts import error_codes, pick_input
from drafts.core.timing import ROUNDS
from drafts.models import PILE_COVERS
from draftsite.bounds import ID_MAX, INTEGER_MAX
from events.models import (
    DRAFTED_FORMATS,
    DraftFormat,
    EnforcementLevel,
)


class EventInput(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    date = serializers.DateField()
    enforcement_level = serializers.ChoiceField(EnforcementLevel.choices, default=EnforcementLevel.REGULAR)
    draft_format = serializers.ChoiceField(DRAFTED_FORMATS, default=DraftFormat.BOOSTER)
    set_codes = serializers.ListField(
        child=serializers.CharField(max_length=200),
        required=False,
        default=list,
        max_length=3,
        help_text=gettext_lazy(
            "One set for every round, or one per round: a set code in any case (isd) or the set's name "
            "(Innistrad). Unknown: 400 unknown_set with the near matches in suggestions."
        ),
    )
    booster_kinds = serializers.ListField(
        child=serializers.CharField(max_length=40, allow_blank=True),
        required=False,
        default=list,
        max_length=3,
        help_text=gettext_lazy(
            "The booster kind of every round, or one per round, as GET /api/sets/<code>/boosters/ names "
            "them (play, default, arena...); none or an empty one: the set's default kind (its newest). "
            "A kind the set lacks: 400 unknown_booster_kind."
        ),
    )
    cube_list = serializers.ListField(
        child=serializers.CharField(max_length=200),
        required=False,
        default=list,
        max_length=1000,
        help_text=gettext_lazy("Card names (any face), one per card."),
    )
    pack_size = serializers.IntegerField(min_value=2, max_value=20, default=15)
    pick_timer = serializers.BooleanField(default=True)
    deck_building_minutes = serializers.IntegerField(min_value=1, max_value=180, default=25)

    def validate_set_codes(self, value: list[str]) -> list[str]:
        if len(value) not in (1, ROUNDS):
            return value  # the service refuses the count (invalid_sets)
        return [card_selectors.resolve_set(text, field="set_codes") for text in value]


class BoosterKindOutput(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField()
    collation = serializers.ChoiceField(["mtgjson", "published", "rarity"])
    collation_label = serializers.CharField()
    source = serializers.CharField()


class SetBoostersOutput(serializers.Serializer):
    """The booster kinds a set offers, its default one and the collation each uses."""

    set_code = serializers.CharField()
    default = serializers.CharField()
    kinds = BoosterKindOutput(many=True)


class SeatingInput(serializers.Serializer):
    seed = serializers.IntegerField(min_value=0, max_value=2**48, required=False)
    pods = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=ID_MAX), max_length=8),
        required=False,
        max_length=200,
        help_text=gettext_lazy("Seat by hand: registration ids per pod, in seat order."),
    )


class MovePlayerInput(serializers.Serializer):
    registration = serializers.IntegerField(min_value=1, max_value=ID_MAX)
    position = serializers.IntegerField(min_value=0, max_value=7, required=False)


class ExtendClocksInput(serializers.Serializer):
    # The service checks the range (``invalid_timer``), as for the pod page.
    seconds = serializers.IntegerField(min_value=-INTEGER_MAX, max_value=INTEGER_MAX)
    seat = serializers.IntegerField(min_value=1, max_value=ID_MAX, required=False)  # one seat's pick timers (a seat id)


class DeckBuildingClockInput(serializers.Serializer):
    minutes = serializers.IntegerField(min_value=-INTEGER_MAX, max_value=INTEGER_MAX)


class StartDeckBuildingInput(serializers.Serializer):
    minutes = serializers.IntegerField(
        min_value=-INTEGER_MAX, max_value=INTEGER_MAX, required=False
    )  # default: the event's deck-building minutes


def _pick_field(bounds: pick_input.Range, **kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=bounds.low, max_value=bounds.high, **kwargs)


class PickInput(serializers.Serializer):  # the ranges of drafts.pick_input, as the form and the socket read them
    card = _pick_field(pick_input.CARD, help_text=gettext_lazy("The id of the card in the pack."))
    position = _pick_field(
        pick_input.POSITION,
        required=False,
        help_text=gettext_lazy("Where the card goes in your pile (R17); default the end."),
    )
    pack = _pick_field(
        pick_input.PACK,
        required=False,
        help_text=gettext_lazy("The pack you picked from; a stale pack gives 409 wrong_pack."),
    )


class PileMoveInput(serializers.Serializer):
    card = _pick_field(pick_input.CARD)
    position = _pick_field(pick_input.POSITION)


class PileCoverInput(serializers.Serializer):
    cover = serializers.ChoiceField(PILE_COVERS, allow_blank=True)


class ReplaceSeatInput(serializers.Serializer):
    automatic = serializers.BooleanField(required=False, default=False)
    registration = serializers.IntegerField(min_value=1, max_value=ID_MAX, required=False)

    def validate(self, attrs):
        if bool(attrs.get("automatic")) == bool(attrs.get("registration")):
            raise serializers.ValidationError(
                gettext("Give either automatic=true or the registration of the player taking the seat."),
                code=error_codes.INVALID_REPLACEMENT,
            )
        return attrs


class EventPodsActionOutput(serializers.Serializer):
    pods = serializers.ListField(child=serializers.IntegerField(), help_text="The ids of the pods paused or resumed.")


# --- answers (documentation of the bodies the selectors build) ------------------------------
# These type the OpenAPI schema; the views answer the selectors' dicts as they are.


class PodSummaryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    event_id = serializers.IntegerField()
    number = serializers.IntegerField()
    state = serializers.CharField(allow_blank=True)
    paused_from = serializers.CharField(allow_null=True, allow_blank=True)
    round = serializers.IntegerField()
    direction = serializers.CharField(allow_null=True)  # "left" or "right" while packs pass
    review_deadline = serializers.DateTimeField(allow_null=True)
    deck_building_deadline = serializers.DateTimeField(allow_null=True)
    paused_remaining_ms = serializers.IntegerField(allow_null=True)
    pick_timer = serializers.BooleanField()
    version = serializers.IntegerField()


class PodListOutput(serializers.Serializer):
    pods = PodSummaryOutput(many=True)


class FaceOutput(serializers.Serializer):
    name = serializers.CharField(allow_blank=True)
    mana_cost = serializers.CharField(allow_blank=True)
    type_line = serializers.CharField(allow_blank=True)
    oracle_text = serializers.CharField(allow_blank=True)
    power = serializers.CharField(allow_null=True, allow_blank=True)
    toughness = serializers.CharField(allow_null=True, allow_blank=True)
    loyalty = serializers.CharField(allow_null=True, allow_blank=True)
    colors = serializers.ListField(child=serializers.CharField(allow_blank=True))


class CardOutput(serializers.Serializer):
    """An opened card: its catalogue faces and the copy's details."""

    id = serializers.IntegerField()  # this copy's id in the draft: what a pick sends
    card_id = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    layout = serializers.CharField(allow_blank=True)
    is_dfc = serializers.BooleanField()
    color_identity = serializers.ListField(child=serializers.CharField(allow_blank=True))
    faces = FaceOutput(many=True)
    printed_names = serializers.DictField()  # language -> the face names printed in it
    rarity = serializers.CharField(allow_blank=True)
    foil = serializers.BooleanField()
    image_uris = serializers.DictField()


class QueuedPackOutput(serializers.Serializer):
    pack_id = serializers.IntegerField()
    round = serializers.IntegerField()
    pick_number = serializers.IntegerField()
    cards_left = serializers.IntegerField()
    deadline = serializers.DateTimeField(allow_null=True)
    remaining_ms = serializers.IntegerField(allow_null=True)
    cards = CardOutput(many=True)
    waiting = serializers.BooleanField(required=False)


class HeldPackOutput(serializers.Serializer):
    pack_id = serializers.IntegerField()
    round = serializers.IntegerField()
    cards_left = serializers.IntegerField()
    dfcs = CardOutput(many=True)


class BoardSeatOutput(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    is_automatic = serializers.BooleanField()
    packs = HeldPackOutput(many=True)
    pile_dfcs = CardOutput(many=True, allow_null=True)


class BoardOutput(serializers.Serializer):
    seats = BoardSeatOutput(many=True)


class PodBoardOutput(serializers.Serializer):
    pod = PodSummaryOutput()
    board = BoardOutput()


class OverviewSeatOutput(serializers.Serializer):
    id = serializers.IntegerField()
    position = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    registration_id = serializers.IntegerField(allow_null=True)
    is_automatic = serializers.BooleanField()
    ready = serializers.BooleanField()
    last_pick_at = serializers.DateTimeField(allow_null=True)
    picks = serializers.IntegerField()
    timeout_picks = serializers.IntegerField()
    queue = QueuedPackOutput(many=True)
    pile = CardOutput(many=True)


class PodOverviewOutput(serializers.Serializer):
    pod = PodSummaryOutput()
    spectator_token = serializers.CharField(allow_blank=True)
    seats = OverviewSeatOutput(many=True)
    server_time = serializers.DateTimeField()


class SpectatorLinkOutput(serializers.Serializer):
    spectator_token = serializers.CharField(allow_blank=True)
    url = serializers.URLField()


class MovePlayerOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    pod = serializers.IntegerField()
    position = serializers.IntegerField()


class SeatInfoOutput(serializers.Serializer):
    id = serializers.IntegerField()
    position = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    is_automatic = serializers.BooleanField()
    pile_cover = serializers.CharField(allow_blank=True)  # one of models.PILE_COVERS
    ready = serializers.BooleanField()


class SeatViewOutput(serializers.Serializer):
    seat = SeatInfoOutput()
    pod = PodSummaryOutput()
    queue = QueuedPackOutput(many=True)
    pile = CardOutput(many=True)
    board = BoardOutput()
    server_time = serializers.DateTimeField()


class QueueOutput(serializers.Serializer):
    pod = PodSummaryOutput()
    queue = QueuedPackOutput(many=True)


class PickMadeOutput(serializers.Serializer):
    id = serializers.IntegerField()
    card = serializers.IntegerField()
    round = serializers.IntegerField()
    pick_number = serializers.IntegerField()
    kind = serializers.CharField(allow_blank=True)
    pod_version = serializers.IntegerField()


class PickAnswerOutput(serializers.Serializer):
    pick = PickMadeOutput()
    pod = PodSummaryOutput()
    queue = QueuedPackOutput(many=True)


class PileOutput(serializers.Serializer):
    pile = CardOutput(many=True)


class PileCoverOutput(serializers.Serializer):
    pile_cover = serializers.CharField(allow_blank=True)  # one of models.PILE_COVERS


class ReplaceSeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    is_automatic = serializers.BooleanField()
    registration = serializers.IntegerField(allow_null=True)


class LogPickOutput(serializers.Serializer):
    round = serializers.IntegerField()
    pick = serializers.IntegerField()
    kind = serializers.CharField(allow_blank=True)
    made_at = serializers.DateTimeField()
    card = serializers.CharField(allow_null=True, allow_blank=True)
    draft_card_id = serializers.IntegerField()
    pack = serializers.ListField(child=serializers.CharField(allow_null=True, allow_blank=True), allow_null=True)
    pack_ids = serializers.ListField(child=serializers.IntegerField(), allow_null=True)


class DraftLogOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    picks = LogPickOutput(many=True)
