"""Backup and restore of one event as a versioned JSON document.

``export_event(event_id)`` returns a dict holding everything that belongs to the event: the
event, its staff, registrations, pods, seats, packs, the cards opened in them, picks, the pod
log, decks (deck rules, sealed pools, decks, corrections, deck-check selections and checks) and
penalties (with appeals, dismissed sources and the append-only audit trail).

Nothing in the document is a database id of the machine it came from:

* rows of the event are numbered per section (``"key": 1, 2, ...`` in id order) and refer to
  each other by those keys (``"seat": 3``);
* people are usernames (the ``users`` section carries their names and e-mail); guests are
  registrations with ``"user": null``;
* catalogue cards are their full names (unique), printings ``{"scryfall_id", "set",
  "number"}``, checklist cards ``{"set", "number"}``, infractions their IPG code;
* ids kept inside JSON columns are translated too: ``card_id``/``checklist_id`` in deck lists
  and check reports, ``Pick.pack_contents`` (opened cards), ``Event.cube_card_ids``,
  ``DeckCheckSelection.registration_ids``, and the ``pick:<id>``/``deck_check:<id>`` sources of
  penalties.

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
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import DatabaseError, models, transaction
from django.utils import timezone

from cards.models import Card, ChecklistCard, Printing
from decks.models import Deck, DeckCheck, DeckCheckSelection, DeckCorrection, DeckRules, SealedPool
from drafts.models import DraftCard, Event, EventStaff, Pack, Pick, Pod, PodLogEntry, Registration, Seat
from penalties.models import Appeal, DismissedSource, Infraction, Penalty, PenaltyAudit

FORMAT_VERSION = 1
KIND = "draftsite.event"

EVENT = "@event"
USER = "@user"
CARD = "@card"
PRINTING = "@printing"
INFRACTION = "@infraction"


class BackupError(Exception):
    """The document cannot be exported or imported; the message says why."""


@dataclass(frozen=True)
class Section:
    name: str
    model: type[models.Model]
    event_path: str  # lookup from the model to its event, e.g. "pod__event"
    links: dict[str, str]  # foreign key field -> section name or one of the @-kinds
    bulk: bool = False  # many plain rows: bulk_create (never for append-only models)


# Order matters: a section only links to sections above it.
SECTIONS: list[Section] = [
    Section("staff", EventStaff, "event", {"event": EVENT, "user": USER}),
    Section("registrations", Registration, "event", {"event": EVENT, "user": USER}),
    Section("pods", Pod, "event", {"event": EVENT}),
    Section("seats", Seat, "pod__event", {"pod": "pods", "registration": "registrations"}),
    Section("packs", Pack, "pod__event", {"pod": "pods", "opener": "seats", "holder": "seats"}),
    Section("draft_cards", DraftCard, "pod__event",
            {"pod": "pods", "card": CARD, "printing": PRINTING, "opened_in": "packs",
             "pack": "packs", "seat": "seats"}, bulk=True),
    Section("picks", Pick, "seat__pod__event",
            {"seat": "seats", "draft_card": "draft_cards", "pack": "packs", "made_by": USER}, bulk=True),
    Section("pod_log", PodLogEntry, "pod__event", {"pod": "pods", "actor": USER}, bulk=True),
    Section("deck_rules", DeckRules, "event", {"event": EVENT}),
    Section("sealed_pools", SealedPool, "registration__event",
            {"registration": "registrations", "entered_by": USER}),
    Section("decks", Deck, "event", {"event": EVENT, "registration": "registrations", "updated_by": USER}),
    Section("deck_corrections", DeckCorrection, "deck__event", {"deck": "decks", "judge": USER}),
    Section("deck_check_selections", DeckCheckSelection, "event", {"event": EVENT, "created_by": USER}),
    Section("deck_checks", DeckCheck, "event",
            {"event": EVENT, "deck": "decks", "selection": "deck_check_selections", "judge": USER}),
    Section("penalties", Penalty, "event",
            {"event": EVENT, "registration": "registrations", "infraction": INFRACTION, "pod": "pods",
             "issued_by": USER, "reviewed_by": USER}),
    Section("appeals", Appeal, "penalty__event",
            {"penalty": "penalties", "submitted_by": USER, "decided_by": USER}),
    Section("dismissed_sources", DismissedSource, "event", {"event": EVENT, "dismissed_by": USER}),
    Section("penalty_audit", PenaltyAudit, "penalty__event", {"penalty": "penalties", "actor": USER}),
]

# Event fields set on import from the document (the id and links are handled apart).
EVENT_LINKS = {"created_by": USER}

# Penalty sources naming a row of the event: prefix -> section.
SOURCE_SECTIONS = {"pick": "picks", "deck_check": "deck_checks"}


# --- value conversion --------------------------------------------------------------------

def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    return value


def _walk(value: Any, convert: Callable[[str, Any], Any]) -> Any:
    """Apply ``convert(key, value)`` to every ``card_id``/``checklist_id`` inside JSON."""
    if isinstance(value, dict):
        return {key: (convert(key, item) if key in ("card_id", "checklist_id") else _walk(item, convert))
                for key, item in value.items()}
    if isinstance(value, list):
        return [_walk(item, convert) for item in value]
    return value


def _own_fields(model: type[models.Model], links: dict[str, str]) -> list[models.Field]:
    """Concrete fields stored as values (not the id, not the links, not a parent pointer)."""
    return [f for f in model._meta.concrete_fields
            if not f.primary_key and f.name not in links and not f.is_relation]


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
            self.card_names.update(Card.objects.filter(pk=card_id).values_list("pk", "name"))
        return self.card_names.get(card_id)

    def checklist(self, checklist_id: int | None) -> dict | None:
        if checklist_id is None:
            return None
        if checklist_id not in self.checklists:
            row = ChecklistCard.objects.filter(pk=checklist_id).values("set_code", "collector_number").first()
            self.checklists[checklist_id] = (
                {"set": row["set_code"], "number": row["collector_number"]} if row else None)
        return self.checklists[checklist_id]

    def json_ids(self, key: str, value: Any) -> Any:
        if not isinstance(value, int) or isinstance(value, bool):
            return value
        if key == "card_id":
            name = self.card(value)
            return {"card": name} if name else None
        return {"checklist": self.checklist(value)}

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
        if kind == INFRACTION:
            return Infraction.objects.values_list("code", flat=True).get(pk=value)
        return self.keys[kind][value]

    def source(self, value: str) -> str:
        prefix, _, raw = value.partition(":")
        section = SOURCE_SECTIONS.get(prefix)
        if section and raw.isdigit() and int(raw) in self.keys.get(section, {}):
            return f"{prefix}:{self.keys[section][int(raw)]}"
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
        if section.model is Pick:
            out["pack_contents"] = [self.keys["draft_cards"][pk] for pk in obj.pack_contents]
        elif section.model is DeckCheckSelection:
            regs = self.keys["registrations"]
            out["registration_ids"] = [regs.get(pk) for pk in obj.registration_ids]
        elif section.model in (Penalty, DismissedSource):
            out["source"] = self.source(obj.source)
        return out


def export_event(event_id: int) -> dict[str, Any]:
    """The whole event as a JSON-ready dict (see the module docstring for the format).

    On PostgreSQL the rows are read in one REPEATABLE READ transaction, so an export taken
    while a draft runs is a consistent snapshot (picks, packs and piles agree).
    """
    connection = transaction.get_connection()
    with transaction.atomic():
        if connection.vendor == "postgresql" and len(connection.atomic_blocks) == 1:
            # Our own transaction (not nested in a caller's), nothing read yet.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return _export(event_id)


def _export(event_id: int) -> dict[str, Any]:
    try:
        event = Event.objects.get(pk=event_id)
    except Event.DoesNotExist:
        raise BackupError(f"There is no event with id {event_id}.") from None
    ex = _Exporter()
    event_row: dict[str, Any] = {name: ex.link(kind, getattr(event, f"{name}_id"))
                                 for name, kind in EVENT_LINKS.items()}
    for f in _own_fields(Event, EVENT_LINKS):
        event_row[f.name] = _plain(getattr(event, f.attname))
    event_row["cube_card_ids"] = [ex.card(pk) for pk in event.cube_card_ids]

    document: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "kind": KIND,
        "exported_at": timezone.now().isoformat(),
        "event": event_row,
    }
    for section in SECTIONS:
        rows = list(section.model.objects.filter(**{section.event_path: event}).order_by("pk"))
        ex.keys[section.name] = {obj.pk: index for index, obj in enumerate(rows, start=1)}
        if section.model is DraftCard:
            ex.card_names.update(Card.objects.filter(pk__in={r.card_id for r in rows})
                                 .values_list("pk", "name"))
            ex.printings.update(
                (p.pk, {"scryfall_id": str(p.scryfall_id) if p.scryfall_id else None,
                        "set": p.card_set.code, "number": p.collector_number})
                for p in Printing.objects.filter(pk__in={r.printing_id for r in rows if r.printing_id})
                .select_related("card_set"))
        document[section.name] = [ex.row(section, obj) for obj in rows]
    users = get_user_model().objects.filter(pk__in=list(ex.usernames)).order_by("username")
    document["users"] = [{"username": u.get_username(), "email": u.email, "first_name": u.first_name,
                          "last_name": u.last_name} for u in users]
    return document


# --- import ------------------------------------------------------------------------------

@dataclass
class ImportResult:
    event: Event
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
        self.infractions: dict[str, int] = {}
        self.event: Event | None = None

    # Look-ups, resolved in bulk before rows are built.
    def prepare(self) -> None:
        doc = self.document
        names: set[str] = set(n for n in doc["event"].get("cube_card_ids", []) if n)
        names |= {row["card"] for row in doc["draft_cards"]}

        def collect(key, value):
            if key == "card_id" and isinstance(value, dict) and value.get("card"):
                names.add(value["card"])
            return value
        for section in SECTIONS:
            for row in doc[section.name]:
                for value in row.values():
                    if isinstance(value, (dict, list)):
                        _walk(value, collect)
        found = dict(Card.objects.filter(name__in=names).values_list("name", "pk"))
        self.cards = found
        missing_required = sorted({row["card"] for row in doc["draft_cards"]} - set(found))
        if missing_required:
            raise BackupError(
                f"{len(missing_required)} card(s) opened in the draft are not in this catalogue "
                f"(import the same card data first): {', '.join(missing_required[:10])}")
        missing_other = sorted(names - set(found))
        if missing_other:
            self.result.warnings.append(
                f"{len(missing_other)} card name(s) in lists are not in this catalogue and stay "
                f"unlinked: {', '.join(missing_other[:10])}")

        codes = {row["infraction"] for row in doc["penalties"]}
        self.infractions = dict(Infraction.objects.filter(code__in=codes).values_list("code", "pk"))
        unknown = sorted(codes - set(self.infractions))
        if unknown:
            raise BackupError(f"Unknown infraction code(s): {', '.join(unknown)}.")

        self._prepare_users()

    def _prepare_users(self) -> None:
        User = get_user_model()
        details = {row["username"]: row for row in self.document.get("users", [])}
        wanted = set(details)
        wanted.add(self.document["event"].get("created_by") or "")
        for section in SECTIONS:
            for name, kind in section.links.items():
                if kind == USER:
                    wanted |= {row.get(name) or "" for row in self.document[section.name]}
        wanted.discard("")
        self.users = {u.get_username(): u.pk
                      for u in User.objects.filter(**{f"{User.USERNAME_FIELD}__in": wanted})}
        for username in sorted(wanted - set(self.users)):
            info = details.get(username, {})
            user = User(**{User.USERNAME_FIELD: username}, email=info.get("email", ""),
                        first_name=info.get("first_name", ""), last_name=info.get("last_name", ""))
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
                pk = Printing.objects.filter(scryfall_id=ident[0]).values_list("pk", flat=True).first()
            if pk is None and ident[1] and ident[2]:
                pk = (Printing.objects.filter(card_set__code=ident[1], collector_number=ident[2])
                      .values_list("pk", flat=True).first())
            if pk is None:
                self.result.warnings.append(f"Printing {ident[1]} {ident[2]} is not in this catalogue.")
            self.printings[ident] = pk
        return self.printings[ident]

    def checklist(self, value: dict | None) -> int | None:
        if not value:
            return None
        ident = (value["set"], value["number"])
        if ident not in self.checklists:
            self.checklists[ident] = (ChecklistCard.objects.filter(set_code=ident[0], collector_number=ident[1])
                                      .values_list("pk", flat=True).first())
        return self.checklists[ident]

    def json_ids(self, key: str, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        if key == "card_id":
            return self.cards.get(value.get("card"))
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
        if kind == INFRACTION:
            return self.infractions[value]
        try:
            return self.ids[kind][value]
        except KeyError:
            raise BackupError(f"A row refers to {kind} key {value!r}, which the file does not contain.") from None

    def source(self, value: str) -> str:
        prefix, _, raw = value.partition(":")
        section = SOURCE_SECTIONS.get(prefix)
        if section and raw.isdigit() and int(raw) in self.ids.get(section, {}):
            return f"{prefix}:{self.ids[section][int(raw)]}"
        return value

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
        doc = self.document
        event_row = dict(doc["event"])
        if rename:
            event_row["name"] = rename
        cube_names = event_row.pop("cube_card_ids", [])
        kwargs = self.values(Event, EVENT_LINKS, event_row, "event")
        kwargs["cube_card_ids"] = [self.cards[name] for name in cube_names if name in self.cards]
        if Event.objects.filter(name=kwargs["name"], date=kwargs["date"]).exists():
            existing = Event.objects.filter(name=kwargs["name"], date=kwargs["date"]).first()
            raise BackupError(
                f'An event "{kwargs["name"]}" on {kwargs["date"]} already exists (id {existing.pk}). '
                "Import it under another name with --rename to make a copy.")
        created_at = kwargs.pop("created_at", None)
        self.event = Event.objects.create(**kwargs)
        if created_at:
            Event.objects.filter(pk=self.event.pk).update(created_at=created_at)

        for section in SECTIONS:
            rows = doc[section.name]
            if not isinstance(rows, list):
                raise BackupError(f'"{section.name}" must be a list.')
            built: list[tuple[int, models.Model]] = []
            for index, row in enumerate(rows, start=1):
                if not isinstance(row, dict) or "key" not in row:
                    raise BackupError(f"{section.name}[{index}]: a row must be an object with a key.")
                row = dict(row)
                if section.model is Pick:
                    cards = self.ids["draft_cards"]
                    row["pack_contents"] = [cards[key] for key in row.get("pack_contents", [])]
                elif section.model is DeckCheckSelection:
                    regs = self.ids["registrations"]
                    row["registration_ids"] = [regs.get(key) for key in row.get("registration_ids", [])]
                elif section.model in (Penalty, DismissedSource):
                    row["source"] = self.source(row.get("source", ""))
                kwargs = self.values(section.model, section.links, row, f"{section.name}[{index}]")
                built.append((row["key"], section.model(**kwargs)))
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


def _check_header(document: Any) -> None:
    if not isinstance(document, dict):
        raise BackupError("The file is not an event backup (expected a JSON object).")
    version = document.get("format_version")
    if version is None:
        raise BackupError('The file has no "format_version": it is not an event backup.')
    if version != FORMAT_VERSION:
        raise BackupError(f"Backup format version {version!r} is not supported (this site reads "
                          f"version {FORMAT_VERSION}).")
    if document.get("kind", KIND) != KIND:
        raise BackupError(f"The file holds {document.get('kind')!r}, not an event.")
    missing = [name for name in ["event", *(s.name for s in SECTIONS)] if name not in document]
    if missing:
        raise BackupError(f"The file is incomplete: missing {', '.join(missing)}.")
    if not isinstance(document["event"], dict):
        raise BackupError('"event" must be an object.')


def import_event(document: Any, *, rename: str | None = None) -> ImportResult:
    """Recreate an exported event with new ids, all or nothing."""
    _check_header(document)
    result = ImportResult(event=None)  # type: ignore[arg-type]
    importer = _Importer(document, result)
    try:
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
    for section in SECTIONS:
        auto = [f for f in _own_fields(section.model, section.links)
                if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]
        if not auto:
            continue
        for row in document[section.name]:
            values = {f.attname: f.to_python(row[f.name]) for f in auto if row.get(f.name)}
            if values:
                section.model.objects.filter(pk=importer.ids[section.name][row["key"]]).update(**values)
