"""Form fields for pages whose services check every value themselves.

Such a form never refuses anything: a value that is not a whole number is ``None`` (the service
says what is wrong, with the message the page shows), text is passed on as typed (the service
cleans it)."""

from __future__ import annotations

from django import forms

from draftsite import whole_numbers


def whole_number(value, limit: int | None = None) -> int | None:
    """A form's whole number, or None (also beyond ``limit`` either way, when there is one)."""
    bound = 10**20 if limit is None else limit
    return whole_numbers.parse(value, minimum=-bound, maximum=bound)


class WholeNumberField(forms.Field):
    def __init__(self, *, missing: int | None = None, limit: int | None = None, **kwargs):
        self.missing = missing  # what an empty, unreadable or zero value stands for
        self.limit = limit
        super().__init__(required=False, **kwargs)

    def to_python(self, value):
        number = whole_number(value, self.limit)
        return self.missing if number is None or (self.missing is not None and not number) else number


class PostedTextField(forms.Field):
    def __init__(self, *, missing: str = "", **kwargs):
        self.missing = missing  # what a value left out of the form stands for
        super().__init__(required=False, **kwargs)

    def to_python(self, value):
        return self.missing if value is None else value


class PostedListField(forms.Field):
    widget = forms.MultipleHiddenInput

    def __init__(self, **kwargs):
        super().__init__(required=False, **kwargs)

    def to_python(self, value):
        return list(value or [])


def posted(form_class: type[forms.Form], data) -> dict:
    """The values of one of these forms (always valid)."""
    form = form_class(data)
    form.is_valid()
    return form.cleaned_data


class BackForm(forms.Form):
    next = PostedTextField()


def back_to(data, fallback: str) -> str:
    """The page a post names to go back to (``next``), if it is a path on this site; else
    ``fallback`` (never another host: ``//host`` is refused too)."""
    target = posted(BackForm, data)["next"] or ""
    return target if target.startswith("/") and not target.startswith("//") else fallback
