"""Shared helpers of the draft pages: look-ups with per-object access checks, the confirm
step of every control, and shaping selector output for templates."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import get_language, gettext, gettext_lazy

from cards.models import Layout
from drafts import access
from drafts.models import Pod, PodState, Seat, effective_state
from draftsite.pages import on_page
from events.access import Permission

PARTIAL_HEADER = "HTTP_X_LIVE_PANEL"


# --- look-ups and access ----------------------------------------------------------------
# The access helpers of ``drafts.access``, with their refusals turned into the 404 and 403 pages
# (``draftsite.pages.on_page``; an event's: ``events.views.common.get_event``).


def get_pod(pk: int, user=None, permission: Permission | None = None) -> Pod:
    return on_page(access.access_pod, pk, user, permission=permission)


def get_seat(pk: int, user=None, permission: Permission | None = None) -> Seat:
    return on_page(access.access_seat, pk, user, permission=permission)


# --- shaping cards for templates ---------------------------------------------------------

BACK_LABELS = {
    Layout.MELD: gettext_lazy("Melds into"),
    Layout.TRANSFORM: gettext_lazy("Back face"),
    Layout.MODAL_DFC: gettext_lazy("Back face"),
}


def present_card(card: dict) -> dict:
    """Split a card payload into the sides a person sees: one side, or front and back (R14).

    Each face carries ``local_name``, its name as printed in the reader's language when the
    card was printed in it (the English name stays beside it)."""
    faces = card.get("faces") or [{"name": card.get("name", "?")}]
    local = (card.get("printed_names") or {}).get(get_language() or "") or []
    if local:
        faces = [{**face, "local_name": local[i] if i < len(local) else ""} for i, face in enumerate(faces)]
    images = card.get("image_uris") or {}
    if card.get("is_dfc") and len(faces) > 1:
        front = {"label": gettext("Front face"), "faces": faces[:1], "image": images.get("front", "")}
        back = {
            "label": BACK_LABELS.get(card.get("layout"), gettext("Back face")),
            "faces": faces[1:],
            "image": images.get("back", ""),
        }
    else:
        front = {"label": "", "faces": faces, "image": images.get("front", "")}
        back = None
    return {
        **card,
        "front": front,
        "back": back,
        "local_name": " // ".join(local),
        "colors": "".join(card.get("color_identity") or []),
    }


def cards_url(event) -> str:
    """The card sheet a draft page loads once (``drafts.cardsheet``), in the page's language:
    the page starts loading it before its socket's snapshot names the same URL."""
    from drafts import cardsheet

    return cardsheet.sheet_url(event, get_language() or "en")


def drafting_round(pod_state: str, paused_from: str | None, pod_round: int) -> int:
    """The round whose passing direction the table shows: only while packs go round."""
    return pod_round if effective_state(pod_state, paused_from) == PodState.DRAFTING else 0


def present_board(board: dict, *, my_position: int | None = None, pod_round: int = 0) -> dict:
    """The open board as a table: seats in order clockwise, top row left to right, bottom row
    right to left, so the ring reads around the table; each DFC split into its two faces."""
    seats = []
    for seat in board["seats"]:
        packs = [{**p, "dfcs": [present_card(c) for c in p["dfcs"]]} for p in seat["packs"]]
        pile = None if seat["pile_dfcs"] is None else [present_card(c) for c in seat["pile_dfcs"]]
        seats.append(
            {
                **seat,
                "number": seat["position"] + 1,
                "packs": packs,
                "pile_dfcs": pile,
                "is_me": seat["position"] == my_position,
                "pack_sizes": ", ".join(str(p["cards_left"]) for p in seat["packs"]),
            }
        )
    half = (len(seats) + 1) // 2
    direction = None
    if pod_round:
        direction = "left" if pod_round % 2 == 1 else "right"
    return {
        "seats": seats,
        "top": seats[:half],
        "bottom": list(reversed(seats[half:])),
        "piles_open": any(s["pile_dfcs"] is not None for s in seats),
        "draft_over": board.get("draft_over", False),
        "direction": direction,
        "size": len(seats),
        "packs_in_play": sum(len(s["packs"]) for s in seats),
        "cards_in_play": sum(p["cards_left"] for s in seats for p in s["packs"]),
    }


def parse_time(value):
    if isinstance(value, str):
        return dt.datetime.fromisoformat(value)
    return value


def clock_for(summary: dict, head: dict | None) -> dict:
    """What the player's clock shows now: pick timer, review clock or deck-building clock."""
    effective = effective_state(summary["state"], summary["paused_from"])
    paused = summary["state"] == PodState.PAUSED
    deadline, remaining, label = None, None, ""
    if effective == PodState.DRAFTING and head is not None:
        deadline, remaining = parse_time(head["deadline"]), head["remaining_ms"]
        label = gettext("Pick timer") if (deadline or remaining is not None) else ""
    elif effective == PodState.REVIEWING:
        label = gettext("Review time left")
        deadline = parse_time(summary["review_deadline"])
    elif effective == PodState.DECK_BUILDING:
        label = gettext("Deck-building time left")
        deadline = parse_time(summary["deck_building_deadline"])
    if paused:
        if effective in (PodState.REVIEWING, PodState.DECK_BUILDING):
            remaining = summary["paused_remaining_ms"]
        deadline = None
    return {"label": label, "deadline": deadline, "remaining_ms": remaining if not deadline else None, "paused": paused}
