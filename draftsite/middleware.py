"""Site-wide hardening: clean answers when the database is away or a body is too big, and
login throttling on the HTML login page and the API token endpoint.

``ResilienceMiddleware``
    * A ``django.db.OperationalError``/``InterfaceError`` escaping a view (PostgreSQL restarting,
      the pool timing out) becomes 503 with ``Retry-After``: the API's JSON error shape with code
      ``service_unavailable``, a friendly page for browsers. Services run in one
      ``transaction.atomic``, so nothing is half-written; the broken connection is discarded at
      the end of the request and the next request gets a fresh one (no restart needed).
    * A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (JSON, forms) is refused before it is read:
      413 ``request_too_large`` (JSON for the API). Multipart uploads are left to the views,
      which check file sizes themselves (decks: ``file_too_large``).

``LoginThrottleMiddleware``
    Counts failed logins per (username, client address) in the cache; after
    ``LOGIN_FAILURE_LIMIT`` failures the pair is locked for ``LOGIN_LOCKOUT_SECONDS``: the login
    page answers 429 with a form error, the token endpoint 429 ``login_locked``. A successful
    login clears the count.
"""

from __future__ import annotations

import hashlib
import logging

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.core.exceptions import BadRequest, PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError, connections
from django.dispatch import receiver
from django.http import Http404, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext, ngettext

from draftsite import whole_numbers
from draftsite.clients import client_address
from draftsite.errors import json_error, wants_json
from draftsite.views import page_not_found
from draftsite.whole_numbers import InvalidNumber

logger = logging.getLogger(__name__)

