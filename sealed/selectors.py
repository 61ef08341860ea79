"""Reads of the sealed app: an event's sealed settings, the packs and pools each viewer may see,
the organiser's list of players, the set's catalogue for registering a paper pool.

Hidden information (as in a draft): a pool, its packs and a registered paper pool are their
player's until decklists are published; the event's organisers and judges see them all. A
paper pool is also its builder's once the swap hands it to them."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

from cards import languages
from cards import selectors as card_selectors
from cards.models import Printing
from decks import adapter
from decks.models import Deck, SealedPool
from draftsite.errors import DomainError, ForbiddenError, NotFoundError
from events import permissions
from events.access import Permission, access_event, authorize
from events.models import DraftFormat, Event, Registration
from matches import selectors as match_selectors
from sealed import core, error_codes
from sealed.models import PaperPool, PoolSwap, SealedEvent, SealedPack

SEALED_FORMATS = (DraftFormat.SEALED, DraftFormat.PAPER_SEALED)

GROUP_NAMES = {
    core.RARE_OR_MYTHIC: gettext_lazy("rares and mythics"),
    core.UNCOMMON: gettext_lazy("uncommons"),
    core.COMMON: gettext_lazy("commons"),
    core.OTHER: gettext_lazy("other cards"),
}


def require_kind(event: Event, sealed: SealedEvent | None, *, paper: bool | None = None) -> SealedEvent:
    """The event's sealed row, or a refusal: not a sealed event, or not the kind asked."""
    if sealed is None or (paper is not None and sealed.paper != paper):
        if paper:
            message = gettext("This is not a paper sealed event.")
        elif paper is False:
            message = gettext("This is not a sealed event with pools opened by the site.")
        else:
            message = gettext("This is not a sealed event.")
        raise DomainError(error_codes.NOT_SEALED, message)
    return sealed


def access_sealed(event_id: int, user, *, permission: Permission = Permission.MEMBER) -> tuple[Event, SealedEvent]:
    """A sealed event the user takes part in (or, with ``permission``, runs)."""
    event = access_event(event_id)
    authorize(user, event, permission)
    return event, require_kind(event, SealedEvent.objects.filter(event=event).first())


def access_registrant(user, event: Event) -> None:
    """Who may register a paper pool: a player of the event, or an organiser (for a player)."""
    if own_registration(user, event) is None:
        authorize(user, event, Permission.ORGANISER, message=gettext("You are not registered for this event."))


def access_pool(pool_id: int, user, *, permission: Permission) -> PaperPool:
    """A registered paper pool, for a user with ``permission`` on its event."""
    pool = PaperPool.objects.select_related("event", "registered_by").filter(pk=pool_id).first()
    if pool is None:
        raise NotFoundError(error_codes.UNKNOWN_POOL, gettext("No pool has id %(id)s.") % {"id": pool_id})
    authorize(user, pool.event, permission)
    return pool


def own_registration(user, event: Event) -> Registration | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Registration.objects.filter(event=event, user=user).first()


def is_staff(user, event: Event) -> bool:
    return permissions.sees_everything(user, event)


def access_player(user, event: Event, registration_id: int | None) -> Registration:
    """Whose pool the user asks for: their own, or (staff; everybody once decklists are
    published) the one named. Refused otherwise, before anything of the pool is read."""
    own = own_registration(user, event)
    if registration_id is None or (own is not None and own.pk == registration_id):
        if own is None:
            raise ForbiddenError(error_codes.NOT_REGISTERED, gettext("You are not registered for this event."))
        return own
    if not (event.decklists_published or is_staff(user, event)):
        raise ForbiddenError(
            error_codes.POOL_HIDDEN, gettext("Pools are private to their player until decklists are published.")
        )
    return registration_in(event, registration_id)


def registration_in(event: Event, registration_id: int) -> Registration:
    """The event's registration of that id, or ``not_registered``."""
    registration = Registration.objects.filter(event=event, pk=registration_id).first()
    if registration is None:
        raise NotFoundError(
            error_codes.NOT_REGISTERED,
            gettext("No registration %(registration_id)s in this event.") % {"registration_id": registration_id},
        )
    return registration


def _names(card_ids, language: str) -> dict[int, dict[str, Any]]:
    infos = adapter.resolve_ids(card_ids)
    printed = card_selectors.printed_names(infos, language) if language != languages.ENGLISH else {}
    return {
        card_id: {
            "name": info.name,
            "printed_name": " // ".join(printed[card_id]) if card_id in printed else "",
            "is_dfc": info.is_dfc,
        }
        for card_id, info in infos.items()
    }


def packs_of(registration: Registration, language: str = languages.ENGLISH) -> list[dict[str, Any]]:
    """The player's opened boosters, pack by pack, each card with its names."""
    packs = list(SealedPack.objects.filter(registration=registration).order_by("number"))
    names = _names({c["card_id"] for p in packs for c in p.cards}, language)
    return [
        {
            "number": pack.number,
            "set_code": pack.set_code,
            "kind": pack.kind,
            "cards": [{**card, **names.get(card["card_id"], {"name": "?"})} for card in pack.cards],
            "removed": pack.removed,
        }
        for pack in packs
    ]


