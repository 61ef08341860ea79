"""The deck pages' forms: each reads ``request.POST`` for one page and says what it holds.

The registration and correction forms are rendered; the others only read the fields that the
templates write by hand, with the page's own messages for what is wrong.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, gettext_lazy

from decks import adapter, error_codes, findings, parsers, services
from draftsite import whole_numbers
from draftsite.bounds import INTEGER_MAX
from draftsite.errors import DomainError

BASICS = list(adapter.BASIC_LANDS)
MAX_BASICS = 100  # basic lands of one kind the limited builder accepts

_SIZE_ATTRS = {
    "data-max-bytes": parsers.MAX_BYTES,
    "data-max-bytes-message": gettext_lazy(
        "The decklist is %(size)s KB; decklists are limited to %(max)s KB. Nothing was sent: shorten it and save again."
    ),
}


class DeckForm(forms.Form):
    decklist = forms.CharField(
        label=gettext_lazy("Decklist"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 14, **_SIZE_ATTRS}),
        help_text=gettext_lazy("“4 Card Name” lines with a Sideboard section, an Arena export, an MTGO .dek or a CSV."),
    )
    file = forms.FileField(
        label=gettext_lazy("…or upload a file"), required=False, widget=forms.ClearableFileInput(attrs=_SIZE_ATTRS)
    )
    opaque_sleeves = forms.BooleanField(label=gettext_lazy("My deck is in fully opaque sleeves"), required=False)
    checklist_lines = forms.CharField(
        label=gettext_lazy("Checklist and substitute cards"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=gettext_lazy(
            "One line per card, with the name marked on it: “2 Innistrad Checklist: Delver of Secrets” or “Double-Faced Substitute Card: Emeria's Call”."
        ),
    )

    def clean_decklist(self):
        # Refused before any parsing, with the text kept in the form for the player to shorten.
        text = self.cleaned_data.get("decklist") or ""
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > parsers.MAX_BYTES:
            raise forms.ValidationError(
                gettext("The decklist is %(size)d KB; decklists are limited to %(max)d KB.")
                % {"size": size // 1024, "max": parsers.MAX_BYTES // 1024},
                code=error_codes.FILE_TOO_LARGE,
            )
        return text

    def decklist_text(self) -> str:
        """The list as text: the uploaded file (decoded) or the pasted list."""
        data = self.cleaned_data
        if data.get("file"):
            return services.decode_decklist(data["file"].read(parsers.MAX_BYTES + 1))
        return data.get("decklist") or ""


class CorrectionForm(DeckForm):
    reason = forms.CharField(
        label=gettext_lazy("Why is the list corrected?"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000
    )


class RawField(forms.Field):
    """A posted value as the browser sent it (absent: ``None``): the page itself says what is
    wrong with it, in its own words."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)


class RawListField(RawField):
    widget = forms.MultipleHiddenInput  # every value of a repeated field


class PageActionForm(forms.Form):
    """Which button of a page's form was pressed (``action``)."""

    action = RawField()

    def pressed(self, action: str) -> bool:
        return self.is_valid() and self.cleaned_data["action"] == action


class PoolBuilderForm(forms.Form):
    """The limited builder: ``main-<card id>`` per pool card, ``basic-<name>`` per basic land."""

    def __init__(self, data, pool_rows: list[dict]):
        super().__init__(data)
        self.pool_rows = pool_rows
        for row in pool_rows:
            self.fields[f"main-{row['card_id']}"] = RawField()
        for basic in BASICS:
            self.fields[f"basic-{basic}"] = RawField()

    def _raw(self, name: str) -> str:
        return (self.cleaned_data.get(name) or "0").strip()

    def clean(self):
        main, problems = [], []
        for row in self.pool_rows:
            raw = self._raw(f"main-{row['card_id']}")
            count = whole_numbers.parse(raw, maximum=INTEGER_MAX)
            if count is None:
                problems.append(
                    gettext("%(card)s: “%(value)s” is not a whole number.") % {"card": row["name"], "value": raw}
                )
                continue
            if count:
                main.append({"card_id": row["card_id"], "count": count})
        for basic in BASICS:
            raw = self._raw(f"basic-{basic}")
            count = whole_numbers.parse(raw, maximum=MAX_BASICS)
            if count is None:
                problems.append(
                    gettext("%(land)s: “%(value)s” is not a number of lands between 0 and %(limit)s.")
                    % {"land": basic, "value": raw, "limit": MAX_BASICS}
                )
                continue
            if count:
                main.append({"name": basic, "count": count})
        self.main, self.problems = main, problems
        return self.cleaned_data

    def main_entries(self) -> list[dict]:
        """The main deck as entries; ``invalid_count`` naming every count that is not one."""
        self.is_valid()
        if self.problems:
            raise DomainError(error_codes.INVALID_COUNT, " ".join(self.problems))
        return self.main

    def counts_as_sent(self) -> tuple[dict, dict]:
        """(pool card id -> count, basic -> count) as sent, to show the form again."""
        return (
            {row["card_id"]: self.data.get(f"main-{row['card_id']}", "0") for row in self.pool_rows},
            {basic: self.data.get(f"basic-{basic}", "0") for basic in BASICS},
        )


