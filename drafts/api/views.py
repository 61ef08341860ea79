"""Draft engine API: creating a drafted event, seating, pod control, seats, picks, logs (the
event list, an event and its settings, registrations and staff: the events API).

Views translate HTTP only: they fetch what is asked for with the caller's permission
(``events.access``, ``drafts.access``, the role before the body), validate the body with a serializer, call one
service (which checks the acting user again) and answer what the selectors say that caller
may see.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from drafts import access, selectors, services
from drafts.api import serializers as s
from drafts.services import packs
from events import access as event_access
from events.access import Permission
from events.api import views as event_api
from events.api.serializers import EventOutput, validated

# --- events ----------------------------------------------------------------------------


class EventListView(event_api.EventListView):
    """The events API's list (GET), and creating a drafted event (POST): booster, cube or paper.
    Sealed events are the sealed API's (POST /api/sealed/events/)."""

    @extend_schema(request=s.EventInput, responses={201: EventOutput})
    def post(self, request):
        """Create an event (organisers). You become its organiser."""
        event_access.require_event_creator(request.user)
        data = validated(s.EventInput, request)
        event = services.create_event(created_by=request.user, **data)
        return Response(EventOutput(event).data, status=status.HTTP_201_CREATED)


class SetBoostersView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=s.SetBoostersOutput)
    def get(self, request, code: str):
        """The booster kinds a set offers (what an event's booster_kinds may name), its default
        kind and the collation each kind uses. Unknown set: 400 unknown_set."""
        return Response(s.SetBoostersOutput(packs.booster_kinds(code).as_dict()).data)


class SeatingView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.SeatingInput, responses={201: s.PodListOutput})
    def post(self, request, pk: int):
        """Seat every registered player into pods of up to 8 (random from a seed, or by hand)."""
        event = event_access.access_event(pk, request.user, permission=Permission.ORGANISER)
        data = validated(s.SeatingInput, request)
        pods = services.seat_players(
            event_id=event.pk, seed=data.get("seed"), pods=data.get("pods"), actor=request.user
        )
        return Response({"pods": [selectors.pod_summary(p) for p in pods]}, status=status.HTTP_201_CREATED)


class EventPodsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=s.PodListOutput)
    def get(self, request, pk: int):
        event = event_access.access_event(pk, request.user, permission=Permission.MEMBER)
        pods = services.settle_event_pods_for_reading(event)
        return Response({"pods": [selectors.pod_summary(p) for p in pods]})


# --- pods ------------------------------------------------------------------------------


class PodDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=s.PodOverviewOutput)
    def get(self, request, pk: int):
        """The whole pod, every card (organisers and judges of the event)."""
        pod = access.access_pod(pk, request.user, permission=Permission.STAFF)
        return Response(selectors.pod_overview(services.settle_pod_for_reading(pod.pk)))


class PodBoardView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=s.PodBoardOutput)
    def get(self, request, pk: int):
        """The pod's open information (R15): DFCs by seat, pack sizes. Pod members and staff."""
        pod = access.access_pod(pk, request.user, permission=Permission.POD_MEMBER)
        pod = services.settle_pod_for_reading(pod.pk)
        return Response({"pod": selectors.pod_summary(pod), "board": selectors.open_board(pod)})


POD_ACTIONS = {
    "start": services.start_pod,
    "pause": services.pause_pod,
    "resume": services.resume_pod,
    "advance": services.advance_round,
}


class PodActionView(APIView):
    permission_classes = [IsAuthenticated]
    action_name = ""

    @extend_schema(request=None, responses=s.PodSummaryOutput)
    def post(self, request, pk: int):
        pod = access.access_pod(pk, request.user, permission=Permission.ORGANISER)
        POD_ACTIONS[self.action_name](pod_id=pod.pk, actor=request.user)
        return Response(selectors.pod_summary(services.settle_pod_for_reading(pod.pk)))


EVENT_POD_ACTIONS = {"pause": services.pause_all_pods, "resume": services.resume_all_pods}


class EventPodsActionView(APIView):
    """Every pod of the event at once (the dashboard's "Pause all" / "Resume all")."""

    permission_classes = [IsAuthenticated]
    action_name = ""

    @extend_schema(request=None, responses=s.EventPodsActionOutput)
    def post(self, request, pk: int):
        pods = EVENT_POD_ACTIONS[self.action_name](event_id=pk, actor=request.user)
        return Response({"pods": pods})


class ExtendClocksView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.ExtendClocksInput, responses=s.PodSummaryOutput)
    def post(self, request, pk: int):
        """More time on the running clocks (every pick timer, one seat's, or the pod's clock)."""
        pod = access.access_pod(pk, request.user, permission=Permission.ORGANISER)
        data = validated(s.ExtendClocksInput, request)
        services.extend_clocks(pod_id=pod.pk, seconds=data["seconds"], seat_id=data.get("seat"), actor=request.user)
        return Response(selectors.pod_summary(services.settle_pod_for_reading(pod.pk)))


class DeckBuildingClockView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.DeckBuildingClockInput, responses=s.PodSummaryOutput)
    def post(self, request, pk: int):
        """Set the deck-building time: the running clock, or the event's minutes before it starts."""
        pod = access.access_pod(pk, request.user, permission=Permission.ORGANISER)
        data = validated(s.DeckBuildingClockInput, request)
        services.set_deck_building_clock(pod_id=pod.pk, minutes=data["minutes"], actor=request.user)
        return Response(selectors.pod_summary(services.settle_pod_for_reading(pod.pk)))


