"""What the paper draft's pages read from a posted form (the services check every value)."""

from __future__ import annotations

from django import forms

from draftsite import whole_numbers
from draftsite.forms import PostedListField, PostedTextField, WholeNumberField


class RoomControlForm(forms.Form):
    delay_seconds = WholeNumberField(missing=0)
    pods = PostedListField()

    def pod_ids(self) -> list[int]:
        """The pods ticked for a flight (anything that is not an id is left out)."""
        return [pk for pk in (WholeNumberField().to_python(value) for value in self.cleaned_data["pods"]) if pk]


class ControlForm(forms.Form):
    delay_seconds = WholeNumberField(missing=0)
    reason = PostedTextField()


class PostDfcForm(forms.Form):
    card = PostedTextField()
    count = WholeNumberField(missing=1)

    def card_name_or_id(self) -> str | int:
        card = (self.cleaned_data["card"] or "").strip()
        number = whole_numbers.parse(card)
        return card if number is None else number
