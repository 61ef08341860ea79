"""Backup and restore of one event as a versioned JSON document.

``export_event(event_id)`` returns a dict holding everything that belongs to the event: the
event, its staff, registrations, pods, seats, packs, the cards opened in them, picks, the pod
log, decks (deck rules, sealed pools, decks, corrections, deck-check selections and checks),
penalties (with appeals, dismissed sources and the append-only audit trail), judge calls (but
those from a match table: matches are not in the format) and sealed events.

Nothing in the document is a database id of the machine it came from:

* rows of the event are numbered per section (``"key": 1, 2, ...`` in id order) and refer to
  each other by those keys (``"seat": 3``), lists of rows too: a pack's ``card_ids`` and a
  seat's ``pile_ids`` are the ``draft_cards`` keys of the cards it holds, in order;
* people are usernames (the ``users`` section carries their names and e-mail); guests are
  registrations with ``"user": null``;
* catalogue cards are their full names (unique), printings ``{"scryfall_id", "set",
  "number"}``, checklist cards ``{"set", "number"}``, infractions their IPG code;
* ids kept inside JSON columns are translated too: ``card_id``/``checklist_id``/``printing_id``
  in deck lists, sealed packs and check reports, ``Pick.pack_contents`` (opened cards),
  ``Event.cube_card_ids``, ``DeckCheckSelection.registration_ids``, the pools and players of a
  sealed swap's assignments, the pools a judge call attaches, and the
  ``pick:<id>``/``deck_check:<id>`` sources of penalties.

Each app declares what it adds to the document in its own ``backup.py`` module: ``SECTIONS``
(a list of :class:`Section`, in link order) and ``LEFT_OUT`` (models tied to an event that the
format does not carry, each with the reason; a section that carries only some of its model's
rows says which it leaves out and why in ``Section.left_out``); ``events.backup`` also names
the event itself (``EVENT_ROOT``), ``cards.backup`` the catalogue (``CATALOGUE``) and
``penalties.backup`` the infractions named by code (``NATURAL_KEYS``). Sections come in the order of ``INSTALLED_APPS``,
so an app's sections may link to the sections of the apps above it.

Files of an earlier format version are rewritten to the current one before the import
(``_UPGRADES``): version 1 said where a draft card is on the card's row; versions 3 and 4 added
sections (``Section.since``: sealed events, their packs, paper pools and the swap in 3, judge
calls in 4), which a file written before has none of.

``import_event(document)`` recreates it all in one transaction with new ids: an event with the
same name and date already present, an unknown catalogue card or infraction, or a malformed
document raise :class:`BackupError` and store nothing. Accounts named in the file that do not
exist are created without a usable password (they sign in after a password reset).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist, ImproperlyConfigured, ValidationError
from django.db import DatabaseError, models, transaction
from django.utils import timezone
from django.utils.module_loading import module_has_submodule

from draftsite import whole_numbers

FORMAT_VERSION = 4
KIND = "draftsite.event"

EVENT = "@event"
USER = "@user"
CARD = "@card"
PRINTING = "@printing"
INFRACTION = "@infraction"


class BackupError(Exception):
    """The document cannot be exported or imported; the message says why."""


@dataclass(frozen=True)
class IdList:
    """A list of ids of another section's rows (a JSON or array field), written as that
    section's keys, in the same order."""

    section: str
    # Ids the file does not know become null instead of an error (a deck-check selection keeps
    # the ids of registrations that may have been removed since).
    unknown_as_null: bool = False


