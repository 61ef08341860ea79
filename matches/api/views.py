"""The matches API: settings, rounds and pairings, results, drops, standings, clocks, CSV.

Views are thin: who is asking is checked first (403 before 400), the body is validated, one
service is called, and the selectors say what this viewer may see.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from draftsite import whole_numbers
from draftsite.api import body_object, validated_body
from draftsite.errors import DomainError, NotFoundError
from events.access import Permission, authorize
from events.models import Event
from matches import error_codes, exports, selectors, services
from matches.api import serializers as s
from matches.models import Match, Round


def _event(pk: int) -> Event:
    event = Event.objects.filter(pk=pk).first()
    if event is None:
        raise NotFoundError(error_codes.UNKNOWN_EVENT, _("No %(kind)s has id %(id)s.") % {"kind": _("event"), "id": pk})
    return event


def _round(pk: int) -> Round:
    round_obj = selectors.round_by_id(pk)
    if round_obj is None:
        raise NotFoundError(error_codes.UNKNOWN_ROUND, _("No %(kind)s has id %(id)s.") % {"kind": _("round"), "id": pk})
    return round_obj


def _match(pk: int) -> Match:
    match = selectors.match_by_id(pk)
    if match is None:
        raise NotFoundError(error_codes.UNKNOWN_MATCH, _("No %(kind)s has id %(id)s.") % {"kind": _("match"), "id": pk})
    return match


def _pod_param(request) -> int | None:
    return whole_numbers.from_request(request.query_params, "pod")


def _settings_payload(row) -> dict:
    return {
        "event": row.event_id,
        "mode": row.mode,
        "swiss_rounds": row.swiss_rounds,
        "round_minutes": row.round_minutes,
        "playoff_size": row.playoff_size,
        "seed": row.seed,
    }


POD_PARAM = OpenApiParameter("pod", int, required=False, description="Per-pod mode: the pod.")


class SettingsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=s.SettingsOutput)
    def get(self, request, event_id: int):
        row = selectors.match_settings(_event(event_id).pk)
        if row is None:
            raise NotFoundError(error_codes.MATCHES_NOT_STARTED, _("Matches have not been set up for this event."))
        return Response(_settings_payload(row))

    @extend_schema(request=s.SettingsInput, responses=s.SettingsOutput)
    def put(self, request, event_id: int):
        authorize(request.user, _event(event_id).pk, Permission.ORGANISER, message=services.ORGANISERS_ONLY)
        data = validated_body(s.SettingsInput, request)
        row = services.configure_matches(event_id=event_id, actor=request.user, **data)
        return Response(_settings_payload(row))


class RoundListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[POD_PARAM], responses=s.RoundOutput(many=True))
    def get(self, request, event_id: int):
        event = _event(event_id)
        rounds = selectors.event_rounds(event, _pod_param(request))
        now = timezone.now()
        return Response([selectors.round_payload(r, now, with_matches=False) for r in rounds])

    @extend_schema(request=s.PairInput, responses={201: s.PairedRoundOutput}, summary="Pair the next round")
    def post(self, request, event_id: int):
        event = _event(event_id)
        authorize(request.user, event.pk, Permission.ORGANISER, message=services.ORGANISERS_ONLY)
        data = validated_body(s.PairInput, request)
        pod_id = data.get("pod")
        # The dashboard's round-1 warning, read before pairing (after it there is a round 1).
        # Only for a pod of this event: another event's pod is refused by the service.
        ours = pod_id is None or event.pods.filter(pk=pod_id).exists()
        warning = selectors.round_one_warning(event, pod_id) if ours else None
        round_obj = services.pair_next_round(event_id=event_id, actor=request.user, pod_id=pod_id)
        payload = selectors.round_payload(round_obj, timezone.now(), user=request.user, staff=True)
        payload["round_one_warning"] = warning.as_payload() if warning else None
        return Response(payload, status=status.HTTP_201_CREATED)


class RoundDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=s.RoundOutput, summary="A round with its pairings (public)")
    def get(self, request, pk: int):
        round_obj = _round(pk)
        staff = selectors.viewer_is_staff(request.user, round_obj.event_id)
        return Response(selectors.round_payload(round_obj, timezone.now(), user=request.user, staff=staff))


class RoundActionView(APIView):
    action_name = ""
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=s.RoundOutput)
    def post(self, request, pk: int):
        round_obj = _round(pk)
        authorize(request.user, round_obj.event_id, Permission.ORGANISER, message=services.ORGANISERS_ONLY)
        service = {"start": services.start_round, "finish": services.finish_round}[self.action_name]
        round_obj = service(round_id=pk, actor=request.user)
        return Response(selectors.round_payload(round_obj, timezone.now(), user=request.user, staff=True))


class RepairView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.RepairInput, responses=s.RoundOutput, summary="Re-pair a round by hand before it starts")
    def post(self, request, pk: int):
        round_obj = _round(pk)
        authorize(request.user, round_obj.event_id, Permission.ORGANISER, message=services.ORGANISERS_ONLY)
        data = validated_body(s.RepairInput, request)
        round_obj = services.repair_pairings(
            round_id=pk, actor=request.user, tables=data["tables"], bye=data.get("bye"), reason=data.get("reason", "")
        )
        return Response(selectors.round_payload(round_obj, timezone.now(), user=request.user, staff=True))


class MatchDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=s.MatchOutput)
    def get(self, request, pk: int):
        match = _match(pk)
        staff = selectors.viewer_is_staff(request.user, match.round.event_id)
        penalties = selectors.penalties_by_match([match.pk]).get(match.pk, [])
        return Response(selectors.match_payload(match, penalties, user=request.user, staff=staff))


def _match_response(request, match_id: int, staff: bool = False) -> Response:
    match = _match(match_id)
    penalties = selectors.penalties_by_match([match.pk]).get(match.pk, [])
    return Response(selectors.match_payload(match, penalties, user=request.user, staff=staff))


class _MatchStepView(APIView):
    # One step on a match: ``staff`` says who may take it (checked before the body: 403, not
    # 400): the event's staff, or else the match's own players; ``step`` (a service) takes it
    # with the body's fields; the answer is the match as that viewer sees it.
    permission_classes = [IsAuthenticated]
    body: type[serializers.Serializer]
    step: Callable
    staff = False

    def post(self, request, pk: int):
        if self.staff:
            authorize(request.user, _match(pk).round.event_id, Permission.STAFF, message=services.STAFF_ONLY)
        else:
            services.require_match_player(request.user, _match(pk))
        self.step(match_id=pk, actor=request.user, **validated_body(self.body, request))
        return _match_response(request, pk, staff=self.staff)


@extend_schema_view(
    post=extend_schema(
        request=s.ReportInput, responses=s.MatchOutput, summary="Report your match (games won, lost, drawn)"
    )
)
class ReportView(_MatchStepView):
    """A phone that queued the result offline sends ``Idempotency-Key``: a repeated send
    answers the match as the first one left it (matches.services.report_result)."""

    body = s.ReportInput
    step = staticmethod(services.report_result)

    def post(self, request, pk: int):
        services.require_match_player(request.user, _match(pk))
        key = request.headers.get("Idempotency-Key", "")
        services.report_result(match_id=pk, actor=request.user, key=key, **validated_body(self.body, request))
        return _match_response(request, pk)


class ConfirmView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=s.MatchOutput, summary="Confirm your opponent's report")
    def post(self, request, pk: int):
        services.require_match_player(request.user, _match(pk))
        request.data  # noqa: B018 - it takes no body, but a broken one is refused as everywhere (400)
        services.confirm_result(match_id=pk, actor=request.user)
        return _match_response(request, pk)


@extend_schema_view(
    post=extend_schema(request=s.ResultInput, responses=s.MatchOutput, summary="Staff enter or correct a result")
)
class ResultView(_MatchStepView):
    body = s.ResultInput
    step = staticmethod(services.enter_result)
    staff = True


@extend_schema_view(
    post=extend_schema(
        request=s.ExtensionInput, responses=s.MatchOutput, summary="A judge's time extension for a table"
    )
)
class ExtensionView(_MatchStepView):
    body = s.ExtensionInput
    step = staticmethod(services.grant_extension)
    staff = True


class DropView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.DropInput, responses={201: s.DropOutput}, summary="Drop from the event's matches")
    def post(self, request, event_id: int):
        event = _event(event_id)
        own = selectors.player_registration(request.user, event.pk)
        registration_id = body_object(request).get("registration")
        if registration_id is not None and (own is None or registration_id != own.pk):
            authorize(request.user, event.pk, Permission.STAFF, message=services.STAFF_ONLY)
        elif own is None:
            authorize(request.user, event.pk, Permission.STAFF, message=services.STAFF_ONLY)
        data = validated_body(s.DropInput, request)
        target = data.get("registration") or (own.pk if own is not None else None)
        if target is None:
            raise DomainError(error_codes.NOT_REGISTERED, _("Say which player drops."), field="registration")
        drop = services.drop_player(
            event_id=event.pk, registration_id=target, actor=request.user, reason=data.get("reason", "")
        )
        return Response(
            {"registration": drop.registration_id, "after_round": drop.after_round}, status=status.HTTP_201_CREATED
        )


class StandingsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[POD_PARAM], responses=s.StandingsOutput, summary="Standings (public)")
    def get(self, request, event_id: int):
        event = _event(event_id)
        pod = _pod_param(request)
        if pod is not None and not event.pods.filter(pk=pod).exists():
            raise NotFoundError(error_codes.UNKNOWN_POD, _("That pod is not part of this event."))
        rows = selectors.event_standings(event, pod)
        return Response({"event": event.pk, "pod": pod, "standings": [row.as_dict() for row in rows]})


class MyMatchView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=s.MyMatchOutput, summary="Your current match, opponent and clock")
    def get(self, request, event_id: int):
        event = _event(event_id)
        registration = selectors.player_registration(request.user, event.pk)
        if registration is None:
            raise NotFoundError(error_codes.NOT_REGISTERED, _("You are not registered for this event."))
        return Response(selectors.my_match_payload(registration, request.user, timezone.now()))


class CsvView(APIView):
    permission_classes = [AllowAny]
    kind = ""

    @extend_schema(
        parameters=[POD_PARAM, OpenApiParameter("round", int, required=False)],
        responses={(200, "text/csv"): OpenApiTypes.STR},
    )
    def get(self, request, event_id: int):
        event = _event(event_id)
        return exports.csv_response(
            event,
            self.kind,
            pod_id=_pod_param(request),
            round_id=whole_numbers.from_request(request.query_params, "round"),
        )
