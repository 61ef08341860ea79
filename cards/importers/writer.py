"""Writes normalized records to the database in batches.

Each batch runs in its own ``transaction.atomic()``: existing rows are looked up in bulk (by
card name; by Scryfall id, MTGJSON uuid or set + collector number for printings), new rows are
bulk-created, changed rows bulk-updated and the faces of changed cards replaced. A card or
printing whose content hash equals the stored ``data_hash`` is not written at all. A batch that
fails rolls back alone; batches committed before it stay.
"""

from __future__ import annotations

import datetime
from collections import OrderedDict
from collections.abc import Callable

from django.db import DatabaseError, transaction
from django.utils import timezone

from cards.models import Card, CardFace, CardSet, Printing
from cards.naming import normalize_name

from . import checklists, errors
from .errors import CardImportError
from .records import CardRecord, ChecklistRecord, SetInfo, Skip
from .summary import ImportSummary

DEFAULT_BATCH_SIZE = 1000
# Names of cards written during this run, to keep the first version when one file holds a
# card twice with different data (so a re-import stays "unchanged"). Bounded.
RECENT_LIMIT = 100_000
_PRINTING_FIELDS = ["card", "card_set", "collector_number", "rarity", "scryfall_id",
                    "mtgjson_uuid", "image_uris", "in_boosters", "data_hash"]
_CARD_FIELDS = ["search_name", "layout", "color_identity", "oracle_id", "data_hash",
                "updated_at"]


