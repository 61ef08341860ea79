"""The judge calls API. Thin: who is asking is checked first (403 before 400), then the body,
then one service; the answer is the call as this viewer may see it (a caller: the state and
the judge coming; the event's judges: the whole row)."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from draftsite.api import validated_body
from draftsite.errors import ForbiddenError, NotFoundError
from events import permissions
from events.access import Permission, authorize
from events.models import Event
from judgecalls import error_codes, selectors, services
from judgecalls import proposals as site_proposals
from judgecalls.api import serializers as s
from judgecalls.models import JudgeCall


def _name(user) -> str | None:
    return (user.get_full_name() or user.get_username()) if user is not None else None


def staff_view(call: JudgeCall, now) -> dict:
    match, seat = call.match, call.seat
    return {
        "id": call.pk,
        "status": call.status,
        "caller": call.caller.name,
        "reason": call.reason,
        "round": match.round.number if match is not None else None,
        "table": match.table if match is not None else None,
        "pod": seat.pod.number if seat is not None else None,
        "seat": seat.position + 1 if seat is not None else None,
        "attachments": call.attachments,
        "created_at": call.created_at.isoformat(),
        "age_seconds": selectors.age_seconds(call, now),
        "claimed_by": _name(call.claimed_by),
        "escalated": call.escalated_at is not None,
        "outcome": call.outcome,
        "penalty": call.penalty_id,
    }


def _reason(request) -> str:
    return validated_body(s.CallInput, request).get("reason", "")


class MatchCallView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.CallInput, responses={201: s.CallerView}, summary="Call a judge to your table")
    def post(self, request, pk: int):
        call = services.call_from_match(match_id=pk, actor=request.user, reason=_reason(request))
        return Response(selectors.public_view(call), status=status.HTTP_201_CREATED)


class SeatCallView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.CallInput, responses={201: s.CallerView}, summary="Call a judge to your draft seat")
    def post(self, request, pk: int):
        call = services.call_from_seat(seat_id=pk, actor=request.user, reason=_reason(request))
        return Response(selectors.public_view(call), status=status.HTTP_201_CREATED)


class QueueView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=s.CallOutput(many=True), summary="The event's open judge calls, oldest first")
    def get(self, request, event_id: int):
        if not Event.objects.filter(pk=event_id).exists():
            raise NotFoundError(error_codes.UNKNOWN_EVENT, _("No event has id %(id)s.") % {"id": event_id})
        authorize(request.user, event_id, Permission.STAFF, message=services.JUDGES_ONLY)
        now = timezone.now()
        return Response([staff_view(c, now) for c in selectors.open_calls(event_id)])


def _call(pk: int) -> JudgeCall:
    call = selectors.call_by_id(pk)
    if call is None:
        raise NotFoundError(error_codes.UNKNOWN_CALL, _("No judge call has id %(id)s.") % {"id": pk})
    return call


class CallDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=s.CallOutput, summary="A judge call (the caller reads its state and judge only)")
    def get(self, request, pk: int):
        call = _call(pk)
        if permissions.sees_everything(request.user, call.event_id):
            return Response(staff_view(call, timezone.now()))
        if call.caller.user_id == request.user.pk:
            return Response(selectors.public_view(call))
        raise ForbiddenError(error_codes.NOT_EVENT_STAFF, _("Only the event's judges see its judge calls."))


_STEPS: dict[str, tuple[Callable[..., JudgeCall], type[serializers.Serializer] | None]] = {
    "claim": (services.claim_call, None),
    "escalate": (services.escalate_call, s.NoteInput),
    "extension": (services.extend_time, s.ExtensionInput),
    "resolve": (services.resolve_call, s.ResolveInput),
}


class CallStepView(APIView):
    permission_classes = [IsAuthenticated]
    action: str = "claim"

    @extend_schema(request=None, responses=s.CallOutput, summary="A step on a judge call (its event's judges)")
    def post(self, request, pk: int):
        call = _call(pk)
        authorize(request.user, call.event_id, Permission.STAFF, message=services.JUDGES_ONLY)
        service, body = _STEPS[self.action]
        values = dict(validated_body(body, request)) if body is not None else {}
        service(call_id=call.pk, actor=request.user, **values)
        return Response(staff_view(_call(call.pk), timezone.now()))


# --- the site's proposed penalties: the same services as the proposals page -----------------


def _staff_event(request, event_id: int) -> Event:
    """The event, for its judges only: 404 for no such event, 403 for anyone else (before the
    body is read: an outsider learns nothing about what is proposed)."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        raise NotFoundError(error_codes.UNKNOWN_EVENT, _("No event has id %(id)s.") % {"id": event_id})
    authorize(request.user, event.pk, Permission.STAFF, message=services.JUDGES_ONLY)
    return event


