"""HTML forms of the penalties pages (the services do the real checks)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, gettext_lazy

from draftsite.forms import PostedListField
from penalties import selectors
from penalties.models import Decision, PenaltyKind, PenaltyStatus
from penalties.sources import deck_check_label, describe_source, pick_label

TEXT = {"rows": 4, "maxlength": 5000}


class IssueForm(forms.Form):
    registration = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int)
    infraction = forms.ChoiceField(label=gettext_lazy("Infraction (IPG)"))
    penalty = forms.ChoiceField(
        label=gettext_lazy("Penalty"),
        required=False,
        help_text=gettext_lazy(
            "Leave on the IPG default: it follows the catalogue, the event's enforcement level and the automatic upgrade of repeat warnings. Anything else goes to the head judge."
        ),
    )
    deviation_reason = forms.CharField(
        label=gettext_lazy("Reason for deviating from the default"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": 5000}),
    )
    description = forms.CharField(
        label=gettext_lazy("What happened"), widget=forms.Textarea(attrs=TEXT), max_length=5000
    )
    fix = forms.CharField(
        label=gettext_lazy("Fix applied"),
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": 5000}),
    )
    match_round = forms.IntegerField(label=gettext_lazy("Match round"), required=False, min_value=1, max_value=99)
    pod = forms.TypedChoiceField(label=gettext_lazy("Draft pod"), required=False, coerce=int, empty_value=None)
    draft_round = forms.IntegerField(label=gettext_lazy("Pack (draft round)"), required=False, min_value=1, max_value=9)
    pick_number = forms.IntegerField(label=gettext_lazy("Pick"), required=False, min_value=1, max_value=99)
    # The page offers the event's deck checks and timer picks by name; the API takes the code.
    source = forms.ChoiceField(
        label=gettext_lazy("Prompted by"),
        required=False,
        help_text=gettext_lazy("A deck check or an automatic pick of this event that led to the penalty, if any."),
    )
    judge_statement = forms.CharField(
        label=gettext_lazy("Your statement (for a disqualification report)"),
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": 5000}),
    )

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        self.fields["registration"].choices = [("", gettext("Choose a player"))] + [
            (r.pk, r.name) for r in event.registrations.order_by("name")
        ]
        self.fields["infraction"].choices = [("", gettext("Choose an infraction"))] + [
            (
                i.code,
                gettext("%(section)s %(name)s — default %(penalty)s")
                % {"section": i.section, "name": i.display_name, "penalty": i.default_label(event.enforcement_level)},
            )
            for i in selectors.infractions()
        ]
        self.fields["penalty"].choices = [("", gettext("IPG default"))] + list(PenaltyKind.choices)
        self.fields["source"].choices = self._source_choices(event)
        self.fields["pod"].choices = [("", "—")] + [
            (p.pk, gettext("Pod %(number)s") % {"number": p.number}) for p in event.pods.order_by("number")
        ]

    def _source_choices(self, event) -> list[tuple[str, str]]:
        choices = [("", gettext("Nothing else (what the judge saw)"))]
        choices += [(f"deck_check:{c.pk}", deck_check_label(c)) for c in selectors.deck_checks(event)]
        choices += [(f"pick:{p.pk}", pick_label(p)) for p in selectors.timeout_picks(event)]
        # A source a link filled in (a judge call's proposal) or that was posted stays choosable;
        # the service checks it as the API does.
        current = str(self.data.get("source", "") if self.is_bound else self.initial.get("source", "") or "")
        if current and current not in {value for value, _ in choices}:
            choices.append((current, describe_source(event, current)))
        return choices


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=Decision.choices, widget=forms.RadioSelect)
    penalty = forms.ChoiceField(
        label=gettext_lazy("New penalty (upgrade or downgrade)"),
        required=False,
        choices=[("", "—")] + list(PenaltyKind.choices),
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"), max_length=5000, widget=forms.Textarea(attrs={"rows": 3, "maxlength": 5000})
    )
    # Sent by the confirm page and the admin's appeal checkbox; the templates write them by hand.
    confirm = forms.CharField(required=False, strip=False)
    appeal = forms.CharField(required=False, strip=False)

    def new_kind(self) -> str | None:
        """The new penalty: only an upgrade or a downgrade takes one."""
        if self.cleaned_data["decision"] in (Decision.UPHOLD, Decision.WITHDRAW):
            return None
        return self.cleaned_data["penalty"] or None

    def confirmed(self) -> bool:
        return self.cleaned_data["confirm"] == "yes"

    def decides_appeal(self) -> bool:
        return self.cleaned_data["appeal"] == "yes"


class StatementForm(forms.Form):
    statement = forms.CharField(
        label=gettext_lazy("Statement"), max_length=5000, widget=forms.Textarea(attrs={"rows": 4, "maxlength": 5000})
    )


class DismissForm(forms.Form):
    source = forms.CharField(max_length=60, widget=forms.HiddenInput)
    reason = forms.CharField(label=gettext_lazy("Why no penalty"), max_length=5000)


class DismissManyForm(forms.Form):
    source = PostedListField()  # the ticked picks, "pick:<id>" each
    reason = forms.CharField(label=gettext_lazy("Why no penalty"), max_length=5000)


class FilterForm(forms.Form):
    # Labelled: a field's default label is its English name, which no catalogue translates.
    status = forms.ChoiceField(
        label=gettext_lazy("Status"),
        required=False,
        choices=[("", gettext_lazy("Any status"))] + list(PenaltyStatus.choices),
    )
    penalty = forms.ChoiceField(
        label=gettext_lazy("Penalty"),
        required=False,
        choices=[("", gettext_lazy("Any penalty"))] + list(PenaltyKind.choices),
    )
    infraction = forms.ChoiceField(label=gettext_lazy("Infraction"), required=False)
    q = forms.CharField(label=gettext_lazy("Player or text"), required=False, max_length=100)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["infraction"].choices = [("", gettext("Any infraction"))] + [
            (i.code, f"{i.section} {i.display_name}") for i in selectors.infractions(active_only=False)
        ]
