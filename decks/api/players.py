"""Decks API for everyone: the stateless check, parsing, and a player's own deck and pool."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from decks import adapter, error_codes, selectors, services
from decks.api import serializers as s
from decks.api.common import (
    BodyLimitMixin,
    checklist_input,
    deck_payload,
    parsed_sections,
    read_upload,
)
from draftsite import whole_numbers
from draftsite.api import validated_body
from draftsite.errors import DomainError, ForbiddenError, NotFoundError
from draftsite.parsers import JSONParser

ERRORS = OpenApiResponse(description="Error body: {detail, errors: [{code, message, field?}]}")


class ValidateView(BodyLimitMixin, APIView):
    """Check a deck without storing anything (R9-R13, R39, MTR 3.5).

    A deck that breaks a rule is a 200 with ``valid: false`` and one coded error per problem;
    a malformed request is a 400.
    """

    permission_classes = [AllowAny]
    authentication_classes: list = []  # stateless: no session, so no CSRF token needed
    parser_classes = [JSONParser]
    max_body = 1024 * 1024

    @extend_schema(
        request=s.ValidateInput, responses={200: s.ValidateOutput, 400: ERRORS}, operation_id="decks_validate"
    )
    def post(self, request):
        data = validated_body(s.ValidateInput, request)
        resolved = adapter.resolve(
            format=data["format"],
            main=data["main"],
            sideboard=data["sideboard"],
            commander=data["commander"],
            pool=data.get("pool"),
            opaque_sleeves=data["opaque_sleeves"],
            checklist_policy=data["checklist_policy"],
            checklist_cards=[{"checklist": c["checklist"], "marked": c["marked"]} for c in data["checklist_cards"]],
        )
        report = adapter.validate_resolved(resolved)
        return Response(
            report.as_dict() | {"languages": resolved.languages_read(), "printed_names": resolved.printed_names()}
        )


class ValidateSlashView(ValidateView):
    @extend_schema(
        request=s.ValidateInput, responses={200: s.ValidateOutput, 400: ERRORS}, operation_id="decks_validate_slash"
    )
    def post(self, request):
        return super().post(request)


class ParseView(BodyLimitMixin, APIView):
    """Parse a pasted or uploaded decklist; the format is detected from the content.

    Formats: ``text`` (``4 Name`` lines, Sideboard header / SB: / blank line), ``arena``,
    ``mtgo_dek`` (XML), ``csv``. Over 256 KB is 400 ``file_too_large``; binary or undecodable
    is 400 ``unreadable_file``.
    """

    permission_classes = [AllowAny]
    authentication_classes: list = []
    parser_classes = [MultiPartParser, FormParser, JSONParser]

    @extend_schema(
        request={"multipart/form-data": s.ParseInput, "application/json": s.ParseInput},
        responses={200: s.ParseOutput, 400: ERRORS},
        operation_id="decks_parse",
    )
    def post(self, request):
        data = validated_body(s.ParseInput, request)
        if data.get("file") is None and data.get("text") is None:
            raise DomainError(
                error_codes.EMPTY_DECKLIST, gettext("Send the list as text or upload a file."), field="text"
            )
        text = read_upload(data["file"]) if data.get("file") is not None else data["text"]
        return Response(services.read_decklist(text).as_dict())


class ParseSlashView(ParseView):
    @extend_schema(
        request={"multipart/form-data": s.ParseInput, "application/json": s.ParseInput},
        responses={200: s.ParseOutput, 400: ERRORS},
        operation_id="decks_parse_slash",
    )
    def post(self, request):
        return super().post(request)


class MyDeckView(BodyLimitMixin, APIView):
    """Your deck for an event: read it, or register/replace it (checked on every save).

    Send ``main`` (+ ``sideboard``, ``commander``) as lists, or ``text``, or a ``file``
    (multipart). Limited: cards come from your pool (draft pile or sealed pool), plus basic
    lands; leave ``sideboard`` out to use the rest of the pool. After the event's decklist
    deadline the list is locked: 409 ``decklist_locked``. Staff may pass ``?registration=<id>``
    to enter a list for a player before the deadline.
    """

    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser, MultiPartParser, FormParser]

    def _registration_id(self, request) -> int | None:
        return whole_numbers.from_request(request.query_params, "registration")

    def _registration(self, request, event_id: int):
        """The caller's own registration, or (staff) the one named: the role, before any body."""
        event = selectors.event_or_404(event_id)
        return selectors.access_registration(request.user, event, self._registration_id(request))

    @extend_schema(responses={200: s.DeckOutput, 403: ERRORS, 404: ERRORS}, operation_id="decks_my_deck")
    def get(self, request, event_id: int):
        registration = self._registration(request, event_id)
        deck = getattr(registration, "deck", None)
        if deck is None:
            raise NotFoundError(error_codes.NO_DECK, gettext("No deck is registered yet."))
        return Response(deck_payload(deck))

    @extend_schema(
        request={"application/json": s.DeckInput, "multipart/form-data": s.DeckInput},
        responses={200: s.DeckOutput, 400: ERRORS, 403: ERRORS, 409: ERRORS},
        operation_id="decks_my_deck_update",
    )
    def put(self, request, event_id: int):
        self._registration(request, event_id)  # 403 before 400
        data = validated_body(s.DeckInput, request)
        parsed = parsed_sections(data)
        if parsed is not None:
            sections, source = parsed
            sideboard = sections["sideboard"] or None
        else:
            sections = {"main": data["main"], "commander": data.get("commander") or []}
            sideboard, source = data.get("sideboard"), "api"
        deck, _ = services.register_deck(
            event_id=event_id,
            actor=request.user,
            main=sections["main"],
            sideboard=sideboard,
            commander=sections["commander"],
            opaque_sleeves=data["opaque_sleeves"],
            checklist_cards=checklist_input(data) or [],
            source_format=source,
            registration_id=self._registration_id(request),
        )
        return Response(deck_payload(deck))


class MyPoolView(APIView):
    """Your limited pool for an event: the draft pile (once deck building starts) or a sealed pool."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.PoolOutput, 403: ERRORS, 404: ERRORS, 409: ERRORS}, operation_id="decks_my_pool")
    def get(self, request, event_id: int):
        event = selectors.event_or_404(event_id)
        registration = selectors.own_registration(request.user, event)
        if registration is None:
            raise ForbiddenError(error_codes.NOT_REGISTERED, gettext("You are not registered for this event."))
        pool = selectors.pool_for(registration)
        if pool is None:
            raise NotFoundError(error_codes.NO_POOL, gettext("You have no pool in this event."))
        return Response({"registration": registration.pk, "source": pool[0], "cards": selectors.pool_view(pool[1])})


class DeckDetailView(APIView):
    """One deck: its player and the event's judges and organisers; anyone once decklists are published."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.DeckOutput, 403: ERRORS, 404: ERRORS}, operation_id="decks_detail")
    def get(self, request, pk: int):
        return Response(deck_payload(selectors.visible_deck(request.user, pk)))


class RevalidateView(APIView):
    """Run the check again on a stored deck (the player or the event's judges)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={200: s.DeckOutput, 403: ERRORS, 404: ERRORS}, operation_id="decks_revalidate"
    )
    def post(self, request, pk: int):
        selectors.get_deck(pk)
        deck, _ = services.revalidate_deck(deck_id=pk, actor=request.user)
        return Response(deck_payload(deck))
