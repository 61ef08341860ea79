"""Draft engine API: events, registrations, seating, pod control, seats, picks, logs.

Views are thin: they check who is asking (per object, on the server), validate input with a
serializer, call one service, and return what the selectors say that viewer may see.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from draftsite.errors import DomainError, ForbiddenError, NotFoundError
from drafts import error_codes, permissions, selectors, services
from drafts.models import DraftFormat, EnforcementLevel, Event, Pod, Registration, Seat

# --- serializers (input) ---------------------------------------------------------------


class EventInput(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    date = serializers.DateField()
    enforcement_level = serializers.ChoiceField(EnforcementLevel.choices, default=EnforcementLevel.REGULAR)
    draft_format = serializers.ChoiceField(DraftFormat.choices, default=DraftFormat.BOOSTER)
    set_codes = serializers.ListField(child=serializers.CharField(max_length=10), required=False,
                                      default=list, max_length=3)
    cube_list = serializers.ListField(child=serializers.CharField(max_length=200), required=False,
                                      default=list, max_length=1000,
                                      help_text=gettext_lazy('Card names (any face), one per card.'))
    pack_size = serializers.IntegerField(min_value=2, max_value=20, default=15)
    pick_timer = serializers.BooleanField(default=True)
    deck_building_minutes = serializers.IntegerField(min_value=1, max_value=180, default=25)


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
        fields = ["id", "name", "date", "enforcement_level", "draft_format", "set_codes", "pack_size",
                  "pick_timer", "deck_building_minutes", "decklist_deadline", "decklists_published"]


class RegistrationInput(serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False,
                                 help_text=gettext_lazy("A guest's name (organisers only)."))
    username = serializers.CharField(max_length=150, required=False,
                                     help_text=gettext_lazy('Register this account (organisers only).'))


class RegistrationOutput(serializers.ModelSerializer):
    class Meta:
        model = Registration
        fields = ["id", "name", "user"]


class SeatingInput(serializers.Serializer):
    seed = serializers.IntegerField(min_value=0, max_value=2**48, required=False)
    pods = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=8),
        required=False, max_length=200, help_text=gettext_lazy('Seat by hand: registration ids per pod, in seat order.'))


class MovePlayerInput(serializers.Serializer):
    registration = serializers.IntegerField(min_value=1)
    position = serializers.IntegerField(min_value=0, max_value=7, required=False)


class PickInput(serializers.Serializer):
    card = serializers.IntegerField(min_value=1, help_text=gettext_lazy('The id of the card in the pack.'))
    position = serializers.IntegerField(min_value=0, max_value=1000, required=False,
                                        help_text=gettext_lazy('Where the card goes in your pile (R17); default the end.'))
    pack = serializers.IntegerField(min_value=1, required=False,
                                    help_text=gettext_lazy('The pack you picked from; a stale pack gives 409 wrong_pack.'))


class PileMoveInput(serializers.Serializer):
    card = serializers.IntegerField(min_value=1)
    position = serializers.IntegerField(min_value=0, max_value=1000)


class PileCoverInput(serializers.Serializer):
    cover = serializers.ChoiceField(["", "basic_land", "checklist"], allow_blank=True)


class ReplaceSeatInput(serializers.Serializer):
    automatic = serializers.BooleanField(required=False, default=False)
    registration = serializers.IntegerField(min_value=1, required=False)

    def validate(self, attrs):
        if bool(attrs.get("automatic")) == bool(attrs.get("registration")):
            raise serializers.ValidationError(
                gettext('Give either automatic=true or the registration of the player taking the seat.'),
                code="invalid_replacement")
        return attrs


def _valid(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# --- access helpers --------------------------------------------------------------------

def _event(pk: int) -> Event:
    event = Event.objects.filter(pk=pk).first()
    if event is None:
        raise NotFoundError("unknown_event", gettext('No event has id %(pk)s.') % {'pk': pk})
    return event


def _pod(pk: int) -> Pod:
    pod = Pod.objects.select_related("event").filter(pk=pk).first()
    if pod is None:
        raise NotFoundError("unknown_pod", gettext('No pod has id %(pk)s.') % {'pk': pk})
    return pod


def _seat(pk: int) -> Seat:
    seat = Seat.objects.select_related("registration", "pod__event").filter(pk=pk).first()
    if seat is None:
        raise NotFoundError("unknown_seat", gettext('No seat has id %(pk)s.') % {'pk': pk})
    return seat


def _require_organiser(user, event) -> None:
    if not permissions.is_organiser(user, event):
        raise ForbiddenError(error_codes.NOT_EVENT_STAFF, gettext('Only an organiser of this event may do that.'))


def _require_staff(user, event) -> None:
    if not permissions.sees_everything(user, event):
        raise ForbiddenError(error_codes.NOT_EVENT_STAFF, gettext("Only the event's organisers and judges may see that."))


def _require_seat_owner(user, seat: Seat) -> None:
    if not permissions.owns_seat(user, seat):
        raise ForbiddenError(error_codes.NOT_YOUR_SEAT, gettext('That is not your seat.'))


def _require_seat_reader(user, seat: Seat) -> None:
    if not (permissions.owns_seat(user, seat) or permissions.sees_everything(user, seat.pod.event)):
        raise ForbiddenError(error_codes.NOT_YOUR_SEAT, gettext('That is not your seat.'))


# --- events ----------------------------------------------------------------------------

class EventListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=EventOutput(many=True))
    def get(self, request):
        """Events you organise, judge or play in (all of them for superusers)."""
        events = Event.objects.all()
        if not request.user.is_superuser:
            events = events.filter(pk__in=set(
                list(request.user.event_roles.values_list("event_id", flat=True))
                + list(request.user.registrations.values_list("event_id", flat=True))))
        return Response(EventOutput(events.order_by("-date", "name"), many=True).data)

    @extend_schema(request=EventInput, responses={201: EventOutput})
    def post(self, request):
        """Create an event (organisers). You become its organiser."""
        if not permissions.can_create_event(request.user):
            raise ForbiddenError(error_codes.NOT_EVENT_STAFF, gettext('Only organisers may create events.'))
        data = _valid(EventInput, request)
        event = services.create_event(created_by=request.user, **data)
        return Response(EventOutput(event).data, status=status.HTTP_201_CREATED)


class EventDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=EventOutput)
    def get(self, request, pk: int):
        event = _event(pk)
        if not (permissions.event_roles(request.user, event)
                or event.registrations.filter(user=request.user).exists()):
            raise ForbiddenError(error_codes.NOT_EVENT_STAFF, gettext('You are not part of this event.'))
        return Response(EventOutput(event).data)

    @extend_schema(request=EventUpdate, responses=EventOutput)
    def patch(self, request, pk: int):
        event = _event(pk)
        _require_organiser(request.user, event)
        data = _valid(EventUpdate, request)
        # Through the service: validated, logged, and told to live pages (publishing
        # decklists changes what players may see).
        event = services.update_event(event_id=event.pk, actor=request.user, changes=dict(data))
        return Response(EventOutput(event).data)


class RegistrationListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=RegistrationOutput(many=True))
    def get(self, request, pk: int):
        event = _event(pk)
        if not (permissions.event_roles(request.user, event)
                or event.registrations.filter(user=request.user).exists()):
            raise ForbiddenError(error_codes.NOT_EVENT_STAFF, gettext('You are not part of this event.'))
        return Response(RegistrationOutput(event.registrations.order_by("name"), many=True).data)

    @extend_schema(request=RegistrationInput, responses={201: RegistrationOutput})
    def post(self, request, pk: int):
        """Register yourself (empty body), or, as organiser, a guest by name or an account."""
        event = _event(pk)
        data = _valid(RegistrationInput, request)
        if data:
            _require_organiser(request.user, event)
            user = None
            if data.get("username"):
                from django.contrib.auth import get_user_model

                user = get_user_model().objects.filter(username=data["username"]).first()
                if user is None:
                    raise DomainError("unknown_user", gettext('No account is called %(data)s.') % {'data': repr(data['username'])},
                                      field="username")
            registration = services.register_player(event_id=event.pk, user=user, name=data.get("name"))
        else:
            registration = services.register_player(event_id=event.pk, user=request.user)
        return Response(RegistrationOutput(registration).data, status=status.HTTP_201_CREATED)


class SeatingView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=SeatingInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk: int):
        """Seat every registered player into pods of up to 8 (random from a seed, or by hand)."""
        event = _event(pk)
        _require_organiser(request.user, event)
        data = _valid(SeatingInput, request)
        pods = services.seat_players(event_id=event.pk, seed=data.get("seed"), pods=data.get("pods"))
        return Response({"pods": [selectors.pod_summary(p) for p in pods]}, status=status.HTTP_201_CREATED)


class EventPodsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        event = _event(pk)
        if not (permissions.event_roles(request.user, event)
                or event.registrations.filter(user=request.user).exists()):
            raise ForbiddenError(error_codes.NOT_EVENT_STAFF, gettext('You are not part of this event.'))
        pods = [selectors.fresh_pod(p.pk) for p in event.pods.order_by("number")]
        return Response({"pods": [selectors.pod_summary(p) for p in pods]})


# --- pods ------------------------------------------------------------------------------

class PodDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        """The whole pod, every card (organisers and judges of the event)."""
        pod = _pod(pk)
        _require_staff(request.user, pod.event)
        return Response(selectors.pod_overview(pod.pk))


class PodBoardView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        """The pod's open information (R15): DFCs by seat, pack sizes. Pod members and staff."""
        pod = _pod(pk)
        if not (permissions.seat_in_pod(request.user, pod.pk) or permissions.sees_everything(request.user, pod.event)):
            raise ForbiddenError(error_codes.NOT_IN_POD, gettext('You are not in this pod.'))
        pod = selectors.fresh_pod(pod.pk)
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

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        pod = _pod(pk)
        _require_organiser(request.user, pod.event)
        POD_ACTIONS[self.action_name](pod_id=pod.pk, actor=request.user)
        return Response(selectors.pod_summary(selectors.fresh_pod(pod.pk)))