def pool_cards(rows: list[dict], language: str = languages.ENGLISH) -> list[dict[str, Any]]:
    """``[{"card_id", "count"}]`` with names, by name."""
    names = _names({r["card_id"] for r in rows}, language)
    return sorted(
        ({**row, **names[row["card_id"]]} for row in rows if row["card_id"] in names), key=lambda r: r["name"]
    )


def pool_attachment(pool: PaperPool, kind: str) -> dict[str, Any]:
    """A registered pool as a judge call carries it (a snapshot: names and counts); ``kind``
    "received" (the disputed pool) or "own" (the caller's own registered pool)."""
    return {
        "kind": kind,
        "pool": pool.pk,
        "registered_by": pool.registered_by.name,
        "cards": [{"name": r["name"], "count": r["count"]} for r in pool_cards(pool.cards)],
    }


def player_pool(registration: Registration, language: str = languages.ENGLISH) -> dict[str, Any]:
    """What a player of a sealed event builds from, and where it stands."""
    sealed_pool = SealedPool.objects.filter(registration=registration).first()
    registered = PaperPool.objects.filter(registered_by=registration).first()
    received = PaperPool.objects.select_related("registered_by").filter(builder=registration).first()
    deck = Deck.objects.filter(registration=registration).first()
    return {
        "registration": registration.pk,
        "player": registration.name,
        "packs": packs_of(registration, language),
        "pool": pool_cards(sealed_pool.cards, language) if sealed_pool else None,
        "registered_pool": _paper(registered, language) if registered else None,
        "received_pool": _paper(received, language) if received else None,
        "deck": {"id": deck.pk, "valid": deck.valid} if deck else None,
    }


def _paper(pool: PaperPool, language: str) -> dict[str, Any]:
    return {
        "id": pool.pk,
        "status": pool.status,
        "status_display": pool.get_status_display(),
        "size": pool.size,
        "cards": pool_cards(pool.cards, language),
        "judge_call": pool.judge_call_id,
    }


def player_rows(event: Event) -> list[dict[str, Any]]:
    """The organiser's list: each player, their pool, the pool they registered and received,
    and their deck (registered, valid). Staff only: the pages and API check it first."""
    registrations = list(Registration.objects.filter(event=event).order_by("name"))
    sizes = {p.registration_id: p.size for p in SealedPool.objects.filter(registration__event=event)}
    registered = {p.registered_by_id: p for p in PaperPool.objects.filter(event=event)}
    received = {p.builder_id: p for p in registered.values() if p.builder_id}
    decks = {d.registration_id: d for d in Deck.objects.filter(event=event)}
    dropped = match_selectors.drops(event.pk)
    by_id = {r.pk: r for r in registrations}
    rows = []
    for r in registrations:
        got = received.get(r.pk)
        rows.append(
            {
                "registration": r.pk,
                "player": r.name,
                "pool_size": sizes.get(r.pk),
                "registered_pool": registered[r.pk].pk if r.pk in registered else None,
                "registered_size": registered[r.pk].size if r.pk in registered else None,
                "received_pool": got.pk if got else None,
                "received_from": by_id[got.registered_by_id].name if got and got.registered_by_id in by_id else None,
                "received_status": got.status if got else None,
                "deck": decks[r.pk].pk if r.pk in decks else None,
                "deck_valid": decks[r.pk].valid if r.pk in decks else None,
                "dropped": r.pk in dropped,
            }
        )
    return rows


def unassigned_pools(event: Event) -> list[PaperPool]:
    """Pools the swap handed to nobody, or that came back to the organiser."""
    return list(PaperPool.objects.filter(event=event, builder__isnull=True).select_related("registered_by"))


def swap_of(event: Event) -> PoolSwap | None:
    return PoolSwap.objects.filter(event=event).first()


def set_catalogue(set_codes: list[str], language: str = languages.ENGLISH) -> list[dict[str, Any]]:
    """Every card of the sets' boosters, for registering a pool: id, name, the name printed in
    ``language`` (type-ahead by either), rarity, and its rarity group. Basic lands excluded."""
    rows: dict[int, dict[str, Any]] = {}
    for card_id, name, rarity, supertypes in (
        Printing.objects.filter(card_set__code__in=set_codes, in_boosters=True, card__faces__position=0)
        .order_by("card_id", "pk")
        .values_list("card_id", "card__name", "rarity", "card__faces__supertypes")
    ):
        if card_id not in rows and "Basic" not in (supertypes or []):
            rows[card_id] = {"card_id": card_id, "name": name, "rarity": rarity, "group": core.rarity_group(rarity)}
    printed = card_selectors.printed_names(rows, language) if language != languages.ENGLISH else {}
    for card_id, row in rows.items():
        row["printed_name"] = " // ".join(printed[card_id]) if card_id in printed else ""
    return sorted(rows.values(), key=lambda r: (r["printed_name"] or r["name"]).casefold())