@dataclass(frozen=True)
class Section:
    """The rows of one model tied to the event, as one list of the document.

    Import creates the sections in declaration order, so ``links``, ``id_lists`` and
    ``sources`` may only name sections declared above. ``later_id_lists`` are the exception:
    lists naming rows of a section declared *below* (a pack lists the draft cards it holds,
    while a draft card links to the pack it was opened in). Import creates the rows with
    these lists empty and fills them once every section exists.
    """

    name: str
    model: type[models.Model]
    event_path: str  # lookup from the model to its event, e.g. "pod__event"
    links: dict[str, str]  # foreign key field -> section name or one of the @-kinds
    bulk: bool = False  # many plain rows: bulk_create (never for append-only models)
    id_lists: dict[str, IdList] = field(default_factory=dict)  # field -> the ids it holds
    later_id_lists: dict[str, IdList] = field(default_factory=dict)  # the same, of sections below
    # Text fields naming a row as "<prefix>:<id>": field -> {prefix: section}.
    sources: dict[str, dict[str, str]] = field(default_factory=dict)
    # JSON fields holding ids of rows of the sections above under named keys (a swap's
    # ``[{"pool", "from", "to"}]``): field -> {key: section}.
    json_links: dict[str, dict[str, str]] = field(default_factory=dict)
    # The same, naming rows of sections declared *below* (a judge call's pools): import writes
    # the JSON with those ids null and fills them once every section exists.
    later_json_links: dict[str, dict[str, str]] = field(default_factory=dict)
    # The format version that added the section: files written before it import with none.
    since: int = 1
    # Rows of the model the format does not carry, and why (a model left out whole is in its
    # app's LEFT_OUT instead): (a filter of those rows, the reason). Export skips them.
    left_out: tuple[models.Q, str] | None = None


@dataclass(frozen=True)
class EventRoot:
    """The event row itself: its model, its links and its lists of catalogue card ids."""

    model: type[models.Model]
    links: dict[str, str]
    card_lists: tuple[str, ...] = ()
    # Fields a file written before they existed lacks, with the value such an event had (not
    # the model's default for new events): field -> value.
    absent: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Catalogue:
    """The catalogue rows an event's rows name: cards by name, printings by Scryfall id (or set
    and number), checklist cards by set and number."""

    card: type[models.Model]
    printing: type[models.Model]
    checklist: type[models.Model]


@dataclass(frozen=True)
class NaturalKey:
    """Rows of a site-wide list named by a unique field (an infraction by its IPG code)."""

    model: type[models.Model]
    field: str
    label: str  # for the refusal of unknown values, e.g. "infraction code"


@dataclass(frozen=True)
class Declarations:
    root: EventRoot
    catalogue: Catalogue
    natural_keys: dict[str, NaturalKey]  # link kind ("@infraction") -> how it is named
    sections: tuple[Section, ...]
    left_out: dict[type[models.Model], str]  # model -> why the format does not carry it


@cache
def declarations() -> Declarations:
    """Every app's ``backup`` module, in the order of ``INSTALLED_APPS``."""
    roots: list[EventRoot] = []
    catalogues: list[Catalogue] = []
    natural_keys: dict[str, NaturalKey] = {}
    sections: list[Section] = []
    left_out: dict[type[models.Model], str] = {}
    for config in apps.get_app_configs():
        if config.module is None or not module_has_submodule(config.module, "backup"):
            continue
        module = import_module(f"{config.name}.backup")
        if getattr(module, "EVENT_ROOT", None) is not None:
            roots.append(module.EVENT_ROOT)
        if getattr(module, "CATALOGUE", None) is not None:
            catalogues.append(module.CATALOGUE)
        natural_keys.update(getattr(module, "NATURAL_KEYS", {}))
        sections.extend(getattr(module, "SECTIONS", ()))
        left_out.update(getattr(module, "LEFT_OUT", {}))
    if len(roots) != 1 or len(catalogues) != 1:
        raise ImproperlyConfigured("Exactly one app's backup module names EVENT_ROOT, and one CATALOGUE.")
    _check_link_order(sections)
    return Declarations(roots[0], catalogues[0], natural_keys, tuple(sections), left_out)


def _check_link_order(sections: list[Section]) -> None:
    """Import creates the sections in order, so each may only name the sections above it
    (``later_id_lists`` and ``later_json_links`` may name any declared section: they are
    filled last)."""
    seen: set[str] = set()
    for section in sections:
        targets = [kind for kind in section.links.values() if not kind.startswith("@")]
        targets += [ids.section for ids in section.id_lists.values()]
        targets += [name for prefixes in section.sources.values() for name in prefixes.values()]
        targets += [name for keys in section.json_links.values() for name in keys.values()]
        later = [name for name in targets if name not in seen]
        if section.name in seen or later:
            raise ImproperlyConfigured(
                f"Backup section {section.name!r} is declared twice or links to a section below it: {later}."
            )
        seen.add(section.name)
    unknown = [(s.name, ids.section) for s in sections for ids in s.later_id_lists.values() if ids.section not in seen]
    unknown += [
        (s.name, name)
        for s in sections
        for keys in s.later_json_links.values()
        for name in keys.values()
        if name not in seen
    ]
    if unknown:
        raise ImproperlyConfigured(f"Backup id lists name sections no app declares: {unknown}.")


