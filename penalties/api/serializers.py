"""Request and response bodies of the penalties API."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from draftsite.bounds import ID_MAX
from penalties import services
from penalties.models import PenaltyKind


class InfractionOutput(serializers.Serializer):
    code = serializers.CharField()
    section = serializers.CharField()
    category = serializers.CharField()
    category_display = serializers.CharField(source="get_category_display")
    name = serializers.CharField()
    summary = serializers.CharField()
    defaults = serializers.SerializerMethodField()
    upgrade_at = serializers.IntegerField(allow_null=True)

    def get_defaults(self, obj) -> dict:
        return {
            "regular": obj.default_regular,
            "competitive": obj.default_competitive,
            "professional": obj.default_professional,
        }


class PenaltyInput(serializers.Serializer):
    registration = serializers.IntegerField(min_value=1, max_value=ID_MAX)
    infraction = serializers.CharField(max_length=60, help_text=gettext_lazy("Infraction code from /api/infractions/."))
    description = serializers.CharField(max_length=5000, allow_blank=True, help_text=gettext_lazy("What happened."))
    fix = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")
    penalty = serializers.ChoiceField(
        PenaltyKind.choices,
        required=False,
        allow_null=True,
        default=None,
        help_text=gettext_lazy("Leave out for the IPG default (with any repeat upgrade)."),
    )
    deviation_reason = serializers.CharField(
        max_length=5000,
        required=False,
        allow_blank=True,
        default="",
        help_text=gettext_lazy("Required when the penalty differs from the default."),
    )
    match_round = serializers.IntegerField(min_value=1, max_value=99, required=False, allow_null=True)
    pod = serializers.IntegerField(min_value=1, max_value=ID_MAX, required=False, allow_null=True)
    draft_round = serializers.IntegerField(min_value=1, max_value=9, required=False, allow_null=True)
    pick_number = serializers.IntegerField(min_value=1, max_value=99, required=False, allow_null=True)
    source = serializers.CharField(
        max_length=60,
        required=False,
        allow_blank=True,
        default="",
        help_text=gettext_lazy('"deck_check:<id>" or "pick:<id>" (a timer pick).'),
    )
    judge_statement = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")


class DecisionInput(serializers.Serializer):
    decision = serializers.ChoiceField(list(services.DECISIONS))
    penalty = serializers.ChoiceField(
        PenaltyKind.choices,
        required=False,
        allow_null=True,
        default=None,
        help_text=gettext_lazy("The new penalty (upgrade and downgrade only)."),
    )
    reason = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")


class AppealInput(serializers.Serializer):
    statement = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")


class DismissInput(serializers.Serializer):
    source = serializers.CharField(max_length=60)
    reason = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")


class DismissManyInput(serializers.Serializer):
    sources = serializers.ListField(child=serializers.CharField(max_length=60), max_length=500, allow_empty=True)
    reason = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")


class DismissManyOutput(serializers.Serializer):
    dismissed = serializers.ListField(child=serializers.CharField())
    reason = serializers.CharField()


class AuditOutput(serializers.Serializer):
    at = serializers.DateTimeField()
    actor = serializers.SerializerMethodField()
    action = serializers.CharField()
    from_penalty = serializers.CharField()
    to_penalty = serializers.CharField()
    from_status = serializers.CharField()
    to_status = serializers.CharField()
    reason = serializers.CharField()

    def get_actor(self, obj) -> str | None:
        return obj.actor.get_username() if obj.actor_id else None


class AppealOutput(serializers.Serializer):
    statement = serializers.CharField()
    submitted_at = serializers.DateTimeField()
    status = serializers.CharField()
    decision = serializers.CharField()
    reason = serializers.CharField()
    decided_at = serializers.DateTimeField(allow_null=True)


class PenaltyOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    event = serializers.SerializerMethodField()
    player = serializers.SerializerMethodField()
    infraction = serializers.SerializerMethodField()
    match_round = serializers.IntegerField(allow_null=True)
    pod = serializers.SerializerMethodField()
    draft_round = serializers.IntegerField(allow_null=True)
    pick_number = serializers.IntegerField(allow_null=True)
    description = serializers.CharField()
    fix = serializers.CharField()
    source = serializers.CharField()
    enforcement_level = serializers.CharField()
    default_penalty = serializers.CharField()
    expected_penalty = serializers.CharField()
    issued_penalty = serializers.CharField()
    penalty = serializers.CharField()
    status = serializers.CharField()
    upgrade_reason = serializers.CharField()
    deviation_reason = serializers.CharField()
    judge_statement = serializers.CharField()
    player_statement = serializers.CharField()
    head_judge_statement = serializers.CharField()
    issued_by = serializers.SerializerMethodField()
    issued_at = serializers.DateTimeField()
    reviewed_by = serializers.SerializerMethodField()
    reviewed_at = serializers.DateTimeField(allow_null=True)
    appeal = serializers.SerializerMethodField()

    def get_event(self, obj) -> dict:
        return {"id": obj.event_id, "name": obj.event.name}

    def get_player(self, obj) -> dict:
        return {"registration": obj.registration_id, "name": obj.registration.name}

    def get_infraction(self, obj) -> dict:
        i = obj.infraction
        return {"code": i.code, "section": i.section, "name": i.name, "category": i.category}

    def get_pod(self, obj) -> int | None:
        return obj.pod_id

    def get_issued_by(self, obj) -> str | None:
        return obj.issued_by.get_username() if obj.issued_by_id else None

    def get_reviewed_by(self, obj) -> str | None:
        return obj.reviewed_by.get_username() if obj.reviewed_by_id else None

    def get_appeal(self, obj) -> dict | None:
        appeal = getattr(obj, "appeal", None)
        return AppealOutput(appeal).data if appeal is not None else None


class PenaltyDetailOutput(PenaltyOutput):
    history = AuditOutput(many=True)


class TimeoutPickOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    source = serializers.SerializerMethodField()
    registration = serializers.IntegerField(source="seat.registration_id")
    player = serializers.CharField(source="seat.registration.name")
    pod = serializers.IntegerField(source="seat.pod_id")
    pod_number = serializers.IntegerField(source="seat.pod.number")
    round = serializers.IntegerField()
    pick_number = serializers.IntegerField()
    made_at = serializers.DateTimeField()

    def get_source(self, obj) -> str:
        return f"pick:{obj.pk}"
