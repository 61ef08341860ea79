"""Who a request comes from, as the login lockout and the API's throttles count it. A module of
its own: the API helpers (``draftsite.api``, which every app's API imports, the events app's
too) need it without the middleware, whose error pages reach the home page and the apps above.
"""

from __future__ import annotations

from django.conf import settings


def client_address(request) -> str:
    if getattr(settings, "BEHIND_PROXY", False):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded:
            return forwarded.split(",")[0].strip()
    return request.META.get("REMOTE_ADDR", "") or "unknown"
