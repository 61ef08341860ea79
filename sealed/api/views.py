"""The sealed API: create a sealed event, open the pools, read your pool pack by pack, register
a paper pool (MTR 7.5), swap, confirm or dispute, hand a pool out. Thin: every write is a
``sealed.services`` call, every read a selector; errors in the site's one JSON shape."""

from __future__ import annotations

from django.utils.translation import get_language, gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from decks.api.common import parsed_sections
from draftsite import whole_numbers
from draftsite.api import validated_body
from draftsite.errors import ForbiddenError
from events.access import Permission, require_event_creator
from sealed import error_codes, selectors, services
from sealed.api import serializers as s
from sealed.models import PaperPool, SealedEvent

ERRORS = OpenApiResponse(description="Error body: {detail, errors: [{code, message, field?}]}")
ANY = OpenApiResponse(OpenApiTypes.OBJECT)


def _language() -> str:
    return (get_language() or "en").lower()


def _event(sealed: SealedEvent) -> dict:
    event = sealed.event
    return {
        "id": event.pk,
        "name": event.name,
        "date": event.date,
        "format": event.draft_format,
        "paper": sealed.paper,
        "boosters": sealed.boosters,
        "seed": sealed.seed,
        "opened_at": sealed.opened_at,
        "decklists_published": event.decklists_published,
    }


def _paper(pool: PaperPool) -> dict:
    return {
        "id": pool.pk,
        "registered_by": pool.registered_by_id,
        "builder": pool.builder_id,
        "status": pool.status,
        "size": pool.size,
        "cards": selectors.pool_cards(pool.cards, _language()),
    }


def _registration_param(request) -> int | None:
    return whole_numbers.from_request(request.query_params, "registration", minimum=1)


class SealedEventsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=s.SealedEventInput, responses={201: ANY, 400: ERRORS, 403: ERRORS}, operation_id="sealed_create"
    )
    def post(self, request):
        require_event_creator(request.user)  # the role before the body
        data = validated_body(s.SealedEventInput, request)
        event = services.create_sealed_event(
            actor=request.user,
            name=data["name"],
            date=data["date"],
            enforcement_level=data["enforcement_level"],
            paper=data["paper"],
            boosters=data["boosters"],
            booster_count=data["booster_count"],
            seed=data.get("seed"),
        )
        return Response(_event(event.sealed), status=status.HTTP_201_CREATED)


class SealedEventView(APIView):
    """The event's sealed settings; for its staff, every player's pool and deck status."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: ANY, 403: ERRORS, 404: ERRORS}, operation_id="sealed_event")
    def get(self, request, event_id: int):
        event, sealed = selectors.access_sealed(event_id, request.user)
        body = _event(sealed)
        if selectors.is_staff(request.user, event):
            body["players"] = selectors.player_rows(event)
            body["unassigned_pools"] = [p.pk for p in selectors.unassigned_pools(event)]
            swap = selectors.swap_of(event)
            body["swap"] = {"seed": swap.seed, "at": swap.at, "assignments": swap.assignments} if swap else None
        return Response(body)


class OpenPoolsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={200: ANY, 400: ERRORS, 403: ERRORS, 409: ERRORS}, operation_id="sealed_open"
    )
    def post(self, request, event_id: int):
        opened = services.open_pools(event_id=event_id, actor=request.user)
        return Response({"opened": opened})


class PoolView(APIView):
    """A player's pool pack by pack (your own; ``?registration=`` for staff, or for anyone once
    decklists are published), and, in paper sealed, the pools registered and received."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("registration", int, required=False)],
        responses={200: ANY, 403: ERRORS, 404: ERRORS},
        operation_id="sealed_pool",
    )
    def get(self, request, event_id: int):
        event, _ = selectors.access_sealed(event_id, request.user)
        registration = selectors.access_player(request.user, event, _registration_param(request))
        return Response(selectors.player_pool(registration, _language()))


class PaperPoolView(APIView):
    """Register the pool in front of you (MTR 7.5), as cards or a pasted list; an organiser may
    register one for a player (``registration``). Refused, with the reason, when the event's
    boosters could not hold it."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=s.PoolInput,
        responses={200: ANY, 400: ERRORS, 403: ERRORS, 409: ERRORS},
        operation_id="sealed_register_pool",
    )
    def put(self, request, event_id: int):
        event, _ = selectors.access_sealed(event_id, request.user)
        selectors.access_registrant(request.user, event)  # the role before the body
        data = validated_body(s.PoolInput, request)
        if data.get("text") is not None:
            parsed = parsed_sections({"text": data["text"]})
            assert parsed is not None  # text was given
            cards = parsed[0]["main"] + parsed[0]["sideboard"]
        else:
            cards = data["cards"]
        pool = services.register_paper_pool(
            event_id=event_id, actor=request.user, cards=cards, registration_id=data.get("registration")
        )
        return Response(_paper(pool))


class SwapView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=s.SwapInput, responses={200: ANY, 400: ERRORS, 403: ERRORS, 409: ERRORS}, operation_id="sealed_swap"
    )
    def post(self, request, event_id: int):
        selectors.access_sealed(event_id, request.user, permission=Permission.ORGANISER)  # the role before the body
        data = validated_body(s.SwapInput, request)
        swap = services.swap_pools(event_id=event_id, actor=request.user, seed=data.get("seed"))
        return Response({"seed": swap.seed, "at": swap.at, "assignments": swap.assignments})


class AnswerView(APIView):
    """The builder confirms the pool received, or disputes it (a judge is called with both pools)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=s.AnswerInput, responses={200: ANY, 403: ERRORS, 404: ERRORS, 409: ERRORS}, operation_id="sealed_answer"
    )
    def post(self, request, event_id: int):
        event, _ = selectors.access_sealed(event_id, request.user)
        if selectors.own_registration(request.user, event) is None:  # the role before the body
            raise ForbiddenError(error_codes.NOT_REGISTERED, gettext("You are not registered for this event."))
        data = validated_body(s.AnswerInput, request)
        pool = services.answer_pool(
            event_id=event_id, actor=request.user, confirm=data["confirm"], reason=data["reason"]
        )
        return Response({**_paper(pool), "judge_call": pool.judge_call_id})


class AssignView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=s.AssignInput,
        responses={200: ANY, 400: ERRORS, 403: ERRORS, 404: ERRORS, 409: ERRORS},
        operation_id="sealed_assign",
    )
    def post(self, request, pool_id: int):
        selectors.access_pool(pool_id, request.user, permission=Permission.ORGANISER)  # the role before the body
        data = validated_body(s.AssignInput, request)
        pool = services.assign_pool(pool_id=pool_id, actor=request.user, registration_id=data["registration"])
        return Response(_paper(pool))


class CatalogueView(APIView):
    """The cards of the event's boosters, for registering a pool (names in your language)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: ANY, 403: ERRORS, 404: ERRORS}, operation_id="sealed_catalogue")
    def get(self, request, event_id: int):
        event, sealed = selectors.access_sealed(event_id, request.user)
        codes = sorted({b["set_code"] for b in sealed.boosters})
        return Response({"sets": codes, "cards": selectors.set_catalogue(codes, _language())})