def _sections() -> tuple[Section, ...]:
    return declarations().sections


def _catalogue() -> Catalogue:
    return declarations().catalogue


# --- value conversion --------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    return value


_JSON_ID_KEYS = ("card_id", "checklist_id", "printing_id")


def _walk(value: Any, convert: Callable[[str, Any], Any]) -> Any:
    """Apply ``convert(key, value)`` to every ``card_id``/``checklist_id``/``printing_id``
    inside JSON."""
    if isinstance(value, dict):
        return {
            key: (convert(key, item) if key in _JSON_ID_KEYS else _walk(item, convert)) for key, item in value.items()
        }
    if isinstance(value, list):
        return [_walk(item, convert) for item in value]
    return value


def _own_fields(model: type[models.Model], links: dict[str, str]) -> list[models.Field]:
    """Concrete fields stored as values (not the id, not the links, not a parent pointer)."""
    return [f for f in model._meta.concrete_fields if not f.primary_key and f.name not in links and not f.is_relation]


def _linked_json(value: Any, keys: dict[str, str], convert: Callable[[str, Any], Any]) -> Any:
    """``value`` with ``convert(section, id)`` applied under each key of ``keys`` (any depth)."""
    if isinstance(value, dict):
        return {
            key: (convert(keys[key], item) if key in keys and item is not None else _linked_json(item, keys, convert))
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_linked_json(item, keys, convert) for item in value]
    return value


# --- export ------------------------------------------------------------------------------


class _Exporter:
    def __init__(self) -> None:
        self.keys: dict[str, dict[int, int]] = {}  # section -> {pk: key}
        self.usernames: dict[int, str] = {}
        self.card_names: dict[int, str] = {}
        self.checklists: dict[int, dict] = {}
        self.printings: dict[int, dict] = {}

    def user(self, user_id: int | None) -> str | None:
        if user_id is None:
            return None
        if user_id not in self.usernames:
            self.usernames[user_id] = get_user_model().objects.get(pk=user_id).get_username()
        return self.usernames[user_id]

    def card(self, card_id: int | None) -> str | None:
        if card_id is None:
            return None
        if card_id not in self.card_names:
            self.card_names.update(_catalogue().card.objects.filter(pk=card_id).values_list("pk", "name"))
        return self.card_names.get(card_id)

    def checklist(self, checklist_id: int | None) -> dict | None:
        if checklist_id is None:
            return None
        if checklist_id not in self.checklists:
            row = _catalogue().checklist.objects.filter(pk=checklist_id).values("set_code", "collector_number").first()
            self.checklists[checklist_id] = {"set": row["set_code"], "number": row["collector_number"]} if row else None
        return self.checklists[checklist_id]

    def json_ids(self, key: str, value: Any) -> Any:
        if not isinstance(value, int) or isinstance(value, bool):
            return value
        if key == "card_id":
            name = self.card(value)
            return {"card": name} if name else None
        if key == "printing_id":
            if value not in self.printings:
                self.read_printings({value})
            return {"printing": self.printings.get(value)}
        return {"checklist": self.checklist(value)}

    def read_printings(self, printing_ids: set[int]) -> None:
        """How the file names these printings (Scryfall id, set and number), in one query."""
        self.printings.update(
            (
                p.pk,
                {
                    "scryfall_id": str(p.scryfall_id) if p.scryfall_id else None,
                    "set": p.card_set.code,
                    "number": p.collector_number,
                },
            )
            for p in _catalogue().printing.objects.filter(pk__in=printing_ids).select_related("card_set")
        )

    def json_links(self, value: Any, keys: dict[str, str]) -> Any:
        """Ids of rows under the named keys of JSON objects, as the keys of their sections."""
        return _linked_json(value, keys, lambda section, pk: self.keys[section].get(pk))

    def link(self, kind: str, value: Any) -> Any:
        if value is None:
            return None
        if kind == EVENT:
            return None  # implied: the document's event
        if kind == USER:
            return self.user(value)
        if kind == CARD:
            return self.card(value)
        if kind == PRINTING:
            return self.printings[value]
        if kind in declarations().natural_keys:
            key = declarations().natural_keys[kind]
            return key.model.objects.values_list(key.field, flat=True).get(pk=value)
        return self.keys[kind][value]

    def source(self, value: str, prefixes: dict[str, str]) -> str:
        prefix, _, raw = value.partition(":")
        section = prefixes.get(prefix)
        key = whole_numbers.parse(raw)
        if section and key is not None and key in self.keys.get(section, {}):
            return f"{prefix}:{self.keys[section][key]}"
        return value

    def row(self, section: Section, obj: models.Model) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.keys[section.name][obj.pk]}
        for name, kind in section.links.items():
            if kind == EVENT:
                continue
            out[name] = self.link(kind, getattr(obj, f"{name}_id"))
        for f in _own_fields(section.model, section.links):
            value = getattr(obj, f.attname)
            if isinstance(f, models.JSONField):
                value = _walk(value, self.json_ids)
            out[f.name] = _plain(value)
        for name, ids in {**section.id_lists, **section.later_id_lists}.items():
            keys = self.keys[ids.section]
            out[name] = [keys.get(pk) if ids.unknown_as_null else keys[pk] for pk in getattr(obj, name)]
        for name, prefixes in section.sources.items():
            out[name] = self.source(getattr(obj, name), prefixes)
        for name, keys in {**section.json_links, **section.later_json_links}.items():
            out[name] = self.json_links(out[name], keys)
        return out


