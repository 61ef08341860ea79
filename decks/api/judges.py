"""Decks API for the event's judges and organisers: every deck, corrections, deck checks,
sealed pools and the checklist policy. Permissions are checked per event on the server."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from decks import error_codes, selectors, services
from decks.api import serializers as s
from decks.api.common import BodyLimitMixin, parsed_sections
from decks.models import Deck, DeckCheck, DeckCheckSelection
from draftsite.api import validated_body
from draftsite.errors import DomainError, ForbiddenError, NotFoundError
from events.access import Permission, authorize
from events.models import Event

ERRORS = OpenApiResponse(description="Error body: {detail, errors: [{code, message, field?}]}")


def _staff_event(request, event_id: int) -> Event:
    """The event (404), for its judges and organisers only (403)."""
    event = selectors.event_or_404(event_id)
    authorize(request.user, event, Permission.STAFF, message=selectors.STAFF_ONLY)
    return event


def _staff_deck(request, pk: int) -> Deck:
    """The deck (404), for its event's judges and organisers only (403)."""
    deck = selectors.get_deck(pk)
    authorize(request.user, deck.event_id, Permission.STAFF, message=selectors.STAFF_ONLY)
    return deck


def _row(row: dict) -> dict:
    deck = row["deck"]
    return {
        "registration": row["registration"].pk,
        "player": row["registration"].name,
        "deck": deck.pk if deck else None,
        **{k: row["status"][k] for k in ("state", "valid", "error_codes", "late", "locked")},
        "main": deck.main_count if deck else None,
        "sideboard": deck.sideboard_count if deck else None,
        "corrections": row["corrections"],
        "checks": row["checks"],
    }


def _selection(selection: DeckCheckSelection) -> dict:
    decks = selectors.selected_decks(selection)
    return {
        "id": selection.pk,
        "method": selection.method,
        "seed": selection.seed,
        "percent": selection.percent,
        "registrations": selection.registration_ids,
        "decks": [decks[r] for r in selection.registration_ids if r in decks],
        "created_at": selection.created_at,
    }


def _check(check: DeckCheck) -> dict:
    return {
        "id": check.pk,
        "deck": check.deck_id,
        "registration": check.deck.registration_id,
        "selection": check.selection_id,
        "judge": check.judge.get_username() if check.judge else None,
        "at": check.at,
        "deck_version": check.deck_version,
        "matches": check.matches,
        "findings": check.findings,
        "notes": check.notes,
        "penalty_links": selectors.check_penalty_links(check),
    }


def _correction(correction) -> dict:
    return {
        "id": correction.pk,
        "deck": correction.deck_id,
        "judge": correction.judge.get_username() if correction.judge else None,
        "at": correction.at,
        "reason": correction.reason,
        "changes": correction.changes,
        "valid_before": correction.valid_before,
        "valid_after": correction.valid_after,
        "penalty_url": selectors.correction_penalty_link(correction),
    }


class EventDecksView(APIView):
    """Every registration of the event with its deck status (valid, errors, late, locked)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("status", OpenApiTypes.STR, enum=["valid", "invalid", "missing"]),
            OpenApiParameter("error", OpenApiTypes.STR, description="Only decks with this error code."),
            OpenApiParameter("late", OpenApiTypes.BOOL),
            OpenApiParameter("q", OpenApiTypes.STR, description="Player name contains."),
        ],
        responses={200: s.DeckListRowOutput(many=True), 403: ERRORS, 404: ERRORS},
        operation_id="decks_event_list",
    )
    def get(self, request, event_id: int):
        event = _staff_event(request, event_id)
        params = request.query_params
        state = params.get("status", "")
        if state not in ("", "valid", "invalid", "missing"):
            raise DomainError(
                error_codes.INVALID_FILTER, gettext("status is valid, invalid or missing."), field="status"
            )
        late = {"true": True, "false": False, "": None}.get(params.get("late", "").lower(), None)
        rows = selectors.event_decks(
            event, status=state, query=params.get("q", "")[:100], error=params.get("error", "")[:40], late=late
        )
        return Response([_row(row) for row in rows])


class CorrectionsView(BodyLimitMixin, APIView):
    """A deck's corrections (append-only log): read by its player and staff; recorded by judges."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: s.CorrectionOutput(many=True), 403: ERRORS, 404: ERRORS}, operation_id="decks_corrections_list"
    )
    def get(self, request, pk: int):
        deck = selectors.get_deck(pk)
        if not (selectors.owns(request.user, deck) or selectors.is_staff(request.user, deck.event_id)):
            raise ForbiddenError(
                error_codes.NOT_YOUR_DECK, gettext("Only the player and the event's judges may see that.")
            )
        return Response([_correction(c) for c in selectors.corrections(deck)])

    @extend_schema(
        request=s.CorrectionInput,
        responses={201: s.CorrectionOutput, 400: ERRORS, 403: ERRORS},
        operation_id="decks_corrections_create",
    )
    def post(self, request, pk: int):
        _staff_deck(request, pk)  # the role before the body: 403, not 400
        data = validated_body(s.CorrectionInput, request)
        parsed = parsed_sections(data)
        lists = parsed[0] if parsed else {k: data.get(k) for k in ("main", "sideboard", "commander")}
        checklist_cards = data.get("checklist_cards")
        correction = services.correct_deck(
            deck_id=pk,
            actor=request.user,
            reason=data["reason"],
            main=lists.get("main"),
            sideboard=lists.get("sideboard"),
            commander=lists.get("commander") or None,
            opaque_sleeves=data.get("opaque_sleeves"),
            checklist_cards=[{"checklist": c["checklist"], "marked": c["marked"]} for c in checklist_cards]
            if checklist_cards is not None
            else None,
        )
        return Response(_correction(correction), status=status.HTTP_201_CREATED)


