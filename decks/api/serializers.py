"""Request and response shapes of the decks API (validated strictly: bad input is a 400)."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from decks import error_codes, findings, parsers
from decks import validation as core
from decks.models import SelectionMethod
from draftsite import whole_numbers
from draftsite.bounds import ID_MAX

MAX_LINES = parsers.MAX_LINES
MAX_TOTAL = parsers.MAX_TOTAL
MAX_CHECKLIST_CARDS = 300
MAX_NOTES = findings.MAX_NOTES  # DeckCheckInput's field ``findings`` hides the module there


class StrictIntegerField(serializers.IntegerField):
    """An integer, written as a JSON integer or as digits: never 2.5, "four", true or 2.0."""

    default_error_messages = {"invalid": "A whole number is required."}

    def __init__(self, **kwargs):
        kwargs.setdefault("max_value", ID_MAX)  # an id at most (draftsite.bounds)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or isinstance(data, float):
            self.fail("invalid")
        if isinstance(data, str):
            text = data.strip()
            if whole_numbers.parse(text, minimum=-(10**20), maximum=10**20) is None:
                self.fail("invalid")
        elif not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """true or false (JSON), or the usual form spellings; never a list or a number like 2."""

    def to_internal_value(self, data):
        if isinstance(data, (list, dict)):
            self.fail("invalid", input=data)
        return super().to_internal_value(data)


class EntrySerializer(serializers.Serializer):
    name = serializers.CharField(
        max_length=200, required=False, trim_whitespace=True, help_text=gettext_lazy("Any face name or the full name.")
    )
    card_id = StrictIntegerField(
        min_value=1, required=False, help_text=gettext_lazy("A catalogue card id (instead of name).")
    )
    count = StrictIntegerField(min_value=1, max_value=parsers.MAX_COUNT)

    def validate(self, attrs):
        if not attrs.get("name") and attrs.get("card_id") is None:
            raise serializers.ValidationError(gettext("Give the card's name (or card_id)."), code=error_codes.REQUIRED)
        return attrs


@extend_schema_field({"oneOf": [{"type": "string"}, {"type": "integer", "minimum": 1, "maximum": ID_MAX}]})
class ChecklistRefField(serializers.Field):
    """A checklist or substitute card: its name, "Name (SET NUMBER)", or its id."""

    default_error_messages = {"invalid": gettext_lazy("Give the checklist card's name or id.")}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, (str, int)):
            self.fail("invalid")
        text = str(data).strip()
        if not text or len(text) > 200:
            self.fail("invalid")
        return text

    def to_representation(self, value):
        return value


class ChecklistUseSerializer(serializers.Serializer):
    checklist = ChecklistRefField(help_text=gettext_lazy("Name, id, or e.g. 'Double-Faced Substitute Card (SZNR 1)'."))
    marked = serializers.ListField(
        child=serializers.CharField(max_length=200),
        max_length=30,
        default=list,
        help_text=gettext_lazy("The DFC name(s) marked on it: exactly one is legal (R10)."),
    )


def _lines(required: bool = False):
    if required:
        return serializers.ListField(child=EntrySerializer(), max_length=MAX_LINES)
    return serializers.ListField(child=EntrySerializer(), max_length=MAX_LINES, default=list)


def _check_total(attrs) -> None:
    total = sum(e["count"] for key in ("main", "sideboard", "commander") for e in (attrs.get(key) or []))
    if total > MAX_TOTAL:
        raise serializers.ValidationError(
            gettext("A deck has at most %(MAX_TOTAL)s cards.") % {"MAX_TOTAL": MAX_TOTAL},
            code=error_codes.TOO_MANY_ENTRIES,
        )


class ValidateInput(serializers.Serializer):
    format = serializers.ChoiceField(core.FORMATS)
    main = _lines(required=True)
    sideboard = _lines()
    commander = _lines()
    pool = serializers.ListField(child=EntrySerializer(), max_length=MAX_LINES, required=False, allow_null=True)
    opaque_sleeves = StrictBooleanField(default=False)
    checklist_policy = serializers.ChoiceField(core.POLICIES, default=core.POLICY_DECK)
    checklist_cards = serializers.ListField(
        child=ChecklistUseSerializer(), max_length=MAX_CHECKLIST_CARDS, default=list
    )

    def validate(self, attrs):
        _check_total(attrs)
        return attrs


class ProblemOutput(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())


class SummaryOutput(serializers.Serializer):
    main = serializers.IntegerField()
    sideboard = serializers.IntegerField()
    commander = serializers.IntegerField()
    dfcs = serializers.IntegerField()
    checklist_cards = serializers.IntegerField()


class LanguageReadOutput(serializers.Serializer):
    language = serializers.CharField(
        help_text=gettext_lazy("Language code: en, pt-br, es, it, ru, de, fr, ja, ko, zh-hans, zh-hant.")
    )
    name = serializers.CharField()
    lines = serializers.IntegerField()


class PrintedNameOutput(serializers.Serializer):
    card_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    printed_name = serializers.CharField()
    language = serializers.CharField()


class ValidateOutput(serializers.Serializer):
    valid = serializers.BooleanField()
    errors = ProblemOutput(many=True)
    warnings = ProblemOutput(many=True)
    summary = SummaryOutput()
    languages = LanguageReadOutput(
        many=True,
        help_text=gettext_lazy(
            "The languages the card names were read in, most lines first (a name printed alike in two languages counts for both)."
        ),
    )
    printed_names = PrintedNameOutput(
        many=True,
        help_text=gettext_lazy("Cards named in another language than English: the English name with the printed one."),
    )


class ParseInput(serializers.Serializer):
    text = serializers.CharField(
        required=False,
        trim_whitespace=False,
        allow_blank=True,
        help_text=gettext_lazy("The pasted list (or upload `file` as multipart)."),
    )
    file = serializers.FileField(required=False)


class ParsedEntry(serializers.Serializer):
    name = serializers.CharField()
    count = serializers.IntegerField()


class ParseOutput(serializers.Serializer):
    format = serializers.ChoiceField(parsers.FORMATS)
    main = ParsedEntry(many=True)
    sideboard = ParsedEntry(many=True)
    commander = ParsedEntry(many=True)
    warnings = serializers.ListField(child=serializers.CharField())


class DeckInput(serializers.Serializer):
    text = serializers.CharField(
        required=False,
        trim_whitespace=False,
        allow_blank=True,
        help_text=gettext_lazy("A pasted list in any supported format (instead of main/sideboard)."),
    )
    file = serializers.FileField(required=False, help_text=gettext_lazy("An uploaded list (multipart)."))
    main = serializers.ListField(child=EntrySerializer(), max_length=MAX_LINES, required=False)
    sideboard = serializers.ListField(
        child=EntrySerializer(),
        max_length=MAX_LINES,
        required=False,
        allow_null=True,
        help_text=gettext_lazy("Limited: omit to use the rest of the pool."),
    )
    commander = serializers.ListField(child=EntrySerializer(), max_length=MAX_LINES, required=False)
    opaque_sleeves = StrictBooleanField(default=False)
    checklist_cards = serializers.ListField(
        child=ChecklistUseSerializer(), max_length=MAX_CHECKLIST_CARDS, required=False
    )
    checklist_lines = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=20000,
        help_text=gettext_lazy("Checklist cards as text: 'Innistrad Checklist: Delver of Secrets' per line."),
    )

    def validate(self, attrs):
        sources = [key for key in ("text", "file", "main") if attrs.get(key) is not None]
        if len(sources) != 1:
            raise serializers.ValidationError(
                gettext("Send the list once: main (and sideboard), text, or file."), code=error_codes.INVALID_DECKLIST
            )
        if attrs.get("checklist_cards") is not None and attrs.get("checklist_lines") is not None:
            raise serializers.ValidationError(
                gettext("Send checklist_cards or checklist_lines, not both."), code=error_codes.INVALID
            )
        _check_total(attrs)
        return attrs


class DeckLineOutput(serializers.Serializer):
    card_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    count = serializers.IntegerField()
    is_dfc = serializers.BooleanField()
    printed_name = serializers.CharField(
        required=False, help_text=gettext_lazy("The name as the player wrote it, when not in English.")
    )
    language = serializers.CharField(required=False)


class ChecklistRowOutput(serializers.Serializer):
    checklist_id = serializers.IntegerField(allow_null=True)
    checklist = serializers.CharField()
    marked = serializers.ListField(child=serializers.CharField())


class DeckOutput(serializers.Serializer):
    id = serializers.IntegerField()
    event = serializers.IntegerField()
    registration = serializers.IntegerField()
    player = serializers.CharField()
    format = serializers.CharField()
    main = DeckLineOutput(many=True)
    sideboard = DeckLineOutput(many=True)
    commander = DeckLineOutput(many=True)
    opaque_sleeves = serializers.BooleanField()
    checklist_cards = ChecklistRowOutput(many=True)
    source_format = serializers.CharField()
    valid = serializers.BooleanField()
    errors = ProblemOutput(many=True)
    warnings = ProblemOutput(many=True)
    summary = SummaryOutput()
    status = serializers.DictField()
    version = serializers.IntegerField()
    submitted_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    checked_at = serializers.DateTimeField(allow_null=True)
    print_url = serializers.CharField()


class DeckListRowOutput(serializers.Serializer):
    registration = serializers.IntegerField()
    player = serializers.CharField()
    deck = serializers.IntegerField(allow_null=True)
    state = serializers.ChoiceField(["valid", "invalid", "missing"])
    valid = serializers.BooleanField()
    error_codes = serializers.ListField(child=serializers.CharField())
    late = serializers.BooleanField()
    locked = serializers.BooleanField()
    main = serializers.IntegerField(allow_null=True)
    sideboard = serializers.IntegerField(allow_null=True)
    corrections = serializers.IntegerField()
    checks = serializers.IntegerField()


class CorrectionInput(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)
    text = serializers.CharField(required=False, trim_whitespace=False)
    main = serializers.ListField(child=EntrySerializer(), max_length=MAX_LINES, required=False)
    sideboard = serializers.ListField(child=EntrySerializer(), max_length=MAX_LINES, required=False)
    commander = serializers.ListField(child=EntrySerializer(), max_length=MAX_LINES, required=False)
    opaque_sleeves = StrictBooleanField(required=False)
    checklist_cards = serializers.ListField(
        child=ChecklistUseSerializer(), max_length=MAX_CHECKLIST_CARDS, required=False
    )

    def validate(self, attrs):
        if attrs.get("text") is not None and attrs.get("main") is not None:
            raise serializers.ValidationError(
                gettext("Send text or main, not both."), code=error_codes.INVALID_DECKLIST
            )
        _check_total(attrs)
        return attrs


class CorrectionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    deck = serializers.IntegerField(source="deck_id")
    judge = serializers.CharField(source="judge.username", allow_null=True, default=None)
    at = serializers.DateTimeField()
    reason = serializers.CharField()
    changes = serializers.DictField()
    valid_before = serializers.BooleanField()
    valid_after = serializers.BooleanField()
    penalty_url = serializers.CharField()


class SelectionInput(serializers.Serializer):
    method = serializers.ChoiceField(SelectionMethod.values)
    percent = StrictIntegerField(min_value=1, max_value=100, default=10)
    seed = StrictIntegerField(min_value=0, max_value=2**48, required=False)
    registrations = serializers.ListField(child=StrictIntegerField(min_value=1), max_length=1000, default=list)


class SelectionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    method = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    percent = serializers.IntegerField(allow_null=True)
    registrations = serializers.ListField(child=serializers.IntegerField(), source="registration_ids")
    decks = serializers.ListField(child=serializers.IntegerField())
    created_at = serializers.DateTimeField()


class FindingInput(serializers.Serializer):
    kind = serializers.ChoiceField(list(findings.FINDING_KINDS))
    description = serializers.CharField(
        max_length=findings.MAX_DESCRIPTION, required=False, allow_blank=True, default=""
    )
    cards = serializers.ListField(
        child=serializers.CharField(max_length=findings.MAX_CARD_NAME), max_length=findings.MAX_CARDS, default=list
    )
    infraction = serializers.ChoiceField(
        list(findings.INFRACTIONS) + [""],
        required=False,
        help_text=gettext_lazy("Default: the finding's usual infraction; '' for none."),
    )


class DeckCheckInput(serializers.Serializer):
    matches = StrictBooleanField(required=False, help_text=gettext_lazy("true: the physical deck matches the list."))
    findings = serializers.ListField(child=FindingInput(), max_length=50, default=list)
    notes = serializers.CharField(max_length=MAX_NOTES, required=False, allow_blank=True, default="")
    selection = StrictIntegerField(min_value=1, required=False)

    def validate(self, attrs):
        problem = findings.outcome_problem(matches=attrs.get("matches") is True, found=attrs["findings"])
        if problem == error_codes.INVALID:
            raise serializers.ValidationError(gettext("A deck that matches has no findings."), code=problem)
        if problem == error_codes.REQUIRED:
            raise serializers.ValidationError(
                gettext("Say that the deck matches (matches: true), or record what was found (findings)."), code=problem
            )
        return attrs


class PenaltyLinkOutput(serializers.Serializer):
    infraction = serializers.CharField()
    label = serializers.CharField()
    kind = serializers.CharField()
    url = serializers.CharField()


class DeckCheckOutput(serializers.Serializer):
    id = serializers.IntegerField()
    deck = serializers.IntegerField(source="deck_id")
    registration = serializers.IntegerField(source="deck.registration_id")
    selection = serializers.IntegerField(source="selection_id", allow_null=True)
    judge = serializers.CharField(source="judge.username", allow_null=True, default=None)
    at = serializers.DateTimeField()
    deck_version = serializers.IntegerField()
    matches = serializers.BooleanField()
    findings = serializers.ListField(child=serializers.DictField())
    notes = serializers.CharField()
    penalty_links = PenaltyLinkOutput(many=True)


class SealedPoolInput(serializers.Serializer):
    cards = serializers.ListField(child=EntrySerializer(), max_length=MAX_LINES, required=False)
    text = serializers.CharField(required=False, trim_whitespace=False)

    def validate(self, attrs):
        if (attrs.get("cards") is None) == (attrs.get("text") is None):
            raise serializers.ValidationError(gettext("Send cards or text."), code=error_codes.INVALID)
        return attrs


class PoolCardOutput(serializers.Serializer):
    card_id = serializers.IntegerField()
    name = serializers.CharField()
    count = serializers.IntegerField()
    is_dfc = serializers.BooleanField()


class PoolOutput(serializers.Serializer):
    registration = serializers.IntegerField()
    source = serializers.ChoiceField(["draft", "sealed"])
    cards = PoolCardOutput(many=True)


class DeckRulesSerializer(serializers.Serializer):
    checklist_policy = serializers.ChoiceField(core.POLICIES)