class CardWriter:
    def __init__(self, summary: ImportSummary, *, path: str, batch_size: int = DEFAULT_BATCH_SIZE,
                 progress: Callable[[int], object] | None = None):
        self.summary = summary
        self.path = path
        self.batch_size = max(1, batch_size)
        self.progress = progress
        self.sets: dict[str, CardSet] = {}
        self.cards: list[CardRecord] = []
        self.checklists: list[ChecklistRecord] = []
        self.recent: OrderedDict[str, str] = OrderedDict()
        self._unreported = 0

    # -- intake ------------------------------------------------------------------------------

    def add(self, item) -> None:
        self.summary.records += 1
        if isinstance(item, CardRecord):
            self.cards.append(item)
            if len(self.cards) >= self.batch_size:
                self.flush()
        elif isinstance(item, Skip):
            self.summary.skip(item.reason)
        elif isinstance(item, ChecklistRecord):
            self.checklists.append(item)
        elif isinstance(item, SetInfo):
            self.summary.records -= 1  # set headers are not records
            self._guard(lambda: self._apply_set(item), "set " + item.code)
        else:  # pragma: no cover - a reader bug
            raise TypeError(f"unexpected item {item!r}")
        self._unreported += 1
        if self.progress is not None and self._unreported >= 200:
            self.progress(self._unreported)
            self._unreported = 0

    def finish(self) -> None:
        self.flush()
        if self.checklists:
            batch, self.checklists = self.checklists, []
            self._guard(lambda: self._write_checklists(batch), "checklist cards")
        linked, unlinked = self._guard(checklists.relink, "checklist links")
        self.summary.checklist_entries_linked = linked
        self.summary.checklist_entries_unlinked = unlinked
        if self.progress is not None and self._unreported:
            self.progress(self._unreported)
            self._unreported = 0

    def flush(self) -> None:
        if not self.cards:
            return
        batch, self.cards = self.cards, []
        first, last = batch[0], batch[-1]
        where = f"records #{first.index}-#{last.index} (first: {first.name})"
        self._guard(lambda: self._write_cards(batch), where)

    def _guard(self, work: Callable, where: str):
        try:
            with transaction.atomic():
                return work()
        except DatabaseError as exc:
            detail = str(exc).strip().splitlines()[0] if str(exc).strip() else repr(exc)
            raise CardImportError(
                f"database error while writing {where}; this batch was rolled back, earlier "
                f"batches are kept: {detail}", code=errors.DATABASE_ERROR, path=self.path,
            ) from exc

    # -- sets --------------------------------------------------------------------------------

    def _apply_set(self, info: SetInfo) -> None:
        if not info.code:
            return
        if info.code not in self.summary.sets:
            self.summary.sets.append(info.code)
        values = {
            "name": info.name,
            "release_date": _date(info.release_date),
            "set_type": info.set_type,
            "parent_code": info.parent_code,
            "booster": info.booster,
        }
        card_set = self.sets.get(info.code) or CardSet.objects.filter(code=info.code).first()
        if card_set is None:
            values["name"] = values["name"] or info.code
            card_set = CardSet.objects.create(code=info.code, **values)
        else:
            changed = []
            for field, value in values.items():
                if value in (None, ""):
                    continue
                current = getattr(card_set, field)
                blank = current in (None, "") or (field == "name" and current == card_set.code)
                if current != value and (info.authoritative or blank):
                    setattr(card_set, field, value)
                    changed.append(field)
            if changed:
                card_set.save(update_fields=changed)
        self.sets[info.code] = card_set

    def _ensure_sets(self, codes: set[str]) -> None:
        missing = [code for code in codes if code not in self.sets]
        if not missing:
            return
        for card_set in CardSet.objects.filter(code__in=missing):
            self.sets[card_set.code] = card_set
        for code in missing:
            if code not in self.sets:
                self.sets[code] = CardSet.objects.create(code=code, name=code)
            if code not in self.summary.sets:
                self.summary.sets.append(code)

    # -- cards -------------------------------------------------------------------------------

    def _write_cards(self, batch: list[CardRecord]) -> None:
        self._ensure_sets({r.set_code for r in batch})
        card_ids, card_changed = self._write_oracle_cards(batch)
        self._write_printings(batch, card_ids, card_changed)
        for record in batch:
            self.summary.by_layout[record.layout] += 1
            if record.incomplete:
                self.summary.incomplete_cards += 1

    def _write_oracle_cards(self, batch: list[CardRecord]) -> tuple[dict, set]:
        unique: dict[str, CardRecord] = {}
        for record in batch:
            unique.setdefault(record.name, record)
        existing = {
            card.name: card
            for card in Card.objects.filter(name__in=list(unique)).only(
                "id", "name", "data_hash", "oracle_id")
        }
        oracle_owner = self._oracle_owners(unique)
        now = timezone.now()
        new_cards, changed_cards = [], []
        for name, record in unique.items():
            oracle = record.oracle_id if oracle_owner.get(record.oracle_id) == name else None
            card = existing.get(name)
            first_version = self.recent.get(name)
            if card is None:
                card = Card(name=name, search_name=record.search_name[:300], layout=record.layout,
                            color_identity=record.color_identity, oracle_id=oracle,
                            data_hash=record.card_hash)
                new_cards.append(card)
                existing[name] = card
            elif card.data_hash == record.card_hash or (
                first_version is not None and first_version != record.card_hash
            ):
                self.summary.cards_unchanged += 1
            else:
                card.search_name = record.search_name[:300]
                card.layout = record.layout
                card.color_identity = record.color_identity
                card.oracle_id = oracle
                card.data_hash = record.card_hash
                card.updated_at = now
                changed_cards.append(card)
            if first_version is None:
                self._remember(name, record.card_hash)
        if new_cards:
            Card.objects.bulk_create(new_cards, batch_size=self.batch_size)
        if changed_cards:
            Card.objects.bulk_update(changed_cards, _CARD_FIELDS, batch_size=self.batch_size)
            CardFace.objects.filter(card_id__in=[c.pk for c in changed_cards]).delete()
        faces = [
            CardFace(card_id=card.pk, position=position, **face)
            for card in (*new_cards, *changed_cards)
            for position, face in enumerate(unique[card.name].faces)
        ]
        if faces:
            CardFace.objects.bulk_create(faces, batch_size=self.batch_size)
        self.summary.cards_created += len(new_cards)
        self.summary.cards_updated += len(changed_cards)
        changed = {c.name for c in new_cards} | {c.name for c in changed_cards}
        return {name: card.pk for name, card in existing.items()}, changed

    def _oracle_owners(self, unique: dict[str, CardRecord]) -> dict[str, str]:
        """oracle id -> the card name allowed to carry it (one card per oracle id)."""
        wanted: dict[str, str] = {}
        for name, record in unique.items():
            if record.oracle_id:
                wanted.setdefault(record.oracle_id, name)
        if not wanted:
            return {}
        for oracle, name in Card.objects.filter(oracle_id__in=list(wanted)).values_list(
            "oracle_id", "name"
        ):
            wanted[str(oracle)] = name  # already taken: only that card may keep it
        return wanted

    def _remember(self, name: str, card_hash: str) -> None:
        self.recent[name] = card_hash
        if len(self.recent) > RECENT_LIMIT:
            self.recent.popitem(last=False)

    # -- printings ---------------------------------------------------------------------------

    def _write_printings(self, batch: list[CardRecord], card_ids: dict, card_changed: set):
        index = _PrintingIndex(batch, self.sets, card_ids)
        new, changed, touched = [], [], set()
        counted_cards = set()
        for record in batch:
            card_set = self.sets[record.set_code]
            card_id = card_ids[record.name]
            printing = index.match(record, card_set.pk, card_id)
            card_update = record.name in card_changed and record.name not in counted_cards
            counted_cards.add(record.name)
            if printing is None:
                printing = Printing(
                    card_id=card_id, card_set=card_set, collector_number=record.collector_number,
                    rarity=record.rarity, scryfall_id=record.scryfall_id,
                    mtgjson_uuid=record.mtgjson_uuid, image_uris=record.image_uris,
                    in_boosters=record.in_boosters, data_hash=record.printing_hash,
                )
                new.append(printing)
                touched.add(id(printing))
                index.register(printing, record, card_set.pk, card_id)
                self.summary.created += 1
                continue
            if id(printing) in touched or printing.data_hash == record.printing_hash:
                touched.add(id(printing))
                if card_update:
                    self.summary.updated += 1
                else:
                    self.summary.unchanged += 1
                continue
            touched.add(id(printing))
            index.update(printing, record, card_set, card_id)
            changed.append(printing)
            self.summary.updated += 1
        if new:
            Printing.objects.bulk_create(new, batch_size=self.batch_size)
        if changed:
            Printing.objects.bulk_update(changed, _PRINTING_FIELDS, batch_size=self.batch_size)

    # -- checklist cards -----------------------------------------------------------------------

    def _write_checklists(self, batch: list[ChecklistRecord]) -> None:
        created, updated = checklists.write_checklist_cards(batch)
        self.summary.checklist_cards += len(batch)
        self.summary.checklists_created += created
        self.summary.checklists_updated += updated


