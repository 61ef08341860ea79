"""A signed-in person's pages in their preferred language (their profile), ahead of the
language cookie and the browser's Accept-Language that Django's LocaleMiddleware reads."""

from __future__ import annotations

from django.utils import translation
from django.utils.deprecation import MiddlewareMixin

from accounts.models import Profile
from accounts.selectors import LANGUAGE_CODES


class ProfileLanguageMiddleware(MiddlewareMixin):
    def process_request(self, request):
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        language = Profile.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
        if language in LANGUAGE_CODES:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return None
