"""Request and response shapes of ``POST /api/rules/simulate`` (the contract for the OpenAPI
schema; the service checks the request itself)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from cards.rules import ACTIONS
from cards.rules.faces import TURN_UP_VIA
from cards.rules.state import FACE_DOWN_BY, ZONES
from cards.rules.zones import FACE_DOWN_CASTS, FACE_LABELS
from rulesdesk import simulation


class ActionSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=list(ACTIONS))
    face = serializers.ChoiceField(
        choices=FACE_LABELS, required=False, help_text=gettext_lazy("cast, play_land: which face (R32-R34).")
    )
    face_down = serializers.ChoiceField(
        choices=FACE_DOWN_CASTS, required=False, help_text=gettext_lazy("cast: face down for {3} (R18).")
    )
    via = serializers.ChoiceField(
        choices=TURN_UP_VIA, required=False, help_text=gettext_lazy("turn_face_up: how (R19, R23, R26-R28).")
    )
    to = serializers.ChoiceField(choices=ZONES, required=False, help_text=gettext_lazy("move: the zone."))
    transformed = serializers.BooleanField(
        required=False, help_text=gettext_lazy("put_onto_battlefield: back face up (R4).")
    )
    by = serializers.ChoiceField(
        choices=FACE_DOWN_BY, required=False, help_text=gettext_lazy("turn_face_down: what turns it face down.")
    )
    partner = serializers.CharField(
        required=False,
        help_text=gettext_lazy(
            "meld (required): the other card of the meld pair, by a face name, the full name or a card id (CR 701.42)."
        ),
    )
    # A CharField: the zones are already the ``to`` enum, and one choice set has one schema name.
    partner_zone = serializers.CharField(
        required=False,
        help_text=gettext_lazy("meld: where the partner is, one of %(zones)s (default: battlefield).")
        % {"zones": ", ".join(ZONES)},
    )


class SimulateRequestSerializer(serializers.Serializer):
    card = serializers.CharField(help_text=gettext_lazy("A face name, the full name or a card id."))
    zone = serializers.ChoiceField(choices=simulation.START_ZONES, default="hand")
    actions = ActionSerializer(
        many=True, help_text=gettext_lazy("At most %(MAX_ACTIONS)s.") % {"MAX_ACTIONS": simulation.MAX_ACTIONS}
    )


class CharacteristicsSerializer(serializers.Serializer):
    name = serializers.CharField(allow_null=True)
    mana_cost = serializers.CharField(allow_null=True)
    mana_value = serializers.IntegerField()
    colors = serializers.ListField(child=serializers.CharField(), help_text=gettext_lazy("WUBRG order."))
    supertypes = serializers.ListField(child=serializers.CharField())
    card_types = serializers.ListField(child=serializers.CharField())
    subtypes = serializers.ListField(child=serializers.CharField())
    power = serializers.CharField(allow_null=True)
    toughness = serializers.CharField(allow_null=True)
    loyalty = serializers.CharField(allow_null=True)
    defense = serializers.CharField(allow_null=True)
    ward = serializers.CharField(allow_null=True)
    rules_text = serializers.CharField(allow_blank=True)
    source = serializers.CharField(help_text=gettext_lazy("front, back, flipped, combined, copy or face_down."))


class StateSerializer(serializers.Serializer):
    zone = serializers.CharField(help_text=", ".join(ZONES))
    face_down = serializers.BooleanField()
    face_down_by = serializers.CharField(allow_null=True, help_text="R25: " + ", ".join(FACE_DOWN_BY))
    face_up = serializers.CharField(help_text=gettext_lazy("front or back"))
    flipped = serializers.BooleanField()
    tapped = serializers.BooleanField()
    lost_abilities = serializers.BooleanField()
    melded_with = serializers.CharField(
        allow_null=True,
        help_text=gettext_lazy(
            "CR 712.4: the other card of a melded permanent (one permanent, two cards); null when not melded."
        ),
    )
    characteristics = CharacteristicsSerializer(help_text=gettext_lazy("What every player sees."))
    controller_sees = CharacteristicsSerializer(
        allow_null=True,
        help_text=gettext_lazy(
            "R20: a face-down object's face-up characteristics, which its controller may look at; null when face up."
        ),
    )


class AlsoMovedSerializer(serializers.Serializer):
    name = serializers.CharField()
    zone = serializers.CharField()
    characteristics = CharacteristicsSerializer()


class StepSerializer(serializers.Serializer):
    action = serializers.CharField(help_text=gettext_lazy('"start" for the first step.'))
    params = serializers.DictField()
    outcome = serializers.CharField(help_text=gettext_lazy("ok, no_effect or illegal"))
    reason = serializers.CharField(allow_null=True, help_text=gettext_lazy('The rule cited, e.g. "R35: ...".'))
    events = serializers.ListField(child=serializers.CharField())
    changes = serializers.ListField(child=serializers.CharField())
    state = StateSerializer()
    also = AlsoMovedSerializer(
        many=True,
        help_text=gettext_lazy(
            "Other cards the step moved with this one: the partner of a melded permanent that left the battlefield "
            "(CR 712.4)."
        ),
    )


class SimulatedCardSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    layout = serializers.CharField()
    is_dfc = serializers.BooleanField()
    color_identity = serializers.ListField(child=serializers.CharField())
    names_for_naming = serializers.ListField(child=serializers.CharField())
    faces = serializers.ListField(child=serializers.DictField())


class SimulateResponseSerializer(serializers.Serializer):
    card = SimulatedCardSerializer()
    zone = serializers.CharField()
    steps = StepSerializer(many=True)


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    errors = serializers.ListField(child=serializers.DictField())
