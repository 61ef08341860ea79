"""The events API: events (the list of mine, one event and its settings) and their
registrations: an event's players (its members read them), and registering one: yourself, or,
as organiser, a guest by name or an account. Joining by the event's link
(capacity, waitlist) is accounts', reached through ``events.extensions``."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from draftsite.errors import DomainError
from events import access, error_codes, extensions, selectors, services
from events.access import Permission
from events.api.serializers import (
    EventOutput,
    EventUpdate,
    RegistrationInput,
    RegistrationOutput,
    WaitlistedOutput,
    validated,
)

# What a self-registration past the event's capacity answers (accounts' joining: the waitlist).
WAITLISTED = "waitlisted"


class EventListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=EventOutput(many=True))
    def get(self, request):
        """Events you organise, judge or play in (all of them for superusers)."""
        return Response(EventOutput(selectors.events_taken_part_in(request.user), many=True).data)


class EventDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=EventOutput)
    def get(self, request, pk: int):
        event = access.access_event(pk, request.user, permission=Permission.MEMBER)
        return Response(EventOutput(event).data)

    @extend_schema(request=EventUpdate, responses=EventOutput)
    def patch(self, request, pk: int):
        event = access.access_event(pk, request.user, permission=Permission.ORGANISER)
        data = validated(EventUpdate, request)
        # Through the service: validated, logged, and told to live pages (publishing
        # decklists changes what players may see).
        event = services.update_event(event_id=event.pk, actor=request.user, changes=dict(data))
        return Response(EventOutput(event).data)


class RegistrationListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=RegistrationOutput(many=True))
    def get(self, request, pk: int):
        event = access.access_event(pk, request.user, permission=Permission.MEMBER)
        return Response(RegistrationOutput(event.registrations.order_by("name"), many=True).data)

    @extend_schema(request=RegistrationInput, responses={201: RegistrationOutput, 202: WaitlistedOutput})
    def post(self, request, pk: int):
        """Register yourself (empty body), or, as organiser, a guest by name or an account."""
        event = access.access_event(pk)
        data = validated(RegistrationInput, request)
        if data:
            access.authorize(request.user, event, Permission.ORGANISER)
            user = None
            if data.get("username"):
                user = get_user_model().objects.filter(username=data["username"]).first()
                if user is None:
                    raise DomainError(
                        error_codes.UNKNOWN_USER,
                        gettext("No account is called %(data)s.") % {"data": repr(data["username"])},
                        field="username",
                    )
            registration = services.register_player(
                event_id=event.pk, user=user, name=data.get("name"), actor=request.user
            )
        else:
            # Through the join service, as the event's join link page: its capacity, deadline
            # and waitlist hold for the API too (issue 28; accounts holds it: events.extensions).
            joined = extensions.players().join(event.pk, request.user, timezone.now())
            if joined.registration is None:
                position = joined.waitlist_position
                return Response({"status": WAITLISTED, "waitlist_position": position}, status=status.HTTP_202_ACCEPTED)
            registration = joined.registration
        return Response(RegistrationOutput(registration).data, status=status.HTTP_201_CREATED)
