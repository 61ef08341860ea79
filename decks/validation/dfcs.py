"""How double-faced cards are represented (R9-R12, MTR 3.5): each checklist card is official
(R11), has exactly one name marked (R10), and that name is one it lists (R11); checklist cards
and represented DFC copies match one for one; all or none (R12) under the chosen policy; and
without fully opaque sleeves every DFC copy is represented (R9)."""

from __future__ import annotations

from typing import Any

from cards.rules.text import gettext
from decks.validation import codes
from decks.validation.data import POLICY_PER_NAME, SUBSTITUTE, ZONE_CHECKLIST, CardInfo, ChecklistUse, DeckData
from decks.validation.problems import Tally, copies, names, plural, problem, zones_of


def validate_dfcs(deck: DeckData, dfc_counts: dict, dfc_cards: dict, tallies: tuple[Tally, ...]) -> list[dict]:
    """The problems of the deck's checklist cards and of the DFC copies they represent.

    ``tallies`` are the zones whose DFCs count (main deck and sideboard: R12 is over both);
    each problem names the zones of the DFC it is about."""
    errors: list[dict] = []
    sound: dict[Any, int] = {}  # official, marked once, with a name it lists
    faulty: list[tuple[CardInfo | None, ...]] = []  # what each faulty checklist card's marks name
    strays: dict[Any, tuple[CardInfo, int]] = {}  # sound checklist cards for cards not in the deck

    for index, use in enumerate(deck.checklist_cards):
        error, card, faulty_marks = _checklist_card(index, use, tallies)
        if error is not None:
            errors.append(error)
        if faulty_marks is not None:
            faulty.append(faulty_marks)
        if card is None:
            continue
        sound[card.key] = sound.get(card.key, 0) + 1
        if card.key not in dfc_counts:
            held = strays.get(card.key)
            strays[card.key] = (card, (held[1] if held else 0) + 1)

    errors += _mismatches(sound, strays, dfc_counts, dfc_cards, tallies)
    represented = _represented(sound, faulty, dfc_counts)
    errors += _unrepresented(deck, represented, dfc_counts, dfc_cards, tallies)
    return errors


def _checklist_zones(use: ChecklistUse, tallies: tuple[Tally, ...]) -> list[str]:
    """Where a checklist card's problem is: the zones of the DFC it marks, else the checklist cards."""
    found = [zone for mark in use.marked if mark.card is not None for zone in zones_of(mark.card.key, *tallies)]
    return found or [ZONE_CHECKLIST]


def _checklist_card(
    index: int, use: ChecklistUse, tallies: tuple[Tally, ...] = ()
) -> tuple[dict | None, CardInfo | None, tuple[CardInfo | None, ...] | None]:
    """One checklist card: (its problem, the DFC it soundly stands for, what a faulty card's
    marks name). A card with no mark stands for nothing."""
    number = index + 1
    marks = use.marked
    zones = _checklist_zones(use, tallies)
    marked_names = [mark.name for mark in marks]
    if not use.candidates:
        unofficial = problem(
            codes.CHECKLIST_UNOFFICIAL,
            gettext("Checklist card %(number)s: “%(given)s” is not an official checklist or substitute card (R11).")
            % {"number": number, "given": use.given},
            [use.given] + marked_names,
            zones=zones,
            checklist=use.given,
            index=index,
        )
        return unofficial, None, tuple(mark.card for mark in marks[:1])
    label = use.candidates[0].label
    if not marks:
        what = (
            "does not say which double-faced card it stands for"
            if use.candidates[0].kind == SUBSTITUTE
            else "has no name marked"
        )
        return (
            problem(
                codes.CHECKLIST_NO_MARK,
                gettext("Checklist card %(number)s (%(label)s) %(what)s: exactly one name must be marked (R10).")
                % {"number": number, "label": label, "what": what},
                [use.given],
                zones=zones,
                checklist=label,
                index=index,
            ),
            None,
            None,
        )
    if len(marks) > 1:
        return (
            problem(
                codes.CHECKLIST_MULTIPLE_MARKS,
                gettext(
                    "Checklist card %(number)s (%(label)s) has %(count)s names marked (%(join)s): exactly one is allowed (R10)."
                )
                % {"number": number, "label": label, "count": len(marks), "join": ", ".join(marked_names)},
                [use.given] + marked_names,
                zones=zones,
                checklist=label,
                index=index,
            ),
            None,
            tuple(mark.card for mark in marks),
        )
    error = _mark_problem(number, index, use, zones)
    if error is not None:
        return error, None, (marks[0].card,)
    return None, marks[0].card, None


