"""The Django side of the exports: stored decks and pools -> :mod:`decks.exports` values.

What the catalogue knows goes in here: each card's front face name (for clients that name a
DFC by its front) and a printing's set code and collector number, preferring the event's
own sets (the printing the player drafted or opened). Permission checks stay with the
callers (``selectors.visible_deck``, ``selectors.access_registration``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext

from cards.models import Card, Layout, Printing
from decks import error_codes, exports, selectors
from decks.models import Deck
from drafts.models import DraftCard, Seat
from draftsite.errors import DomainError, NotFoundError
from events.models import Event, Registration

# Layouts whose clients use the front name alone (a split card keeps "Fire // Ice").
_FRONT_NAMED = {Layout.TRANSFORM, Layout.MODAL_DFC, Layout.MELD, Layout.FLIP, Layout.ADVENTURE}


def export_format(key: str | None) -> exports.Format:
    """The format a request names (``arena`` when none), or a 400 ``unknown_export_format``."""
    key = key or exports.ARENA
    if key not in exports.FORMATS:
        raise DomainError(
            error_codes.UNKNOWN_EXPORT_FORMAT,
            gettext("Unknown export format “%(key)s”; choose one of: %(formats)s.")
            % {"key": key[:20], "formats": ", ".join(exports.FORMATS)},
        )
    return exports.FORMATS[key]


def set_preference(prefer_sets: Sequence[str]) -> dict[str, int]:
    """Set code -> rank: each of the event's sets at the round it is first opened, so a set
    repeated across rounds (``["ISD", "ISD", "ISD"]``) keeps its first, best place."""
    order: dict[str, int] = {}
    for code in prefer_sets:
        order.setdefault(code.upper(), len(order))
    return order


@dataclass(frozen=True)
class Printed:
    """What the exports name of a card: a printing's set code and collector number, and the
    MTGO ids of the best printing MTGO has (not always the same printing)."""

    set_code: str = ""
    number: str = ""
    mtgo_id: int | None = None
    mtgo_foil_id: int | None = None


def _printings(card_ids: set[int], prefer_sets: Sequence[str]) -> dict[int, Printed]:
    """card id -> :class:`Printed`: the event's sets first (in the order they are opened), then
    the newest booster printing; in one set, the lowest collector number; the set code last, so
    two sets released the same day always give the same answer."""
    order = set_preference(prefer_sets)
    ranked: dict[int, list[tuple[tuple, str, str, int | None, int | None]]] = {}
    rows = Printing.objects.filter(card_id__in=card_ids).values_list(
        "card_id",
        "card_set__code",
        "card_set__release_date",
        "collector_number",
        "in_boosters",
        "mtgo_id",
        "mtgo_foil_id",
    )
    for card_id, code, released, number, in_boosters, mtgo_id, mtgo_foil_id in rows:
        digits = "".join(ch for ch in number if ch.isdigit())
        rank = (
            order.get(code.upper(), len(order)),
            not in_boosters,
            -(released.toordinal() if released else 0),
            int(digits) if digits else 10**9,
            number,
            code.upper(),
        )
        ranked.setdefault(card_id, []).append((rank, code.upper(), number, mtgo_id, mtgo_foil_id))
    out = {}
    for card_id, printings in ranked.items():
        printings.sort(key=lambda p: p[0])
        numbered = next((p for p in printings if p[2]), None)
        on_mtgo = next((p for p in printings if p[3] is not None), None)
        out[card_id] = Printed(
            set_code=numbered[1] if numbered else "",
            number=numbered[2] if numbered else "",
            mtgo_id=on_mtgo[3] if on_mtgo else None,
            mtgo_foil_id=on_mtgo[4] if on_mtgo else None,
        )
    return out


def names(card_ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    """card id -> (full name, front name or "" when the clients use the full name)."""
    out = {}
    for card in Card.objects.filter(pk__in=set(card_ids)).prefetch_related("faces"):
        faces = sorted(card.faces.all(), key=lambda f: f.position)
        front = faces[0].name if card.layout in _FRONT_NAMED and faces and faces[0].name != card.name else ""
        out[card.pk] = (card.name, front)
    return out


def client_names(card_ids: Iterable[int]) -> dict[int, str]:
    """card id -> the name Arena, MTGO and Cockatrice use."""
    return {pk: front or full for pk, (full, front) in names(card_ids).items()}


def mtgo_names(card_ids: Iterable[int]) -> dict[int, str]:
    """card id -> the name MTGO uses (the front face; ``Fire/Ice`` for a split card)."""
    return {pk: front or full.replace(" // ", "/") for pk, (full, front) in names(card_ids).items()}


def entries(rows: Iterable[dict], *, prefer_sets: Sequence[str] = ()) -> tuple[exports.Entry, ...]:
    """Stored rows ``{"card_id", "name", "count"}`` (``name`` optional for pools; ``foil``
    true for copies drafted as foils) as entries."""
    rows = [row for row in rows if row.get("count", 0) > 0]
    ids = {row["card_id"] for row in rows if row.get("card_id") is not None}
    known = names(ids)
    printings = _printings(ids, prefer_sets)
    out = []
    for row in rows:
        if row.get("card_id") not in known:  # a basic land the catalogue lacks, or an unknown name
            out.append(exports.Entry(name=row.get("name") or "", count=row["count"]))
            continue
        full, front = known[row["card_id"]]
        printed = printings.get(row["card_id"], Printed())
        out.append(
            exports.Entry(
                full,
                row["count"],
                front,
                printed.set_code,
                printed.number,
                mtgo_id=printed.mtgo_id,
                mtgo_foil_id=printed.mtgo_foil_id,
                foil=bool(row.get("foil")),
            )
        )
    return tuple(sorted(out, key=lambda e: (e.name, e.foil)))


def deck_list(deck: Deck) -> exports.Decklist:
    sets = deck.event.set_codes or []
    return exports.Decklist(
        main=entries(list(deck.commander) + list(deck.main), prefer_sets=sets),
        sideboard=entries(deck.sideboard or [], prefer_sets=sets),
        title=f"{deck.event.name} · {deck.registration.name}",
    )


def pool_list(registration: Registration) -> exports.Decklist | None:
    """The whole pool as a main deck (clients then build from it); None without a pool. A
    draft still running is ``pool_not_ready`` (409): picks stay hidden until it is over."""
    pool = selectors.pool_for(registration)
    if pool is None:
        return None
    rows = _drafted_rows(registration) if pool[0] == "draft" else pool[1]
    return exports.Decklist(
        main=entries(rows, prefer_sets=registration.event.set_codes or []),
        title=f"{registration.event.name} · {registration.name}",
    )


def _drafted_rows(registration: Registration) -> list[dict]:
    """The seat's pile as rows, its foils apart (a foil keeps its own MTGO id in the .dek)."""
    seat = Seat.objects.filter(registration=registration).first()
    if seat is None:
        return []
    counts = Counter(DraftCard.objects.filter(pk__in=seat.pile_ids).values_list("card_id", "foil"))
    return [{"card_id": card_id, "foil": foil, "count": n} for (card_id, foil), n in sorted(counts.items())]


