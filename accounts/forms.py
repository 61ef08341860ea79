"""Sign-up, profile, password reset in the account's own language, and the organiser's
registration settings."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.utils import translation
from django.utils.translation import gettext_lazy

from accounts import selectors

LANGUAGE_CHOICES = [("", gettext_lazy("As my browser says")), *settings.LANGUAGES]


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=gettext_lazy("Email"), help_text=gettext_lazy("For password resets and notices."))
    display_name = forms.CharField(
        label=gettext_lazy("Display name"),
        max_length=100,
        required=False,
        help_text=gettext_lazy("The name on pairings and seatings; empty: your username."),
    )
    language = forms.ChoiceField(label=gettext_lazy("Preferred language"), choices=LANGUAGE_CHOICES, required=False)

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self):
        email = self.cleaned_data["email"].strip()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                gettext_lazy("An account with this email exists: sign in or reset its password.")
            )
        return email


class ProfileForm(forms.Form):
    display_name = forms.CharField(label=gettext_lazy("Display name"), max_length=100, required=False)
    language = forms.ChoiceField(label=gettext_lazy("Preferred language"), choices=LANGUAGE_CHOICES, required=False)
    email_pairings = forms.BooleanField(label=gettext_lazy("Email me when pairings are posted"), required=False)
    email_round_start = forms.BooleanField(label=gettext_lazy("Email me when a round starts"), required=False)


class LocalizedPasswordResetForm(PasswordResetForm):
    """The reset mail in the account's preferred language, not the requester's page's."""

    def send_mail(
        self, subject_template_name, email_template_name, context, from_email, to_email, html_email_template_name=None
    ):
        with translation.override(selectors.language_of(context["user"])):
            super().send_mail(
                subject_template_name, email_template_name, context, from_email, to_email, html_email_template_name
            )


class RegistrationSettingsForm(forms.Form):
    capacity = forms.IntegerField(
        label=gettext_lazy("Capacity"),
        min_value=1,
        max_value=10000,
        required=False,
        help_text=gettext_lazy("Empty: no limit."),
    )
    deadline = forms.DateTimeField(
        label=gettext_lazy("Registration closes at"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    waitlist = forms.BooleanField(label=gettext_lazy("Waitlist when full"), required=False)


MAX_LIST_BYTES = 1_048_576


class PlayerListForm(forms.Form):
    players = forms.CharField(
        label=gettext_lazy("Paste the list"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "name,email,username"}),
        help_text=gettext_lazy("One player a line: name, email and an optional username (CSV)."),
    )
    file = forms.FileField(label=gettext_lazy("Or upload a CSV file"), required=False)

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_LIST_BYTES:
                raise forms.ValidationError(gettext_lazy("The file is larger than 1 MB."))
            try:
                data["text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(gettext_lazy("The file is not UTF-8 text.")) from None
        else:
            data["text"] = data.get("players") or ""
        if not data["text"].strip():
            raise forms.ValidationError(gettext_lazy("Paste a list or choose a file."))
        return data