class _PrintingIndex:
    """Existing printings of one batch, found by every key a record may match on."""

    def __init__(self, batch: list[CardRecord], sets: dict, card_ids: dict):
        sids = {r.scryfall_id for r in batch if r.scryfall_id}
        uuids = {r.mtgjson_uuid for r in batch if r.mtgjson_uuid}
        numbers = {r.collector_number for r in batch if r.collector_number}
        set_ids = {sets[r.set_code].pk for r in batch}
        plain_cards = {card_ids[r.name] for r in batch
                       if not r.scryfall_id and not r.collector_number}
        self.by_sid: dict[str, Printing] = {}
        self.by_uuid: dict[str, Printing] = {}
        self.by_number: dict[tuple, Printing] = {}
        self.by_card: dict[tuple, Printing] = {}
        rows = []
        if sids:
            rows += Printing.objects.filter(scryfall_id__in=sids)
        if uuids:
            rows += Printing.objects.filter(mtgjson_uuid__in=uuids)
        if numbers:
            rows += Printing.objects.filter(card_set_id__in=set_ids, collector_number__in=numbers)
        if plain_cards:
            rows += Printing.objects.filter(card_set_id__in=set_ids, card_id__in=plain_cards,
                                            collector_number="")
        seen: dict[int, Printing] = {}
        for row in rows:
            row = seen.setdefault(row.pk, row)  # one object per row, whichever key found it
            self._index(row)

    def _index(self, row: Printing) -> None:
        if row.scryfall_id:
            self.by_sid[str(row.scryfall_id)] = row
        if row.mtgjson_uuid:
            self.by_uuid[str(row.mtgjson_uuid)] = row
        if row.collector_number:
            self.by_number[(row.card_set_id, row.collector_number)] = row
        else:
            self.by_card.setdefault((row.card_set_id, row.card_id), row)

    def match(self, record: CardRecord, set_id: int, card_id: int) -> Printing | None:
        if record.scryfall_id and record.scryfall_id in self.by_sid:
            return self.by_sid[record.scryfall_id]
        if record.mtgjson_uuid and record.mtgjson_uuid in self.by_uuid:
            return self.by_uuid[record.mtgjson_uuid]
        if record.collector_number:
            return self.by_number.get((set_id, record.collector_number))
        if not record.scryfall_id:
            return self.by_card.get((set_id, card_id))
        return None

    def register(self, printing: Printing, record: CardRecord, set_id: int, card_id: int):
        printing.card_set_id = set_id
        printing.card_id = card_id
        self._index(printing)

    def update(self, printing: Printing, record: CardRecord, card_set: CardSet, card_id: int):
        """Apply a record to a matched row without stealing a unique key from another row."""
        printing.card_id = card_id
        printing.card_set = card_set
        number = record.collector_number
        holder = self.by_number.get((card_set.pk, number)) if number else None
        if number and (holder is None or holder is printing):
            printing.collector_number = number
        if record.scryfall_id and self.by_sid.get(record.scryfall_id, printing) is printing:
            printing.scryfall_id = record.scryfall_id
        if record.mtgjson_uuid and self.by_uuid.get(record.mtgjson_uuid, printing) is printing:
            printing.mtgjson_uuid = record.mtgjson_uuid
        printing.rarity = record.rarity
        printing.image_uris = record.image_uris
        printing.in_boosters = record.in_boosters
        printing.data_hash = record.printing_hash
        self._index(printing)


def _date(value) -> datetime.date | None:
    if not value:
        return None
    try:
        return datetime.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None
