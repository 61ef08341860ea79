"""Response shapes of the card catalogue API."""

from __future__ import annotations

from django.utils.translation import get_language, gettext_lazy
from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from cards import selectors
from cards.models import FACE_TEXT_FIELDS, Card, CardFace, ChecklistCard, Printing


def _letters(value: str) -> list[str]:
    return list(value or "")


class CardFaceSerializer(serializers.ModelSerializer):
    colors = serializers.SerializerMethodField()
    color_indicator = serializers.SerializerMethodField()

    class Meta:
        model = CardFace
        fields = ["position", *FACE_TEXT_FIELDS]

    def get_colors(self, face: CardFace) -> list[str]:
        return _letters(face.colors)

    def get_color_indicator(self, face: CardFace) -> list[str]:
        return _letters(face.color_indicator)


class PrintingSerializer(serializers.ModelSerializer):
    set_code = serializers.CharField(source="card_set.code")
    set_name = serializers.CharField(source="card_set.name")

    class Meta:
        model = Printing
        fields = ["set_code", "set_name", "collector_number", "rarity", "scryfall_id", "image_uris", "in_boosters"]


PRINTED_NAMES_FIELD = serializers.DictField(
    child=serializers.ListField(child=serializers.CharField()),
    help_text=gettext_lazy(
        "The face names as printed in other languages, per language code "
        "(pt-br, es, it, ru, de, fr, ja, ko, zh-hans, zh-hant)."
    ),
)


class PrintedNamesMixin(serializers.Serializer):
    printed_names = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            "The face names as printed in other languages, per language code "
            "(pt-br, es, it, ru, de, fr, ja, ko, zh-hans, zh-hant)."
        )
    )
    local_name = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            "The card's name in the request's language when it was printed in it (faces joined by //); null otherwise."
        )
    )

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
        fields = ["id", "name", "layout", "is_dfc", "color_identity", "faces", "local_name", "printed_names"]

    def get_faces(self, card: Card) -> list[str]:
        return [face.name for face in card.faces.all()]

    def get_color_identity(self, card: Card) -> list[str]:
        return _letters(card.color_identity)


class CardDetailSerializer(PrintedNamesMixin, serializers.ModelSerializer):
    faces = CardFaceSerializer(many=True, read_only=True)
    printings = PrintingSerializer(many=True, read_only=True)
    is_dfc = serializers.BooleanField(read_only=True)
    color_identity = serializers.SerializerMethodField(
        help_text=gettext_lazy("R39: colors of mana symbols, color indicators and basic land types on every face.")
    )
    checklists = serializers.SerializerMethodField(
        help_text=gettext_lazy("Official checklist or substitute cards that can stand in for this card (R11).")
    )

    class Meta:
        model = Card
        fields = [
            "id",
            "name",
            "layout",
            "is_dfc",
            "color_identity",
            "oracle_id",
            "faces",
            "local_name",
            "printed_names",
            "printings",
            "checklists",
        ]

    def get_color_identity(self, card: Card) -> list[str]:
        return _letters(card.color_identity)

    @extend_schema_field(
        inline_serializer(
            "ChecklistRef",
            {
                "id": serializers.IntegerField(),
                "name": serializers.CharField(),
                "kind": serializers.CharField(),
                "set_code": serializers.CharField(),
                "collector_number": serializers.CharField(),
            },
            many=True,
        )
    )
    def get_checklists(self, card: Card) -> list[dict]:
        seen = {}
        for entry in card.checklist_entries.all():
            checklist = entry.checklist
            seen.setdefault(
                checklist.pk,
                {
                    "id": checklist.pk,
                    "name": checklist.name,
                    "kind": checklist.kind,
                    "set_code": checklist.set_code,
                    "collector_number": checklist.collector_number,
                },
            )
        return list(seen.values())


class ChecklistEntrySerializer(serializers.Serializer):
    printed_name = serializers.CharField()
    card_id = serializers.IntegerField(allow_null=True)


class ChecklistCardSerializer(serializers.ModelSerializer):
    entries = ChecklistEntrySerializer(many=True, read_only=True)

    class Meta:
        model = ChecklistCard
        fields = [
            "id",
            "name",
            "kind",
            "set_code",
            "parent_set_code",
            "collector_number",
            "scryfall_id",
            "oracle_text",
            "entries",
        ]
