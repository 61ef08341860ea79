"""The judge-call pages' forms: they never refuse; the services check every value."""

from __future__ import annotations

from django import forms

from draftsite.forms import PostedTextField, WholeNumberField


class CallForm(forms.Form):
    reason = PostedTextField()


class NoteForm(forms.Form):
    note = PostedTextField()


class ExtensionForm(forms.Form):
    minutes = WholeNumberField(limit=1000)
    reason = PostedTextField()


class ResolveForm(forms.Form):
    outcome = PostedTextField()
    note = PostedTextField()
    penalty_id = WholeNumberField(limit=2**31)
