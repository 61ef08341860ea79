"""Forms of the event pages every kind of event shares: what an event asks first, registering a
player, its staff, its invitations and its settings."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from events.models import EnforcementLevel, StaffRole


class EventBasicsForm(forms.Form):
    """What every kind of event asks first (its name, day and rules enforcement level); each
    kind's form adds its own fields after these (drafts' EventForm, sealed's SealedEventForm)."""

    # Labelled: a field's default label is its English name, which no catalogue translates.
    name = forms.CharField(
        max_length=200, label=gettext_lazy("Name"), widget=forms.TextInput(attrs={"autocomplete": "off"})
    )
    date = forms.DateField(
        label=gettext_lazy("Date"), widget=forms.DateInput(attrs={"type": "date"}), initial=timezone.localdate
    )
    enforcement_level = forms.ChoiceField(
        choices=EnforcementLevel.choices,
        initial=EnforcementLevel.REGULAR,
        label=gettext_lazy("Rules enforcement level"),
    )


class StaffForm(forms.Form):
    username = forms.CharField(
        max_length=150, label=_("Account (username)"), widget=forms.TextInput(attrs={"autocomplete": "off"})
    )
    role = forms.ChoiceField(choices=StaffRole.choices, initial=StaffRole.JUDGE, label=_("Role"))


class InvitationForm(forms.Form):
    role = forms.ChoiceField(choices=StaffRole.choices, initial=StaffRole.JUDGE, label=_("Role"))


class EventSettingsForm(forms.Form):
    name = forms.CharField(max_length=200, label=_("Name"))
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label=_("Date"))
    enforcement_level = forms.ChoiceField(choices=EnforcementLevel.choices, label=_("Rules enforcement level"))
    pick_timer = forms.BooleanField(required=False, label=_("Pick timer on"))
    deck_building_minutes = forms.IntegerField(min_value=1, max_value=180, label=_("Deck-building minutes"))
    decklist_deadline = forms.DateTimeField(
        required=False,
        label=_("Decklist deadline"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("Registered lists lock at this moment (leave empty for no deadline)."),
    )
    decklists_published = forms.BooleanField(
        required=False,
        label=_("Decklists published"),
        help_text=_("Every player may then read every registered list and every draft log with its packs."),
    )


class StaffRoleForm(forms.Form):
    role = forms.CharField(required=False, strip=False)  # the service says which roles exist


# The draft page's and pod page's buttons (no script): hidden fields. A field missing or not a
# number reads as None, and the page or service says what is wrong.


# Every number is bounded by its column's range (draftsite.bounds): PostgreSQL refuses one past it.


class RegistrationForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        required=False,
        label=gettext_lazy("Account (username)"),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    name = forms.CharField(
        max_length=100,
        required=False,
        label=gettext_lazy("Or a guest's name"),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def clean(self):
        data = super().clean()
        if bool((data.get("username") or "").strip()) == bool((data.get("name") or "").strip()):
            raise forms.ValidationError(gettext("Give either an account's username or a guest's name."))
        return data
