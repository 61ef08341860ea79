"""Penalties API: the catalogue, issuing, review, appeals, statements and reports.

Thin views: check who asks (per object, on the server), validate with a serializer, call one
service, answer with what that viewer may see.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from draftsite.errors import ForbiddenError, NotFoundError
from drafts.models import Event
from penalties import error_codes, permissions, selectors, services
from penalties.models import PenaltyKind
from penalties.reports import csv_response

# --- serializers -----------------------------------------------------------------------


class InfractionOutput(serializers.Serializer):
    code = serializers.CharField()
    section = serializers.CharField()
    category = serializers.CharField()
    category_display = serializers.CharField(source="get_category_display")
    name = serializers.CharField()
    summary = serializers.CharField()
    defaults = serializers.SerializerMethodField()
    upgrade_at = serializers.IntegerField(allow_null=True)

    def get_defaults(self, obj) -> dict:
        return {"regular": obj.default_regular, "competitive": obj.default_competitive,
                "professional": obj.default_professional}


class PenaltyInput(serializers.Serializer):
    registration = serializers.IntegerField(min_value=1)
    infraction = serializers.CharField(max_length=60, help_text=gettext_lazy('Infraction code from /api/infractions/.'))
    description = serializers.CharField(max_length=5000, allow_blank=True, help_text=gettext_lazy('What happened.'))
    fix = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")
    penalty = serializers.ChoiceField(PenaltyKind.choices, required=False, allow_null=True, default=None,
                                      help_text=gettext_lazy('Leave out for the IPG default (with any repeat upgrade).'))
    deviation_reason = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="",
                                             help_text=gettext_lazy('Required when the penalty differs from the default.'))
    match_round = serializers.IntegerField(min_value=1, max_value=99, required=False, allow_null=True)
    pod = serializers.IntegerField(min_value=1, required=False, allow_null=True)
    draft_round = serializers.IntegerField(min_value=1, max_value=9, required=False, allow_null=True)
    pick_number = serializers.IntegerField(min_value=1, max_value=99, required=False, allow_null=True)
    source = serializers.CharField(max_length=60, required=False, allow_blank=True, default="",
                                   help_text=gettext_lazy('"deck_check:<id>" or "pick:<id>" (a timer pick).'))
    judge_statement = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")


class DecisionInput(serializers.Serializer):
    decision = serializers.ChoiceField(list(services.DECISIONS))
    penalty = serializers.ChoiceField(PenaltyKind.choices, required=False, allow_null=True, default=None,
                                      help_text=gettext_lazy('The new penalty (upgrade and downgrade only).'))
    reason = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")


class AppealInput(serializers.Serializer):
    statement = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")


class DismissInput(serializers.Serializer):
    source = serializers.CharField(max_length=60)
    reason = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")


class AuditOutput(serializers.Serializer):
    at = serializers.DateTimeField()
    actor = serializers.SerializerMethodField()
    action = serializers.CharField()
    from_penalty = serializers.CharField()
    to_penalty = serializers.CharField()
    from_status = serializers.CharField()
    to_status = serializers.CharField()
    reason = serializers.CharField()

    def get_actor(self, obj) -> str | None:
        return obj.actor.get_username() if obj.actor_id else None


class AppealOutput(serializers.Serializer):
    statement = serializers.CharField()
    submitted_at = serializers.DateTimeField()
    status = serializers.CharField()
    decision = serializers.CharField()
    reason = serializers.CharField()
    decided_at = serializers.DateTimeField(allow_null=True)


class PenaltyOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    event = serializers.SerializerMethodField()
    player = serializers.SerializerMethodField()
    infraction = serializers.SerializerMethodField()
    match_round = serializers.IntegerField(allow_null=True)
    pod = serializers.SerializerMethodField()
    draft_round = serializers.IntegerField(allow_null=True)
    pick_number = serializers.IntegerField(allow_null=True)
    description = serializers.CharField()
    fix = serializers.CharField()
    source = serializers.CharField()
    enforcement_level = serializers.CharField()
    default_penalty = serializers.CharField()
    expected_penalty = serializers.CharField()
    issued_penalty = serializers.CharField()
    penalty = serializers.CharField()
    status = serializers.CharField()
    upgrade_reason = serializers.CharField()
    deviation_reason = serializers.CharField()
    judge_statement = serializers.CharField()
    player_statement = serializers.CharField()
    head_judge_statement = serializers.CharField()
    issued_by = serializers.SerializerMethodField()
    issued_at = serializers.DateTimeField()
    reviewed_by = serializers.SerializerMethodField()
    reviewed_at = serializers.DateTimeField(allow_null=True)
    appeal = serializers.SerializerMethodField()

    def get_event(self, obj) -> dict:
        return {"id": obj.event_id, "name": obj.event.name}

    def get_player(self, obj) -> dict:
        return {"registration": obj.registration_id, "name": obj.registration.name}

    def get_infraction(self, obj) -> dict:
        i = obj.infraction
        return {"code": i.code, "section": i.section, "name": i.name, "category": i.category}

    def get_pod(self, obj) -> int | None:
        return obj.pod_id

    def get_issued_by(self, obj) -> str | None:
        return obj.issued_by.get_username() if obj.issued_by_id else None

    def get_reviewed_by(self, obj) -> str | None:
        return obj.reviewed_by.get_username() if obj.reviewed_by_id else None

    def get_appeal(self, obj) -> dict | None:
        appeal = getattr(obj, "appeal", None)
        return AppealOutput(appeal).data if appeal is not None else None


class PenaltyDetailOutput(PenaltyOutput):
    history = AuditOutput(many=True)


class TimeoutPickOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    source = serializers.SerializerMethodField()
    registration = serializers.IntegerField(source="seat.registration_id")
    player = serializers.CharField(source="seat.registration.name")
    pod = serializers.IntegerField(source="seat.pod_id")
    pod_number = serializers.IntegerField(source="seat.pod.number")
    round = serializers.IntegerField()
    pick_number = serializers.IntegerField()
    made_at = serializers.DateTimeField()

    def get_source(self, obj) -> str:
        return f"pick:{obj.pk}"


def _valid(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# --- access helpers --------------------------------------------------------------------

def _event(pk: int) -> Event:
    event = Event.objects.filter(pk=pk).first()
    if event is None:
        raise NotFoundError(error_codes.UNKNOWN_EVENT, gettext('No event has id %(pk)s.') % {'pk': pk})
    return event


def _require_event_viewer(user, event: Event) -> None:
    if not permissions.sees_event_penalties(user, event):
        raise ForbiddenError(error_codes.NOT_EVENT_JUDGE, gettext("Only the event's judges and organisers see its penalties."))


def _visible_penalty(user, pk: int):
    penalty = selectors.penalty_with_history(pk)
    if penalty is None:
        raise NotFoundError(error_codes.UNKNOWN_PENALTY, gettext('No penalty has id %(pk)s.') % {'pk': pk})
    if not permissions.can_view_penalty(user, penalty):
        raise ForbiddenError(error_codes.NOT_YOUR_PENALTY, gettext('That is not your penalty.'))
    return penalty


def _detail(pk: int) -> dict:
    return PenaltyDetailOutput(selectors.penalty_with_history(pk)).data


# --- views -----------------------------------------------------------------------------

class InfractionListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=InfractionOutput(many=True))
    def get(self, request):
        """The IPG infraction catalogue with the default penalty per enforcement level."""
        return Response(InfractionOutput(selectors.infractions(), many=True).data)


class EventPenaltiesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter(name, str, required=False) for name in selectors.FILTERS],
        responses=PenaltyOutput(many=True))
    def get(self, request, event_id: int):
        """Every penalty of the event (its judges and organisers, and site staff)."""
        event = _event(event_id)
        _require_event_viewer(request.user, event)
        filters = {name: request.query_params.get(name, "")[:100] for name in selectors.FILTERS}
        return Response(PenaltyOutput(selectors.event_penalties(event, **filters)[:1000], many=True).data)

    @extend_schema(request=PenaltyInput, responses={201: PenaltyDetailOutput})
    def post(self, request, event_id: int):
        """Issue a penalty (the event's judges). Game Loss or heavier, and deviations, await review."""
        event = _event(event_id)
        if not permissions.judges_event(request.user, event):
            raise ForbiddenError(error_codes.NOT_EVENT_JUDGE, gettext("Only the event's judges may issue penalties."))
        data = _valid(PenaltyInput, request)
        penalty = services.issue_penalty(
            event_id=event.pk, registration_id=data["registration"], infraction_code=data["infraction"],
            actor=request.user, description=data["description"], fix=data["fix"], penalty=data["penalty"],
            deviation_reason=data["deviation_reason"], match_round=data.get("match_round"),
            pod_id=data.get("pod"), draft_round=data.get("draft_round"), pick_number=data.get("pick_number"),
            source=data["source"], judge_statement=data["judge_statement"])
        return Response(_detail(penalty.pk), status=status.HTTP_201_CREATED)


class EventPenaltiesCsvView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request, event_id: int):
        """All penalties of the event as CSV (judges, organisers, staff)."""
        event = _event(event_id)
        _require_event_viewer(request.user, event)
        return csv_response(event)


