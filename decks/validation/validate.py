"""validate(): the list itself (unknown names, size, copies, pool, color identity), then how
double-faced cards are represented (R9-R12, :mod:`decks.validation.dfcs`)."""

from __future__ import annotations

from typing import Any

from cards.rules.text import gettext
from decks.validation import codes
from decks.validation.data import (
    ANY_NUMBER,
    COMMANDER,
    COPY_LIMIT,
    LIMITED,
    MAX_SIDEBOARD,
    MIN_MAIN,
    ZONE_CHECKLIST,
    ZONE_COMMANDER,
    ZONE_MAIN,
    ZONE_SIDEBOARD,
    CardInfo,
    DeckData,
    Report,
)
from decks.validation.dfcs import validate_dfcs
from decks.validation.problems import Tally, copies, names, problem, tally, zones_of


def validate(deck: DeckData) -> Report:
    """Validate one deck; every rule that applies reports its own coded error."""
    fmt = deck.format
    errors: list[dict] = []
    warnings: list[dict] = []
    unknown: dict[str, list[str]] = {}  # unknown names (in order) -> the zones they are in

    main, main_total = tally(deck.main, unknown, ZONE_MAIN)
    side, side_total = tally(deck.sideboard, unknown, ZONE_SIDEBOARD)
    commander, commander_total = (
        tally(deck.commander, unknown, ZONE_COMMANDER) if fmt == COMMANDER else (Tally(ZONE_COMMANDER), 0)
    )
    if fmt != COMMANDER and deck.commander:
        warnings.append(
            problem(
                codes.SECTION_IGNORED,
                gettext("Only Commander decks have a commander; that section was not checked."),
                [line.name for line in deck.commander],
                zones=[ZONE_COMMANDER],
            )
        )
    pool = None
    if fmt == LIMITED and deck.pool:
        pool, _ = tally(deck.pool, unknown)

    errors += _unknown_names(deck, unknown)
    _size(deck, main_total, side_total, commander_total, errors, warnings)
    errors += _copies(fmt, main, side, commander)
    if pool is not None:
        errors += _pool(pool, main, side)
    if fmt == COMMANDER:
        _color_identity(main, commander, errors, warnings)
    dfc_counts, dfc_cards = _dfcs(fmt, main, side)
    errors += validate_dfcs(deck, dfc_counts, dfc_cards, (main, side) if fmt != COMMANDER else (main,))

    summary = {
        "main": main_total,
        "sideboard": side_total,
        "commander": commander_total,
        "dfcs": sum(dfc_counts.values()),
        "checklist_cards": len(deck.checklist_cards),
    }
    return Report(errors=errors, warnings=warnings, summary=summary)


def _unknown_names(deck: DeckData, unknown: dict[str, list[str]]) -> list[dict]:
    """Names the catalogue does not know ("did you mean"), or that several cards share."""
    errors = []
    for use in deck.checklist_cards:  # a marked name may be ambiguous too
        for mark in use.marked:
            if mark.card is None and mark.name in deck.ambiguous:
                where = unknown.setdefault(mark.name, [])
                if ZONE_CHECKLIST not in where:
                    where.append(ZONE_CHECKLIST)
    for name, zones in unknown.items():
        if name in deck.ambiguous:
            candidates = list(deck.ambiguous[name])
            errors.append(
                problem(
                    codes.AMBIGUOUS_CARD_NAME,
                    gettext(
                        "“%(name)s” is the printed name of several cards: %(candidates)s. Write the English name of the one you mean."
                    )
                    % {"name": name, "candidates": ", ".join(candidates)},
                    [name],
                    zones=zones,
                    candidates=candidates,
                )
            )
            continue
        suggestions = list(deck.suggestions.get(name, ()))
        hint = gettext(" Did you mean %(names)s?") % {"names": ", ".join(suggestions)} if suggestions else ""
        errors.append(
            problem(
                codes.UNKNOWN_CARD,
                gettext("No card is called “%(name)s”.%(hint)s") % {"name": name, "hint": hint},
                [name],
                zones=zones,
                suggestions=suggestions,
            )
        )
    return errors


def _size(
    deck: DeckData, main_total: int, side_total: int, commander_total: int, errors: list[dict], warnings: list[dict]
) -> None:
    """Deck size (a Commander deck exactly, with its commander) and sideboard size."""
    fmt = deck.format
    needed = MIN_MAIN.get(fmt, 0)
    if fmt == COMMANDER:
        total = main_total + commander_total
        if total != needed:  # exactly: too few and too many are the same sentence
            small = total < needed
            errors.append(
                problem(
                    codes.DECK_TOO_SMALL if small else codes.DECK_TOO_LARGE,
                    gettext(
                        "A Commander deck has exactly %(needed)s cards including the commander; this one has %(total)s."
                    )
                    % {"needed": needed, "total": total},
                    [],
                    zones=[ZONE_MAIN, ZONE_COMMANDER],
                    **({"minimum": needed} if small else {"maximum": needed}),
                    actual=total,
                )
            )
        if side_total:
            warnings.append(
                problem(
                    codes.SECTION_IGNORED,
                    gettext("Commander decks have no sideboard; those cards were not counted."),
                    [line.name for line in deck.sideboard],
                    zones=[ZONE_SIDEBOARD],
                )
            )
    elif main_total < needed:
        errors.append(
            problem(
                codes.DECK_TOO_SMALL,
                gettext("A %(fmt)s main deck has at least %(needed)s cards; this one has %(main_total)s.")
                % {"fmt": fmt, "needed": needed, "main_total": main_total},
                [],
                zones=[ZONE_MAIN],
                minimum=needed,
                actual=main_total,
            )
        )
    max_side = MAX_SIDEBOARD.get(fmt)
    if max_side is not None and side_total > max_side:
        errors.append(
            problem(
                codes.SIDEBOARD_TOO_LARGE,
                gettext("A sideboard has at most %(max_side)s cards; this one has %(side_total)s.")
                % {"max_side": max_side, "side_total": side_total},
                [],
                zones=[ZONE_SIDEBOARD],
                maximum=max_side,
                actual=side_total,
            )
        )


