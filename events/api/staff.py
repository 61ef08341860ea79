"""Event staff and settings API: add, remove and re-role organisers and judges (by username or
an invitation link), and change an event's settings. Organisers only; every change is logged."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from events import access, error_codes, extensions, selectors, services
from events.access import Permission
from events.api.serializers import (
    InvitationInput,
    InvitationOutput,
    StaffAddedOutput,
    StaffInput,
    StaffOutput,
    StaffRoleInput,
    validated,
)


def _organiser_event(request, pk: int):
    return access.access_event(pk, request.user, permission=Permission.ORGANISER)


class EventStaffView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=StaffOutput(many=True), operation_id="events_staff_list")
    def get(self, request, pk: int):
        """The event's organisers, head judges and judges (its staff see this)."""
        event = access.access_event(
            pk, request.user, permission=Permission.STAFF, message=gettext("Only the event's staff see its staff.")
        )
        return Response(StaffOutput(selectors.event_staff(event), many=True).data)

    @extend_schema(request=StaffInput, responses={201: StaffAddedOutput}, operation_id="events_staff_add")
    def post(self, request, pk: int):
        """Add an account as organiser, head judge or judge (organisers)."""
        event = _organiser_event(request, pk)
        data = validated(StaffInput, request)
        staff = services.add_event_staff_by_username(
            event_id=event.pk, username=data["username"], role=data["role"], actor=request.user
        )
        body = dict(StaffOutput(staff).data)
        seat = extensions.seating().seated_players(event, [staff.user_id]).get(staff.user_id)
        # Added all the same (the organiser decides); the client is told, as the page does.
        body["warnings"] = (
            [{"code": error_codes.STAFF_IS_PLAYER, "message": extensions.seating().seated_warning(seat)}]
            if seat is not None and staff.role in selectors.JUDGING_ROLES
            else []
        )
        return Response(body, status=status.HTTP_201_CREATED)


class EventStaffDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=StaffRoleInput, responses=StaffOutput, operation_id="events_staff_change_role")
    def patch(self, request, pk: int, staff_id: int):
        """Change a staff member's role (an event keeps at least one organiser)."""
        event = _organiser_event(request, pk)
        data = validated(StaffRoleInput, request)
        staff = services.change_staff_role(event_id=event.pk, staff_id=staff_id, role=data["role"], actor=request.user)
        return Response(StaffOutput(staff).data)

    @extend_schema(request=None, responses={204: None}, operation_id="events_staff_remove")
    def delete(self, request, pk: int, staff_id: int):
        """Remove a staff member (not the last organiser)."""
        event = _organiser_event(request, pk)
        services.remove_event_staff(event_id=event.pk, staff_id=staff_id, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class StaffInvitationListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=InvitationOutput(many=True), operation_id="events_staff_invitations_list")
    def get(self, request, pk: int):
        """Invitation links of the event and their state (organisers: a link is a key)."""
        event = _organiser_event(request, pk)
        rows = [row["invitation"] for row in selectors.invitations(event)]
        return Response(InvitationOutput(rows, many=True, context={"request": request}).data)

    @extend_schema(
        request=InvitationInput, responses={201: InvitationOutput}, operation_id="events_staff_invitations_create"
    )
    def post(self, request, pk: int):
        """A one-use link (valid 7 days) that makes whoever accepts it staff in ``role``."""
        event = _organiser_event(request, pk)
        data = validated(InvitationInput, request)
        invitation = services.invite_staff(event_id=event.pk, role=data["role"], actor=request.user)
        return Response(InvitationOutput(invitation, context={"request": request}).data, status=status.HTTP_201_CREATED)


class StaffInvitationDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None}, operation_id="events_staff_invitations_revoke")
    def delete(self, request, pk: int, invitation_id: int):
        """Withdraw an invitation link before it is used."""
        event = _organiser_event(request, pk)
        services.revoke_staff_invitation(event_id=event.pk, invitation_id=invitation_id, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class StaffInvitationAcceptView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: StaffOutput}, operation_id="staff_invitations_accept")
    def post(self, request, token: str):
        """Accept an invitation link: you become staff of its event in its role."""
        staff = services.accept_staff_invitation(token=token, user=request.user)
        return Response(StaffOutput(staff).data, status=status.HTTP_201_CREATED)