def render(fmt: exports.Format, decklist: exports.Decklist) -> str:
    """The file's text, or a 400 ``no_mtgo_id`` naming the cards MTGO has no id for (and the
    plain text export MTGO also imports)."""
    try:
        return fmt.write(decklist)
    except exports.MissingMtgoIds as exc:
        raise DomainError(
            error_codes.NO_MTGO_ID,
            gettext(
                "MTGO has no card id for %(cards)s, so there is no .dek file for this list; "
                "download the MTGO text list instead (MTGO imports it too)."
            )
            % {"cards": ", ".join(exc.names)},
            cards=exc.names,
            alternative=exports.MTGO_TEXT,
        ) from exc


def dek_missing(decklist: exports.Decklist) -> list[str]:
    """The cards that keep this list from being a .dek (MTGO has no id for them)."""
    return exports.missing_mtgo_ids(decklist)


def pool_dek_missing(registration: Registration) -> list[str]:
    try:
        pool = pool_list(registration)
    except DomainError:
        return []  # no pool to export yet: the page says why elsewhere
    return dek_missing(pool) if pool is not None else []


def require_pool_list(registration: Registration) -> exports.Decklist:
    pool = pool_list(registration)
    if pool is None:
        raise NotFoundError(error_codes.NO_POOL, gettext("There is no pool for this registration."))
    return pool


def file_name(stem: str, fmt: exports.Format) -> str:
    return f"{exports.safe_filename(stem)}.{fmt.extension}"


def event_bundle(event: Event, *, pod_id: int | None = None) -> bytes:
    """Every pool and registered deck of the event (or one pod), in every format, as a zip:
    ``pod-1/seat-3-alice/pool.dek``; players without a seat under ``unseated/``."""
    registrations = list(
        Registration.objects.filter(event=event).select_related("event").prefetch_related("seats__pod")
    )
    files: dict[str, str] = {}
    decks = {d.registration_id: d for d in Deck.objects.filter(event=event).select_related("event", "registration")}
    for registration in registrations:
        seat = next(iter(registration.seats.all()), None)
        if pod_id is not None and (seat is None or seat.pod_id != pod_id):
            continue
        folder = (
            f"pod-{seat.pod.number}/seat-{seat.position + 1}-{exports.safe_filename(registration.name)}"
            if seat is not None
            else f"unseated/{exports.safe_filename(registration.name)}-{registration.pk}"
        )
        lists: dict[str, exports.Decklist | None] = {"deck": None, "pool": None}
        if registration.pk in decks:
            lists["deck"] = deck_list(decks[registration.pk])
        try:
            lists["pool"] = pool_list(registration)
        except DomainError:
            lists["pool"] = None  # a pod still drafting: its picks are not exported
        for stem, decklist in lists.items():
            for fmt in exports.FORMATS.values() if decklist is not None else ():
                try:
                    files[f"{folder}/{stem}.{fmt.extension}"] = fmt.write(decklist)
                except exports.MissingMtgoIds:
                    continue  # no .dek without MTGO ids; the MTGO text file is there
    return exports.zip_bundle(files)
