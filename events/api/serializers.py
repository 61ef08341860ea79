"""Bodies of the events API: an event (what every kind of event shows, and its settings), its
registrations, its staff and their invitations."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from draftsite.api import validated_body
from events import selectors
from events.models import EnforcementLevel, Event, EventStaff, Registration, StaffInvitation, StaffRole


def validated(serializer_class, request) -> dict:
    return validated_body(serializer_class, request)


class EventUpdate(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    date = serializers.DateField(required=False)
    enforcement_level = serializers.ChoiceField(EnforcementLevel.choices, required=False)
    pick_timer = serializers.BooleanField(required=False)
    deck_building_minutes = serializers.IntegerField(min_value=1, max_value=180, required=False)
    decklist_deadline = serializers.DateTimeField(required=False, allow_null=True)
    decklists_published = serializers.BooleanField(required=False)


class EventOutput(serializers.ModelSerializer):
    class Meta:
        model = Event
        fields = [
            "id",
            "name",
            "date",
            "enforcement_level",
            "draft_format",
            "set_codes",
            "booster_kinds",
            "pack_size",
            "pick_timer",
            "deck_building_minutes",
            "decklist_deadline",
            "decklists_published",
            "collation_version",
        ]
        # Pinned when the event is created (drafts.core.collation): shown, never changed here.
        read_only_fields = ["collation_version"]


class RegistrationInput(serializers.Serializer):
    name = serializers.CharField(
        max_length=100, required=False, help_text=gettext_lazy("A guest's name (organisers only).")
    )
    username = serializers.CharField(
        max_length=150, required=False, help_text=gettext_lazy("Register this account (organisers only).")
    )


class RegistrationOutput(serializers.ModelSerializer):
    class Meta:
        model = Registration
        fields = ["id", "name", "user"]


class WaitlistedOutput(serializers.Serializer):
    """A self-registration past the event's capacity: on its waitlist (HTTP 202)."""

    status = serializers.CharField()  # "waitlisted"
    waitlist_position = serializers.IntegerField(allow_null=True)


class StaffInput(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(StaffRole.choices)


class StaffRoleInput(serializers.Serializer):
    role = serializers.ChoiceField(StaffRole.choices)


class StaffOutput(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = EventStaff
        fields = ["id", "username", "role"]


class StaffWarning(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class StaffAddedOutput(StaffOutput):
    """The new staff row, with what the organiser should know (a judge seated as a player)."""

    warnings = StaffWarning(many=True, read_only=True)

    class Meta(StaffOutput.Meta):
        fields = [*StaffOutput.Meta.fields, "warnings"]


class InvitationInput(serializers.Serializer):
    role = serializers.ChoiceField(StaffRole.choices)


class InvitationOutput(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    state = serializers.SerializerMethodField()
    accepted_by = serializers.CharField(source="accepted_by.username", default=None)

    class Meta:
        model = StaffInvitation
        fields = ["id", "role", "token", "url", "state", "created_at", "expires_at", "accepted_by", "accepted_at"]

    def get_url(self, obj) -> str:
        path = reverse("drafts:staff-invitation", args=[obj.token])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path

    def get_state(self, obj) -> str:
        return selectors.invitation_state(obj, timezone.now())