class StartDeckBuildingView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.StartDeckBuildingInput, responses=s.PodSummaryOutput)
    def post(self, request, pk: int):
        """Start the deck-building clock now (after the last round's picks)."""
        pod = access.access_pod(pk, request.user, permission=Permission.ORGANISER)
        data = validated(s.StartDeckBuildingInput, request)
        services.start_deck_building(pod_id=pod.pk, minutes=data.get("minutes"), actor=request.user)
        return Response(selectors.pod_summary(services.settle_pod_for_reading(pod.pk)))


class SpectatorLinkView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=s.SpectatorLinkOutput)
    def post(self, request, pk: int):
        """A new spectator link; the current one stops working at once."""
        pod = access.access_pod(pk, request.user, permission=Permission.ORGANISER)
        pod = services.regenerate_spectator_token(pod_id=pod.pk, actor=request.user)
        url = request.build_absolute_uri(reverse("drafts:spectate", args=[pod.spectator_token]))
        return Response({"spectator_token": pod.spectator_token, "url": url})


class MovePlayerView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.MovePlayerInput, responses=s.MovePlayerOutput)
    def post(self, request, pk: int):
        """Move a player into this pod (or to another seat in it) before it starts."""
        pod = access.access_pod(pk, request.user, permission=Permission.ORGANISER)
        data = validated(s.MovePlayerInput, request)
        seat = services.move_player(
            registration_id=data["registration"], pod_id=pod.pk, position=data.get("position"), actor=request.user
        )
        return Response({"seat": seat.pk, "pod": seat.pod_id, "position": seat.position})


# --- seats -----------------------------------------------------------------------------


def _seat_view(seat):
    return selectors.seat_view(seat, pod=services.settle_pod_for_reading(seat.pod_id))


class SeatView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=s.SeatViewOutput)
    def get(self, request, pk: int):
        """Your queue and pile in full, the pod's open information, your timer."""
        seat = access.access_seat(pk, request.user, permission=Permission.SEAT_READER)
        return Response(_seat_view(seat))


class QueueView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=s.QueueOutput)
    def get(self, request, pk: int):
        """Just your packs and the pod's clocks: what a client polls between picks."""
        seat = access.access_seat(pk, request.user, permission=Permission.SEAT_READER)
        pod = services.settle_pod_for_reading(seat.pod_id)
        return Response({"pod": selectors.pod_summary(pod), "queue": selectors.queue(seat)})


class PickView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.PickInput, responses={201: s.PickAnswerOutput})
    def post(self, request, pk: int):
        """Pick a card from the first pack in your queue; the pack passes on."""
        seat = access.access_seat(pk, request.user, permission=Permission.SEAT_OWNER)
        data = validated(s.PickInput, request)
        pick = services.make_pick(
            seat_id=seat.pk,
            draft_card_id=data["card"],
            actor=request.user,
            owner=request.user,
            position=data.get("position"),
            pack_id=data.get("pack"),
            received_at=getattr(request, "received_at", None),
        )
        # Lean on purpose: the picker's next pack comes with the answer (as over the socket);
        # the board and pile are a GET away.
        return Response(pick.answer(), status=status.HTTP_201_CREATED)


class PileMoveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.PileMoveInput, responses=s.PileOutput)
    def post(self, request, pk: int):
        """Move a card within your pile (R17)."""
        seat = access.access_seat(pk, request.user, permission=Permission.SEAT_OWNER)
        data = validated(s.PileMoveInput, request)
        services.move_pile_card(
            seat_id=seat.pk, draft_card_id=data["card"], position=data["position"], actor=request.user
        )
        return Response({"pile": selectors.pile(seat)})


class PileCoverView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.PileCoverInput, responses=s.PileCoverOutput)
    def post(self, request, pk: int):
        """Start your pile with a basic land or checklist card, DFCs beneath it (R17)."""
        seat = access.access_seat(pk, request.user, permission=Permission.SEAT_OWNER)
        data = validated(s.PileCoverInput, request)
        seat = services.set_pile_cover(seat_id=seat.pk, cover=data["cover"], actor=request.user)
        return Response({"pile_cover": seat.pile_cover})


class ReadyView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=s.SeatViewOutput)
    def post(self, request, pk: int):
        """Done reviewing: when every player is ready, the next round starts."""
        seat = access.access_seat(pk, request.user, permission=Permission.SEAT_OWNER)
        services.mark_ready(seat_id=seat.pk, actor=request.user)
        return Response(_seat_view(seat))


class ReplaceSeatView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.ReplaceSeatInput, responses=s.ReplaceSeatOutput)
    def post(self, request, pk: int):
        """Replace a player who left with an automatic drafter, or hand the seat to another."""
        seat = access.access_seat(pk, request.user, permission=Permission.ORGANISER)
        data = validated(s.ReplaceSeatInput, request)
        if data.get("automatic"):
            seat = services.replace_with_automatic(seat_id=seat.pk, actor=request.user)
        else:
            seat = services.hand_seat(seat_id=seat.pk, registration_id=data["registration"], actor=request.user)
        return Response({"seat": seat.pk, "is_automatic": seat.is_automatic, "registration": seat.registration_id})


class DraftLogView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.DraftLogOutput})
    def get(self, request, pk: int):
        """A seat's draft log as JSON: every pick with what the pack held."""
        seat = access.access_seat(pk, request.user, permission=Permission.SEAT_READER)
        return Response(
            {
                "seat": seat.pk,
                "picks": selectors.draft_log(seat, include_packs=access.sees_log_packs(request.user, seat.pod.event)),
            }
        )


class DraftLogTextView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR})
    def get(self, request, pk: int):
        """A seat's draft log in the plain-text format of MTGO draft logs (a download)."""
        seat = access.access_seat(pk, request.user, permission=Permission.SEAT_READER)
        text = selectors.mtgo_log_text(seat, include_packs=access.sees_log_packs(request.user, seat.pod.event))
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="draft-seat-{seat.pk}.txt"'
        return response