def export_event(event_id: int) -> dict[str, Any]:
    """The whole event as a JSON-ready dict (see the module docstring for the format).

    The rows are read in one REPEATABLE READ transaction, so an export taken
    while a draft runs is a consistent snapshot (picks, packs and piles agree).
    """
    connection = transaction.get_connection()
    with transaction.atomic():
        if len(connection.atomic_blocks) == 1:
            # Our own transaction (not nested in a caller's), nothing read yet.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return _export(event_id)


def _export(event_id: int) -> dict[str, Any]:
    root = declarations().root
    try:
        event = root.model.objects.get(pk=event_id)
    except root.model.DoesNotExist:
        raise BackupError(f"There is no event with id {event_id}.") from None
    ex = _Exporter()
    event_row: dict[str, Any] = {name: ex.link(kind, getattr(event, f"{name}_id")) for name, kind in root.links.items()}
    for f in _own_fields(root.model, root.links):
        event_row[f.name] = _plain(getattr(event, f.attname))
    for name in root.card_lists:
        event_row[name] = [ex.card(pk) for pk in getattr(event, name)]

    document: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "kind": KIND,
        "exported_at": timezone.now().isoformat(),
        "event": event_row,
    }
    rows: dict[str, list[models.Model]] = {}
    for section in _sections():
        rows_of_event = section.model.objects.filter(**{section.event_path: event})
        if section.left_out is not None:
            rows_of_event = rows_of_event.exclude(section.left_out[0])
        rows[section.name] = list(rows_of_event.order_by("pk"))
        ex.keys[section.name] = {obj.pk: index for index, obj in enumerate(rows[section.name], start=1)}
    # Every key is known before any row is written: later_id_lists and later_json_links name
    # sections below.
    for section in _sections():
        _read_catalogue(ex, section, rows[section.name])
        document[section.name] = [ex.row(section, obj) for obj in rows[section.name]]
    users = get_user_model().objects.filter(pk__in=list(ex.usernames)).order_by("username")
    document["users"] = [
        {"username": u.get_username(), "email": u.email, "first_name": u.first_name, "last_name": u.last_name}
        for u in users
    ]
    return document


