"""The decks app's adapter to the pure deck validation: names and ids -> plain data ->
:mod:`decks.validation`. The only place where the catalogue and that core meet.

Every caller (the stateless API, registration, judges' pages) resolves through :func:`resolve`
and validates through :func:`validate_resolved`, so they all see the same result. Card names resolve through ``cards.selectors.find_cards`` (any
face name, case and accents ignored); checklist cards by id, by name, or by
``Name (SET NUMBER)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db.models import Prefetch, Q

from cards import languages
from cards import selectors as card_selectors
from cards.models import Card, CardFace, ChecklistCard, ChecklistEntry
from cards.name_folding import normalize_name
from decks import validation as core
from draftsite import whole_numbers
from draftsite.bounds import ID_MAX
from draftsite.i18n import localize, localize_problems

BASIC_LANDS = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
MAX_SUGGESTED = 5  # unknown names that get "did you mean" suggestions

_NUMBER_WORDS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_ANY_NUMBER = re.compile(r"a deck can have any number of cards named", re.IGNORECASE)
_UP_TO = re.compile(r"a deck can have up to (\w+) cards named", re.IGNORECASE)
_LABEL = re.compile(r"^(?P<name>.*?)\s*\(\s*(?P<set>[A-Za-z0-9]{2,8})\s+(?P<number>[A-Za-z0-9\-★]+)\s*\)\s*$")


def _copy_limit(oracle_text: str) -> int | None:
    if _ANY_NUMBER.search(oracle_text):
        return core.ANY_NUMBER
    match = _UP_TO.search(oracle_text)
    if match:
        word = match.group(1).lower()
        return int(word) if word.isdigit() else _NUMBER_WORDS.get(word)
    return None


def card_infos(cards: Iterable[Card]) -> dict[int, core.CardInfo]:
    """CardInfo per catalogue card (one query for the front faces)."""
    cards = {card.pk: card for card in cards}
    fronts = {
        card_id: (supertypes, card_types, oracle_text)
        for card_id, supertypes, card_types, oracle_text in CardFace.objects.filter(
            card_id__in=cards, position=0
        ).values_list("card_id", "supertypes", "card_types", "oracle_text")
    }
    infos = {}
    for pk, card in cards.items():
        supertypes, card_types, oracle = fronts.get(pk, ([], [], ""))
        infos[pk] = core.CardInfo(
            key=pk,
            name=card.name,
            is_dfc=card.is_dfc,
            is_basic="Basic" in (supertypes or []) and "Land" in (card_types or []),
            color_identity=card.color_identity or "",
            copy_limit=_copy_limit(oracle or ""),
        )
    return infos


def basic_land(name: str) -> core.CardInfo | None:
    """A basic land by name, for when the catalogue does not have it."""
    for basic, color in BASIC_LANDS.items():
        if normalize_name(name) == normalize_name(basic):
            return core.CardInfo(key=f"basic:{basic}", name=basic, is_basic=True, color_identity=color)
    return None


def match_names(names: Iterable[str]) -> tuple[dict[str, core.CardInfo | None], dict[str, card_selectors.NameMatch]]:
    """Names as written (English or printed in any language) -> CardInfo, plus each name's
    match (which language it was read in, or the candidates of an ambiguous printed name)."""
    names = list(dict.fromkeys(names))
    matches = card_selectors.match_names(names) if names else {}
    infos = card_infos(m.card for m in matches.values() if m.card is not None)
    by_name = {}
    for name in names:
        match = matches.get(name)
        if match is not None and match.card is not None:
            by_name[name] = infos[match.card.pk]
        elif match is not None and match.ambiguous:
            by_name[name] = None
        else:
            by_name[name] = basic_land(name)
    return by_name, matches


def resolve_names(names: Iterable[str]) -> dict[str, core.CardInfo | None]:
    return match_names(names)[0]


def resolve_ids(ids: Iterable[int]) -> dict[int, core.CardInfo]:
    return card_infos(Card.objects.filter(pk__in=set(ids)))


def checklist_label(checklist: ChecklistCard) -> str:
    return f"{checklist.name} ({checklist.set_code} {checklist.collector_number})"


def _as_checklist(checklist: ChecklistCard) -> core.Checklist:
    return core.Checklist(
        key=checklist.pk,
        name=checklist.name,
        label=checklist_label(checklist),
        kind=checklist.kind,
        lists=frozenset(entry.card_id for entry in checklist.entries.all() if entry.card_id is not None),
    )


def resolve_checklists(givens: Iterable[str | int]) -> dict[str, tuple[core.Checklist, ...]]:
    """Official checklist/substitute cards each given name or id may mean (R11).

    A name several equivalent cards share ("Double-Faced Substitute Card") gives all of them;
    the validation uses the one that lists the marked card.
    """
    givens = list(dict.fromkeys(str(g).strip() for g in givens))
    if not givens:
        return {}
    ids, names, labels = set(), set(), set()
    query = Q(pk__in=[])
    for given in givens:
        given_id = whole_numbers.parse(given, maximum=10**20)
        if given_id is not None:
            if given_id <= ID_MAX:  # past an id's range: no such card (draftsite.bounds)
                ids.add(given_id)
            continue
        match = _LABEL.match(given)
        if match:
            labels.add((match.group("set").upper(), match.group("number")))
            query |= Q(set_code__iexact=match.group("set"), collector_number__iexact=match.group("number"))
        names.add(normalize_name(given))
    query |= Q(pk__in=ids) | Q(search_name__in=names)
    rows = list(
        ChecklistCard.objects.filter(query)
        .prefetch_related(Prefetch("entries", queryset=ChecklistEntry.objects.only("checklist_id", "card_id")))
        .order_by("set_code", "collector_number")
    )
    result: dict[str, tuple[core.Checklist, ...]] = {}
    for given in givens:
        given_id = whole_numbers.parse(given, maximum=10**20)
        if given_id is not None:
            chosen = [row for row in rows if row.pk == given_id]
        else:
            match = _LABEL.match(given)
            chosen = []
            if match:
                chosen = [
                    row
                    for row in rows
                    if row.set_code.upper() == match.group("set").upper()
                    and row.collector_number.lower() == match.group("number").lower()
                ]
            if not chosen:
                key = normalize_name(given)
                chosen = [row for row in rows if row.search_name == key]
        result[given] = tuple(_as_checklist(row) for row in chosen)
    return result


@dataclass
class Resolved:
    """A deck's lines resolved against the catalogue, ready for the core and for storage."""

    deck: core.DeckData
    checklist_rows: list[dict]  # [{"checklist_id", "checklist", "marked"}] as stored
    # card key -> (the name as the player wrote it, its language), for cards not written in English
    printed: dict = field(default_factory=dict)
    # name as written -> every language it is a printed name in ("en" for English names)
    languages_of: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def languages_read(self) -> list[dict]:
        """Which languages the list was written in: [{"language", "name", "lines"}], most
        lines first. A name printed alike in two languages counts for both."""
        counts: dict[str, int] = {}
        for section in (self.deck.main, self.deck.sideboard, self.deck.commander):
            for line in section:
                if line.card is None:
                    continue
                for language in self.languages_of.get(line.name, (languages.ENGLISH,)):
                    counts[language] = counts.get(language, 0) + 1
        ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        return [{"language": code, "name": languages.name_of(code), "lines": n} for code, n in ordered]

    def printed_names(self) -> list[dict]:
        """The cards read from a name printed in another language, with their English name."""
        names = {
            line.card.key: line.card.name
            for section in (self.deck.main, self.deck.sideboard, self.deck.commander)
            for line in section
            if line.card is not None
        }
        return [
            {
                "card_id": key if isinstance(key, int) else None,
                "name": names[key],
                "printed_name": printed,
                "language": language,
            }
            for key, (printed, language) in self.printed.items()
            if key in names
        ]

    def stored(self, lines: Sequence[core.Line]) -> list[dict]:
        """Lines as stored: merged per card, full names."""
        rows: dict = {}
        for line in lines:
            if line.card is None:
                key, card_id, name = ("?", line.name.casefold()), None, line.name
            else:
                key = line.card.key
                card_id = line.card.key if isinstance(line.card.key, int) else None
                name = line.card.name
            if key in rows:
                rows[key]["count"] += line.count
            else:
                rows[key] = {"card_id": card_id, "name": name, "count": line.count}
                if line.card is not None and line.card.key in self.printed:
                    # the English name is the card's; the name as the player wrote it stays beside
                    rows[key]["printed_name"], rows[key]["language"] = self.printed[line.card.key]
        return list(rows.values())