def _mark_problem(number: int, index: int, use: ChecklistUse, zones: list[str]) -> dict | None:
    """The problem of a checklist card's one mark, if it names no card the card may stand for."""
    mark = use.marked[0]
    card = mark.card
    checklist = use.candidates[0]
    if card is not None:
        checklist = next((c for c in use.candidates if card.key in c.lists), checklist)
    also_named = [card.name] if card is not None and card.name != mark.name else []
    if checklist.kind == SUBSTITUTE:
        # MTR 3.5: a write-in substitute card (Zendikar Rising onward) stands for whichever
        # double-faced card is written on it, from any set; only the older checklist cards
        # are limited to the cards printed on them.
        if card is None or not card.is_dfc:
            return problem(
                codes.CHECKLIST_NOT_LISTED,
                gettext(
                    "Checklist card %(number)s: “%(name)s” is %(not_a_card_in_the_catalogue_if_card_is_None_else_not_a_double_faced_card)s; a substitute card stands for a double-faced card (R11, MTR 3.5)."
                )
                % {
                    "number": number,
                    "name": mark.name,
                    "not_a_card_in_the_catalogue_if_card_is_None_else_not_a_double_faced_card": "not a card in the catalogue"
                    if card is None
                    else "not a double-faced card",
                },
                [mark.name] + also_named,
                zones=zones,
                checklist=checklist.label,
                index=index,
            )
    elif card is None or card.key not in checklist.lists:
        return problem(
            codes.CHECKLIST_NOT_LISTED,
            gettext(
                "Checklist card %(number)s: “%(name)s” is not a card the %(label)s lists; a checklist card can only mark a double-faced card it lists (R11, MTR 3.5)."
            )
            % {"number": number, "name": mark.name, "label": checklist.label},
            [mark.name] + also_named,
            zones=zones,
            checklist=checklist.label,
            index=index,
        )
    return None


def _mismatches(sound: dict, strays: dict, dfc_counts: dict, dfc_cards: dict, tallies: tuple[Tally, ...]) -> list[dict]:
    """Checklist cards and represented copies, one for one."""
    errors = []
    for card, count in strays.values():
        errors.append(
            problem(
                codes.CHECKLIST_MISMATCH,
                gettext("%(plural)s marked %(name)s, but the deck has no %(name)s.")
                % {"plural": plural(count, "checklist card"), "name": card.name},
                [card.name],
                zones=[ZONE_CHECKLIST],
                checklist_cards=count,
                copies=0,
            )
        )
    for key, count in sound.items():
        if key in dfc_counts and count > dfc_counts[key]:
            card = dfc_cards[key]
            errors.append(
                problem(
                    codes.CHECKLIST_MISMATCH,
                    gettext("%(plural)s marked %(name)s, but the deck has %(copies)s: one checklist card per copy.")
                    % {"plural": plural(count, "checklist card"), "name": card.name, "copies": copies(dfc_counts[key])},
                    names(card, *tallies),
                    zones=zones_of(key, *tallies),
                    checklist_cards=count,
                    copies=dfc_counts[key],
                )
            )
    return errors


def _represented(sound: dict, faulty: list, dfc_counts: dict) -> dict[Any, int]:
    """Copies of each DFC a checklist card stands for. A faulty checklist card still stands for
    a copy its marks name (reported once, above), so the same card does not also count as a
    DFC left unrepresented."""
    claims = {key: min(sound.get(key, 0), count) for key, count in dfc_counts.items()}
    for options in faulty:
        for card in options:
            if card is not None and card.key in dfc_counts and claims[card.key] < dfc_counts[card.key]:
                claims[card.key] += 1
                break
    return {key: min(claims.get(key, 0), count) for key, count in dfc_counts.items()}


def _unrepresented(
    deck: DeckData, represented: dict, dfc_counts: dict, dfc_cards: dict, tallies: tuple[Tally, ...]
) -> list[dict]:
    """DFC copies no checklist card stands for: all or none (R12), or opaque sleeves (R9)."""
    errors = []
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
            errors.append(
                problem(
                    codes.CHECKLIST_PARTIAL,
                    gettext(
                        "%(have)s of %(count)s copies of %(name)s are represented by checklist cards: every copy of the same double-faced card must be, or none (R12, MTR 3.5).%(sleeves)s"
                    )
                    % {"have": have, "count": count, "name": card.name, "sleeves": sleeves},
                    names(card, *tallies),
                    zones=zones_of(key, *tallies),
                    by_zone={t.zone: t.counts[key] for t in tallies if key in t.counts},
                    represented=have,
                    copies=count,
                )
            )
        elif deck.checklist_policy != POLICY_PER_NAME and any_represented:
            errors.append(
                problem(
                    codes.CHECKLIST_PARTIAL,
                    gettext(
                        "The deck represents double-faced cards with checklist cards, so every one must be (R12); %(count_have)s of %(count)s %(name)s %(is_if_count_have_1_else_are)s not.%(sleeves)s"
                    )
                    % {
                        "count_have": count - have,
                        "count": count,
                        "name": card.name,
                        "is_if_count_have_1_else_are": "is" if count - have == 1 else "are",
                        "sleeves": sleeves,
                    },
                    names(card, *tallies),
                    zones=zones_of(key, *tallies),
                    by_zone={t.zone: t.counts[key] for t in tallies if key in t.counts},
                    represented=have,
                    copies=count,
                )
            )
        elif not deck.opaque_sleeves:
            errors.append(
                problem(
                    codes.DFC_NEEDS_SLEEVES_OR_CHECKLIST,
                    gettext(
                        "%(count_have)s of %(count)s %(name)s not represented by a checklist card, and the deck is not in fully opaque sleeves (R9, MTR 3.5)."
                    )
                    % {"count_have": count - have, "count": count, "name": card.name},
                    names(card, *tallies),
                    zones=zones_of(key, *tallies),
                    by_zone={t.zone: t.counts[key] for t in tallies if key in t.counts},
                    represented=have,
                    copies=count,
                )
            )
    return errors
