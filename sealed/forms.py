"""The sealed pages' forms: they read the POST; the services say what is allowed."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, gettext_lazy

from cards import selectors as card_selectors
from drafts import error_codes
from drafts.services import packs
from draftsite.bounds import ID_MAX
from draftsite.errors import DomainError
from events.boosters import KIND_LABELS
from events.forms import EventBasicsForm
from sealed.models import DEFAULT_BOOSTERS, MAX_BOOSTERS


class SealedEventForm(EventBasicsForm):
    paper = forms.BooleanField(
        required=False,
        label=gettext_lazy("Paper sealed: players open real boosters and register their pools (MTR 7.5 swap)"),
    )
    set_code = forms.CharField(label=gettext_lazy("Set"), widget=forms.Select)
    kind = forms.CharField(
        required=False,
        label=gettext_lazy("Booster kind"),
        widget=forms.Select,
        help_text=gettext_lazy(
            "The kind of booster opened. The list under the form says which kinds each set has "
            "and which collation each uses."
        ),
    )
    booster_count = forms.IntegerField(
        min_value=1, max_value=MAX_BOOSTERS, initial=DEFAULT_BOOSTERS, label=gettext_lazy("Boosters per player")
    )
    kit = forms.CharField(
        required=False,
        label=gettext_lazy("Mixed boosters (optional)"),
        help_text=gettext_lazy(
            "A prerelease kit mixing sets: one set code per booster, e.g. “DSK, DSK, DSK, DSK, MKM, "
            "MKM”; a code may name its booster kind, e.g. “ZNR draft” (else the kind above)."
        ),
    )

    def __init__(self, *args, set_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["set_code"].widget.choices = list(set_choices)
        kinds = [(name, str(label)) for name, label in KIND_LABELS.items() if name != "default"]
        self.fields["kind"].widget.choices = [("", gettext("The set's default (its newest booster)"))] + kinds

    def clean(self):
        data = super().clean()
        kind = (data.get("kind") or "").strip()
        rows: list[dict] = []
        fields: list[tuple[str, str]] = []  # where a refusal of each booster's set, and kind, is shown
        entries = [e.split() for e in (data.get("kit") or "").replace(";", ",").split(",") if e.strip()]
        if entries:
            for words in entries:
                if len(words) > 2:
                    self.add_error(
                        "kit",
                        gettext("“%(entry)s”: a set code and perhaps a booster kind.") % {"entry": " ".join(words)},
                    )
                    return data
                own_kind = len(words) == 2
                rows.append({"set_code": words[0], "kind": words[1] if own_kind else kind})
                fields.append(("kit", "kit" if own_kind else "kind"))
        elif data.get("set_code"):
            rows.append({"set_code": data["set_code"], "kind": kind})
            fields.append(("set_code", "kind"))
        # Each booster's set and kind, checked here so a refusal sits under the field that chose it.
        for row, (set_field, kind_field) in zip(rows, fields, strict=True):
            try:
                row["set_code"] = card_selectors.resolve_set(row["set_code"], field=set_field)
                packs.booster_kinds(row["set_code"]).get(row["kind"] or None)
            except DomainError as exc:
                where = kind_field if exc.code == error_codes.UNKNOWN_BOOSTER_KIND else set_field
                if where not in self.errors:
                    self.add_error(where, exc.message)
        data["booster_rows"] = rows
        return data

    def boosters(self) -> list[dict]:
        return list(self.cleaned_data["booster_rows"])


class PoolForm(forms.Form):
    pool = forms.CharField(
        label=gettext_lazy("Your pool"),
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
        max_length=20000,
        help_text=gettext_lazy("One “count name” line per card, in any language."),
    )


class AnswerForm(forms.Form):
    confirm = forms.BooleanField(required=False)
    reason = forms.CharField(required=False, max_length=200, label=gettext_lazy("What is wrong with it?"))


class AssignForm(forms.Form):
    registration = forms.IntegerField(required=False, min_value=1, max_value=ID_MAX)