class EventTimeoutPicksView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=TimeoutPickOutput(many=True))
    def get(self, request, event_id: int):
        """Picks the timer made that no judge has handled yet (penalised or dismissed)."""
        event = _event(event_id)
        if not permissions.judges_event(request.user, event):
            raise ForbiddenError(error_codes.NOT_EVENT_JUDGE, gettext("Only the event's judges see that."))
        return Response(TimeoutPickOutput(selectors.unhandled_timeout_picks(event), many=True).data)

    @extend_schema(request=DismissInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, event_id: int):
        """Dismiss an automatic pick: no infraction (a reason is required)."""
        event = _event(event_id)
        if not permissions.judges_event(request.user, event):  # role before body: 403, not 400
            raise ForbiddenError(error_codes.NOT_EVENT_JUDGE, "Only the event's judges may dismiss that.")
        data = _valid(DismissInput, request)
        dismissed = services.dismiss_source(event_id=event.pk, source=data["source"], actor=request.user,
                                            reason=data["reason"])
        return Response({"source": dismissed.source, "reason": dismissed.reason}, status=status.HTTP_201_CREATED)


class PenaltyDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PenaltyDetailOutput)
    def get(self, request, pk: int):
        """One penalty with its full history (the player, the event's judges and organisers, staff)."""
        penalty = _visible_penalty(request.user, pk)
        return Response(PenaltyDetailOutput(penalty).data)


