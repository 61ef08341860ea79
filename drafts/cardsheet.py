"""The card sheet of an event: every card a draft of it can contain, for the page to load once.

Pushes over the draft socket carry cards as *card rows* (``drafts.cardinfo``); the page looks
each card's faces up by catalogue card id and its images by printing id in this sheet, loaded
once from an immutable URL (``sheet_url``) that changes whenever its content could.

HIDDEN INFORMATION (R16): a sheet depends only on the event's definition (its set codes, or its
cube list) and the catalogue, never on the cards actually opened in its packs: a sheet built
from the packs would tell a player which single-faced cards the other seats hold.

Everything here reads. The bytes of a sheet are built once per digest and process and kept
(plain and gzip-compressed), so a thousand pages loading it at once cost one build.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass

import orjson
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse

from drafts import cardinfo
from events.models import DraftFormat, Event

# Bump when the sheet's JSON shape changes: every sheet URL then changes too.
SHEET_FORMAT = 2  # 2: image links are the site's own copies (cards/images.py)
# The most ids one batch look-up answers.
MAX_BATCH = 500

# The catalogue stamp: shared between processes through the cache (set on every import), and
# read at most once per ``_STAMP_TTL`` seconds by each process.
_STAMP_KEY = "drafts:cardsheet:catalogue-stamp"
_STAMP_TTL = 5.0
_stamp: tuple[float, str] | None = None
_last_stamp: str | None = None

_MAX_SHEETS = 32
_sheets: dict[str, SheetBytes] = {}
_sheets_lock = threading.Lock()
_build_locks: dict[str, threading.Lock] = {}


def languages() -> list[str]:
    """The languages a sheet comes in (the site's)."""
    return [code for code, _ in settings.LANGUAGES]


# --- what a sheet holds ------------------------------------------------------------------


def _is_cube(event: Event) -> bool:
    return event.draft_format == DraftFormat.CUBE


def _set_codes(event: Event) -> list[str]:
    return sorted({str(code) for code in event.set_codes or []})


def _cube_ids(event: Event) -> list[int]:
    return sorted({int(pk) for pk in event.cube_card_ids or []})


def sheet_card_ids(event: Event) -> set[int]:
    """The catalogue cards a draft of this event can contain.

    A booster (or paper) event: every card with a booster printing (``in_boosters``, as the
    collation in ``drafts.services.packs`` reads them) in one of the event's sets, basic lands
    included. A cube event: its cube list (only ids the catalogue has). Never the packs."""
    from cards.models import Card, Printing

    if _is_cube(event):
        return set(Card.objects.filter(pk__in=_cube_ids(event)).values_list("pk", flat=True))
    return set(
        Printing.objects.filter(card_set__code__in=_set_codes(event), in_boosters=True)
        .values_list("card_id", flat=True)
        .distinct()
    )


def _printings_by_card(card_ids: Iterable[int], set_codes: list[str] | None) -> dict[int, list[tuple[int, dict]]]:
    """Each card's printings in the catalogue's order (oldest set first, as card pages show
    them): ``{card id: [(printing id, image uris), ...]}``; only those in ``set_codes`` (booster
    printings) when given."""
    from cards.images import site_uris
    from cards.models import Printing

    ids = set(card_ids)
    if not ids:
        return {}
    rows = Printing.objects.filter(card_id__in=ids)
    if set_codes is not None:
        rows = rows.filter(card_set__code__in=set_codes, in_boosters=True)
    found: dict[int, list[tuple[int, dict]]] = {}
    for pk, card_id, uris in rows.order_by(
        "card_id", "card_set__release_date", "card_set__code", "collector_number", "pk"
    ).values_list("pk", "card_id", "image_uris"):
        found.setdefault(card_id, []).append((pk, site_uris(pk, uris)))  # the site's copies
    return found


def _default(printings: list[tuple[int, dict]]) -> int | None:
    """The printing a card is shown with by default: the first with an image, else the first."""
    for pk, uris in printings:
        if uris:
            return pk
    return printings[0][0] if printings else None


# --- the catalogue stamp and the digest --------------------------------------------------


def _derived_stamp() -> str:
    """A stamp from a few cheap aggregates (used when the shared cache has none)."""
    from django.db.models import Count, Max

    from cards.models import Card, CardSet, LocalizedName, Printing

    cards = Card.objects.aggregate(n=Count("pk"), last=Max("updated_at"), top=Max("pk"))
    printings = Printing.objects.aggregate(n=Count("pk"), top=Max("pk"))
    names = LocalizedName.objects.aggregate(top=Max("pk"))
    sets = CardSet.objects.aggregate(top=Max("pk"))
    parts = [cards["n"], cards["last"], cards["top"], printings["n"], printings["top"], names["top"], sets["top"]]
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


def catalogue_stamp() -> str:
    """A value that changes whenever cards are imported (in any process)."""
    global _stamp, _last_stamp
    now = time.monotonic()
    if _stamp is not None and now - _stamp[0] < _STAMP_TTL:
        return _stamp[1]
    try:
        value = cache.get(_STAMP_KEY)
        if value is None:
            cache.add(_STAMP_KEY, _derived_stamp(), timeout=None)
            value = cache.get(_STAMP_KEY)
    except Exception:  # noqa: BLE001  (the cache is away: the catalogue itself still answers)
        value = None
    if value is None:
        value = _derived_stamp()
    if _last_stamp is not None and value != _last_stamp:
        # Another process imported cards: this process's card payloads are stale too.
        cardinfo.clear()
    _stamp, _last_stamp = (now, value), value
    return value


def on_catalogue_imported(**kwargs) -> None:
    """``cards.signals.catalogue_imported``: every sheet URL changes (other processes follow
    within ``_STAMP_TTL`` seconds, through the shared cache)."""
    global _stamp, _last_stamp
    value = f"{_derived_stamp()}.{time.time_ns():x}"
    try:
        cache.set(_STAMP_KEY, value, timeout=None)
    except Exception:  # noqa: BLE001
        pass
    _stamp, _last_stamp = None, value
    with _sheets_lock:
        _sheets.clear()


def _definition(event: Event) -> tuple:
    if _is_cube(event):
        return ("cube", tuple(_cube_ids(event)))
    return ("sets", tuple(_set_codes(event)))


def sheet_digest(event: Event, language: str) -> str:
    """A short hash of what the sheet is built from: the event's set codes (or cube list), the
    language and the catalogue stamp. Not the packs (R16)."""
    basis = orjson.dumps([SHEET_FORMAT, _definition(event), language, catalogue_stamp()])
    return hashlib.blake2b(basis, digest_size=8).hexdigest()


def sheet_url(event: Event, language: str) -> str:
    """``/events/<event id>/cards/<digest>.<language>.json``: immutable, cache it forever."""
    return reverse(
        "drafts:card-sheet",
        kwargs={"event_id": event.pk, "digest": sheet_digest(event, language), "language": language},
    )


# --- the sheet itself --------------------------------------------------------------------


def _card_entry(info: dict, language: str, printing: int | None) -> dict:
    local = (info.get("printed_names") or {}).get(language) or []
    faces = [
        {
            "name": face["name"],
            "local_name": local[i] if i < len(local) else "",
            "mana_cost": face["mana_cost"],
            "type_line": face["type_line"],
            "oracle_text": face["oracle_text"],
            "power": face["power"],
            "toughness": face["toughness"],
            "loyalty": face["loyalty"],
            "colors": face["colors"],
        }
        for i, face in enumerate(info["faces"])
    ]
    return {
        "name": info["name"],
        "local_name": " // ".join(local),
        "layout": info["layout"],
        "is_dfc": info["is_dfc"],
        "color_identity": info["color_identity"],
        "faces": faces,
        "printing": printing,
    }


def _image_entry(uris: dict) -> dict:
    return {"front": uris.get("front") or "", "back": uris.get("back") or ""}


def build_sheet(
    card_ids: Iterable[int],
    language: str,
    *,
    set_codes: list[str] | None = None,
    printing_ids: Iterable[int] = (),
) -> dict:
    """The sheet of these cards in ``language``:

    ``{"cards": {"<card id>": {"name", "local_name", "layout", "is_dfc", "color_identity",
    "faces": [{"name", "local_name", "mana_cost", "type_line", "oracle_text", "power",
    "toughness", "loyalty", "colors"}], "printing"}}, "printings": {"<printing id>": {"front",
    "back"}}}``.

    With ``set_codes`` (a booster event) the printings are every booster printing of the cards
    in those sets; without, each card's default printing (its first with an image). A card's
    ``printing`` is its default printing among those (cube rows carry no printing).
    ``printing_ids`` adds those printings (and their cards). Faces come from
    ``drafts.cardinfo``'s cache."""
    from cards.models import Printing

    card_set = set(card_ids)
    extra = set(printing_ids)
    if extra:
        card_set |= set(Printing.objects.filter(pk__in=extra).values_list("card_id", flat=True))
    infos = cardinfo.card_info(card_set) if card_set else {}
    by_card = _printings_by_card(infos, set_codes)
    printings: dict[int, dict] = {}
    defaults: dict[int, int | None] = {}
    for card_id in infos:
        own = by_card.get(card_id, [])
        defaults[card_id] = _default(own)
        for pk, uris in own if set_codes is not None else ():
            printings[pk] = _image_entry(uris)
        if set_codes is None and defaults[card_id] is not None:
            printings[defaults[card_id]] = _image_entry(dict(own)[defaults[card_id]])
    if extra:
        for pk, uris in cardinfo.images(extra - set(printings)).items():
            printings[pk] = _image_entry(uris)
    return {
        "cards": {str(card_id): _card_entry(infos[card_id], language, defaults[card_id]) for card_id in sorted(infos)},
        "printings": {str(pk): printings[pk] for pk in sorted(printings)},
    }


def event_sheet(event: Event, language: str) -> dict:
    """The sheet of an event (``build_sheet`` of ``sheet_card_ids``)."""
    return build_sheet(sheet_card_ids(event), language, set_codes=None if _is_cube(event) else _set_codes(event))


@dataclass(frozen=True)
class SheetBytes:
    digest: str
    raw: bytes
    gzipped: bytes


def encode(sheet: dict) -> tuple[bytes, bytes]:
    raw = orjson.dumps(sheet)
    return raw, gzip.compress(raw, compresslevel=6, mtime=0)


def sheet_bytes(event: Event, language: str, digest: str | None = None) -> SheetBytes:
    """The encoded sheet, built once per digest per process (concurrent callers wait for the
    one build)."""
    digest = digest or sheet_digest(event, language)
    hit = _sheets.get(digest)
    if hit is not None:
        return hit
    with _sheets_lock:
        lock = _build_locks.setdefault(digest, threading.Lock())
    with lock:
        hit = _sheets.get(digest)
        if hit is not None:
            return hit
        raw, gzipped = encode(event_sheet(event, language))
        built = SheetBytes(digest, raw, gzipped)
        with _sheets_lock:
            while len(_sheets) >= _MAX_SHEETS:
                _sheets.pop(next(iter(_sheets)))
            _sheets[digest] = built
            _build_locks.pop(digest, None)
        return built


def clear() -> None:
    """Forget the built sheets and the stamp (tests)."""
    global _stamp, _last_stamp
    with _sheets_lock:
        _sheets.clear()
    _stamp, _last_stamp = None, None