def _copies(fmt: str, main: Tally, side: Tally, commander: Tally) -> list[dict]:
    """Copies per card, whichever face names it, across main deck, sideboard and commander."""
    limit = COPY_LIMIT.get(fmt)
    if limit is None:
        return []
    errors = []
    combined: dict[Any, int] = dict(main.counts)
    for counted in (side,) if fmt != COMMANDER else (commander,):
        for key, count in counted.counts.items():
            combined[key] = combined.get(key, 0) + count
    cards = {**main.cards, **side.cards, **commander.cards}
    for key, count in combined.items():
        card = cards[key]
        if card.is_basic:
            continue
        allowed = limit if card.copy_limit is None else card.copy_limit
        if allowed != ANY_NUMBER and count > allowed:
            errors.append(
                problem(
                    codes.TOO_MANY_COPIES,
                    gettext("%(copies)s of %(name)s; at most %(allowed)s in a %(fmt)s deck.")
                    % {"copies": copies(count), "name": card.name, "allowed": allowed, "fmt": fmt},
                    names(card, main, side, commander),
                    zones=zones_of(key, main, side, commander),
                    maximum=allowed,
                    actual=count,
                )
            )
    return errors


def _pool(pool: Tally, main: Tally, side: Tally) -> list[dict]:
    """Limited: every card of the deck (basic lands aside) comes from the pool."""
    errors = []
    used: dict[Any, int] = dict(main.counts)
    for key, count in side.counts.items():
        used[key] = used.get(key, 0) + count
    cards = {**main.cards, **side.cards}
    for key, count in used.items():
        card = cards[key]
        if card.is_basic:
            continue
        have = pool.counts.get(key, 0)
        if count > have:
            where = f"the pool has {have}" if have else "it is not in the pool"
            errors.append(
                problem(
                    codes.NOT_IN_POOL,
                    gettext("%(count)s × %(name)s in the deck, but %(where)s.")
                    % {"count": count, "name": card.name, "where": where},
                    names(card, main, side),
                    zones=zones_of(key, main, side),
                    pool=have,
                    actual=count,
                )
            )
    return errors


def _color_identity(main: Tally, commander: Tally, errors: list[dict], warnings: list[dict]) -> None:
    """Commander: every card's color identity, across every face, within the commander's (R39)."""
    if not commander.counts:
        warnings.append(
            problem(
                codes.NO_COMMANDER,
                gettext("No commander given: color identity (R39) was not checked."),
                [],
                zones=[ZONE_COMMANDER],
            )
        )
        return
    allowed_colors = set()
    for card in commander.cards.values():
        allowed_colors.update(card.color_identity)
    shown = "".join(c for c in "WUBRG" if c in allowed_colors) or "colorless"
    for card in main.cards.values():
        outside = [c for c in card.color_identity if c not in allowed_colors]
        if outside:
            errors.append(
                problem(
                    codes.COLOR_IDENTITY,
                    gettext(
                        "%(name)s has color identity %(color_identity)s (R39: every face counts); the commander's is %(shown)s."
                    )
                    % {"name": card.name, "color_identity": card.color_identity, "shown": shown},
                    names(card, main),
                    zones=[ZONE_MAIN],
                    identity=card.color_identity,
                    commander_identity=shown,
                )
            )


def _dfcs(fmt: str, main: Tally, side: Tally) -> tuple[dict[Any, int], dict[Any, CardInfo]]:
    """Copies of each double-faced card in the deck (a Commander deck's sideboard is ignored)."""
    dfc_counts: dict[Any, int] = {}
    dfc_cards: dict[Any, CardInfo] = {}
    for counted in (main, side) if fmt != COMMANDER else (main,):
        for key, count in counted.counts.items():
            card = counted.cards[key]
            if card.is_dfc:
                dfc_counts[key] = dfc_counts.get(key, 0) + count
                dfc_cards[key] = card
    return dfc_counts, dfc_cards


def dfc_copies(deck: DeckData) -> dict[Any, tuple[CardInfo, dict[str, int]]]:
    """The DFC copies the check counts (R9, R12), per card: (card, copies per zone). The
    checklist helper fills in exactly these, so the list it makes is the list validate() wants."""
    main, _ = tally(deck.main, {}, ZONE_MAIN)
    side, _ = tally(deck.sideboard, {}, ZONE_SIDEBOARD)
    _, dfc_cards = _dfcs(deck.format, main, side)
    counted = (main, side) if deck.format != COMMANDER else (main,)
    return {key: (card, {t.zone: t.counts[key] for t in counted if key in t.counts}) for key, card in dfc_cards.items()}
