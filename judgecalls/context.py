"""What a judge sees on arriving at a call: both players, their registered decks (the DFCs
and the checklist or substitute cards in them, R9-R14, with rules-desk links, and the list's
problems), their penalties in this event with what the next one of each would become, and the
round clock; from a draft seat, where the draft is (pack, pick, the seat's neighbours) and, for
a viewer who may see a seat's cards (the event's staff, drafts.permissions), the pack in front
of the seat (R16: never to anyone else).

Staff only: the pages gate on the event's judges before building this. It reuses the
penalties app's IPG logic (penalties.services.expected_penalty) rather than restating it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from decks import selectors as deck_selectors
from decks.models import Deck
from drafts import selectors as draft_selectors
from drafts.models import Seat
from events import permissions as draft_permissions
from events.models import Registration
from judgecalls.models import JudgeCall
from matches import selectors as match_selectors
from penalties.models import Penalty, PenaltyStatus
from penalties.services import expected_penalty


def rules_desk_url(card_name: str) -> str:
    """The rules desk loaded with the card, in hand (the judge adds the actions)."""
    return f"{reverse('rules:desk')}?{urlencode({'card': card_name, 'zone': 'hand'})}"


@dataclass
class PlayerContext:
    registration: Registration
    deck: dict[str, Any] | None  # decks.selectors.deck_view, plus rules-desk links
    penalties: list[Penalty]
    next_upgrades: list[dict[str, Any]]  # per infraction: earlier Warnings counted, what's next
    penalty_url: str  # the issue form prefilled for this player, table and round
    dfcs: list[dict[str, Any]] = field(default_factory=list)
    deck_errors: list[dict] = field(default_factory=list)  # the last check's, in the reader's language
    deck_warnings: list[dict] = field(default_factory=list)


@dataclass
class DraftPlace:
    """Where the calling seat's draft is now."""

    seat: Seat
    pack_number: int  # the draft's round: pack 1, 2 or 3 (0 before it starts)
    pick_number: int | None  # of the pack in front of the seat; None while it waits for one
    packs_waiting: int  # behind that one
    left: str  # the neighbours' names: left is the next seat (a pack passed left goes there)
    right: str
    passing: str | None  # "left" or "right" this round
    pack: list[dict] | None  # the front pack's cards; None for a viewer who may not see them


def _deck(registration: Registration) -> tuple[Deck | None, dict[str, Any] | None, list[dict[str, Any]]]:
    deck = Deck.objects.filter(registration=registration).first()
    if deck is None:
        return None, None, []
    view = deck_selectors.deck_view(deck)
    dfcs = [dict(row, rules_url=rules_desk_url(row["name"])) for row in view["dfcs"]]
    return deck, view, dfcs


def _seat_name(seat: Seat) -> str:
    return seat.registration.name if seat.registration is not None else _("Automatic drafter")


def draft_place(call: JudgeCall, viewer) -> DraftPlace | None:
    """The calling seat's pack, pick and neighbours; the pack's cards only for a viewer who may
    see every seat's cards (R16: single-faced cards are hidden information)."""
    if call.seat is None:
        return None
    seat = call.seat
    pod = seat.pod
    seats = list(pod.seats.select_related("registration").order_by("position"))
    at = next(i for i, s in enumerate(seats) if s.pk == seat.pk)
    may_see = draft_permissions.sees_everything(viewer, pod.event_id)
    packs = draft_selectors.queue(seat, full=may_see)
    summary = draft_selectors.pod_summary(pod)
    front = packs[0] if packs else None
    return DraftPlace(
        seat=seat,
        pack_number=pod.round,
        pick_number=front["pick_number"] if front else None,
        packs_waiting=max(0, len(packs) - 1),
        left=_seat_name(seats[(at + 1) % len(seats)]),
        right=_seat_name(seats[(at - 1) % len(seats)]),
        passing=summary["direction"],
        pack=front["cards"] if front and may_see else None,
    )


def _next_upgrades(call: JudgeCall, registration: Registration, penalties: list[Penalty], now) -> list[dict]:
    """For each infraction this player already has: what the next one would be (IPG: the
    same-category Warnings of today count for Game Play and Tournament Errors)."""
    rows = []
    for infraction in {p.infraction_id: p.infraction for p in penalties}.values():
        expected = expected_penalty(infraction=infraction, event=call.event, registration_id=registration.pk, now=now)
        rows.append(
            {
                "infraction": infraction,
                "counted": len(expected.earlier),
                "default": expected.default,
                "next": expected.expected,
                "upgraded": expected.expected != expected.default,
            }
        )
    return rows


def _penalty_url(call: JudgeCall, registration: Registration) -> str:
    params: dict[str, Any] = {"event": call.event_id, "registration": registration.pk}
    if call.match is not None:
        params["match_round"] = call.match.round.number
        where = _("Judge call #%(id)s, round %(round)s, table %(table)s") % {
            "id": call.pk,
            "round": call.match.round.number,
            "table": call.match.table,
        }
    else:
        params["pod"] = call.seat.pod_id if call.seat is not None else ""
        where = _("Judge call #%(id)s") % {"id": call.pk}
    params["description"] = f"{where}: {call.reason}" if call.reason else where
    # Issued, the form comes back to the call with the new penalty chosen to close it.
    params["next"] = reverse("judgecalls:context", args=[call.pk])
    return f"{reverse('penalties:new')}?{urlencode(params)}"


def players_of(call: JudgeCall) -> list[Registration]:
    if call.match is not None:
        return [r for r in (call.match.player_a, call.match.player_b) if r is not None]
    return [call.caller]


def call_context(call: JudgeCall, now, viewer) -> dict[str, Any]:
    players = []
    for registration in players_of(call):
        penalties = list(
            Penalty.objects.filter(event_id=call.event_id, registration=registration)
            .exclude(status=PenaltyStatus.WITHDRAWN)
            .select_related("infraction", "issued_by")
            .order_by("issued_at", "pk")
        )
        deck, view, dfcs = _deck(registration)
        players.append(
            PlayerContext(
                registration=registration,
                deck=view,
                penalties=penalties,
                next_upgrades=_next_upgrades(call, registration, penalties, now),
                penalty_url=_penalty_url(call, registration),
                dfcs=dfcs,
                deck_errors=deck.localized_errors if deck else [],
                deck_warnings=deck.localized_warnings if deck else [],
            )
        )
    clock = None
    if call.match is not None:
        clock = match_selectors.clock(call.match.round, now, call.match)
    remaining = clock["remaining_seconds"] if clock else None
    return {
        "call": call,
        "players": players,
        "clock": clock,
        "draft": draft_place(call, viewer),
        "remaining_minutes": (remaining + 59) // 60 if remaining is not None else None,
        "now": now,
    }