SERVICE_UNAVAILABLE = "service_unavailable"
REQUEST_TOO_LARGE = "request_too_large"
LOGIN_LOCKED = "login_locked"
INVALID_TEXT = "invalid_text"
SERVER_ERROR = "server_error"
# Exceptions Django itself turns into 4xx answers (and, for the API, DRF's handler before it).
_ANSWERED_BY_DJANGO = (Http404, PermissionDenied, BadRequest, SuspiciousOperation, MultiPartParserError)


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def _json_error(code: str, message: str, status: int, **headers) -> JsonResponse:
    response = json_error(code, message, status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def _retry_after() -> str:
    return str(getattr(settings, "SERVICE_RETRY_AFTER_SECONDS", 5))


class ResilienceMiddleware(MiddlewareMixin):
    """Sync and async capable (MiddlewareMixin): the ASGI site runs its chain in sync mode
    (draftsite.threads.OneHopHandler), Django's test client too."""

    def process_request(self, request):
        if (
            "\x00" in request.path_info  # a path's token or name (/api/staff-invitations/%00/accept/)
            or "%00" in request.META.get("QUERY_STRING", "")
            or any("\x00" in key or any("\x00" in v for v in values) for key, values in request.GET.lists())
        ):
            # PostgreSQL refuses NUL in any text it is given (a filter, a search, a token): refuse
            # it here for every page and endpoint rather than let a query fail with a 500.
            message = gettext("The address contains a NUL character.")
            if wants_json(request):
                return _json_error(INVALID_TEXT, message, 400)
            return render(
                request, "error.html", {"title": gettext("Bad request"), "status": 400, "message": message}, status=400
            )
        return None

    def process_view(self, request, view_func, view_args, view_kwargs):
        # Here rather than in process_request: the session and user are known by now, so the
        # 413 page shows the player still signed in (it used to look signed out).
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is None:
            return None
        content_type = request.META.get("CONTENT_TYPE", "")
        if content_type.startswith("multipart/form-data"):
            # File parts do not count towards Django's limit (views check files); the other
            # fields do. Pages parse the form here, so an oversized field is a 413 rather
            # than an error inside the CSRF check. API views parse their own bodies.
            if request.method == "POST" and not _is_api(request):
                try:
                    request.POST  # noqa: B018 - parsed once, cached on the request
                except RequestDataTooBig:
                    return _too_large(request, None, limit)
            return None
        length = whole_numbers.parse(request.META.get("CONTENT_LENGTH") or "0") or 0
        if length <= limit:
            return None
        return _too_large(request, length, limit)

    def process_exception(self, request, exception):
        if isinstance(exception, InvalidNumber):
            # draftsite.whole_numbers: a page's (or a JSON view's) query or form value that is
            # not a whole number. API views answer it through the API's handler already.
            if wants_json(request):
                return JsonResponse({"detail": exception.message, "errors": [exception.as_error()]}, status=400)
            return render(
                request,
                "error.html",
                {"title": gettext("Bad request"), "status": 400, "message": exception.message},
                status=400,
            )
        if isinstance(exception, RequestDataTooBig):
            return _too_large(request, None, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        if isinstance(exception, (OperationalError, InterfaceError)):
            logger.warning("Database unavailable during %s %s: %s", request.method, request.path, exception)
            # Drop a broken connection now (Django also does at request end), so the next
            # request on this thread starts with a fresh one; with the pool, a dead
            # connection is discarded on return instead of being handed out again.
            for connection in connections.all(initialized_only=True):
                if connection.in_atomic_block:
                    continue  # an outer transaction (a test's) still owns it
                try:
                    connection.close_if_unusable_or_obsolete()
                except Exception:  # closing a dead connection may fail too
                    pass
            message = gettext("The service is briefly unavailable. Please try again in a few seconds.")
            if _is_api(request):
                return _json_error(SERVICE_UNAVAILABLE, message, 503, Retry_After=_retry_after())
            # Rendered without the request: context processors (the signed-in user, roles)
            # would query the database that just failed.
            html = render_to_string(
                "error.html",
                {
                    "title": gettext("Briefly unavailable"),
                    "status": 503,
                    "message": gettext(
                        "The site cannot reach its database right now. Nothing was lost: please try again in a few seconds."
                    ),
                },
            )
            response = HttpResponse(html, status=503)
            response["Retry-After"] = _retry_after()
            return response
        if wants_json(request) and not isinstance(exception, _ANSWERED_BY_DJANGO):
            # A bug under /api/ (or in a JSON view): the API's error shape, with DEBUG on too
            # (Django would draw its HTML debug page); logged and signalled as Django would.
            logger.error("Internal Server Error: %s", request.path, exc_info=exception)
            got_request_exception.send(sender=self.__class__, request=request)
            return _json_error(SERVER_ERROR, gettext("The error has been logged. Please try again in a moment."), 500)
        return None


class ApiNotFoundMiddleware(MiddlewareMixin):
    """An unknown path under /api/ answers the API's JSON ``not_found`` even with ``DEBUG`` on
    (the demo): Django then draws its HTML debug page instead of calling ``handler404``. Sits
    outside CommonMiddleware, so /api/cards still redirects to /api/cards/ first."""

    def process_response(self, request, response):
        if (
            response.status_code == 404
            and _is_api(request)
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            return page_not_found(request)
        return response


def _too_large(request, length, limit):
    if length is not None:
        message = gettext("The request body is %(size)s KB; the limit is %(limit)s KB.") % {
            "size": length // 1024,
            "limit": limit // 1024,
        }
    else:
        message = gettext("The request body is too large; the limit is %(limit)s KB.") % {"limit": limit // 1024}
    if _is_api(request):
        return _json_error(REQUEST_TOO_LARGE, message, 413)
    return render(
        request,
        "error.html",
        {
            "title": gettext("Request too large"),
            "status": 413,
            "message": message,
            "advice": "Nothing was saved. Go back: your browser keeps what you typed, so you can "
            "shorten it and send it again.",
            "back": True,
        },
        status=413,
    )


# --- Login throttling -------------------------------------------------------------------


def _failure_limit() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_LIMIT", 5))


def _lockout_seconds() -> int:
    return int(getattr(settings, "LOGIN_LOCKOUT_SECONDS", 300))


def _key(username: str, address: str) -> str:
    # "surrogatepass": a lone surrogate in a username must not break the count (a 500).
    digest = hashlib.sha256(f"{username.strip().lower()}|{address}".encode("utf-8", "surrogatepass")).hexdigest()
    return f"login-failures:{digest}"


def failures(username: str, address: str) -> int:
    return cache.get(_key(username, address), 0)


def is_locked(username: str, address: str) -> bool:
    return bool(username) and failures(username, address) >= _failure_limit()


@receiver(user_login_failed, dispatch_uid="draftsite-login-failed")
def _count_failure(sender, credentials, request=None, **kwargs):
    if request is None:
        return
    username = credentials.get("username") or ""
    if not username:
        return
    key = _key(username, client_address(request))
    try:
        cache.add(key, 0, _lockout_seconds())
        cache.incr(key)
        cache.touch(key, _lockout_seconds())  # the lock lasts from the latest failure
    except ValueError:  # expired between add and incr
        cache.set(key, 1, _lockout_seconds())


@receiver(user_logged_in, dispatch_uid="draftsite-login-succeeded")
def _clear_failures(sender, request, user, **kwargs):
    if request is not None:
        cache.delete(_key(user.get_username(), client_address(request)))


class LoginThrottleMiddleware(MiddlewareMixin):
    @staticmethod
    def _paths() -> tuple[str | None, str | None]:
        try:
            login = reverse("login")
        except NoReverseMatch:
            login = None
        try:
            token = reverse("api-token")
        except NoReverseMatch:
            token = None
        return login, token

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method != "POST":
            return None
        login_path, token_path = self._paths()
        if request.path not in (login_path, token_path):
            return None
        if request.path == token_path:
            username = _token_username(request)
        else:
            username = request.POST.get("username", "")
        if not is_locked(username, client_address(request)):
            return None
        minutes = max(1, _lockout_seconds() // 60)
        message = ngettext(
            "Too many failed sign-in attempts for this account from your address. Try again in %(minutes)s minute.",
            "Too many failed sign-in attempts for this account from your address. Try again in %(minutes)s minutes.",
            minutes,
        ) % {"minutes": minutes}
        if request.path == token_path:
            return _json_error(LOGIN_LOCKED, message, 429, Retry_After=str(_lockout_seconds()))
        from django.contrib.auth.forms import AuthenticationForm

        form = AuthenticationForm(request, data=None, initial={"username": username})
        form.cleaned_data = {}
        form.add_error(None, message)  # shows as a non-field error on the page
        response = render(
            request,
            "registration/login.html",
            {"form": form, "title": gettext("Sign in"), "next": request.POST.get("next", "")},
            status=429,
        )
        response["Retry-After"] = str(_lockout_seconds())
        return response


def _token_username(request) -> str:
    content_type = request.META.get("CONTENT_TYPE", "")
    if content_type.startswith("application/json"):
        from rest_framework.exceptions import ParseError

        from draftsite.parsers import loads

        try:
            data = loads(request.body or b"{}")
        except ParseError:
            return ""  # the view answers the bad body with a 400 of its own
        value = data.get("username", "") if isinstance(data, dict) else ""
        return value if isinstance(value, str) else ""
    return request.POST.get("username", "")


class ReceivedAtMiddleware:
    """Stamp when the server received the request, before any queueing behind it.

    The draft engine's timer rule counts a pick by the moment the server received it, so a
    slow database or a busy process never turns a pick made in time into a timeout pick.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request):
        if getattr(request, "received_at", None) is None:  # the ASGI handler's stamp is earlier
            request.received_at = timezone.now()
        return self.get_response(request)  # a coroutine when the chain is async: awaited upstream
