"""Bodies and answers of the judge calls API (documentation and validation)."""

from __future__ import annotations

from rest_framework import serializers

from judgecalls.models import MAX_REASON, Outcome


class CallInput(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=MAX_REASON)


class NoteInput(serializers.Serializer):
    note = serializers.CharField(required=False, allow_blank=True, max_length=MAX_REASON)


class ExtensionInput(serializers.Serializer):
    minutes = serializers.IntegerField()
    reason = serializers.CharField(required=False, allow_blank=True, max_length=MAX_REASON)


class ResolveInput(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=Outcome.choices)
    note = serializers.CharField(required=False, allow_blank=True, max_length=MAX_REASON)
    penalty_id = serializers.IntegerField(required=False)


class CallerView(serializers.Serializer):
    """What the caller reads: the call's state and the judge coming, nothing else."""

    id = serializers.IntegerField()
    status = serializers.CharField()
    judge = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()


class CallOutput(serializers.Serializer):
    """What the event's judges read of a call."""

    id = serializers.IntegerField()
    status = serializers.CharField()
    caller = serializers.CharField()
    reason = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    pod = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    age_seconds = serializers.IntegerField()
    claimed_by = serializers.CharField(allow_null=True)
    escalated = serializers.BooleanField()
    outcome = serializers.CharField()
    penalty = serializers.IntegerField(allow_null=True)