class DeckChecksView(APIView):
    """Deck checks of one deck: the judges record what they found at the table."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: s.DeckCheckOutput(many=True), 403: ERRORS, 404: ERRORS}, operation_id="decks_checks_list"
    )
    def get(self, request, pk: int):
        deck = _staff_deck(request, pk)
        return Response([_check(c) for c in selectors.checks(deck)])

    @extend_schema(
        request=s.DeckCheckInput,
        responses={201: s.DeckCheckOutput, 400: ERRORS, 403: ERRORS},
        operation_id="decks_checks_create",
    )
    def post(self, request, pk: int):
        _staff_deck(request, pk)  # the role before the body: 403, not 400
        data = validated_body(s.DeckCheckInput, request)
        check = services.record_deck_check(
            deck_id=pk,
            actor=request.user,
            found=data["findings"],
            notes=data["notes"],
            selection_id=data.get("selection"),
        )
        return Response(_check(check), status=status.HTTP_201_CREATED)


class EventDeckChecksView(APIView):
    """Every deck check recorded in the event, newest first."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: s.DeckCheckOutput(many=True), 403: ERRORS, 404: ERRORS}, operation_id="decks_event_checks"
    )
    def get(self, request, event_id: int):
        event = _staff_event(request, event_id)
        return Response([_check(c) for c in selectors.event_checks(event)])


class SelectionsView(APIView):
    """Pick decks for a deck check: ``random`` (a share, default 10%, from a stored seed) or ``chosen``."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.SelectionOutput(many=True), 403: ERRORS}, operation_id="decks_selections_list")
    def get(self, request, event_id: int):
        event = _staff_event(request, event_id)
        return Response([_selection(sel) for sel in selectors.selections(event)])

    @extend_schema(
        request=s.SelectionInput,
        responses={201: s.SelectionOutput, 400: ERRORS, 403: ERRORS, 409: ERRORS},
        operation_id="decks_selections_create",
    )
    def post(self, request, event_id: int):
        authorize(
            request.user, selectors.event_or_404(event_id), Permission.STAFF, message=selectors.STAFF_ONLY
        )  # role before body
        data = validated_body(s.SelectionInput, request)
        selection = services.select_for_deck_check(
            event_id=event_id,
            actor=request.user,
            method=data["method"],
            percent=data["percent"],
            seed=data.get("seed"),
            registration_ids=data["registrations"],
        )
        return Response(_selection(selection), status=status.HTTP_201_CREATED)


class SealedPoolView(BodyLimitMixin, APIView):
    """A sealed player's pool: entered by an organiser, read by the player and staff."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.PoolOutput, 403: ERRORS, 404: ERRORS}, operation_id="decks_sealed_pool")
    def get(self, request, pk: int):
        registration = selectors.get_registration_by_id(pk)
        if registration.user_id != request.user.pk:
            authorize(request.user, registration.event_id, Permission.STAFF, message=selectors.STAFF_ONLY)
        pool = selectors.sealed_pool(registration)
        if pool is None:
            raise NotFoundError(error_codes.NO_POOL, gettext("No sealed pool was entered for this player."))
        return Response({"registration": pk, "source": "sealed", "cards": selectors.pool_view(pool.cards)})

    @extend_schema(
        request=s.SealedPoolInput,
        responses={200: s.PoolOutput, 400: ERRORS, 403: ERRORS},
        operation_id="decks_sealed_pool_set",
    )
    def put(self, request, pk: int):
        registration = selectors.get_registration_by_id(pk)
        authorize(
            request.user, registration.event, Permission.ORGANISER, message=services.POOL_EDITORS_ONLY
        )  # role before body
        data = validated_body(s.SealedPoolInput, request)
        if data.get("text") is not None:
            sections, _ = parsed_sections({"text": data["text"]})
            cards = sections["main"] + sections["sideboard"]
        else:
            cards = data["cards"]
        pool = services.set_sealed_pool(registration_id=pk, actor=request.user, cards=cards)
        return Response({"registration": pk, "source": "sealed", "cards": selectors.pool_view(pool.cards)})


class DeckRulesView(APIView):
    """How the event checks checklist cards (R12): ``deck`` (all or none, default) or ``per_name``."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.DeckRulesSerializer, 404: ERRORS}, operation_id="decks_rules")
    def get(self, request, event_id: int):
        event = selectors.event_or_404(event_id)
        return Response({"checklist_policy": selectors.checklist_policy(event)})

    @extend_schema(
        request=s.DeckRulesSerializer,
        responses={200: s.DeckRulesSerializer, 400: ERRORS, 403: ERRORS},
        operation_id="decks_rules_set",
    )
    def put(self, request, event_id: int):
        authorize(request.user, selectors.event_or_404(event_id), Permission.RULES_EDITOR)  # role before body
        data = validated_body(s.DeckRulesSerializer, request)
        rules = services.set_deck_rules(
            event_id=event_id, actor=request.user, checklist_policy=data["checklist_policy"]
        )
        return Response({"checklist_policy": rules.checklist_policy})
