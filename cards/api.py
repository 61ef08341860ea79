"""Card catalogue API: search by any name with suggestions, card detail, checklist cards."""

from __future__ import annotations

from django.utils.translation import get_language, gettext, gettext_lazy

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny

from cards import error_codes, selectors
from cards.models import Card, CardFace, ChecklistCard, Layout, Printing
from draftsite.errors import DomainError, NotFoundError
from draftsite.pagination import BoundedLimitOffsetPagination


def _letters(value: str) -> list[str]:
    return list(value or "")


class CardFaceSerializer(serializers.ModelSerializer):
    colors = serializers.SerializerMethodField()
    color_indicator = serializers.SerializerMethodField()

    class Meta:
        model = CardFace
        fields = [
            "position", "name", "mana_cost", "mana_value", "type_line", "supertypes",
            "card_types", "subtypes", "oracle_text", "colors", "color_indicator", "power",
            "toughness", "loyalty", "defense", "disguise_cost", "morph_cost", "megamorph_cost",
        ]

    def get_colors(self, face: CardFace) -> list[str]:
        return _letters(face.colors)

    def get_color_indicator(self, face: CardFace) -> list[str]:
        return _letters(face.color_indicator)


class PrintingSerializer(serializers.ModelSerializer):
    set_code = serializers.CharField(source="card_set.code")
    set_name = serializers.CharField(source="card_set.name")

    class Meta:
        model = Printing
        fields = ["set_code", "set_name", "collector_number", "rarity", "scryfall_id",
                  "image_uris", "in_boosters"]


PRINTED_NAMES_FIELD = serializers.DictField(
    child=serializers.ListField(child=serializers.CharField()),
    help_text=gettext_lazy('The face names as printed in other languages, per language code '
                           '(pt-br, es, it, ru, de, fr, ja, ko, zh-hans, zh-hant).'),
)


class PrintedNamesMixin(serializers.Serializer):
    printed_names = serializers.SerializerMethodField(
        help_text=gettext_lazy('The face names as printed in other languages, per language code '
                               '(pt-br, es, it, ru, de, fr, ja, ko, zh-hans, zh-hant).'))
    local_name = serializers.SerializerMethodField(
        help_text=gettext_lazy("The card's name in the request's language when it was printed "
                               "in it (faces joined by //); null otherwise."))

    @extend_schema_field(PRINTED_NAMES_FIELD)
    def get_printed_names(self, card: Card) -> dict[str, list[str]]:
        return selectors.printed_names_of(card)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_local_name(self, card: Card) -> str | None:
        names = selectors.printed_names_of(card).get(get_language() or "")
        return " // ".join(names) if names else None


class CardSummarySerializer(PrintedNamesMixin, serializers.ModelSerializer):
    faces = serializers.SerializerMethodField()
    is_dfc = serializers.BooleanField(read_only=True)
    color_identity = serializers.SerializerMethodField()

    class Meta:
        model = Card
        fields = ["id", "name", "layout", "is_dfc", "color_identity", "faces", "local_name",
                  "printed_names"]

    def get_faces(self, card: Card) -> list[str]:
        return [face.name for face in card.faces.all()]

    def get_color_identity(self, card: Card) -> list[str]:
        return _letters(card.color_identity)


class CardDetailSerializer(PrintedNamesMixin, serializers.ModelSerializer):
    faces = CardFaceSerializer(many=True, read_only=True)
    printings = PrintingSerializer(many=True, read_only=True)
    is_dfc = serializers.BooleanField(read_only=True)
    color_identity = serializers.SerializerMethodField(
        help_text=gettext_lazy('R39: colors of mana symbols, color indicators and basic land types on every face.')
    )
    checklists = serializers.SerializerMethodField(
        help_text=gettext_lazy('Official checklist or substitute cards that can stand in for this card (R11).')
    )

    class Meta:
        model = Card
        fields = ["id", "name", "layout", "is_dfc", "color_identity", "oracle_id", "faces",
                  "local_name", "printed_names", "printings", "checklists"]

    def get_color_identity(self, card: Card) -> list[str]:
        return _letters(card.color_identity)

    @extend_schema_field(
        inline_serializer(
            "ChecklistRef",
            {"id": serializers.IntegerField(), "name": serializers.CharField(),
             "kind": serializers.CharField(), "set_code": serializers.CharField(),
             "collector_number": serializers.CharField()},
            many=True,
        )
    )
    def get_checklists(self, card: Card) -> list[dict]:
        seen = {}
        for entry in card.checklist_entries.all():
            checklist = entry.checklist
            seen.setdefault(checklist.pk, {
                "id": checklist.pk, "name": checklist.name, "kind": checklist.kind,
                "set_code": checklist.set_code, "collector_number": checklist.collector_number,
            })
        return list(seen.values())


class ChecklistEntrySerializer(serializers.Serializer):
    printed_name = serializers.CharField()
    card_id = serializers.IntegerField(allow_null=True)


class ChecklistCardSerializer(serializers.ModelSerializer):
    entries = ChecklistEntrySerializer(many=True, read_only=True)

    class Meta:
        model = ChecklistCard
        fields = ["id", "name", "kind", "set_code", "parent_set_code", "collector_number",
                  "scryfall_id", "oracle_text", "entries"]


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
                gettext('The search text is limited to %(MAX_QUERY_LENGTH)s characters.') % {'MAX_QUERY_LENGTH': selectors.MAX_QUERY_LENGTH},
                field="q",
            )
        return query

    def get_queryset(self):
        layout = self.request.query_params.get("layout") or None
        if layout and layout not in Layout.values:
            raise DomainError(error_codes.INVALID_FILTER,
                              gettext('Unknown layout %(layout)s; expected one of %(join)s.') % {'layout': repr(layout), 'join': ', '.join(Layout.values)},
                              field="layout")
        return selectors.search_cards(self._query(), layout=layout,
                                      set_code=self.request.query_params.get("set") or None)

    @extend_schema(
        parameters=[
            OpenApiParameter("q", OpenApiTypes.STR, description=(
                "Any face name or the full name, in English or as printed in any language "
                "(Pastor de Gatstaf, Гастафский Завыватель). Suggestions come in the language "
                "of the query.")),
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
        card = selectors.card_queryset().filter(pk=self.kwargs["pk"]).first()
        if card is None:
            raise NotFoundError(error_codes.UNKNOWN_CARD, gettext('No card has id %(kwargs)s.') % {'kwargs': self.kwargs['pk']})
        return card


class ChecklistListView(generics.ListAPIView):
    """Official checklist and substitute cards and the DFCs each one lists (R9-R11)."""

    permission_classes = [AllowAny]
    serializer_class = ChecklistCardSerializer

    def get_queryset(self):
        return selectors.checklist_queryset()