def stored_checklist_cards(rows: Sequence[dict]) -> list[dict]:
    """Checklist cards as stored, as :func:`resolve` takes them (by id where the card is known)."""
    return [
        {
            "checklist": str(row["checklist_id"]) if row.get("checklist_id") else row["checklist"],
            "marked": row.get("marked", []),
        }
        for row in rows
    ]


def _entry_name(entry: dict) -> str:
    return str(entry.get("name") or "").strip()


def _checklist_lines_out(
    main: Sequence[dict], sideboard: Sequence[dict], checklist_cards: Sequence[dict]
) -> tuple[list, list, list]:
    """A pasted list may name its checklist cards among the cards ("1 Innistrad Checklist",
    "4 Innistrad Checklist: Delver of Secrets"): those lines are checklist cards (R9-R11), not
    unknown cards with a "did you mean" for some real card."""
    named = [e for e in list(main) + list(sideboard) if e.get("card_id") is None and _entry_name(e)]
    if not named:
        return list(main), list(sideboard), list(checklist_cards)
    known = resolve_names([_entry_name(e) for e in named])
    givens = {
        _entry_name(e): _entry_name(e).split(":", 1)[0].strip() for e in named if known.get(_entry_name(e)) is None
    }
    found = resolve_checklists(set(givens.values())) if givens else {}
    extra: list[dict] = []

    def keep(section):
        out = []
        for entry in section:
            name = _entry_name(entry) if entry.get("card_id") is None else ""
            given = givens.get(name)
            if given and found.get(given):
                mark = name.split(":", 1)[1].strip() if ":" in name else ""
                extra.extend(
                    {"checklist": given, "marked": [mark] if mark else []}
                    for _ in range(min(int(entry.get("count") or 1), 100))
                )
            else:
                out.append(entry)
        return out

    return keep(main), keep(sideboard), list(checklist_cards) + extra


