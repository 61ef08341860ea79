"""validate(): the list itself, then how double-faced cards are represented (R9-R12)."""

from __future__ import annotations

from cards.rules.text import gettext

from collections.abc import Sequence
from typing import Any

from decks.validation.data import (
    ANY_NUMBER,
    CHECKLIST_MISMATCH,
    CHECKLIST_MULTIPLE_MARKS,
    CHECKLIST_NO_MARK,
    CHECKLIST_NOT_LISTED,
    CHECKLIST_PARTIAL,
    CHECKLIST_UNOFFICIAL,
    COLOR_IDENTITY,
    COMMANDER,
    COPY_LIMIT,
    DECK_TOO_LARGE,
    DECK_TOO_SMALL,
    DFC_NEEDS_SLEEVES_OR_CHECKLIST,
    LIMITED,
    MAX_SIDEBOARD,
    MIN_MAIN,
    NO_COMMANDER,
    NOT_IN_POOL,
    POLICY_PER_NAME,
    SECTION_IGNORED,
    SIDEBOARD_TOO_LARGE,
    SUBSTITUTE,
    TOO_MANY_COPIES,
    UNKNOWN_CARD,
    AMBIGUOUS_CARD_NAME,
    CardInfo,
    DeckData,
    Line,
    Report,
)

def _problem(code: str, message: str, cards: list[str], **extra: Any) -> dict:
    error = {"code": code, "message": message, "cards": cards}
    if extra:
        error.update(extra)
    return error


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {plural or word + 's'}"


def _copies(count: int) -> str:
    return _plural(count, "copy", "copies")


class _Tally:
    """Copies per card key, and the names each card was written as."""

    __slots__ = ("counts", "cards", "written")

    def __init__(self) -> None:
        self.counts: dict[Any, int] = {}
        self.cards: dict[Any, CardInfo] = {}
        self.written: dict[Any, list[str]] = {}

    def add(self, card: CardInfo, count: int, name: str) -> None:
        key = card.key
        if key in self.counts:
            self.counts[key] += count
            names = self.written[key]
            if name not in names:
                names.append(name)
        else:
            self.counts[key] = count
            self.cards[key] = card
            self.written[key] = [name]


def _names(card: CardInfo, *tallies: _Tally) -> list[str]:
    """The card's full name, then the other names the player wrote it as."""
    names = [card.name]
    for tally in tallies:
        for name in tally.written.get(card.key, ()):
            if name not in names:
                names.append(name)
    return names


def _tally(lines: Sequence[Line], unknown: dict[str, None]) -> tuple[_Tally, int]:
    tally = _Tally()
    total = 0
    for line in lines:
        total += line.count
        if line.card is None:
            unknown[line.name] = None
        else:
            tally.add(line.card, line.count, line.name)
    return tally, total


