"""The sealed pages' forms: they read the POST; the services say what is allowed."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from drafts.forms import EventBasicsForm
from draftsite.bounds import ID_MAX
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
        help_text=gettext_lazy("Empty: the set's default boosters."),
    )
    booster_count = forms.IntegerField(
        min_value=1, max_value=MAX_BOOSTERS, initial=DEFAULT_BOOSTERS, label=gettext_lazy("Boosters per player")
    )
    kit = forms.CharField(
        required=False,
        label=gettext_lazy("Mixed boosters (optional)"),
        help_text=gettext_lazy(
            "A prerelease kit mixing sets: one set code per booster, e.g. “DSK, DSK, DSK, DSK, MKM, MKM”."
        ),
    )

    def __init__(self, *args, set_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["set_code"].widget.choices = list(set_choices)

    def boosters(self) -> list[dict]:
        data = self.cleaned_data
        kit = [code.strip() for code in (data.get("kit") or "").replace(";", ",").split(",") if code.strip()]
        kind = (data.get("kind") or "").strip()
        return [{"set_code": code, "kind": kind} for code in kit] or [{"set_code": data["set_code"], "kind": kind}]


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