class PenaltyReviewView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=DecisionInput, responses=PenaltyDetailOutput)
    def post(self, request, pk: int):
        """The head judge upholds, upgrades, downgrades or withdraws the penalty (reason required)."""
        services.require_reviewer(_visible_penalty(request.user, pk), request.user)  # role before body
        data = _valid(DecisionInput, request)
        services.review_penalty(penalty_id=pk, actor=request.user, decision=data["decision"],
                                penalty=data["penalty"], reason=data["reason"])
        return Response(_detail(pk))


class PenaltyAppealView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=AppealInput, responses={201: PenaltyDetailOutput})
    def post(self, request, pk: int):
        """The penalised player appeals to the head judge (once per penalty)."""
        services.require_appellant(_visible_penalty(request.user, pk), request.user)  # role before body
        data = _valid(AppealInput, request)
        services.appeal_penalty(penalty_id=pk, actor=request.user, statement=data["statement"])
        return Response(_detail(pk), status=status.HTTP_201_CREATED)


class AppealDecisionView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=DecisionInput, responses=PenaltyDetailOutput)
    def post(self, request, pk: int):
        """The head judge decides the appeal; the decision is final."""
        services.require_reviewer(_visible_penalty(request.user, pk), request.user)  # role before body
        data = _valid(DecisionInput, request)
        services.decide_appeal(penalty_id=pk, actor=request.user, decision=data["decision"],
                               penalty=data["penalty"], reason=data["reason"])
        return Response(_detail(pk))


class PenaltyStatementView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=AppealInput, responses=PenaltyDetailOutput)
    def post(self, request, pk: int):
        """The player, the issuing judge or the head judge writes their statement."""
        services.require_statement_writer(_visible_penalty(request.user, pk), request.user)  # role before body
        data = _valid(AppealInput, request)
        services.add_statement(penalty_id=pk, actor=request.user, statement=data["statement"])
        return Response(_detail(pk))


class ReviewQueueView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        """Penalties awaiting review and pending appeals in the events you head-judge."""
        return Response({
            "penalties": PenaltyOutput(selectors.review_queue(request.user)[:500], many=True).data,
            "appeals": PenaltyOutput([a.penalty for a in selectors.pending_appeals(request.user)[:500]],
                                     many=True).data,
        })


class MyPenaltiesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PenaltyOutput(many=True))
    def get(self, request):
        """Your own penalties, every event."""
        return Response(PenaltyOutput(selectors.player_penalties(request.user), many=True).data)


class PlayerPenaltiesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PenaltyOutput(many=True))
    def get(self, request, user_id: int):
        """One player's penalties across events (site staff only)."""
        if not permissions.is_site_staff(request.user):
            raise ForbiddenError(error_codes.NOT_STAFF, gettext('Only site staff see penalties across events.'))
        if not get_user_model().objects.filter(pk=user_id).exists():
            raise NotFoundError(error_codes.UNKNOWN_USER, gettext('No account has id %(user_id)s.') % {'user_id': user_id})
        qs = selectors.penalty_queryset().filter(registration__user_id=user_id).order_by("-issued_at")
        return Response(PenaltyOutput(qs, many=True).data)

