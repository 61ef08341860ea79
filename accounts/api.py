"""The accounts API: an event's players as the organiser exports them, and a player's own place on
its waitlist (paths under /api/events/, beside the events API)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors, services
from accounts.exports import players_csv_response
from events.access import Permission, access_event


class WaitlistPlaceOutput(serializers.Serializer):
    """The caller's place on the event's waitlist (1 is next in line); null when not on it."""

    waitlist_position = serializers.IntegerField(allow_null=True)


class PlayersCsvView(APIView):
    """The organiser's list of the event's registered and waitlisted players, as CSV."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR}, operation_id="events_players_csv")
    def get(self, request, pk: int):
        event = access_event(pk, request.user, permission=Permission.ORGANISER)
        return players_csv_response(event)


class WaitlistView(APIView):
    """The caller's own place on the event's waitlist: read it, or leave the waitlist."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=WaitlistPlaceOutput, operation_id="events_waitlist_place")
    def get(self, request, pk: int):
        event = access_event(pk)
        return Response({"waitlist_position": selectors.waitlist_position(event.pk, request.user)})

    @extend_schema(responses={204: None}, operation_id="events_waitlist_leave")
    def delete(self, request, pk: int):
        services.leave_waitlist(event_id=pk, user=request.user, now=timezone.now())
        return Response(status=status.HTTP_204_NO_CONTENT)