def _split_marks(marked: list[str], by_name: dict) -> list[str]:
    """ "Delver of Secrets, Garruk Relentless" is two names marked, not one unknown name.

    Card names may contain commas (Tamiyo, Field Researcher), so a mark is split only when it
    is not itself a card name and every part is one; the validation then reports two marks (R10).
    """
    out: list[str] = []
    for name in marked:
        parts = [part.strip() for part in name.split(",") if part.strip()]
        if by_name.get(name) is None and len(parts) > 1 and all(by_name.get(part) is not None for part in parts):
            out.extend(parts)
        else:
            out.append(name)
    return out


def resolve(
    *,
    format: str,
    main: Sequence[dict],
    sideboard: Sequence[dict] = (),
    commander: Sequence[dict] = (),
    pool: Sequence[dict] | None = None,
    opaque_sleeves: bool = False,
    checklist_policy: str = core.POLICY_DECK,
    checklist_cards: Sequence[dict] = (),
) -> Resolved:
    """Resolve entries ``{"name", "count"}`` or ``{"card_id", "count"}`` and checklist cards."""
    main, sideboard, checklist_cards = _checklist_lines_out(main, sideboard, checklist_cards)
    sections = [main, sideboard, commander, pool or ()]
    names, ids = _names_and_ids(sections, checklist_cards)
    by_name, matches = match_names(names)
    by_id = resolve_ids(ids) if ids else {}
    ambiguous = {name: [card.name for card in match.candidates] for name, match in matches.items() if match.ambiguous}
    uses, rows = _checklist_uses(checklist_cards, by_name)
    main_lines, side_lines, cmd_lines = (_lines(section, by_id, by_name) for section in (main, sideboard, commander))
    pool_lines = _lines(pool, by_id, by_name) if pool is not None else None
    deck = core.DeckData(
        format=format,
        main=main_lines,
        sideboard=side_lines,
        commander=cmd_lines,
        pool=pool_lines,
        opaque_sleeves=bool(opaque_sleeves),
        checklist_policy=checklist_policy,
        checklist_cards=uses,
        suggestions=_suggestions((main_lines, side_lines, cmd_lines, pool_lines or []), ambiguous),
        ambiguous=ambiguous,
    )
    return Resolved(
        deck=deck,
        checklist_rows=rows,
        printed=_printed(sections, matches),
        languages_of={name: m.languages for name, m in matches.items() if m.card is not None},
    )


def _names_and_ids(sections: Sequence[Sequence[dict]], checklist_cards: Sequence[dict]) -> tuple[list[str], set[int]]:
    """The names to look up (lines and checklist marks, a mark's comma-separated parts too) and
    the card ids."""
    names: list[str] = []
    ids: set[int] = set()
    for section in sections:
        for entry in section:
            if entry.get("card_id") is not None:
                ids.add(int(entry["card_id"]))
            else:
                names.append(_entry_name(entry))
    for card in checklist_cards:
        for name in card.get("marked") or ():
            names.append(str(name).strip())
            names.extend(part.strip() for part in str(name).split(",") if part.strip())
    return names, ids


def _printed(sections: Sequence[Sequence[dict]], matches: dict) -> dict:
    """card id -> (the name as written, its language), for cards not written in English."""
    printed: dict = {}
    for section in sections:  # stored lines keep the printed name they were entered with
        for entry in section:
            if entry.get("card_id") is not None and entry.get("printed_name"):
                printed.setdefault(
                    int(entry["card_id"]), (str(entry["printed_name"]), str(entry.get("language") or ""))
                )
    for name, match in matches.items():
        if match.card is not None and match.language != languages.ENGLISH:
            printed.setdefault(match.card.pk, (name, match.language))
    return printed


