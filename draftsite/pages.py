"""How every page turns a domain error into a response (issue 31: one place, not one per app).

Two cases, and nothing else:

- a look-up or an access check (``on_page``): "no such thing" (``NotFoundError``) is the 404
  page, "not yours" (``ForbiddenError``) the 403 page. Each carries the error's message unless
  the page gives its own (``not_found=`` / ``forbidden=``: a page that names the thing it
  looked for, or keeps the 403 page bare);
- a control (``run``): the service's refusal is a message on the page we go back to (PRG),
  and so is its success;
- a form (``for_form``): the service's refusal is shown on the form, with its status.

The API answers the same errors as JSON (``draftsite.errors``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect

from draftsite.errors import DomainError, ForbiddenError, NotFoundError

T = TypeVar("T")


def on_page(lookup: Callable[..., T], *args: Any, not_found: Any = None, forbidden: Any = None, **kwargs: Any) -> T:
    """``lookup(*args, **kwargs)``, its "no such thing" as the 404 page, its "not yours" as
    the 403 page."""
    try:
        return lookup(*args, **kwargs)
    except NotFoundError as exc:
        raise Http404(exc.message if not_found is None else not_found) from None
    except ForbiddenError as exc:
        raise PermissionDenied(exc.message if forbidden is None else forbidden) from exc


def run(
    request,
    service: Callable[..., T],
    *,
    success: str | Callable[[T], str] | None,
    back: str,
    refusals_as_pages: bool = False,
    not_found: Any = None,
    **kwargs: Any,
) -> tuple[HttpResponse, T | None]:
    """Call a service; its refusal, or ``success`` (if any; a function of the result when the
    words name what was done), is a message on ``back``. With ``refusals_as_pages``, "no such
    thing" and "not yours" are the 404 and 403 pages instead (a control whose role the page did
    not check first; ``not_found`` words the 404).

    Returns the redirect and the service's result (``None`` if it refused): a caller that
    goes somewhere else on success returns its own redirect."""
    try:
        if refusals_as_pages:
            result = on_page(service, not_found=not_found, **kwargs)
        else:
            result = service(**kwargs)
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect(back), None
    if success:
        messages.success(request, success(result) if callable(success) else success)
    return redirect(back), result


def for_form(fn: Callable[[], T], *, forbidden_page: bool = False) -> tuple[T | None, DomainError | None, int]:
    """A service behind a form: its refusal is shown on the form, with its 4xx status (with
    ``forbidden_page``, a 403 refusal is the 403 page instead: the caller lost the role).

    Returns ``(result, None, 200)`` or ``(None, error, status)``."""
    try:
        return fn(), None, 200
    except DomainError as exc:
        if forbidden_page and exc.status_code == 403:
            raise PermissionDenied from exc
        return None, exc, exc.status_code


def show_on_form(form, exc: DomainError) -> None:
    """A service's refusal on the form: under the field it names, if the form has that field,
    else above the form."""
    field = exc.extra.get("field")
    form.add_error(field if field in form.fields else None, exc.message)