def _read_catalogue(ex: _Exporter, section: Section, rows: list[models.Model]) -> None:
    """The names of the cards and printings the rows link to, in two queries."""
    card_ids = {getattr(r, f"{name}_id") for name, kind in section.links.items() if kind == CARD for r in rows}
    if card_ids:
        ex.card_names.update(_catalogue().card.objects.filter(pk__in=card_ids).values_list("pk", "name"))
    printing_ids = {getattr(r, f"{name}_id") for name, kind in section.links.items() if kind == PRINTING for r in rows}
    json_fields = [f.attname for f in section.model._meta.concrete_fields if isinstance(f, models.JSONField)]
    if json_fields:  # the printings named inside JSON (a sealed pack's cards)

        def collect(key, value):
            if key == "printing_id" and isinstance(value, int):
                printing_ids.add(value)
            return value

        for r in rows:
            for name in json_fields:
                _walk(getattr(r, name), collect)
    printing_ids.discard(None)
    if printing_ids:
        ex.read_printings(printing_ids - set(ex.printings))


# --- import ------------------------------------------------------------------------------


@dataclass
class ImportResult:
    event: models.Model  # the new event
    created_users: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


class _Importer:
    def __init__(self, document: dict[str, Any], result: ImportResult) -> None:
        self.document = document
        self.result = result
        self.ids: dict[str, dict[int, int]] = {}  # section -> {key: new pk}
        self.users: dict[str, int] = {}
        self.cards: dict[str, int] = {}
        self.printings: dict[tuple, int | None] = {}
        self.checklists: dict[tuple, int | None] = {}
        self.natural: dict[str, dict[Any, int]] = {}  # link kind -> {natural key: pk}
        self.event: models.Model | None = None

    def _linked(self, kind: str) -> list[Any]:
        """Every value the document's rows give for links of ``kind``."""
        return [
            row[name]
            for section in _sections()
            for name, link in section.links.items()
            if link == kind
            for row in self.document[section.name]
        ]

    # Look-ups, resolved in bulk before rows are built.
    def prepare(self) -> None:
        self._prepare_cards()
        self._prepare_natural_keys()
        self._prepare_users()

    def _prepare_cards(self) -> None:
        doc = self.document
        names: set[str] = set(n for name in declarations().root.card_lists for n in doc["event"].get(name, []) if n)
        opened = set(self._linked(CARD))
        names |= opened

        def collect(key, value):
            if key == "card_id" and isinstance(value, dict) and value.get("card"):
                names.add(value["card"])
            return value

        for section in _sections():
            for row in doc[section.name]:
                for value in row.values():
                    if isinstance(value, (dict, list)):
                        _walk(value, collect)
        found = dict(_catalogue().card.objects.filter(name__in=names).values_list("name", "pk"))
        self.cards = found
        missing_required = sorted(opened - set(found))
        if missing_required:
            raise BackupError(
                f"{len(missing_required)} card(s) opened in the draft are not in this catalogue "
                f"(import the same card data first): {', '.join(missing_required[:10])}"
            )
        missing_other = sorted(names - set(found))
        if missing_other:
            self.result.warnings.append(
                f"{len(missing_other)} card name(s) in lists are not in this catalogue and stay "
                f"unlinked: {', '.join(missing_other[:10])}"
            )

    def _prepare_natural_keys(self) -> None:
        for kind, key in declarations().natural_keys.items():
            values = set(self._linked(kind))
            self.natural[kind] = dict(
                key.model.objects.filter(**{f"{key.field}__in": values}).values_list(key.field, "pk")
            )
            unknown = sorted(values - set(self.natural[kind]))
            if unknown:
                raise BackupError(f"Unknown {key.label}(s): {', '.join(unknown)}.")

    def _prepare_users(self) -> None:
        User = get_user_model()
        details = {row["username"]: row for row in self.document.get("users", [])}
        wanted = set(details)
        wanted.add(self.document["event"].get("created_by") or "")
        for section in _sections():
            for name, kind in section.links.items():
                if kind == USER:
                    wanted |= {row.get(name) or "" for row in self.document[section.name]}
        wanted.discard("")
        self.users = {u.get_username(): u.pk for u in User.objects.filter(**{f"{User.USERNAME_FIELD}__in": wanted})}
        for username in sorted(wanted - set(self.users)):
            info = details.get(username, {})
            user = User(
                **{User.USERNAME_FIELD: username},
                email=info.get("email", ""),
                first_name=info.get("first_name", ""),
                last_name=info.get("last_name", ""),
            )
            user.set_unusable_password()
            user.full_clean(exclude=["password"])
            user.save()
            self.users[username] = user.pk
            self.result.created_users.append(username)

    def printing(self, value: dict | None) -> int | None:
        if not value:
            return None
        ident = (value.get("scryfall_id"), value.get("set"), value.get("number"))
        if ident not in self.printings:
            pk = None
            if ident[0]:
                pk = _catalogue().printing.objects.filter(scryfall_id=ident[0]).values_list("pk", flat=True).first()
            if pk is None and ident[1] and ident[2]:
                pk = (
                    _catalogue()
                    .printing.objects.filter(card_set__code=ident[1], collector_number=ident[2])
                    .values_list("pk", flat=True)
                    .first()
                )
            if pk is None:
                self.result.warnings.append(f"Printing {ident[1]} {ident[2]} is not in this catalogue.")
            self.printings[ident] = pk
        return self.printings[ident]

    def checklist(self, value: dict | None) -> int | None:
        if not value:
            return None
        ident = (value["set"], value["number"])
        if ident not in self.checklists:
            self.checklists[ident] = (
                _catalogue()
                .checklist.objects.filter(set_code=ident[0], collector_number=ident[1])
                .values_list("pk", flat=True)
                .first()
            )
        return self.checklists[ident]

    def json_ids(self, key: str, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        if key == "card_id":
            return self.cards.get(value.get("card"))
        if key == "printing_id":
            return self.printing(value.get("printing"))
        return self.checklist(value.get("checklist"))

    def link(self, kind: str, value: Any) -> Any:
        if kind == EVENT:
            return self.event.pk
        if value is None:
            return None
        if kind == USER:
            return self.users[value]
        if kind == CARD:
            return self.cards[value]
        if kind == PRINTING:
            return self.printing(value)
        if kind in self.natural:
            return self.natural[kind][value]
        try:
            return self.ids[kind][value]
        except KeyError:
            raise BackupError(f"A row refers to {kind} key {value!r}, which the file does not contain.") from None

    def source(self, value: str, prefixes: dict[str, str]) -> str:
        prefix, _, raw = value.partition(":")
        section = prefixes.get(prefix)
        key = whole_numbers.parse(raw)
        if section and key is not None and key in self.ids.get(section, {}):
            return f"{prefix}:{self.ids[section][key]}"
        return value

    def id_list(self, ids: IdList, keys: Any, where: str) -> list[int | None]:
        """The new ids of the rows ``keys`` name (keys of the ``ids.section`` section)."""
        if not isinstance(keys, list):
            raise BackupError(f"{where}: expected a list of {ids.section} keys.")
        new_ids = self.ids[ids.section]
        unknown = [key for key in keys if key not in new_ids]
        if unknown and not ids.unknown_as_null:
            raise BackupError(
                f"{where} names {ids.section} key(s) the file does not contain: {', '.join(map(repr, unknown[:10]))}."
            )
        return [new_ids.get(key) for key in keys]

    def values(self, model, links: dict[str, str], row: dict[str, Any], where: str) -> dict[str, Any]:
        own = {f.name: f for f in _own_fields(model, links)}
        unknown = set(row) - set(own) - set(links) - {"key"}
        if unknown:
            raise BackupError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}.")
        kwargs: dict[str, Any] = {}
        for name, kind in links.items():
            kwargs[f"{name}_id"] = self.link(kind, row.get(name))
        for name, f in own.items():
            if name not in row:
                continue  # a field added after the file was written: its default
            value = row[name]
            if isinstance(f, models.JSONField):
                value = _walk(value, self.json_ids)
            elif value is not None or not f.null:
                value = f.to_python(value)
            kwargs[f.attname] = value
        return kwargs

    def run(self, rename: str | None) -> None:
        self._create_event(rename)
        for section in _sections():
            self._create_section(section)
        for section in _sections():
            self._fill_later_links(section)

    def _create_event(self, rename: str | None) -> None:
        root = declarations().root
        event_row = dict(self.document["event"])
        if rename:
            event_row["name"] = rename
        card_lists = {name: event_row.pop(name, []) for name in root.card_lists}
        for name, value in root.absent.items():
            event_row.setdefault(name, value)
        kwargs = self.values(root.model, root.links, event_row, "event")
        for name, names in card_lists.items():
            kwargs[name] = [self.cards[card] for card in names if card in self.cards]
        same = root.model.objects.filter(name=kwargs["name"], date=kwargs["date"])
        if same.exists():
            existing = same.first()
            raise BackupError(
                f'An event "{kwargs["name"]}" on {kwargs["date"]} already exists (id {existing.pk}). '
                "Import it under another name with --rename to make a copy."
            )
        created_at = kwargs.pop("created_at", None)
        self.event = root.model.objects.create(**kwargs)
        if created_at:
            root.model.objects.filter(pk=self.event.pk).update(created_at=created_at)

    def _build(self, section: Section, index: int, row: Any) -> tuple[Any, models.Model]:
        """One unsaved row of ``section`` from the file's ``row`` (its ``index``, for messages)."""
        if not isinstance(row, dict) or "key" not in row:
            raise BackupError(f"{section.name}[{index}]: a row must be an object with a key.")
        row = dict(row)
        where = f"{section.name}[{index}]"
        for name, ids in section.id_lists.items():
            row[name] = self.id_list(ids, row.get(name, []), f"{where}.{name}")
        for name in section.later_id_lists:
            row[name] = []  # the rows it names do not exist yet (_fill_later_links)
        for name, prefixes in section.sources.items():
            row[name] = self.source(row.get(name, ""), prefixes)
        for name, keys in section.json_links.items():
            row[name] = _linked_json(row.get(name, []), keys, lambda kind, key: self.link(kind, key))
        for name, keys in section.later_json_links.items():
            row[name] = _linked_json(row.get(name, []), keys, lambda kind, key: None)  # _fill_later_links
        kwargs = self.values(section.model, section.links, row, where)
        return row["key"], section.model(**kwargs)

    def _create_section(self, section: Section) -> None:
        rows = self.document[section.name]
        if not isinstance(rows, list):
            raise BackupError(f'"{section.name}" must be a list.')
        built = [self._build(section, index, row) for index, row in enumerate(rows, start=1)]
        if section.bulk:
            objs = section.model.objects.bulk_create([obj for _, obj in built], batch_size=500)
        else:
            objs = []
            for _, obj in built:
                obj.save(force_insert=True)
                objs.append(obj)
        keys = {}
        for (key, _), obj in zip(built, objs):
            if obj.pk is None:
                raise BackupError(f"{section.name}: the database returned no ids.")
            if key in keys:
                raise BackupError(f"{section.name}: key {key!r} appears twice.")
            keys[key] = obj.pk
        self.ids[section.name] = keys
        self.result.counts[section.name] = len(objs)

    def _fill_later_links(self, section: Section) -> None:
        """The lists and JSON ids naming rows of the sections below, now that every row exists."""
        fields = [*section.later_id_lists, *section.later_json_links]
        if not fields:
            return
        objs = []
        for index, row in enumerate(self.document[section.name], start=1):
            obj = section.model(pk=self.ids[section.name][row["key"]])
            for name, ids in section.later_id_lists.items():
                setattr(obj, name, self.id_list(ids, row.get(name, []), f"{section.name}[{index}].{name}"))
            for name, keys in section.later_json_links.items():
                linked = _linked_json(row.get(name, []), keys, self.link)
                setattr(obj, name, _walk(linked, self.json_ids))
            objs.append(obj)
        section.model.objects.bulk_update(objs, fields, batch_size=500)


