"""Row-level database access for the writer, in two flavours.

``OrmStore`` works on every database through Django's ``bulk_create`` / ``bulk_update``.
``PostgresStore`` is the fast path: look-ups send one array parameter (``= ANY(%s)``) instead of
a thousand placeholders, and new rows go in with ``COPY``; card ids are drawn from the table's
sequence first so faces and printings can point at new cards straight away. Both exchange the
plain ``CardRow`` / ``PrintingRow`` objects below, so the writer never builds model instances
in its hot path.
"""

from __future__ import annotations

import json
import operator
from dataclasses import dataclass

from django.db import connection
from django.db.models import Q

from cards.models import FACE_TEXT_FIELDS, Card, CardFace, Printing

FACE_FIELDS = [FACE_TEXT_FIELDS[0], "search_name", *FACE_TEXT_FIELDS[1:]]
_FACE_VALUES = operator.itemgetter(*FACE_FIELDS)
assert FACE_FIELDS[5:8] == ["supertypes", "card_types", "subtypes"]  # the JSON columns
# Look-up lists travel as one text parameter split on the server: much cheaper than an
# array parameter (or a thousand placeholders) for a thousand names.
_SEPARATOR = "\x1f"
_TEXTS = "string_to_array(%s, E'\\x1f')"
PRINTING_FIELDS = [
    "card_id",
    "card_set_id",
    "collector_number",
    "rarity",
    "scryfall_id",
    "mtgjson_uuid",
    "mtgo_id",
    "mtgo_foil_id",
    "image_uris",
    "in_boosters",
    "data_hash",
]
IMPORT_LOCK_KEY = 0x63617264  # any constant shared by every importer process ("card")
_CARD = Card._meta.db_table
_PRINTING = Printing._meta.db_table
_CARD_UPDATE_FIELDS = ["search_name", "layout", "color_identity", "oracle_id", "data_hash", "updated_at"]


@dataclass(slots=True)
class CardRow:
    id: int | None
    name: str
    search_name: str = ""
    layout: str = ""
    color_identity: str = ""
    oracle_id: str | None = None
    data_hash: str = ""


@dataclass(slots=True, eq=False)
class PrintingRow:
    id: int | None
    card_id: int
    card_set_id: int
    collector_number: str
    rarity: str
    scryfall_id: str | None
    mtgjson_uuid: str | None
    mtgo_id: int | None
    mtgo_foil_id: int | None
    image_uris: dict
    in_boosters: bool
    data_hash: str


def get_store():
    return PostgresStore()


def _uuid(value) -> str | None:
    return None if value is None else str(value)


class OrmStore:
    """The ORM's statements (``PostgresStore`` replaces the costly ones with COPY and arrays)."""

    def begin(self) -> None:
        """Called at the start of each batch transaction."""

    def cards(self, names: list[str], oracle_ids: list[str]):
        """Existing cards with these names, and which card holds each of these oracle ids."""
        rows = Card.objects.filter(Q(name__in=names) | Q(oracle_id__in=oracle_ids)).values_list(
            "id", "name", "data_hash", "oracle_id"
        )
        return _split_cards(rows, set(names))

    def insert_cards(self, rows: list[CardRow], now) -> None:
        cards = [_card(r) for r in rows]
        Card.objects.bulk_create(cards)
        for row, card in zip(rows, cards):
            row.id = card.pk

    def update_cards(self, rows: list[CardRow], now) -> None:
        cards = [_card(r, id=r.id, updated_at=now) for r in rows]
        Card.objects.bulk_update(cards, _CARD_UPDATE_FIELDS, batch_size=500)

    def delete_faces(self, card_ids: list[int]) -> None:
        CardFace.objects.filter(card_id__in=card_ids).delete()

    def insert_faces(self, faces: list[tuple[int, int, dict]]) -> None:
        CardFace.objects.bulk_create(
            [CardFace(card_id=card_id, position=position, **face) for card_id, position, face in faces],
            batch_size=500,
        )

    def printings(self, sids, uuids, number_keys, card_keys) -> list[PrintingRow]:
        """Printings with one of these Scryfall ids or MTGJSON uuids, or one of these
        (set id, collector number) or, without a number, (set id, card id) pairs."""
        queries = []
        if sids:
            queries.append(Q(scryfall_id__in=sids))
        if uuids:
            queries.append(Q(mtgjson_uuid__in=uuids))
        for set_id, numbers in _by_set(number_keys).items():
            queries.append(Q(card_set_id=set_id, collector_number__in=numbers))
        for set_id, card_ids in _by_set(card_keys).items():
            queries.append(Q(card_set_id=set_id, card_id__in=card_ids, collector_number=""))
        found: dict[int, PrintingRow] = {}
        for query in queries:
            for values in Printing.objects.filter(query).values_list("id", *PRINTING_FIELDS):
                if values[0] not in found:
                    found[values[0]] = _printing_row(values)
        return list(found.values())

    def insert_printings(self, rows: list[PrintingRow]) -> None:
        created = Printing.objects.bulk_create(
            [Printing(**{f: getattr(r, f) for f in PRINTING_FIELDS}) for r in rows],
            batch_size=500,
        )
        for row, printing in zip(rows, created):  # ids known on SQLite 3.35+ and PostgreSQL
            row.id = printing.pk

    def update_printings(self, rows: list[PrintingRow]) -> None:
        Printing.objects.bulk_update(
            [Printing(id=r.id, **{f: getattr(r, f) for f in PRINTING_FIELDS}) for r in rows],
            [f.removesuffix("_id") if f in ("card_id", "card_set_id") else f for f in PRINTING_FIELDS],
            batch_size=500,
        )