class DeckCheckSelectionForm(forms.Form):
    """Decks to check: a random share (``percent``, optional ``seed``) or the ticked ones."""

    method = RawField()
    registrations = RawListField()
    percent = RawField()
    seed = RawField()

    def selection(self) -> dict:
        """The service's arguments; ``invalid`` when the share or the seed is not a whole number."""
        self.is_valid()
        data = self.cleaned_data
        chosen = [n for n in (whole_numbers.parse(v) for v in data["registrations"] or []) if n is not None]
        percent = whole_numbers.parse(data["percent"] if data["percent"] is not None else "10", maximum=INTEGER_MAX)
        seed = (data["seed"] or "").strip()
        seed_number = whole_numbers.parse(seed, maximum=INTEGER_MAX) if seed else None
        if percent is None or (seed and seed_number is None):
            raise DomainError(error_codes.INVALID, gettext("Percent and seed are whole numbers."))
        return {
            "method": data["method"] or "",
            "registration_ids": chosen,
            "percent": percent,
            "seed": seed_number,
        }


class SelectionRefForm(forms.Form):
    """The deck check selection a check is recorded for (``selection``: the page's link or form)."""

    selection = RawField()

    def raw(self) -> str:
        self.is_valid()
        return self.cleaned_data["selection"] or ""


class DeckCheckForm(forms.Form):
    """A deck check: ``matches``, or per finding kind ``finding-<kind>`` with its
    ``description-``, ``cards-`` (separated by ";") and ``infraction-`` fields; ``notes``."""

    matches = RawField()
    notes = RawField()

    def __init__(self, data, kinds):
        super().__init__(data)
        self.kinds = [kind for kind, _ in kinds]
        for kind in self.kinds:
            for field in ("finding", "cards", "infraction", "description"):
                self.fields[f"{field}-{kind}"] = RawField()

    def ticked(self) -> set[str]:
        """The finding kinds ticked."""
        self.is_valid()
        return {kind for kind in self.kinds if self.cleaned_data[f"finding-{kind}"]}

    def found(self) -> list[dict]:
        data = self.cleaned_data
        found = []
        for kind in self.kinds:
            if data[f"finding-{kind}"]:
                cards = [c.strip() for c in (data[f"cards-{kind}"] or "").split(";") if c.strip()]
                infraction = data[f"infraction-{kind}"]
                found.append(
                    {
                        "kind": kind,
                        "description": data[f"description-{kind}"] or "",
                        "cards": cards,
                        **({"infraction": infraction} if infraction is not None else {}),
                    }
                )
        return found

    def outcome(self) -> tuple[list[dict], str]:
        """(findings, notes); ``invalid`` or ``required`` when the deck both matches and has
        findings, or neither (:func:`decks.findings.outcome_problem`)."""
        self.is_valid()
        found = self.found()
        problem = findings.outcome_problem(matches=bool(self.cleaned_data["matches"]), found=found)
        if problem is not None:
            raise DomainError(problem, _outcome_message(problem))
        return found, self.cleaned_data["notes"] or ""


def _outcome_message(problem: str) -> str:
    if problem == error_codes.INVALID:
        return gettext("A deck that matches has no findings.")
    return gettext("Tick “the deck matches the list”, or record what differs.")


class SealedPoolForm(forms.Form):
    """The organiser's sealed pool entry: the player's ``registration`` and the ``pool`` as text."""

    registration = RawField()
    pool = RawField()

    def registration_id(self) -> int:
        self.is_valid()
        registration_id = whole_numbers.parse(self.cleaned_data["registration"] or "")
        if registration_id is None:
            raise DomainError(error_codes.REQUIRED, gettext("Choose the player."), field="registration")
        return registration_id

    def pool_text(self) -> str:
        self.is_valid()
        return self.cleaned_data["pool"] or ""
