"""Request bodies of the paper draft's API."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from draftsite.bounds import ID_MAX
from paper import services


class StartInput(serializers.Serializer):
    delay_seconds = serializers.IntegerField(
        min_value=0,
        max_value=services.MAX_DELAY_SECONDS,
        default=0,
        help_text=gettext_lazy("Seconds until the first call (a countdown)."),
    )


class FlightInput(StartInput):
    pods = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        min_length=1,
        max_length=200,
        help_text=gettext_lazy("Ids of the pods called in lockstep."),
    )


class ControlInput(serializers.Serializer):
    reason = serializers.CharField(
        max_length=services.MAX_REASON,
        required=False,
        allow_blank=True,
        help_text=gettext_lazy("Why the call is paused (required to pause)."),
    )


class FollowersInput(serializers.Serializer):
    allowed = serializers.BooleanField()


class PostDfcInput(serializers.Serializer):
    card = serializers.CharField(max_length=200, help_text=gettext_lazy("The card's name (any face) or id."))
    count = serializers.IntegerField(min_value=1, max_value=services.MAX_POSTED_COUNT, default=1)