def _by_set(keys) -> dict:
    grouped: dict = {}
    for set_id, value in keys:
        grouped.setdefault(set_id, []).append(value)
    return grouped


def _pack(values) -> str:
    return _SEPARATOR.join(str(v) for v in values)


def _split_cards(rows, names: set[str]) -> tuple[dict[str, CardRow], dict[str, str]]:
    by_name, oracle_holder = {}, {}
    for pk, name, digest, oracle in rows:
        if name in names:
            by_name[name] = CardRow(id=pk, name=name, data_hash=digest, oracle_id=_uuid(oracle))
        if oracle is not None:
            oracle_holder[str(oracle)] = name
    return by_name, oracle_holder


def _printing_row(values) -> PrintingRow:
    pk, card_id, set_id, number, rarity, sid, uuid, mtgo_id, mtgo_foil_id, images, in_boosters, digest = values
    if isinstance(images, str):
        images = json.loads(images)
    return PrintingRow(
        id=pk,
        card_id=card_id,
        card_set_id=set_id,
        collector_number=number,
        rarity=rarity,
        scryfall_id=_uuid(sid),
        mtgjson_uuid=_uuid(uuid),
        mtgo_id=mtgo_id,
        mtgo_foil_id=mtgo_foil_id,
        image_uris=images or {},
        in_boosters=in_boosters,
        data_hash=digest,
    )


