"""Request bodies of the sealed API (the answers are the selectors' dicts)."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy
from rest_framework import serializers

from decks.api.serializers import MAX_LINES, EntrySerializer
from draftsite.bounds import ID_MAX
from events.models import EnforcementLevel
from sealed import error_codes
from sealed.models import DEFAULT_BOOSTERS, MAX_BOOSTERS


class BoosterSerializer(serializers.Serializer):
    set_code = serializers.CharField(max_length=10)
    kind = serializers.CharField(max_length=20, required=False, allow_blank=True, default="")


class SealedEventInput(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    date = serializers.DateField()
    enforcement_level = serializers.ChoiceField(EnforcementLevel.choices, default=EnforcementLevel.REGULAR)
    paper = serializers.BooleanField(default=False, help_text=gettext_lazy("Players open real boosters (MTR 7.5)."))
    boosters = serializers.ListField(child=BoosterSerializer(), min_length=1, max_length=MAX_BOOSTERS)
    booster_count = serializers.IntegerField(
        min_value=1,
        max_value=MAX_BOOSTERS,
        default=DEFAULT_BOOSTERS,
        help_text=gettext_lazy("With one booster given: how many of it each player opens."),
    )
    seed = serializers.IntegerField(min_value=0, max_value=2**48, required=False)


class PoolInput(serializers.Serializer):
    cards = serializers.ListField(child=EntrySerializer(), max_length=MAX_LINES, required=False)
    text = serializers.CharField(required=False, trim_whitespace=False, max_length=20000)
    registration = serializers.IntegerField(min_value=1, max_value=ID_MAX, required=False)

    def validate(self, attrs):
        if (attrs.get("cards") is None) == (attrs.get("text") is None):
            raise serializers.ValidationError(gettext("Send cards or text."), code=error_codes.EMPTY_POOL)
        return attrs


class SwapInput(serializers.Serializer):
    seed = serializers.IntegerField(min_value=0, max_value=2**48, required=False)


class AnswerInput(serializers.Serializer):
    confirm = serializers.BooleanField()
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class AssignInput(serializers.Serializer):
    registration = serializers.IntegerField(min_value=1, max_value=ID_MAX, allow_null=True)
