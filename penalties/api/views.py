"""Penalties API: the catalogue, issuing, review, appeals, statements and reports.

Thin views: check who asks (per object, on the server), validate with a serializer, call one
service, answer with what that viewer may see.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from draftsite import whole_numbers
from draftsite.api import validated_body
from draftsite.errors import ForbiddenError, NotFoundError
from events.access import Permission, authorize
from events.models import Event
from penalties import error_codes, permissions, selectors, services
from penalties.api.serializers import (
    AppealInput,
    DecisionInput,
    DismissInput,
    DismissManyInput,
    DismissManyOutput,
    InfractionOutput,
    PenaltyDetailOutput,
    PenaltyInput,
    PenaltyOutput,
    TimeoutPickOutput,
)
from penalties.reports import csv_response

# --- access helpers --------------------------------------------------------------------


def _event(pk: int) -> Event:
    event = Event.objects.filter(pk=pk).first()
    if event is None:
        raise NotFoundError(error_codes.UNKNOWN_EVENT, gettext("No event has id %(pk)s.") % {"pk": pk})
    return event


def _event_for(request, event_id: int, permission: Permission, message: str | None = None) -> Event:
    """The event (404 ``unknown_event``), for a caller with ``permission`` in it: else the 403,
    in ``message``'s words when given. The role is checked before the body is read (403, not 400)."""
    event = _event(event_id)
    authorize(request.user, event, permission, message=message)
    return event


def _visible_penalty(user, pk: int):
    penalty = selectors.penalty_with_history(pk)
    if penalty is None:
        raise NotFoundError(error_codes.UNKNOWN_PENALTY, gettext("No penalty has id %(pk)s.") % {"pk": pk})
    if not permissions.can_view_penalty(user, penalty):
        raise ForbiddenError(error_codes.NOT_YOUR_PENALTY, gettext("That is not your penalty."))
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
        responses=PenaltyOutput(many=True),
    )
    def get(self, request, event_id: int):
        """Every penalty of the event (its judges and organisers, and site staff)."""
        event = _event_for(request, event_id, Permission.PENALTY_READER)
        filters: dict = {name: request.query_params.get(name, "")[:100] for name in selectors.FILTERS}
        filters["registration"] = whole_numbers.from_request(request.query_params, "registration")
        return Response(PenaltyOutput(selectors.event_penalties(event, **filters)[:1000], many=True).data)

    @extend_schema(request=PenaltyInput, responses={201: PenaltyDetailOutput})
    def post(self, request, event_id: int):
        """Issue a penalty (the event's judges). Game Loss or heavier, and deviations, await review."""
        event = _event_for(request, event_id, Permission.STAFF, gettext("Only the event's judges may issue penalties."))
        data = validated_body(PenaltyInput, request)
        penalty = services.issue_penalty(
            event_id=event.pk,
            registration_id=data["registration"],
            infraction_code=data["infraction"],
            actor=request.user,
            description=data["description"],
            fix=data["fix"],
            penalty=data["penalty"],
            deviation_reason=data["deviation_reason"],
            match_round=data.get("match_round"),
            pod_id=data.get("pod"),
            draft_round=data.get("draft_round"),
            pick_number=data.get("pick_number"),
            source=data["source"],
            judge_statement=data["judge_statement"],
        )
        return Response(_detail(penalty.pk), status=status.HTTP_201_CREATED)


class EventPenaltiesCsvView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request, event_id: int):
        """All penalties of the event as CSV (judges, organisers, staff)."""
        event = _event_for(request, event_id, Permission.PENALTY_READER)
        return csv_response(event)


class EventTimeoutPicksView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=TimeoutPickOutput(many=True))
    def get(self, request, event_id: int):
        """Picks the timer made that no judge has handled yet (penalised or dismissed)."""
        event = _event_for(request, event_id, Permission.STAFF, gettext("Only the event's judges see that."))
        return Response(TimeoutPickOutput(selectors.unhandled_timeout_picks(event), many=True).data)

    @extend_schema(request=DismissInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, event_id: int):
        """Dismiss an automatic pick: no infraction (a reason is required)."""
        event = _event_for(request, event_id, Permission.STAFF, gettext("Only the event's judges may dismiss that."))
        data = validated_body(DismissInput, request)
        dismissed = services.dismiss_source(
            event_id=event.pk, source=data["source"], actor=request.user, reason=data["reason"]
        )
        return Response({"source": dismissed.source, "reason": dismissed.reason}, status=status.HTTP_201_CREATED)