def proposal_view(proposal: site_proposals.Proposal, event: Event) -> dict:
    return {
        "source": proposal.source,
        "rule": proposal.rule,
        "infraction": proposal.infraction.code,
        "infraction_name": proposal.infraction.display_name,
        "category": proposal.infraction.category,
        "facts": proposal.facts,
        "enforcement_level": event.enforcement_level,
        "match_round": proposal.match_round,
        "pod": proposal.pod_id,
        "draft_round": proposal.draft_round,
        "pick_number": proposal.pick_number,
        "targets": [
            {
                "registration": t.registration.pk,
                "player": t.registration.name,
                "default": t.default,
                "default_display": t.default_label,
                "counted": t.counted,
                "expected": t.expected,
                "expected_display": t.expected_label,
                "upgraded": t.expected != t.default,
                "upgrade_reason": t.upgrade_reason,
            }
            for t in proposal.targets
        ],
    }


def _issued(penalties) -> dict:
    return {
        "issued": [
            {
                "id": p.pk,
                "registration": p.registration_id,
                "player": p.registration.name,
                "infraction": p.infraction.code,
                "penalty": p.penalty,
                "status": p.status,
                "source": p.source,
            }
            for p in penalties
        ]
    }


class ProposalListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=s.ProposalOutput(many=True), summary="Penalties the site proposes (the event's judges)")
    def get(self, request, event_id: int):
        event = _staff_event(request, event_id)
        return Response([proposal_view(p, event) for p in site_proposals.proposals(event, timezone.now())])


class _OneOrManySchema(AutoSchema):
    """One view serves a step's two routes: the path's ``<source>`` names one proposal
    (``as_view(one=True)``), else the body's ``sources`` name many. Each route keeps its own
    body, summary and operation id in the schema (two routes of one id would collide)."""

    def get_operation_id(self) -> str:
        view = cast("_ProposalStepView", self.view)
        return view.operation_ids[view.one]

    def get_summary(self) -> str:
        view = cast("_ProposalStepView", self.view)
        return view.summaries[view.one]

    def get_request_serializer(self):
        view = cast("_ProposalStepView", self.view)
        return view.bodies[view.one]


# Issue or dismiss proposals: ``one`` (set per route) says whether the path names the proposal
# or the body's ``sources`` do. Each pair below is (many, one). (A comment, not a docstring:
# the schema would show a docstring as the operations' description.)
class _ProposalStepView(APIView):
    permission_classes = [IsAuthenticated]
    schema = _OneOrManySchema()
    one = False
    bodies: tuple[type[serializers.Serializer], type[serializers.Serializer]]
    summaries: tuple[str, str]
    operation_ids: tuple[str, str]

    def chosen(self, request, source: str) -> tuple[list[str], dict]:
        """The sources named (by the path or the body) and the body's fields."""
        data = dict(validated_body(self.bodies[self.one], request))  # a broken body is a 400
        return ([source] if self.one else list(data.pop("sources"))), data


@extend_schema(responses={201: s.IssuedOutput})
class ProposalIssueView(_ProposalStepView):
    bodies = (s.SourcesInput, s.IssueOneInput)
    summaries = ("Issue one or many proposals", "Issue one proposal")
    operation_ids = ("penalty_proposals_issue_many", "penalty_proposal_issue")

    def post(self, request, event_id: int, source: str = ""):
        event = _staff_event(request, event_id)
        sources, _body = self.chosen(request, source)
        issued = services.issue_proposals(event_id=event.pk, actor=request.user, sources=sources)
        return Response(_issued(issued), status=status.HTTP_201_CREATED)


@extend_schema(responses=s.DismissedOutput)
class ProposalDismissView(_ProposalStepView):
    bodies = (s.DismissSourcesInput, s.DismissOneInput)
    summaries = ("Dismiss one or many proposals", "Dismiss one proposal")
    operation_ids = ("penalty_proposals_dismiss_many", "penalty_proposal_dismiss")

    def post(self, request, event_id: int, source: str = ""):
        event = _staff_event(request, event_id)
        sources, data = self.chosen(request, source)
        sources = list(dict.fromkeys(sources))
        services.dismiss_proposals(event_id=event.pk, actor=request.user, sources=sources, reason=data["reason"])
        return Response({"dismissed": sources})
