"""Site-wide pages: home, health check and friendly error pages."""

from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from draftsite import upkeep
from draftsite.errors import json_error, wants_json
from events.views.pages import my_event_rows


def home(request):
    context = {"title": gettext("Home")}
    if request.user.is_authenticated:  # your events first (issue 46: the home page listed none)
        context["rows"] = my_event_rows(request.user)
    return render(request, "home.html", context)


def favicon(request):
    """Browsers ask for /favicon.ico whatever the page says; send them to the site's icon."""
    return HttpResponsePermanentRedirect(staticfiles_storage.url("favicon.svg"))


def healthz(request):
    """Load-balancer probe: the database and the cache (Redis when configured) answer; and
    whether the database keeps itself fast (``database_upkeep``: autovacuum, stale statistics)."""
    checks = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except Exception as exc:  # any driver error means "not healthy", never a 500 page
        checks["database"] = f"error: {exc.__class__.__name__}"
    try:
        cache.set("healthz", "1", 5)
        checks["cache"] = "ok" if cache.get("healthz") == "1" else "error: no round trip"
    except Exception as exc:
        checks["cache"] = f"error: {exc.__class__.__name__}"
    healthy = all(value == "ok" for value in checks.values())
    body: dict = {"status": "ok" if healthy else "unavailable", "checks": checks}
    if checks["database"] == "ok":
        # Not a reason to leave the pool, but what will make it slow (draftsite.upkeep).
        try:
            body["database_upkeep"] = upkeep.report()
        except Exception as exc:
            body["database_upkeep"] = {"error": exc.__class__.__name__}
    return JsonResponse(body, status=200 if healthy else 503)


def _error_page(request, status, title, message):
    return render(request, "error.html", {"title": title, "message": message, "status": status}, status=status)


def bad_request(request, exception=None):
    if wants_json(request):
        return json_error("bad_request", _("The request could not be understood."), 400)
    return _error_page(request, 400, _("Bad request"), _("The request could not be understood."))


def permission_denied(request, exception=None):
    """The 403 page says why when the refusal does: ``drafts.views.common.on_page`` and the
    services raise PermissionDenied with their message, already in the reader's language."""
    reason = str(exception) if exception is not None and exception.args else ""
    return _error_page(request, 403, _("Not allowed"), reason or _("You do not have access to this page."))


def page_not_found(request, exception=None):
    if request.path.startswith("/api/"):
        # API clients parse one error shape everywhere, unknown paths included.
        return json_error("not_found", _("There is nothing at this address."), 404)
    return _error_page(request, 404, _("Not found"), _("There is nothing at this address."))


def server_error(request):
    if wants_json(request):
        # A bug under /api/ (or in a JSON view) still answers the one JSON error shape.
        return json_error("server_error", _("The error has been logged. Please try again in a moment."), 500)
    return _error_page(
        request, 500, _("Something went wrong"), _("The error has been logged. Please try again in a moment.")
    )
