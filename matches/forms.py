"""What the match pages read from a posted form (the services check every value)."""

from __future__ import annotations

from functools import partial

from django import forms

from draftsite.forms import PostedListField, PostedTextField, WholeNumberField, whole_number
from matches.models import PairingMode

MAX_ID = 2**31 - 1  # no id or score is larger: anything beyond reads as no number

# A form's whole number, or None.
number = partial(whole_number, limit=MAX_ID)
Number = partial(WholeNumberField, limit=MAX_ID)


class SettingsForm(forms.Form):
    mode = PostedTextField(missing=PairingMode.PER_POD)
    swiss_rounds = Number()
    round_minutes = Number(missing=0)
    playoff_size = Number(missing=0)


class PairForm(forms.Form):
    pod = PostedListField()
    all_pods = PostedTextField()


class RepairForm(forms.Form):
    first = Number()
    second = Number()
    reason = PostedTextField()


class ReportForm(forms.Form):
    won = Number()
    lost = Number()
    drawn = Number(missing=0)
    # The page's idempotency key: a double tap, or a result queued offline, reports once.
    key = PostedTextField(missing="")


class ResultForm(forms.Form):
    a_wins = Number()
    b_wins = Number()
    draws = Number(missing=0)
    reason = PostedTextField()


class ExtensionForm(forms.Form):
    minutes = Number()
    reason = PostedTextField()


class DropForm(forms.Form):
    registration = Number()
    reason = PostedTextField()