class PostgresStore(OrmStore):
    """COPY for inserts and array parameters for look-ups; updates stay on the ORM."""

    def _rows(self, statement: str, params: list) -> list[tuple]:
        with connection.cursor() as cursor:
            cursor.execute(statement, params)
            return cursor.fetchall()

    def begin(self) -> None:
        with connection.cursor() as cursor:
            # Each batch is re-runnable (imports are idempotent), so it need not wait for the
            # WAL flush: a server crash may lose the last batches, never corrupt them.
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
            # Two imports running at once take turns batch by batch instead of racing to
            # create the same new card.
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [IMPORT_LOCK_KEY])

    def cards(self, names: list[str], oracle_ids: list[str]):
        rows = self._rows(
            f"SELECT id, name, data_hash, oracle_id FROM {_CARD} "
            f"WHERE name = ANY({_TEXTS}) OR oracle_id = ANY({_TEXTS}::uuid[])",
            [_pack(names), _pack(oracle_ids)],
        )
        return _split_cards(rows, set(names))

    def printings(self, sids, uuids, number_keys, card_keys) -> list[PrintingRow]:
        # One indexed look-up per key kind; (set, number) pairs are joined as pairs, not as
        # two ANY lists (their cross product would scan whole sets).
        columns = ", ".join(f"p.{c}" for c in ["id", *PRINTING_FIELDS])
        parts, params = [], []
        if sids:
            parts.append(f"SELECT {columns} FROM {_PRINTING} p WHERE p.scryfall_id = ANY({_TEXTS}::uuid[])")
            params.append(_pack(sids))
        if uuids:
            parts.append(f"SELECT {columns} FROM {_PRINTING} p WHERE p.mtgjson_uuid = ANY({_TEXTS}::uuid[])")
            params.append(_pack(uuids))
        if number_keys:
            parts.append(
                f"SELECT {columns} FROM {_PRINTING} p JOIN unnest("
                f"{_TEXTS}::bigint[], {_TEXTS}) AS k(set_id, number) "
                "ON p.card_set_id = k.set_id AND p.collector_number = k.number "
                # lets the partial unique index (set, number <> '') serve the join
                "AND p.collector_number <> ''"
            )
            params += [_pack(k[0] for k in number_keys), _pack(k[1] for k in number_keys)]
        if card_keys:
            parts.append(
                f"SELECT {columns} FROM {_PRINTING} p JOIN unnest("
                f"{_TEXTS}::bigint[], {_TEXTS}::bigint[]) AS k(set_id, card_id) "
                "ON p.card_set_id = k.set_id AND p.card_id = k.card_id "
                "AND p.collector_number = ''"
            )
            params += [_pack(k[0] for k in card_keys), _pack(k[1] for k in card_keys)]
        if not parts:
            return []
        found: dict[int, PrintingRow] = {}
        for values in self._rows(" UNION ALL ".join(parts), params):
            if values[0] not in found:
                found[values[0]] = _printing_row(values)
        return list(found.values())

    def insert_cards(self, rows: list[CardRow], now) -> None:
        ids = self._rows(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [_CARD, len(rows)]
        )
        for row, (pk,) in zip(rows, ids):
            row.id = pk
        self._copy(
            Card,
            [
                "id",
                "name",
                "search_name",
                "layout",
                "color_identity",
                "oracle_id",
                "data_hash",
                "created_at",
                "updated_at",
            ],
            (
                (r.id, r.name, r.search_name, r.layout, r.color_identity, r.oracle_id, r.data_hash, now, now)
                for r in rows
            ),
        )

    def insert_faces(self, faces: list[tuple[int, int, dict]]) -> None:
        cache: dict[tuple, str] = {}

        def as_json(value: list) -> str:
            key = tuple(value)
            text = cache.get(key)
            if text is None:
                text = cache[key] = json.dumps(value)
            return text

        def row(card_id: int, position: int, face: dict) -> tuple:
            v = _FACE_VALUES(face)
            return (card_id, position, *v[:5], as_json(v[5]), as_json(v[6]), as_json(v[7]), *v[8:])

        self._copy(CardFace, ["card_id", "position", *FACE_FIELDS], (row(*face) for face in faces))

    def insert_printings(self, rows: list[PrintingRow]) -> None:
        # Ids taken up front (as for cards) so later files of the same run know these rows.
        ids = self._rows(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [_PRINTING, len(rows)]
        )
        for row, (pk,) in zip(rows, ids):
            row.id = pk
        self._copy(
            Printing,
            ["id", *PRINTING_FIELDS],
            (
                (
                    r.id,
                    r.card_id,
                    r.card_set_id,
                    r.collector_number,
                    r.rarity,
                    r.scryfall_id,
                    r.mtgjson_uuid,
                    r.mtgo_id,
                    r.mtgo_foil_id,
                    json.dumps(r.image_uris),
                    r.in_boosters,
                    r.data_hash,
                )
                for r in rows
            ),
        )

    def _copy(self, model, fields: list[str], rows) -> None:
        from psycopg import sql

        by_attname = {field.attname: field.column for field in model._meta.concrete_fields}
        statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
            sql.Identifier(model._meta.db_table),
            sql.SQL(", ").join(sql.Identifier(by_attname[f]) for f in fields),
        )
        with connection.cursor() as cursor:
            with cursor.cursor.copy(statement) as copy:
                for row in rows:
                    copy.write_row(row)


def _card(row: CardRow, **fields) -> Card:
    """The ``Card`` an imported row writes (``fields``: an update's id and time)."""
    return Card(
        name=row.name,
        search_name=row.search_name,
        layout=row.layout,
        color_identity=row.color_identity,
        oracle_id=row.oracle_id,
        data_hash=row.data_hash,
        **fields,
    )
