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

from cards.models import CardSet, LocalizedName

from . import checklists, errors
from .errors import CardImportError
from .records import CardRecord, ChecklistRecord, SetInfo, Skip
from .store import CardRow, PrintingRow, get_store
from .summary import ImportSummary

DEFAULT_BATCH_SIZE = 1000
# Names of cards written during this run, to keep the first version when one file holds a
# card twice with different data (so a re-import stays "unchanged"). Bounded.
RECENT_LIMIT = 20_000
# Across the files of one run (a whole --bundled import): every card name, bounded generously.
RUN_LIMIT = 500_000


class ImportRun:
    """What one run of several files has written so far, so that files sharing cards (the same
    set from Scryfall and from MTGJSON, with different oracle text) do not overwrite each other:
    the first file of the run to write a card or a printing wins. Without it every run rewrote
    them back and forth and reported them "updated" (~2,500 on a second ``--bundled``)."""

    def __init__(self) -> None:
        self.recent: OrderedDict[str, str] = OrderedDict()  # card name -> the hash written
        self.printings: set[int] = set()  # printing ids written or confirmed in this run
        self.limit = RUN_LIMIT


class CardWriter:
    def __init__(
        self,
        summary: ImportSummary,
        *,
        path: str,
        batch_size: int = DEFAULT_BATCH_SIZE,
        progress: Callable[[int], object] | None = None,
        run: ImportRun | None = None,
    ):
        self.summary = summary
        self.path = path
        self.batch_size = max(1, batch_size)
        self.progress = progress
        self.sets: dict[str, CardSet] = {}
        self.cards: list[CardRecord] = []
        self.checklists: list[ChecklistRecord] = []
        self.run = run
        self.recent: OrderedDict[str, str] = run.recent if run is not None else OrderedDict()
        self.recent_limit = run.limit if run is not None else RECENT_LIMIT
        self._unreported = 0
        self.store = get_store()

    # -- intake ------------------------------------------------------------------------------

    def add(self, item) -> None:
        if isinstance(item, SetInfo):  # a set header, not a record
            self._guard(lambda: self._apply_set(item), "set " + item.code)
            return
        self.summary.records += 1
        if isinstance(item, CardRecord):
            self.cards.append(item)
            if len(self.cards) >= self.batch_size:
                self.flush()
        elif isinstance(item, Skip):
            self.summary.skip(item.reason)
        elif isinstance(item, ChecklistRecord):
            self.checklists.append(item)
            if len(self.checklists) >= self.batch_size:
                self._flush_checklists()
        else:  # pragma: no cover - a reader bug
            raise TypeError(f"unexpected item {item!r}")
        self._unreported += 1
        if self.progress is not None and self._unreported >= 200:
            self.progress(self._unreported)
            self._unreported = 0

    def finish(self) -> None:
        self.flush()
        self._flush_checklists()
        linked, unlinked = self._guard(checklists.relink, "checklist links")
        self.summary.checklist_entries_linked = linked
        self.summary.checklist_entries_unlinked = unlinked
        if self.progress is not None and self._unreported:
            self.progress(self._unreported)
            self._unreported = 0

    def _flush_checklists(self) -> None:
        if self.checklists:
            batch, self.checklists = self.checklists, []
            self._guard(lambda: self._write_checklists(batch), "checklist cards")

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
                self.store.begin()
                return work()
        except DatabaseError as exc:
            detail = str(exc).strip().splitlines()[0] if str(exc).strip() else repr(exc)
            raise CardImportError(
                f"database error while writing {where}; this batch was rolled back, earlier batches are kept: {detail}",
                code=errors.DATABASE_ERROR,
                path=self.path,
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
        self._write_localized_names(batch, card_ids)
        for record in batch:
            self.summary.by_layout[record.layout] += 1
            if record.incomplete:
                self.summary.incomplete_cards += 1

    def _write_oracle_cards(self, batch: list[CardRecord]) -> tuple[dict, set]:
        unique: dict[str, CardRecord] = {}
        for record in batch:
            unique.setdefault(record.name, record)
        wanted: dict[str, str] = {}  # oracle id -> the one card name allowed to carry it
        for name, record in unique.items():
            if record.oracle_id:
                wanted.setdefault(record.oracle_id, name)
        existing, taken = self.store.cards(list(unique), list(wanted))
        oracle_owner = {**wanted, **taken}  # an oracle id already in use stays where it is
        now = timezone.now()
        new_rows, changed_rows = [], []
        for name, record in unique.items():
            oracle = record.oracle_id if oracle_owner.get(record.oracle_id) == name else None
            row = existing.get(name)
            first_version = self.recent.get(name)
            if first_version is None:
                self._remember(name, record.card_hash)
            if row is None:
                row = CardRow(id=None, name=name)
                new_rows.append(row)
                existing[name] = row
            elif row.data_hash == record.card_hash or (first_version is not None and first_version != record.card_hash):
                self.summary.cards_unchanged += 1
                continue
            else:
                changed_rows.append(row)
            row.search_name = record.search_name[:300]
            row.layout = record.layout
            row.color_identity = record.color_identity
            if oracle or row.id is None:  # a format without oracle ids keeps the stored one
                row.oracle_id = oracle
            row.data_hash = record.card_hash
        if new_rows:
            self.store.insert_cards(new_rows, now)
        if changed_rows:
            self.store.update_cards(changed_rows, now)
            self.store.delete_faces([r.id for r in changed_rows])
        faces = [
            (row.id, position, face)
            for row in (*new_rows, *changed_rows)
            for position, face in enumerate(unique[row.name].faces)
        ]
        if faces:
            self.store.insert_faces(faces)
        self.summary.cards_created += len(new_rows)
        self.summary.cards_updated += len(changed_rows)
        changed = {r.name for r in new_rows} | {r.name for r in changed_rows}
        return {name: row.id for name, row in existing.items()}, changed

    def _remember(self, name: str, card_hash: str) -> None:
        self.recent[name] = card_hash
        if len(self.recent) > self.recent_limit:
            self.recent.popitem(last=False)

    # -- printings ---------------------------------------------------------------------------

    def _write_printings(self, batch: list[CardRecord], card_ids: dict, card_changed: set):
        index = _PrintingIndex(self.store, batch, self.sets, card_ids)
        new, changed, touched = [], [], set()
        counted_cards = set()
        matched: list[PrintingRow] = []  # every row a record of this batch wrote or confirmed
        for record in batch:
            set_id = self.sets[record.set_code].pk
            card_id = card_ids[record.name]
            row = index.match(record, set_id, card_id)
            if row is not None:
                matched.append(row)
            card_update = record.name in card_changed and record.name not in counted_cards
            counted_cards.add(record.name)
            if row is None:
                row = PrintingRow(
                    id=None,
                    card_id=card_id,
                    card_set_id=set_id,
                    collector_number=record.collector_number,
                    rarity=record.rarity,
                    scryfall_id=record.scryfall_id,
                    mtgjson_uuid=record.mtgjson_uuid,
                    mtgo_id=record.mtgo_id,
                    mtgo_foil_id=record.mtgo_foil_id,
                    image_uris=record.image_uris,
                    in_boosters=record.in_boosters,
                    data_hash=record.printing_hash,
                )
                new.append(row)
                matched.append(row)
                touched.add(id(row))
                index.add(row)
                self.summary.created += 1
                continue
            earlier = self.run is not None and row.id in self.run.printings
            if id(row) in touched or row.data_hash == record.printing_hash or earlier:
                touched.add(id(row))
                if card_update:
                    self.summary.updated += 1
                else:
                    self.summary.unchanged += 1
                continue
            touched.add(id(row))
            index.update(row, record, set_id, card_id)
            changed.append(row)
            self.summary.updated += 1
        if new:
            self.store.insert_printings(new)
        if changed:
            self.store.update_printings(changed)
        if self.run is not None:
            self.run.printings.update(row.id for row in matched if row.id is not None)

    # -- printed names in other languages ------------------------------------------------------

    def _write_localized_names(self, batch: list[CardRecord], card_ids: dict) -> None:
        """Add the printed names not stored yet. Names are only ever added (every printing adds
        its own), so a re-import writes nothing and changes nothing."""
        wanted = {
            (card_ids[r.name], position, language, name): key
            for r in batch
            for position, language, name, key in r.localized_names
        }
        if not wanted:
            return
        stored = set(
            LocalizedName.objects.filter(card_id__in={k[0] for k in wanted}).values_list(
                "card_id", "position", "language", "name"
            )
        )
        new = [
            LocalizedName(card_id=card_id, position=position, language=language, name=name, search_name=key)
            for (card_id, position, language, name), key in wanted.items()
            if (card_id, position, language, name) not in stored
        ]
        if new:
            LocalizedName.objects.bulk_create(new, batch_size=2000, ignore_conflicts=True)
        self.summary.localized_names += len(new)

    # -- checklist cards -----------------------------------------------------------------------

    def _write_checklists(self, batch: list[ChecklistRecord]) -> None:
        created, updated = checklists.write_checklist_cards(batch)
        self.summary.checklist_cards += len(batch)
        self.summary.checklists_created += created
        self.summary.checklists_updated += updated


class _PrintingIndex:
    """Existing printings of one batch, found by every key a record may match on."""

    def __init__(self, store, batch: list[CardRecord], sets: dict, card_ids: dict):
        self.by_sid: dict[str, PrintingRow] = {}
        self.by_uuid: dict[str, PrintingRow] = {}
        self.by_number: dict[tuple, PrintingRow] = {}
        self.by_card: dict[tuple, PrintingRow] = {}
        rows = store.printings(
            sids={r.scryfall_id for r in batch if r.scryfall_id},
            uuids={r.mtgjson_uuid for r in batch if r.mtgjson_uuid},
            number_keys={(sets[r.set_code].pk, r.collector_number) for r in batch if r.collector_number},
            card_keys={
                (sets[r.set_code].pk, card_ids[r.name]) for r in batch if not r.scryfall_id and not r.collector_number
            },
        )
        for row in rows:
            self.add(row)

    def add(self, row: PrintingRow) -> None:
        if row.scryfall_id:
            self.by_sid[row.scryfall_id] = row
        if row.mtgjson_uuid:
            self.by_uuid[row.mtgjson_uuid] = row
        if row.collector_number:
            self.by_number[(row.card_set_id, row.collector_number)] = row
        else:
            self.by_card.setdefault((row.card_set_id, row.card_id), row)

    def match(self, record: CardRecord, set_id: int, card_id: int) -> PrintingRow | None:
        if record.scryfall_id and record.scryfall_id in self.by_sid:
            return self.by_sid[record.scryfall_id]
        if record.mtgjson_uuid and record.mtgjson_uuid in self.by_uuid:
            return self.by_uuid[record.mtgjson_uuid]
        if record.collector_number:
            return self.by_number.get((set_id, record.collector_number))
        if not record.scryfall_id:
            return self.by_card.get((set_id, card_id))
        return None

    def update(self, row: PrintingRow, record: CardRecord, set_id: int, card_id: int) -> None:
        """Apply a record to a matched row without taking a unique key from another row.
        A value the record lacks (no collector number, no MTGJSON uuid) keeps the stored one."""
        row.card_id = card_id
        row.card_set_id = set_id
        number = record.collector_number
        holder = self.by_number.get((set_id, number)) if number else None
        if number and (holder is None or holder is row):
            row.collector_number = number
        if record.scryfall_id and self.by_sid.get(record.scryfall_id, row) is row:
            row.scryfall_id = record.scryfall_id
        if record.mtgjson_uuid and self.by_uuid.get(record.mtgjson_uuid, row) is row:
            row.mtgjson_uuid = record.mtgjson_uuid
        row.rarity = record.rarity
        if record.mtgo_id is not None:  # a source without MTGO ids (Scryfall, Cockatrice) keeps them
            row.mtgo_id = record.mtgo_id
        if record.mtgo_foil_id is not None:
            row.mtgo_foil_id = record.mtgo_foil_id
        if record.image_uris:  # a record without pictures keeps the stored ones
            row.image_uris = record.image_uris
        row.in_boosters = record.in_boosters
        row.data_hash = record.printing_hash
        self.add(row)


def _date(value) -> datetime.date | None:
    if not value:
        return None
    try:
        return datetime.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None
