"""Domain errors and the one place that turns any API error into JSON.

Every error body has the same shape::

    {"detail": "human readable summary",
     "errors": [{"code": "stable_code", "message": "...", "field": "...", ...}]}

Apps raise :class:`DomainError` subclasses from their services with a code from their own
``error_codes.py``; the handler below renders them, DRF's own exceptions and Django's
``Http404``/``PermissionDenied`` alike, so clients only ever parse one format.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, JsonResponse
from django.urls import Resolver404, resolve
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from draftsite.i18n import localize


class DomainError(Exception):
    """A rule of the domain said no. ``code`` is stable; ``message`` is for people."""

    status_code: int = status.HTTP_400_BAD_REQUEST

    def __init__(self, code: str, message: str, status_code: int | None = None, **extra: Any):
        # Messages from the plain-Python cores are translated here, into the request's language.
        message = localize(message)
        super().__init__(message)
        self.code = code
        self.message = message
        if status_code is not None:
            self.status_code = status_code
        self.extra = extra

    def as_error(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


class NotFoundError(DomainError):
    status_code = status.HTTP_404_NOT_FOUND


class ConflictError(DomainError):
    status_code = status.HTTP_409_CONFLICT


class ForbiddenError(DomainError):
    status_code = status.HTTP_403_FORBIDDEN


def answers_json(view):
    """Mark a view outside ``/api/`` that answers JSON: its errors are the API's JSON shape
    too, also those the middleware and Django's error handlers answer (:func:`wants_json`)."""
    view.answers_json = True
    return view


def wants_json(request) -> bool:
    """Whether an error for ``request`` is the API's JSON shape rather than a page: every path
    under ``/api/``, and the views marked :func:`answers_json`."""
    if request.path.startswith("/api/"):
        return True
    match = getattr(request, "resolver_match", None)
    if match is None:
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return False
    return getattr(match.func, "answers_json", False)


def json_error(code: str, message: str, status_code: int) -> JsonResponse:
    """The API's error shape outside DRF (middleware, Django's error handlers, JSON views)."""
    return JsonResponse({"detail": message, "errors": [{"code": code, "message": message}]}, status=status_code)


# Codes for DRF's own exceptions, so they are as stable as ours.
_DRF_CODES = {
    exceptions.ParseError: "malformed_request",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
}


def _flatten_validation(detail: Any, field: str | None = None) -> list[dict[str, Any]]:
    """Turn DRF's nested ValidationError detail into a flat list of coded errors."""
    if isinstance(detail, dict):
        errors: list[dict[str, Any]] = []
        for key, value in detail.items():
            name = key if key != "non_field_errors" else None
            path = f"{field}.{name}" if field and name else (name or field)
            errors.extend(_flatten_validation(value, path))
        return errors
    if isinstance(detail, list):
        errors = []
        for index, item in enumerate(detail):
            if isinstance(item, (dict, list)) and not isinstance(item, exceptions.ErrorDetail):
                errors.extend(_flatten_validation(item, f"{field}[{index}]" if field else str(index)))
            else:
                errors.extend(_flatten_validation(item, field))
        return errors
    code = getattr(detail, "code", None) or "invalid"
    error: dict[str, Any] = {"code": str(code), "message": str(detail)}
    if field:
        error["field"] = field
    return [error]


def error_response(
    errors: list[dict[str, Any]], status_code: int, detail: str | None = None, headers: dict[str, str] | None = None
) -> Response:
    """Build the one error body every API endpoint uses."""
    if detail is None:
        detail = errors[0]["message"] if errors else "Request failed."
    return Response({"detail": detail, "errors": errors}, status=status_code, headers=headers)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF exception handler: every API error becomes ``{"detail", "errors"}``."""
    if isinstance(exc, DomainError):
        return error_response([exc.as_error()], exc.status_code, exc.message)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a real bug: let Django log it and answer 500

    headers = {k: v for k, v in response.items() if k in ("WWW-Authenticate", "Retry-After", "Allow")}
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten_validation(exc.detail)
        summary = "Invalid input."
        if errors:
            first = errors[0]
            summary = f"{first['field']}: {first['message']}" if "field" in first else first["message"]
        return error_response(errors, response.status_code, summary, headers)

    code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), None)
    detail_code = getattr(getattr(exc, "detail", None), "code", None)
    if isinstance(exc, exceptions.ParseError) and detail_code and detail_code != exc.default_code:
        code = str(detail_code)  # a more precise code (draftsite.parsers: json_too_deep, ...)
    if code is None:
        code = getattr(exc, "default_code", "error")
    message = str(getattr(exc, "detail", exc))
    return error_response([{"code": code, "message": message}], response.status_code, message, headers)
