"""Forms of the draft engine's pages: a drafted event, seating, pod controls and the draft page's
fallbacks (the draft page itself posts through the API or plain buttons); what every event
asks is events.forms'."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, gettext_lazy

from cards import selectors as card_selectors
from drafts import pick_input
from drafts.services import packs
from draftsite.bounds import ID_MAX, INTEGER_MAX
from draftsite.errors import DomainError
from events.boosters import KIND_LABELS
from events.forms import EventBasicsForm
from events.models import DRAFTED_FORMATS, DraftFormat

MAX_SEED = 2**48


class EventForm(EventBasicsForm):
    draft_format = forms.ChoiceField(
        choices=DRAFTED_FORMATS, initial=DraftFormat.BOOSTER, widget=forms.RadioSelect, label=gettext_lazy("Format")
    )
    # Chosen from the catalogue's sets (name and code); a typed code (any case) or name is
    # accepted too (no-script posts, older bookmarks), and "ISD, ISD, DKA" still names each round.
    set_codes = forms.CharField(
        required=False,
        label=gettext_lazy("Set"),
        widget=forms.Select,
        help_text=gettext_lazy("Booster and paper drafts: the set of the boosters (every round, unless set below)."),
    )
    set_round_2 = forms.CharField(required=False, label=gettext_lazy("Set of round 2"), widget=forms.Select)
    set_round_3 = forms.CharField(required=False, label=gettext_lazy("Set of round 3"), widget=forms.Select)
    # A set's booster kinds (drafts.services.packs.booster_kinds); checked against each round's set.
    booster_kind = forms.CharField(
        required=False,
        label=gettext_lazy("Boosters"),
        widget=forms.Select,
        help_text=gettext_lazy(
            "The kind of booster opened (every round, unless set below). The list under the form "
            "says which kinds each set has and which collation each uses."
        ),
    )
    booster_kind_round_2 = forms.CharField(
        required=False, label=gettext_lazy("Boosters of round 2"), widget=forms.Select
    )
    booster_kind_round_3 = forms.CharField(
        required=False, label=gettext_lazy("Boosters of round 3"), widget=forms.Select
    )
    cube_list = forms.CharField(
        required=False,
        label=gettext_lazy("Cube list"),
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=gettext_lazy(
            "Cube drafts: one card name per line (any face name works; lines starting with # are ignored)."
        ),
    )
    pack_size = forms.IntegerField(
        min_value=2,
        max_value=20,
        initial=15,
        label=gettext_lazy("Cards per pack"),
        help_text=gettext_lazy("Cube and paper drafts; set boosters follow their set's collation."),
    )
    pick_timer = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Pick timer on"),
        help_text=gettext_lazy("The tournament pick timer; when it runs out a card is picked for the player."),
    )
    deck_building_minutes = forms.IntegerField(
        min_value=1, max_value=180, initial=25, label=gettext_lazy("Deck-building minutes")
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        sets = card_selectors.set_choices()  # the catalogue changes with imports: read per form
        self.fields["set_codes"].widget.choices = [("", gettext("Choose a set"))] + sets
        for name in ("set_round_2", "set_round_3"):
            self.fields[name].widget.choices = [("", gettext("Same as round 1"))] + sets
        kinds = [(name, str(label)) for name, label in KIND_LABELS.items() if name != "default"]
        self.fields["booster_kind"].widget.choices = [("", gettext("The set's default (its newest booster)"))] + kinds
        for name in ("booster_kind_round_2", "booster_kind_round_3"):
            self.fields[name].widget.choices = [("", gettext("Same as round 1"))] + kinds

    def _resolve_sets(self, data) -> list[str]:
        """Each round's set code, from the selects (or typed codes and names); [] if any is unknown."""
        first = [t for t in (data.get("set_codes") or "").replace(";", ",").split(",") if t.strip()]
        if not first:
            self.add_error("set_codes", gettext("Choose the set of the boosters."))
            return []
        rounds = list(first)
        if len(first) == 1:
            rounds = first + [data.get("set_round_2") or first[0], data.get("set_round_3") or first[0]]
        codes: list[str] = []
        for index, text in enumerate(rounds):
            field = "set_codes" if index == 0 or len(first) > 1 else f"set_round_{index + 1}"
            try:
                codes.append(card_selectors.resolve_set(text, field=field))
            except DomainError as exc:
                self.add_error(field, exc.message)
        return codes if len(codes) == len(rounds) else []

    def _resolve_kinds(self, data, codes: list[str]) -> list[str]:
        """Each round's booster kind ("" for the set's default), checked against its set."""
        first = (data.get("booster_kind") or "").strip()
        kinds = [first, data.get("booster_kind_round_2") or first, data.get("booster_kind_round_3") or first]
        for index, (code, kind) in enumerate(zip(codes, kinds, strict=False)):
            try:
                packs.booster_kinds(code).get(kind or None)
            except DomainError as exc:
                field = "booster_kind" if index == 0 or kind == first else f"booster_kind_round_{index + 1}"
                if field not in self.errors:
                    self.add_error(field, exc.message)
        return kinds

    def clean(self):
        data = super().clean()
        fmt = data.get("draft_format")
        data["set_list"] = self._resolve_sets(data) if fmt in (DraftFormat.BOOSTER, DraftFormat.PAPER) else []
        data["kind_list"] = self._resolve_kinds(data, data["set_list"])
        if fmt == DraftFormat.CUBE and not (data.get("cube_list") or "").strip():
            self.add_error("cube_list", "Paste the cube list, one card per line.")
        return data

    def service_arguments(self) -> dict:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "date": data["date"],
            "enforcement_level": data["enforcement_level"],
            "draft_format": data["draft_format"],
            "set_codes": data.get("set_list") or [],
            "booster_kinds": data.get("kind_list") or [] if data.get("set_list") else [],
            "cube_list": (data.get("cube_list") or "").splitlines() if data["draft_format"] == DraftFormat.CUBE else [],
            "pack_size": data["pack_size"],
            "pick_timer": data["pick_timer"],
            "deck_building_minutes": data["deck_building_minutes"],
        }


class SeatingForm(forms.Form):
    seed = forms.IntegerField(
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        label=gettext_lazy("Seed (optional)"),
        help_text=gettext_lazy("The same seed gives the same seating; leave empty for a random one."),
    )


def _id_field() -> forms.IntegerField:
    return forms.IntegerField(required=False, min_value=1, max_value=ID_MAX)


def _amount_field() -> forms.IntegerField:  # the service says which amounts are allowed
    return forms.IntegerField(required=False, min_value=-INTEGER_MAX, max_value=INTEGER_MAX)


def _pick_field(bounds: pick_input.Range) -> forms.IntegerField:
    return forms.IntegerField(required=False, min_value=bounds.low, max_value=bounds.high)


class PickForm(forms.Form):  # the ranges of drafts.pick_input, as the API and the socket read them
    card = _pick_field(pick_input.CARD)
    pack = _pick_field(pick_input.PACK)
    position = _pick_field(pick_input.POSITION)


class PileMoveForm(forms.Form):
    card = _pick_field(pick_input.CARD)
    position = _pick_field(pick_input.POSITION)


class PileCoverForm(forms.Form):
    cover = forms.CharField(required=False, strip=False)  # the service says which covers exist


class PodControlForm(forms.Form):
    seat = _id_field()
    seconds = _amount_field()
    minutes = _amount_field()
    registration = _id_field()
    next = forms.CharField(required=False, strip=False)