class MovePlayerView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=MovePlayerInput, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        """Move a player into this pod (or to another seat in it) before it starts."""
        pod = _pod(pk)
        _require_organiser(request.user, pod.event)
        data = _valid(MovePlayerInput, request)
        seat = services.move_player(registration_id=data["registration"], pod_id=pod.pk,
                                    position=data.get("position"))
        return Response({"seat": seat.pk, "pod": seat.pod_id, "position": seat.position})


# --- seats -----------------------------------------------------------------------------

class SeatView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        """Your queue and pile in full, the pod's open information, your timer."""
        seat = _seat(pk)
        _require_seat_reader(request.user, seat)
        return Response(selectors.seat_view(seat))


class QueueView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        """Just your packs and the pod's clocks: what a client polls between picks."""
        seat = _seat(pk)
        _require_seat_reader(request.user, seat)
        pod = selectors.fresh_pod(seat.pod_id)
        return Response({"pod": selectors.pod_summary(pod), "queue": selectors.queue(seat)})


class PickView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=PickInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk: int):
        """Pick a card from the first pack in your queue; the pack passes on."""
        seat = _seat(pk)
        _require_seat_owner(request.user, seat)
        data = _valid(PickInput, request)
        pick = services.make_pick(seat_id=seat.pk, draft_card_id=data["card"], actor=request.user,
                                  owner=request.user, position=data.get("position"),
                                  pack_id=data.get("pack"), received_at=getattr(request, "received_at", None))
        # Lean on purpose: the picker's next pack comes with the answer (as over the socket);
        # the board and pile are a GET away.
        return Response(pick.answer(), status=status.HTTP_201_CREATED)


class PileMoveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=PileMoveInput, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        """Move a card within your pile (R17)."""
        seat = _seat(pk)
        _require_seat_owner(request.user, seat)
        data = _valid(PileMoveInput, request)
        services.move_pile_card(seat_id=seat.pk, draft_card_id=data["card"], position=data["position"])
        return Response({"pile": selectors.pile(seat)})


class PileCoverView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=PileCoverInput, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        """Start your pile with a basic land or checklist card, DFCs beneath it (R17)."""
        seat = _seat(pk)
        _require_seat_owner(request.user, seat)
        data = _valid(PileCoverInput, request)
        seat = services.set_pile_cover(seat_id=seat.pk, cover=data["cover"])
        return Response({"pile_cover": seat.pile_cover})


class ReadyView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        """Done reviewing: when every player is ready, the next round starts."""
        seat = _seat(pk)
        _require_seat_owner(request.user, seat)
        services.mark_ready(seat_id=seat.pk)
        return Response(selectors.seat_view(seat))


class ReplaceSeatView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ReplaceSeatInput, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        """Replace a player who left with an automatic drafter, or hand the seat to another."""
        seat = _seat(pk)
        _require_organiser(request.user, seat.pod.event)
        data = _valid(ReplaceSeatInput, request)
        if data.get("automatic"):
            seat = services.replace_with_automatic(seat_id=seat.pk, actor=request.user)
        else:
            seat = services.hand_seat(seat_id=seat.pk, registration_id=data["registration"], actor=request.user)
        return Response({"seat": seat.pk, "is_automatic": seat.is_automatic,
                         "registration": seat.registration_id})


def _log_shows_packs(user, seat: Seat) -> bool:
    """Pack contents in a log reveal other seats' cards: staff always, players once
    decklists are published."""
    return permissions.sees_everything(user, seat.pod.event) or seat.pod.event.decklists_published


class DraftLogView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, pk: int):
        """A seat's draft log as JSON: every pick with what the pack held."""
        seat = _seat(pk)
        _require_seat_reader(request.user, seat)
        return Response({"seat": seat.pk, "picks": selectors.draft_log(
            seat, include_packs=_log_shows_packs(request.user, seat))})


class DraftLogTextView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR})
    def get(self, request, pk: int):
        """A seat's draft log in the plain-text format of MTGO draft logs (a download)."""
        seat = _seat(pk)
        _require_seat_reader(request.user, seat)
        text = selectors.mtgo_log_text(seat, include_packs=_log_shows_packs(request.user, seat))
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="draft-seat-{seat.pk}.txt"'
        return response