def _from_version_1(document: dict[str, Any]) -> dict[str, Any]:
    """Version 1 said where a draft card is on the card's row (``pack``, or ``seat`` and
    ``pile_position``); since drafts migration 0021 the pack and the seat list their cards, and
    version 2 writes those lists. Organisers keep version-1 files, so this rewrites one as
    version 2, in the orders the migration used: a pack's cards by slot, a pile by position."""
    cards = [dict(row) for row in document["draft_cards"]]
    upgraded = {**document, "format_version": 2, "draft_cards": cards}
    for link, section, name, order in [
        ("pack", "packs", "card_ids", "slot"),
        ("seat", "seats", "pile_ids", "pile_position"),
    ]:
        rows = [{**row, name: []} for row in document[section]]
        by_key = {row["key"]: row for row in rows}
        for card in sorted((c for c in cards if c.get(link) is not None), key=lambda c: (c[order], c["key"])):
            if card[link] not in by_key:
                raise BackupError(
                    f"A draft card refers to {section} key {card[link]!r}, which the file does not contain."
                )
            by_key[card[link]][name].append(card["key"])
        upgraded[section] = rows
    for card in cards:
        for name in ("pack", "seat", "pile_position"):
            card.pop(name, None)
    return upgraded


def _from_version_2(document: dict[str, Any]) -> dict[str, Any]:
    """Version 3 added sections (sealed events); a version-2 file has no rows of them
    (``_upgraded`` gives it empty ones)."""
    return {**document, "format_version": 3}