class EventTimeoutPicksDismissView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=DismissManyInput, responses={201: DismissManyOutput})
    def post(self, request, event_id: int):
        """Dismiss several automatic picks at once, one reason for all (all or nothing)."""
        event = _event_for(request, event_id, Permission.STAFF, gettext("Only the event's judges may dismiss that."))
        data = validated_body(DismissManyInput, request)
        dismissed = services.dismiss_sources(
            event_id=event.pk, sources=data["sources"], actor=request.user, reason=data["reason"]
        )
        return Response(
            {"dismissed": [row.source for row in dismissed], "reason": dismissed[0].reason},
            status=status.HTTP_201_CREATED,
        )


class PenaltyDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PenaltyDetailOutput)
    def get(self, request, pk: int):
        """One penalty with its full history (the player, the event's judges and organisers, staff)."""
        penalty = _visible_penalty(request.user, pk)
        return Response(PenaltyDetailOutput(penalty).data)


class _PenaltyStepView(APIView):
    """One step on a penalty: ``gate`` says who may take it (checked before the body: 403, not
    400), ``step`` (a service) takes it with the body's fields; the answer is the penalty."""

    permission_classes = [IsAuthenticated]
    body: type[serializers.Serializer]
    gate: Callable
    step: Callable
    answer_status = status.HTTP_200_OK

    def post(self, request, pk: int):
        self.gate(_visible_penalty(request.user, pk), request.user)
        self.step(penalty_id=pk, actor=request.user, **validated_body(self.body, request))
        return Response(_detail(pk), status=self.answer_status)


@extend_schema_view(post=extend_schema(request=DecisionInput, responses=PenaltyDetailOutput))
class PenaltyReviewView(_PenaltyStepView):
    """The head judge upholds, upgrades, downgrades or withdraws the penalty (reason required)."""

    body = DecisionInput
    gate = staticmethod(services.require_reviewer)
    step = staticmethod(services.review_penalty)


@extend_schema_view(post=extend_schema(request=AppealInput, responses={201: PenaltyDetailOutput}))
class PenaltyAppealView(_PenaltyStepView):
    """The penalised player appeals to the head judge (once per penalty)."""

    body = AppealInput
    gate = staticmethod(services.require_appellant)
    step = staticmethod(services.appeal_penalty)
    answer_status = status.HTTP_201_CREATED


@extend_schema_view(post=extend_schema(request=DecisionInput, responses=PenaltyDetailOutput))
class AppealDecisionView(_PenaltyStepView):
    """The head judge decides the appeal; the decision is final."""

    body = DecisionInput
    gate = staticmethod(services.require_reviewer)
    step = staticmethod(services.decide_appeal)


@extend_schema_view(post=extend_schema(request=AppealInput, responses=PenaltyDetailOutput))
class PenaltyStatementView(_PenaltyStepView):
    """The player, the issuing judge or the head judge writes their statement."""

    body = AppealInput
    gate = staticmethod(services.require_statement_writer)
    step = staticmethod(services.add_statement)


class ReviewQueueView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        """Penalties awaiting review and pending appeals in the events you head-judge."""
        return Response(
            {
                "penalties": PenaltyOutput(selectors.review_queue(request.user)[:500], many=True).data,
                "appeals": PenaltyOutput(
                    [a.penalty for a in selectors.pending_appeals(request.user)[:500]], many=True
                ).data,
            }
        )


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
            raise ForbiddenError(error_codes.NOT_STAFF, gettext("Only site staff see penalties across events."))
        penalties = selectors.account_penalties(user_id)
        if penalties is None:
            raise NotFoundError(
                error_codes.UNKNOWN_USER, gettext("No account has id %(user_id)s.") % {"user_id": user_id}
            )
        return Response(PenaltyOutput(penalties, many=True).data)
