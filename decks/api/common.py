"""Helpers shared by the decks API views."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from decks import error_codes, parsers, selectors, services
from decks.models import Deck
from draftsite import whole_numbers
from draftsite.errors import DomainError

UPLOAD_OVERHEAD = 64 * 1024  # multipart headers and the other form fields


class BodyLimitMixin:
    """Refuse an oversized body from its Content-Length, before anything is read or stored."""

    max_body = parsers.MAX_BYTES + UPLOAD_OVERHEAD

    def initial(self, request, *args, **kwargs):
        length = whole_numbers.parse(request.META.get("CONTENT_LENGTH") or "0") or 0
        if length > self.max_body:
            raise DomainError(
                error_codes.FILE_TOO_LARGE,
                gettext("The request is %(length_1024)s KB; decklists are limited to %(MAX_BYTES_1024)s KB.")
                % {"length_1024": length // 1024, "MAX_BYTES_1024": parsers.MAX_BYTES // 1024},
                limit_bytes=parsers.MAX_BYTES,
            )
        super().initial(request, *args, **kwargs)


def read_upload(upload) -> str:
    if upload.size is not None and upload.size > parsers.MAX_BYTES:
        raise DomainError(
            error_codes.FILE_TOO_LARGE,
            gettext("The file is %(size_1024)s KB; decklists are limited to %(MAX_BYTES_1024)s KB.")
            % {"size_1024": upload.size // 1024, "MAX_BYTES_1024": parsers.MAX_BYTES // 1024},
            limit_bytes=parsers.MAX_BYTES,
        )
    return services.decode_decklist(upload.read(parsers.MAX_BYTES + 1))


def parsed_sections(attrs: dict) -> tuple[dict[str, list[dict]], str] | None:
    """The list in ``text`` or ``file``, parsed (format from the content); None if neither."""
    if attrs.get("file") is not None:
        parsed = services.read_decklist(read_upload(attrs["file"]))
    elif attrs.get("text") is not None:
        parsed = services.read_decklist(attrs["text"])
    else:
        return None
    return services.decklist_entries(parsed), parsed.format


def checklist_input(attrs: dict) -> list[dict] | None:
    if attrs.get("checklist_lines") is not None:
        return services.read_checklist_lines(attrs["checklist_lines"])
    if attrs.get("checklist_cards") is not None:
        return [{"checklist": c["checklist"], "marked": list(c["marked"])} for c in attrs["checklist_cards"]]
    return None


def deck_payload(deck: Deck, *, now=None) -> dict[str, Any]:
    view = selectors.deck_view(deck)
    return {
        "id": deck.pk,
        "event": deck.event_id,
        "registration": deck.registration_id,
        "player": deck.registration.name,
        "format": deck.format,
        "main": view["main"],
        "sideboard": view["sideboard"],
        "commander": view["commander"],
        "opaque_sleeves": deck.opaque_sleeves,
        "checklist_cards": view["checklist_cards"],
        "dfcs": view["dfcs"],
        "physical": view["physical"],
        "source_format": deck.source_format,
        "valid": deck.valid,
        "errors": deck.localized_errors,
        "warnings": deck.localized_warnings,
        "summary": deck.summary,
        "status": selectors.deck_status(deck, deck.event, now or timezone.now()),
        "version": deck.version,
        "submitted_at": deck.submitted_at,
        "updated_at": deck.updated_at,
        "checked_at": deck.checked_at,
        "print_url": reverse("decks:print", args=[deck.pk]),
    }