def _lines(section: Sequence[dict], by_id: dict, by_name: dict) -> list[core.Line]:
    out = []
    for entry in section:
        card_id = entry.get("card_id")
        if card_id is not None:
            info = by_id.get(int(card_id))
            name = info.name if info is not None else _entry_name(entry) or f"card #{card_id}"
            if info is None and entry.get("name"):
                info = by_name.get(_entry_name(entry)) or basic_land(_entry_name(entry))
        else:
            name = _entry_name(entry)
            info = by_name.get(name)
        out.append(core.Line(name=name, count=int(entry["count"]), card=info))
    return out


def _checklist_uses(checklist_cards: Sequence[dict], by_name: dict) -> tuple[list[core.ChecklistUse], list[dict]]:
    """Each checklist card for the core, and as stored (the official card its mark chose)."""
    checklists = resolve_checklists(card.get("checklist", "") for card in checklist_cards)
    uses, rows = [], []
    for card in checklist_cards:
        given = str(card.get("checklist", "")).strip()
        marked = _split_marks([str(name).strip() for name in card.get("marked") or ()], by_name)
        candidates = checklists.get(given, ())
        marks = tuple(core.Mark(name=name, card=by_name.get(name)) for name in marked)
        uses.append(core.ChecklistUse(given=given, candidates=candidates, marked=marks))
        chosen = candidates[0] if candidates else None
        if chosen is not None and len(marks) == 1 and marks[0].card is not None:
            chosen = next((c for c in candidates if marks[0].card.key in c.lists), chosen)
        rows.append(
            {
                "checklist_id": chosen.key if chosen else None,
                "checklist": chosen.label if chosen else given,
                "marked": marked,
            }
        )
    return uses, rows


def _suggestions(groups: Sequence[Sequence[core.Line]], ambiguous: dict) -> dict[str, list[str]]:
    """ "Did you mean" names for the first unknown names (not for ambiguous ones)."""
    unknown = [line.name for group in groups for line in group if line.card is None]
    return {
        name: card_selectors.suggest_names(name, 3)
        for name in [n for n in dict.fromkeys(unknown) if n not in ambiguous][:MAX_SUGGESTED]
    }


def validate_resolved(resolved: Resolved) -> core.Report:
    """Validate a resolved deck; its problems in the reader's language."""
    report = core.validate(resolved.deck)
    # The core's messages, in the language of whoever asked (API caller, player, judge).
    report.errors = localize_problems(report.errors)
    report.warnings = localize_problems(report.warnings)
    return report


def zones_text(zones: Sequence[str]) -> str:
    """The zones' name in the reader's language ("main deck and sideboard")."""
    return str(localize(core.zone_label(zones)))


def checklist_cover(deck: core.DeckData) -> tuple[list[dict], list[dict]]:
    """Checklist cards for every DFC copy the check counts, main deck and sideboard alike (R9,
    R12): ``(cards, uncovered)``. ``cards`` are ``{"checklist", "marked"}`` rows, one per copy,
    marked with the name printed on the card (R10, R11); ``uncovered`` lists the DFCs
    (``{"name", "zones"}``) that no official card may stand for.

    An older checklist card that lists the DFC comes first (the lowest set code and number);
    where none does, a write-in substitute card, which stands for a DFC of any set (MTR 3.5):
    one that lists the card if there is one, else the first in the catalogue.
    """
    wanted = core.dfc_copies(deck)
    ids = [key for key in wanted if isinstance(key, int)]
    best: dict[int, tuple[ChecklistCard, str]] = {}
    entries = (
        ChecklistEntry.objects.filter(card_id__in=ids)
        .select_related("checklist")
        .order_by("checklist__kind", "checklist__set_code", "checklist__collector_number")
    )
    for entry in entries:
        best.setdefault(entry.card_id, (entry.checklist, entry.printed_name))
    substitute = (
        ChecklistCard.objects.filter(kind=core.SUBSTITUTE).order_by("set_code", "collector_number").first()
        if any(key not in best for key in wanted)
        else None
    )
    cards: list[dict] = []
    uncovered: list[dict] = []
    for key, (card, zones) in wanted.items():
        chosen = best.get(key) if isinstance(key, int) else None
        if chosen is None and substitute is not None:
            chosen = (substitute, card.name.split(" // ")[0])  # written in: the DFC's front face
        if chosen is None:
            uncovered.append({"name": card.name, "zones": [z for z in core.ZONES if z in zones]})
            continue
        checklist, marked = chosen
        cards.extend({"checklist": checklist_label(checklist), "marked": [marked]} for _ in range(sum(zones.values())))
    return cards, uncovered