def _from_version_3(document: dict[str, Any]) -> dict[str, Any]:
    """Version 4 added the judge calls (a section, and a paper pool's link to its dispute's
    call); a version-3 file imports with no calls (``_upgraded`` gives it the empty section)
    and its pools with no call linked (their status still says disputed)."""
    return {**document, "format_version": 4}


# The format versions this site still reads, each with the step to the version after it.
_UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _from_version_1,
    2: _from_version_2,
    3: _from_version_3,
}


def _upgraded(document: dict[str, Any]) -> dict[str, Any]:
    written = document["format_version"]
    while document["format_version"] in _UPGRADES:
        document = _UPGRADES[document["format_version"]](document)
    added: dict[str, Any] = {section.name: [] for section in _sections() if section.since > written}
    return {**added, **document}


def _check_header(document: Any) -> None:
    if not isinstance(document, dict):
        raise BackupError("The file is not an event backup (expected a JSON object).")
    version = document.get("format_version")
    if version is None:
        raise BackupError('The file has no "format_version": it is not an event backup.')
    readable = [*_UPGRADES, FORMAT_VERSION]
    if type(version) is not int or version not in readable:  # not True, which equals 1
        raise BackupError(
            f"Backup format version {version!r} is not supported "
            f"(this site reads versions {min(readable)} to {FORMAT_VERSION})."
        )
    if document.get("kind", KIND) != KIND:
        raise BackupError(f"The file holds {document.get('kind')!r}, not an event.")
    # Sections added after the file was written are absent from it (``_upgraded`` fills them).
    sections = [s.name for s in _sections() if s.since <= version]
    missing = [name for name in ["event", *sections] if name not in document]
    if missing:
        raise BackupError(f"The file is incomplete: missing {', '.join(missing)}.")
    if not isinstance(document["event"], dict):
        raise BackupError('"event" must be an object.')


def import_event(document: Any, *, rename: str | None = None) -> ImportResult:
    """Recreate an exported event with new ids, all or nothing."""
    _check_header(document)
    result = ImportResult(event=None)  # type: ignore[arg-type]
    try:
        document = _upgraded(document)
        importer = _Importer(document, result)
        with transaction.atomic():
            importer.prepare()
            importer.run(rename)
            _restore_times(document, importer)
    except BackupError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, ValidationError, FieldDoesNotExist) as exc:
        raise BackupError(f"The file is malformed: {exc.__class__.__name__}: {exc}") from exc
    except DatabaseError as exc:
        raise BackupError(f"The file's rows break a database rule: {exc}") from exc
    importer.event.refresh_from_db()
    result.event = importer.event
    return result


def _restore_times(document: dict[str, Any], importer: _Importer) -> None:
    """Fields Django stamps on save (auto_now/auto_now_add) get the file's values back."""
    for section in _sections():
        auto = [
            f
            for f in _own_fields(section.model, section.links)
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ]
        if not auto:
            continue
        for row in document[section.name]:
            values = {f.attname: f.to_python(row[f.name]) for f in auto if row.get(f.name)}
            if values:
                section.model.objects.filter(pk=importer.ids[section.name][row["key"]]).update(**values)
