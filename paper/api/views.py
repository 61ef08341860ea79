"""API of the called paper draft, under /api/paper/. Thin: who may ask is checked first (403
before any 400), then the body, then one service; reads come from ``paper.selectors`` (a read of
the call settles the pod's mirrored state first, through ``paper.services.settle_if_due``)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from drafts.access import access_own_seat, authorize_pod
from draftsite import whole_numbers
from draftsite.api import validated_body
from draftsite.errors import NotFoundError
from events.access import Permission, authorize
from events.models import DraftFormat, Event
from paper import error_codes, selectors, services
from paper.api.serializers import ControlInput, FlightInput, FollowersInput, PostDfcInput, StartInput

POD_CONTROLS = ("pause", "resume", "repeat-pick", "skip-to-review", "restart-round")


def _paper_event(pk: int) -> Event:
    event = Event.objects.filter(pk=pk, draft_format=DraftFormat.PAPER).first()
    if event is None:
        raise NotFoundError(error_codes.UNKNOWN_EVENT, gettext("No paper draft event has id %(pk)s.") % {"pk": pk})
    return event


def _call_view(pod, *, staff: bool) -> dict:
    """The call as every page reads it, the pod's mirrored state settled first."""
    now = timezone.now()
    return selectors.call_view(services.settle_if_due(pod=pod, now=now), staff=staff, now=now)


def _card(value: str) -> str | int:
    value = value.strip()
    number = whole_numbers.parse(value)
    return value if number is None else number


class CallView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        """The call in force, the server's time and the calls ahead (pod players and staff)."""
        pod = selectors.paper_pod(pk)
        authorize_pod(request.user, pod, Permission.POD_MEMBER, message=services.FOLLOWERS_ONLY)
        return Response(_call_view(pod, staff=selectors.may_control(request.user, pod)))


class StartCallView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=StartInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk: int):
        """Call this pod on its own (organisers)."""
        pod = selectors.paper_pod(pk)
        authorize(request.user, pod.event, Permission.ORGANISER)
        data = validated_body(StartInput, request)
        services.start_call(pod_id=pod.pk, actor=request.user, delay_seconds=data["delay_seconds"])
        return Response(_call_view(pod, staff=True), status=status.HTTP_201_CREATED)


class PodControlView(APIView):
    permission_classes = [IsAuthenticated]
    action_name = ""

    @extend_schema(request=ControlInput, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        """A judge's control: pause (with a reason), resume, repeat-pick, skip-to-review, restart-round."""
        pod = selectors.paper_pod(pk)
        authorize(request.user, pod.event, Permission.STAFF, message=services.STAFF_ONLY)
        data = validated_body(ControlInput, request)
        services.control_pod(pod_id=pod.pk, action=self.action_name, actor=request.user, reason=data.get("reason", ""))
        return Response(_call_view(pod, staff=True))


class FlightsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=FlightInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk: int):
        """Call several pods in lockstep from one start (organisers)."""
        event = _paper_event(pk)
        authorize(request.user, event, Permission.ORGANISER)
        data = validated_body(FlightInput, request)
        flight = services.start_flight(
            event_id=event.pk, pod_ids=data["pods"], actor=request.user, delay_seconds=data["delay_seconds"]
        )
        return Response(
            {
                "id": flight.pk,
                "number": flight.number,
                "started_at": flight.started_at.isoformat(),
                "pods": sorted(flight.pods.values_list("pod_id", flat=True)),
            },
            status=status.HTTP_201_CREATED,
        )


class FlightControlView(APIView):
    permission_classes = [IsAuthenticated]
    action_name = ""

    @extend_schema(request=ControlInput, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        """The same control on every pod of the flight at once."""
        flight = selectors.flight(pk)
        if flight is None:
            raise NotFoundError(error_codes.UNKNOWN_FLIGHT, gettext("No flight has id %(pk)s.") % {"pk": pk})
        authorize(request.user, flight.event, Permission.STAFF, message=services.STAFF_ONLY)
        data = validated_body(ControlInput, request)
        pods = services.control_flight(
            flight_id=flight.pk, action=self.action_name, actor=request.user, reason=data.get("reason", "")
        )
        return Response({"flight": flight.number, "pods": [p.pk for p in pods]})


class FollowersView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=FollowersInput, responses=OpenApiTypes.OBJECT)
    def put(self, request, pk: int):
        """Let players follow their pod on its spectator link without an account (organisers)."""
        event = _paper_event(pk)
        authorize(request.user, event, Permission.ORGANISER)
        data = validated_body(FollowersInput, request)
        count = services.set_followers_allowed(event_id=event.pk, allowed=data["allowed"], actor=request.user)
        return Response({"allowed": data["allowed"], "pods": count})


class SeatingListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        """Players by name with their pod and seat (the venue wall list; staff)."""
        event = _paper_event(pk)
        authorize(request.user, event, Permission.STAFF, message=services.STAFF_ONLY)
        return Response({"seating": selectors.seating_by_name(event)})


class PostedDfcsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        """The pod's open table: the DFCs each player chose to show (R15)."""
        pod = selectors.paper_pod(pk)
        authorize_pod(request.user, pod, Permission.POD_MEMBER, message=services.FOLLOWERS_ONLY)
        return Response({"seats": selectors.posted_dfcs(pod)})

    @extend_schema(request=PostDfcInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk: int):
        """Show a double-faced card you drafted to your pod (R15: allowed, never required)."""
        pod = selectors.paper_pod(pk)
        access_own_seat(request.user, pod, message=services.PLAYERS_ONLY)
        data = validated_body(PostDfcInput, request)
        posted = services.post_dfc(pod_id=pod.pk, actor=request.user, card=_card(data["card"]), count=data["count"])
        return Response(
            {"id": posted.pk, "card_id": posted.card_id, "count": posted.count}, status=status.HTTP_201_CREATED
        )


class PostedDfcView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, pk: int):
        """Take a posted card back (R15: a player may hide their DFCs again)."""
        posted = services.access_posted_dfc(request.user, pk)
        services.withdraw_dfc(posted_id=posted.pk, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FollowView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, token: str):
        """The call and the open table on a pod's link, without an account, when the organiser allows."""
        pod = selectors.followed_pod(token)
        if pod is None:
            raise NotFoundError(error_codes.FOLLOWING_NOT_ALLOWED, gettext("This link does not work (any more)."))
        return Response({**_call_view(pod, staff=False), "seats": selectors.posted_dfcs(pod)})