def validate(deck: DeckData) -> Report:
    """Check one deck; every rule that applies reports its own coded error."""
    fmt = deck.format
    errors: list[dict] = []
    warnings: list[dict] = []
    unknown: dict[str, None] = {}  # ordered set of unknown names

    main, main_total = _tally(deck.main, unknown)
    side, side_total = _tally(deck.sideboard, unknown)
    commander, commander_total = _tally(deck.commander, unknown) if fmt == COMMANDER else (_Tally(), 0)
    if fmt != COMMANDER and deck.commander:
        warnings.append(_problem(SECTION_IGNORED, gettext('Only Commander decks have a commander; that section was not checked.'), [line.name for line in deck.commander]))
    pool = None
    if fmt == LIMITED and deck.pool:
        pool, _ = _tally(deck.pool, unknown)

    for use in deck.checklist_cards:  # a marked name may be ambiguous too
        for mark in use.marked:
            if mark.card is None and mark.name in deck.ambiguous:
                unknown[mark.name] = None
    for name in unknown:
        if name in deck.ambiguous:
            candidates = list(deck.ambiguous[name])
            errors.append(_problem(AMBIGUOUS_CARD_NAME, gettext('“%(name)s” is the printed name of several cards: %(candidates)s. Write the English name of the one you mean.') % {'name': name, 'candidates': ', '.join(candidates)}, [name],
                                   candidates=candidates))
            continue
        suggestions = list(deck.suggestions.get(name, ()))
        hint = gettext(' Did you mean %(names)s?') % {'names': ', '.join(suggestions)} if suggestions else ""
        errors.append(_problem(UNKNOWN_CARD, gettext('No card is called “%(name)s”.%(hint)s') % {'name': name, 'hint': hint}, [name],
                               suggestions=suggestions))

    # --- size -------------------------------------------------------------------------
    needed = MIN_MAIN.get(fmt, 0)
    if fmt == COMMANDER:
        total = main_total + commander_total
        if total < needed:
            errors.append(_problem(DECK_TOO_SMALL, gettext('A Commander deck has exactly %(needed)s cards including the commander; this one has %(total)s.') % {'needed': needed, 'total': total}, [],
                                   minimum=needed, actual=total))
        elif total > needed:
            errors.append(_problem(DECK_TOO_LARGE, gettext('A Commander deck has exactly %(needed)s cards including the commander; this one has %(total)s.') % {'needed': needed, 'total': total}, [],
                                   maximum=needed, actual=total))
        if side_total:
            warnings.append(_problem(SECTION_IGNORED, gettext('Commander decks have no sideboard; those cards were not counted.'), [line.name for line in deck.sideboard]))
    elif main_total < needed:
        errors.append(_problem(DECK_TOO_SMALL, gettext('A %(fmt)s main deck has at least %(needed)s cards; this one has %(main_total)s.') % {'fmt': fmt, 'needed': needed, 'main_total': main_total}, [], minimum=needed, actual=main_total))
    max_side = MAX_SIDEBOARD.get(fmt)
    if max_side is not None and side_total > max_side:
        errors.append(_problem(SIDEBOARD_TOO_LARGE, gettext('A sideboard has at most %(max_side)s cards; this one has %(side_total)s.') % {'max_side': max_side, 'side_total': side_total}, [], maximum=max_side, actual=side_total))

    # --- copies (per card, whichever face names it; main, sideboard and commander) ----
    limit = COPY_LIMIT.get(fmt)
    if limit is not None:
        combined: dict[Any, int] = dict(main.counts)
        for tally in (side,) if fmt != COMMANDER else (commander,):
            for key, count in tally.counts.items():
                combined[key] = combined.get(key, 0) + count
        cards = {**main.cards, **side.cards, **commander.cards}
        for key, count in combined.items():
            card = cards[key]
            if card.is_basic:
                continue
            allowed = limit if card.copy_limit is None else card.copy_limit
            if allowed != ANY_NUMBER and count > allowed:
                errors.append(_problem(
                    TOO_MANY_COPIES,
                    gettext('%(copies)s of %(name)s; at most %(allowed)s in a %(fmt)s deck.') % {'copies': _copies(count), 'name': card.name, 'allowed': allowed, 'fmt': fmt},
                    _names(card, main, side, commander), maximum=allowed, actual=count))

    # --- pool (limited) ---------------------------------------------------------------
    if pool is not None:
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
                errors.append(_problem(NOT_IN_POOL, gettext('%(count)s × %(name)s in the deck, but %(where)s.') % {'count': count, 'name': card.name, 'where': where},
                                       _names(card, main, side), pool=have, actual=count))

    # --- color identity (commander, R39) ----------------------------------------------
    if fmt == COMMANDER:
        if not commander.counts:
            warnings.append(_problem(NO_COMMANDER, gettext('No commander given: color identity (R39) was not checked.'), []))
        else:
            allowed_colors = set()
            for card in commander.cards.values():
                allowed_colors.update(card.color_identity)
            shown = "".join(c for c in "WUBRG" if c in allowed_colors) or "colorless"
            for key, card in main.cards.items():
                outside = [c for c in card.color_identity if c not in allowed_colors]
                if outside:
                    errors.append(_problem(
                        COLOR_IDENTITY,
                        gettext("%(name)s has color identity %(color_identity)s (R39: every face counts); the commander's is %(shown)s.") % {'name': card.name, 'color_identity': card.color_identity, 'shown': shown},
                        _names(card, main), identity=card.color_identity, commander_identity=shown))

    # --- double-faced cards (R9-R12) ----------------------------------------------------
    dfc_counts: dict[Any, int] = {}
    dfc_cards: dict[Any, CardInfo] = {}
    for tally in (main, side) if fmt != COMMANDER else (main,):
        for key, count in tally.counts.items():
            card = tally.cards[key]
            if card.is_dfc:
                dfc_counts[key] = dfc_counts.get(key, 0) + count
                dfc_cards[key] = card
    _check_dfcs(deck, dfc_counts, dfc_cards, errors, (main, side))

    summary = {
        "main": main_total,
        "sideboard": side_total,
        "commander": commander_total,
        "dfcs": sum(dfc_counts.values()),
        "checklist_cards": len(deck.checklist_cards),
    }
    return Report(errors=errors, warnings=warnings, summary=summary)


