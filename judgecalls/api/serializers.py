"""Bodies and answers of the judge calls API (documentation and validation)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from judgecalls.models import MAX_REASON, Outcome
from judgecalls.proposals import MAX_SOURCES


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


# --- the site's proposed penalties (judgecalls.proposals) ------------------------------------


class SourcesInput(serializers.Serializer):
    """The proposals to issue, by their ``source`` as listed (one or many)."""

    sources = serializers.ListField(child=serializers.CharField(max_length=60), min_length=1, max_length=MAX_SOURCES)


class DismissSourcesInput(SourcesInput):
    reason = serializers.CharField(max_length=5000)


class IssueOneInput(serializers.Serializer):
    """No fields: the proposal is named by the path (a body, if sent, must still be JSON)."""


class DismissOneInput(serializers.Serializer):
    reason = serializers.CharField(max_length=5000)


class ProposalTargetOutput(serializers.Serializer):
    """One player a proposal names, with what the IPG gives them now."""

    registration = serializers.IntegerField()
    player = serializers.CharField()
    default = serializers.CharField(help_text=gettext_lazy("The catalogue default at the event's REL."))
    default_display = serializers.CharField()
    counted = serializers.IntegerField(
        help_text=gettext_lazy("Earlier Warnings for this infraction that count (today, IPG 2/3).")
    )
    expected = serializers.CharField(help_text=gettext_lazy("The penalty after the repeat upgrade."))
    expected_display = serializers.CharField()
    upgraded = serializers.BooleanField()
    upgrade_reason = serializers.CharField()


class ProposalOutput(serializers.Serializer):
    source = serializers.CharField()  # type: ignore[assignment]  # the API field, not Field.source
    rule = serializers.CharField()
    infraction = serializers.CharField()
    infraction_name = serializers.CharField()
    category = serializers.CharField()
    facts = serializers.CharField()
    enforcement_level = serializers.CharField()
    match_round = serializers.IntegerField(allow_null=True)
    pod = serializers.IntegerField(allow_null=True)
    draft_round = serializers.IntegerField(allow_null=True)
    pick_number = serializers.IntegerField(allow_null=True)
    targets = ProposalTargetOutput(many=True)


class IssuedPenaltyOutput(serializers.Serializer):
    id = serializers.IntegerField()
    registration = serializers.IntegerField()
    player = serializers.CharField()
    infraction = serializers.CharField()
    penalty = serializers.CharField()
    status = serializers.CharField()
    source = serializers.CharField()  # type: ignore[assignment]  # the API field, not Field.source


class IssuedOutput(serializers.Serializer):
    issued = IssuedPenaltyOutput(many=True)


class DismissedOutput(serializers.Serializer):
    dismissed = serializers.ListField(child=serializers.CharField())
