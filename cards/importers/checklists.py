"""Checklist and substitute cards (R9-R11) and the links from their entries to DFCs.

A checklist card's entries are the "☐ Name {cost}" lines of its text. A substitute card may
stand for any DFC of its parent set, so its entries are that set's DFCs as the catalogue knows
them. ``relink`` runs at the end of every import: it rebuilds substitute entries and points
every entry at the card whose front face has the printed name, so files may be imported in
any order.
"""

from __future__ import annotations

import re

from cards.models import (
    DFC_LAYOUTS,
    CardFace,
    ChecklistCard,
    ChecklistEntry,
    ChecklistKind,
    Printing,
)
from cards.name_folding import normalize_name

from .records import ChecklistRecord

_NUMBER = re.compile(r"(\d+)")
_FIELDS = (
    "name",
    "kind",
    "set_code",
    "parent_set_code",
    "collector_number",
    "scryfall_id",
    "oracle_text",
    "search_name",
)


def write_checklist_cards(batch: list[ChecklistRecord]) -> tuple[int, int]:
    """Create or update the checklist cards of a batch; returns (created, updated)."""
    created = updated = 0
    for record in _dedupe(batch):
        values = {
            "name": record.name[:200],
            "kind": record.kind,
            "set_code": record.set_code[:10],
            "parent_set_code": record.parent_set_code[:10],
            "collector_number": record.collector_number[:20],
            "scryfall_id": record.scryfall_id,
            "oracle_text": record.oracle_text,
            "search_name": normalize_name(record.name)[:200],
        }
        card = None
        if record.scryfall_id:
            card = ChecklistCard.objects.filter(scryfall_id=record.scryfall_id).first()
        if card is None:
            card = ChecklistCard.objects.filter(
                set_code=values["set_code"], collector_number=values["collector_number"]
            ).first()
        if card is None:
            card = ChecklistCard.objects.create(**values)
            created += 1
            _replace_entries(card, record.entries)
            continue
        changed = [f for f in _FIELDS if _text(getattr(card, f)) != _text(values[f])]
        entries_changed = (
            record.kind == ChecklistKind.CHECKLIST
            and list(card.entries.values_list("printed_name", flat=True)) != record.entries
        )
        if changed:
            for field in changed:
                setattr(card, field, values[field])
            card.save(update_fields=changed)
        if entries_changed:
            _replace_entries(card, record.entries)
        if changed or entries_changed:
            updated += 1
    return created, updated


def _dedupe(batch: list[ChecklistRecord]) -> list[ChecklistRecord]:
    seen, out = set(), []
    for record in batch:
        key = record.scryfall_id or (record.set_code, record.collector_number)
        if key not in seen:
            seen.add(key)
            out.append(record)
    return out


def _text(value) -> str:
    return "" if value is None else str(value)


def _replace_entries(card: ChecklistCard, names: list[str]) -> None:
    card.entries.all().delete()
    ChecklistEntry.objects.bulk_create(
        ChecklistEntry(checklist=card, position=position, printed_name=name[:200])
        for position, name in enumerate(names)
    )


def relink() -> tuple[int, int]:
    """Rebuild substitute entries and link every entry to its card; (linked, unlinked)."""
    _sync_substitutes()
    entries = list(ChecklistEntry.objects.only("id", "printed_name", "card_id"))
    if not entries:
        return 0, 0
    exact, folded = _front_faces({e.printed_name for e in entries})
    changed = []
    linked = 0
    for entry in entries:
        card_id = exact.get(entry.printed_name) or folded.get(normalize_name(entry.printed_name))
        if card_id:
            linked += 1
        if entry.card_id != card_id:
            entry.card_id = card_id
            changed.append(entry)
    if changed:
        ChecklistEntry.objects.bulk_update(changed, ["card"], batch_size=1000)
    return linked, len(entries) - linked


def _front_faces(names: set[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Printed name -> card id of the card whose front face has that name (DFCs first)."""
    folded_names = {normalize_name(name) for name in names}
    rows = (
        CardFace.objects.filter(position=0)
        .filter(search_name__in=folded_names)
        .values_list("name", "search_name", "card_id", "card__layout")
    )
    exact: dict[str, tuple] = {}
    folded: dict[str, tuple] = {}
    for name, search_name, card_id, layout in rows:
        rank = (0 if layout in DFC_LAYOUTS else 1, card_id)
        if name in names and (name not in exact or rank < exact[name]):
            exact[name] = rank
        if search_name not in folded or rank < folded[search_name]:
            folded[search_name] = rank
    return ({k: v[1] for k, v in exact.items()}, {k: v[1] for k, v in folded.items()})


def _number_key(number: str) -> tuple:
    match = _NUMBER.search(number or "")
    return (int(match.group(1)) if match else 1 << 30, number or "")


def _sync_substitutes() -> None:
    substitutes = list(ChecklistCard.objects.filter(kind=ChecklistKind.SUBSTITUTE))
    if not substitutes:
        return
    parents = {s.parent_set_code for s in substitutes if s.parent_set_code}
    rows = Printing.objects.filter(card_set__code__in=parents, card__layout__in=list(DFC_LAYOUTS)).values_list(
        "card_set__code", "collector_number", "card_id"
    )
    best: dict[str, dict[int, tuple]] = {}
    for code, number, card_id in rows:
        cards = best.setdefault(code, {})
        key = _number_key(number)
        if card_id not in cards or key < cards[card_id]:
            cards[card_id] = key
    card_ids = {card_id for cards in best.values() for card_id in cards}
    front = dict(CardFace.objects.filter(card_id__in=card_ids, position=0).values_list("card_id", "name"))
    wanted_by_set = {
        code: list(
            dict.fromkeys(
                front[card_id] for card_id, _ in sorted(cards.items(), key=lambda kv: kv[1]) if card_id in front
            )
        )
        for code, cards in best.items()
    }
    existing: dict[int, list[ChecklistEntry]] = {}
    for entry in ChecklistEntry.objects.filter(checklist__in=substitutes).order_by("position"):
        existing.setdefault(entry.checklist_id, []).append(entry)
    for substitute in substitutes:
        wanted = wanted_by_set.get(substitute.parent_set_code, [])
        have = [e.printed_name for e in existing.get(substitute.pk, [])]
        if have != wanted:
            _replace_entries(substitute, wanted)