def _check_dfcs(deck: DeckData, dfc_counts: dict, dfc_cards: dict, errors: list[dict],
                tallies: tuple[_Tally, ...]) -> None:
    sound: dict[Any, int] = {}  # official, marked once, with a name it lists
    faulty: list[tuple[CardInfo | None, ...]] = []  # what each faulty checklist card's marks name
    strays: dict[Any, tuple[CardInfo, int]] = {}  # sound checklist cards for cards not in the deck

    for index, use in enumerate(deck.checklist_cards):
        number = index + 1
        marks = use.marked
        marked_names = [mark.name for mark in marks]
        if not use.candidates:
            errors.append(_problem(
                CHECKLIST_UNOFFICIAL,
                gettext('Checklist card %(number)s: “%(given)s” is not an official checklist or substitute card (R11).') % {'number': number, 'given': use.given}, [use.given] + marked_names, checklist=use.given, index=index))
            faulty.append(tuple(mark.card for mark in marks[:1]))
            continue
        label = use.candidates[0].label
        if not marks:
            what = ("does not say which double-faced card it stands for"
                    if use.candidates[0].kind == SUBSTITUTE else "has no name marked")
            errors.append(_problem(
                CHECKLIST_NO_MARK,
                gettext('Checklist card %(number)s (%(label)s) %(what)s: exactly one name must be marked (R10).') % {'number': number, 'label': label, 'what': what},
                [use.given], checklist=label, index=index))
            continue
        if len(marks) > 1:
            errors.append(_problem(
                CHECKLIST_MULTIPLE_MARKS,
                gettext('Checklist card %(number)s (%(label)s) has %(count)s names marked (%(join)s): exactly one is allowed (R10).') % {'number': number, 'label': label, 'count': len(marks), 'join': ', '.join(marked_names)},
                [use.given] + marked_names, checklist=label, index=index))
            faulty.append(tuple(mark.card for mark in marks))
            continue
        mark = marks[0]
        card = mark.card
        checklist = use.candidates[0]
        if card is not None:
            checklist = next((c for c in use.candidates if card.key in c.lists), checklist)
        if checklist.kind == SUBSTITUTE:
            # MTR 3.5: a write-in substitute card (Zendikar Rising onward) stands for whichever
            # double-faced card is written on it, from any set; only the older checklist cards
            # are limited to the cards printed on them.
            if card is None or not card.is_dfc:
                errors.append(_problem(
                    CHECKLIST_NOT_LISTED,
                    gettext('Checklist card %(number)s: “%(name)s” is %(not_a_card_in_the_catalogue_if_card_is_None_else_not_a_double_faced_card)s; a substitute card stands for a double-faced card (R11, MTR 3.5).') % {'number': number, 'name': mark.name, 'not_a_card_in_the_catalogue_if_card_is_None_else_not_a_double_faced_card': 'not a card in the catalogue' if card is None else 'not a double-faced card'},
                    [mark.name] + ([card.name] if card is not None and card.name != mark.name else []),
                    checklist=checklist.label, index=index))
                faulty.append((card,))
                continue
        elif card is None or card.key not in checklist.lists:
            errors.append(_problem(
                CHECKLIST_NOT_LISTED,
                gettext('Checklist card %(number)s: “%(name)s” is not a card the %(label)s lists; a checklist card can only mark a double-faced card it lists (R11, MTR 3.5).') % {'number': number, 'name': mark.name, 'label': checklist.label},
                [mark.name] + ([card.name] if card is not None and card.name != mark.name else []),
                checklist=checklist.label, index=index))
            faulty.append((card,))
            continue
        sound[card.key] = sound.get(card.key, 0) + 1
        if card.key not in dfc_counts:
            held = strays.get(card.key)
            strays[card.key] = (card, (held[1] if held else 0) + 1)

    # Checklist cards and represented copies, one for one.
    for card, count in strays.values():
        errors.append(_problem(
            CHECKLIST_MISMATCH,
            gettext('%(plural)s marked %(name)s, but the deck has no %(name)s.') % {'plural': _plural(count, 'checklist card'), 'name': card.name},
            [card.name], checklist_cards=count, copies=0))
    for key, count in sound.items():
        if key in dfc_counts and count > dfc_counts[key]:
            card = dfc_cards[key]
            errors.append(_problem(
                CHECKLIST_MISMATCH,
                gettext('%(plural)s marked %(name)s, but the deck has %(copies)s: one checklist card per copy.') % {'plural': _plural(count, 'checklist card'), 'name': card.name, 'copies': _copies(dfc_counts[key])},
                _names(card, *tallies), checklist_cards=count, copies=dfc_counts[key]))

    # A faulty checklist card still stands for a copy its marks name (reported once, above),
    # so the same card does not also count as a DFC left unrepresented.
    claims = {key: min(sound.get(key, 0), count) for key, count in dfc_counts.items()}
    for options in faulty:
        for card in options:
            if card is not None and card.key in dfc_counts and claims[card.key] < dfc_counts[card.key]:
                claims[card.key] += 1
                break

    represented = {key: min(claims.get(key, 0), count) for key, count in dfc_counts.items()}
    any_represented = any(represented.values())
    for key, count in dfc_counts.items():
        have = represented[key]
        if have == count:
            continue
        card = dfc_cards[key]
        # One finding per card: an unrepresented copy in a deck that uses checklist cards is
        # the R12 problem; not being in opaque sleeves is then said in the same finding.
        sleeves = "" if deck.opaque_sleeves else " The deck is not in fully opaque sleeves either (R9)."
        if deck.checklist_policy == POLICY_PER_NAME and have:
            errors.append(_problem(
                CHECKLIST_PARTIAL,
                gettext('%(have)s of %(count)s copies of %(name)s are represented by checklist cards: every copy of the same double-faced card must be, or none (R12, MTR 3.5).%(sleeves)s') % {'have': have, 'count': count, 'name': card.name, 'sleeves': sleeves},
                _names(card, *tallies), represented=have, copies=count))
        elif deck.checklist_policy != POLICY_PER_NAME and any_represented:
            errors.append(_problem(
                CHECKLIST_PARTIAL,
                gettext('The deck represents double-faced cards with checklist cards, so every one must be (R12); %(count_have)s of %(count)s %(name)s %(is_if_count_have_1_else_are)s not.%(sleeves)s') % {'count_have': count - have, 'count': count, 'name': card.name, 'is_if_count_have_1_else_are': 'is' if count - have == 1 else 'are', 'sleeves': sleeves},
                _names(card, *tallies), represented=have, copies=count))
        elif not deck.opaque_sleeves:
            errors.append(_problem(
                DFC_NEEDS_SLEEVES_OR_CHECKLIST,
                gettext('%(count_have)s of %(count)s %(name)s not represented by a checklist card, and the deck is not in fully opaque sleeves (R9, MTR 3.5).') % {'count_have': count - have, 'count': count, 'name': card.name},
                _names(card, *tallies), represented=have, copies=count))
