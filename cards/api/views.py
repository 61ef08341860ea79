"""Card catalogue API: search by any name with suggestions, card detail, checklist cards."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.permissions import AllowAny

from cards import error_codes, selectors
from cards.api.serializers import CardDetailSerializer, CardSummarySerializer, ChecklistCardSerializer
from cards.models import Layout
from draftsite.errors import DomainError, NotFoundError
from draftsite.pagination import BoundedLimitOffsetPagination


class CardSearchPagination(BoundedLimitOffsetPagination):
    """Limit/offset pages plus ``suggestions`` (close names when nothing matched) and
    ``checklist_cards``: checklist and substitute cards of that name, with what they list."""

    suggestions: list[str] = []
    checklist_cards: list[dict] = []

    def get_paginated_response(self, data):
        response = super().get_paginated_response(data)
        response.data["suggestions"] = self.suggestions
        response.data["checklist_cards"] = self.checklist_cards
        return response

    def get_paginated_response_schema(self, schema):
        schema = super().get_paginated_response_schema(schema)
        schema["properties"]["suggestions"] = {"type": "array", "items": {"type": "string"}}
        schema["properties"]["checklist_cards"] = {"type": "array", "items": {"type": "object"}}
        return schema


class CardListView(generics.ListAPIView):
    """Search the catalogue by any face name or the full name, English or printed in any
    language.

    Case- and accent-insensitive. When nothing matches, ``suggestions`` lists close names
    ("did you mean").
    """

    permission_classes = [AllowAny]
    serializer_class = CardSummarySerializer
    pagination_class = CardSearchPagination

    def _query(self) -> str:
        query = self.request.query_params.get("q", "")
        if len(query) > selectors.MAX_QUERY_LENGTH:
            raise DomainError(
                error_codes.QUERY_TOO_LONG,
                gettext("The search text is limited to %(MAX_QUERY_LENGTH)s characters.")
                % {"MAX_QUERY_LENGTH": selectors.MAX_QUERY_LENGTH},
                field="q",
            )
        return query

    def get_queryset(self):
        layout = self.request.query_params.get("layout") or None
        if layout and layout not in Layout.values:
            raise DomainError(
                error_codes.INVALID_FILTER,
                gettext("Unknown layout %(layout)s; expected one of %(join)s.")
                % {"layout": repr(layout), "join": ", ".join(Layout.values)},
                field="layout",
            )
        return selectors.search_cards(
            self._query(), layout=layout, set_code=self.request.query_params.get("set") or None
        )

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "q",
                OpenApiTypes.STR,
                description=(
                    "Any face name or the full name, in English or as printed in any language "
                    "(Pastor de Gatstaf, Гастафский Завыватель). Suggestions come in the language "
                    "of the query."
                ),
            ),
            OpenApiParameter("layout", OpenApiTypes.STR, enum=Layout.values),
            OpenApiParameter("set", OpenApiTypes.STR, description="Set code, e.g. ISD."),
        ]
    )
    def get(self, request, *args, **kwargs):
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        query = self._query()
        checklists = selectors.search_checklists(query) if query else []
        self.paginator.checklist_cards = ChecklistCardSerializer(checklists, many=True).data
        self.paginator.suggestions = []
        if query and not self.paginator.count and not checklists:
            self.paginator.suggestions = selectors.suggest_names(query)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


class CardDetailView(generics.RetrieveAPIView):
    """One card with all its faces, its color identity (R39) and every printing."""

    permission_classes = [AllowAny]
    serializer_class = CardDetailSerializer

    def get_object(self):
        card = selectors.card_by_id(self.kwargs["pk"])
        if card is None:
            raise NotFoundError(
                error_codes.UNKNOWN_CARD, gettext("No card has id %(kwargs)s.") % {"kwargs": self.kwargs["pk"]}
            )
        return card


class ChecklistListView(generics.ListAPIView):
    """Official checklist and substitute cards and the DFCs each one lists (R9-R11)."""

    permission_classes = [AllowAny]
    serializer_class = ChecklistCardSerializer

    def get_queryset(self):
        return selectors.checklist_queryset()
