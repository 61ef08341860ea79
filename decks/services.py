"""Writes of the decks app. Each function takes keyword arguments and runs in one transaction.

Registration validates the deck on every save (decks.adapter -> decks.validation) and stores the
result with it; nothing is stored when the request itself is malformed.
"""

from __future__ import annotations

import datetime as dt
import math
import random
import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from cards import selectors as card_selectors
from decks import adapter, error_codes, findings, parsers, selectors
from decks import validation as core
from decks.models import (
    Deck,
    DeckCheck,
    DeckCheckSelection,
    DeckCorrection,
    DeckRules,
    SealedPool,
    SelectionMethod,
)
from drafts.models import Pod
from draftsite.errors import ConflictError, DomainError, ForbiddenError, NotFoundError
from draftsite.i18n import freeze_problems, localize_problems
from events.access import Permission, authorize
from events.models import DeckFormat, Registration

MAX_POOL_CARDS = 200


def read_decklist(text: str) -> parsers.ParsedList:
    """Parse a pasted or uploaded list; a bad one is a :class:`DomainError` with the parser's code."""
    try:
        return parsers.parse_decklist(text)
    except parsers.ParseError as exc:
        raise DomainError(exc.code, exc.message, **exc.extra) from None


def decode_decklist(data: bytes) -> str:
    """An uploaded file's bytes as text; unreadable ones are a :class:`DomainError`."""
    try:
        return parsers.decode(data)
    except parsers.ParseError as exc:
        raise DomainError(exc.code, exc.message, **exc.extra) from None


def read_checklist_lines(text: str) -> list[dict]:
    """Checklist card lines (``2 Innistrad Checklist: Delver of Secrets``) as entries."""
    try:
        return parsers.parse_checklist_lines(text)
    except parsers.ParseError as exc:
        raise DomainError(exc.code, exc.message, field="checklist_lines", **exc.extra) from None


def decklist_entries(parsed: parsers.ParsedList) -> dict[str, list[dict]]:
    """A parsed list as ``{"main": [{"name", "count"}], "sideboard": [...], "commander": [...]}``."""
    return {
        section: [{"name": name, "count": count} for name, count in parsed.section(section)]
        for section in (parsers.MAIN, parsers.SIDEBOARD, parsers.COMMANDER)
    }


def _limited_sideboard(main: Sequence[dict], pool: list[dict]) -> list[dict]:
    """Limited: whatever of the pool is not in the main deck is the sideboard."""
    resolved = adapter.resolve(format=core.LIMITED, main=main)
    used: dict[Any, int] = {}
    for line in resolved.deck.main:
        if line.card is not None:
            used[line.card.key] = used.get(line.card.key, 0) + line.count
    side = []
    for row in pool:
        left = row["count"] - used.get(row["card_id"], 0)
        if left > 0:
            side.append({"card_id": row["card_id"], "count": left})
    return side


def _store_validation(deck: Deck, resolved: adapter.Resolved, now: dt.datetime) -> core.Report:
    """Validate the resolved list and keep it, and the result, on the deck (not saved here)."""
    report = core.validate(resolved.deck)
    deck.main = resolved.stored(resolved.deck.main)
    deck.sideboard = resolved.stored(resolved.deck.sideboard)
    deck.commander = resolved.stored(resolved.deck.commander)
    deck.opaque_sleeves = resolved.deck.opaque_sleeves
    deck.checklist_cards = resolved.checklist_rows
    deck.valid = report.valid
    # Stored in English with their templates; shown in the reader's language.
    deck.check_errors = freeze_problems(report.errors)
    deck.check_warnings = freeze_problems(report.warnings)
    deck.summary = report.summary
    deck.checked_at = now
    report.errors = localize_problems(report.errors)
    report.warnings = localize_problems(report.warnings)
    return report


def _pool_entries(registration: Registration) -> list[dict] | None:
    """The pool a limited deck is checked against; None when the site cannot know it (paper drafts)."""
    if not selectors.pool_checked(registration.event):
        return None
    pool = selectors.pool_for(registration)
    if pool is None:
        raise ConflictError(
            error_codes.NO_POOL,
            gettext("There is no pool to build from yet: a draft seat or a sealed pool entered by the organiser."),
        )
    return pool[1]


def _pool_and_sideboard(
    event, registration: Registration, main: Sequence[dict], sideboard: Sequence[dict] | None
) -> tuple[list[dict] | None, Sequence[dict] | None]:
    """The pool a limited deck is checked against and its sideboard: the rest of the pool when
    none is given. Any other format: no pool, the sideboard as given."""
    if event.deck_format != DeckFormat.LIMITED:
        return None, sideboard
    pool = _pool_entries(registration)
    if sideboard is None and pool is not None:
        sideboard = _limited_sideboard(main, pool)
    return pool, sideboard


@transaction.atomic
def register_deck(
    *,
    event_id: int,
    actor,
    main: Sequence[dict],
    sideboard: Sequence[dict] | None = None,
    commander: Sequence[dict] = (),
    opaque_sleeves: bool = False,
    checklist_cards: Sequence[dict] = (),
    source_format: str = "api",
    registration_id: int | None = None,
    now: dt.datetime | None = None,
) -> tuple[Deck, core.Report]:
    """Register or replace a player's deck, checked on save.

    The player registers their own deck; the event's staff may enter one for any registration
    (a paper list, a guest). From the decklist deadline on the list is locked: only a judge's
    correction (:func:`correct_deck`) changes it.
    """
    now = now or timezone.now()
    event = selectors.event_or_404(event_id)
    registration = selectors.access_registration(actor, event, registration_id)
    if selectors.is_locked(event, now):
        raise ConflictError(
            error_codes.DECKLIST_LOCKED,
            gettext("Decklists are locked since the decklist deadline; ask a judge for a correction."),
            deadline=event.decklist_deadline.isoformat(),
        )
    pool, sideboard = _pool_and_sideboard(event, registration, main, sideboard)
    resolved = adapter.resolve(
        format=event.deck_format,
        main=main,
        sideboard=sideboard or (),
        commander=commander,
        pool=pool,
        opaque_sleeves=opaque_sleeves,
        checklist_policy=selectors.checklist_policy(event),
        checklist_cards=checklist_cards,
    )
    Registration.objects.select_for_update().filter(pk=registration.pk).first()  # one writer per player
    deck = Deck.objects.select_for_update().filter(registration=registration).first()
    if deck is None:
        deck = Deck(event=event, registration=registration, submitted_at=now, version=0)
    deck.format = event.deck_format
    deck.source_format = source_format[:12]
    deck.updated_at = now
    deck.updated_by = actor if getattr(actor, "is_authenticated", False) else None
    deck.version += 1
    report = _store_validation(deck, resolved, now)
    deck.save()
    return deck, report


# The problems of how DFCs are represented: a list the checklist helper makes has none of them.
DFC_PROBLEMS = frozenset(
    {
        core.CHECKLIST_NO_MARK,
        core.CHECKLIST_MULTIPLE_MARKS,
        core.CHECKLIST_UNOFFICIAL,
        core.CHECKLIST_NOT_LISTED,
        core.CHECKLIST_PARTIAL,
        core.CHECKLIST_MISMATCH,
        core.DFC_NEEDS_SLEEVES_OR_CHECKLIST,
    }
)


def suggest_checklist_cards(
    *,
    event_id: int,
    actor,
    main: Sequence[dict],
    sideboard: Sequence[dict] | None = None,
    commander: Sequence[dict] = (),
    registration_id: int | None = None,
) -> dict[str, list[dict]]:
    """Checklist cards for every DFC of the deck as it would be registered, the sideboard too
    (a limited deck's sideboard is the rest of its pool): ``{"checklist_cards", "uncovered"}``.
    Stores nothing.

    All or none (R12): when some DFC has no official card that may stand for it, none is
    suggested and ``uncovered`` names those DFCs with their zones (the deck then needs fully
    opaque sleeves, R9). The list is checked as registering would check it, so a list this
    returns never fails on its DFCs.
    """
    event = selectors.event_or_404(event_id)
    registration = selectors.access_registration(actor, event, registration_id)
    pool, sideboard = _pool_and_sideboard(event, registration, main, sideboard)

    def resolved(checklist_cards: Sequence[dict]) -> adapter.Resolved:
        return adapter.resolve(
            format=event.deck_format,
            main=main,
            sideboard=sideboard or (),
            commander=commander,
            pool=pool,
            checklist_policy=selectors.checklist_policy(event),
            checklist_cards=checklist_cards,
        )

    cards, uncovered = adapter.checklist_cover(resolved(()).deck)
    if uncovered:
        return {"checklist_cards": [], "uncovered": uncovered}
    problems = [e for e in core.validate(resolved(cards).deck).errors if e["code"] in DFC_PROBLEMS]
    if problems:  # never hand back a list that registering would refuse
        return {
            "checklist_cards": [],
            "uncovered": [{"name": name, "zones": e["zones"]} for e in problems for name in e["cards"][:1]],
        }
    return {"checklist_cards": cards, "uncovered": []}


@transaction.atomic
def revalidate_deck(*, deck_id: int, actor, now: dt.datetime | None = None) -> tuple[Deck, core.Report]:
    """Check a stored deck again (on demand: the catalogue or the event's policy may have changed)."""
    now = now or timezone.now()
    deck = Deck.objects.select_for_update().select_related("event", "registration").get(pk=deck_id)
    if not (selectors.owns(actor, deck) or selectors.is_staff(actor, deck.event_id)):
        raise ForbiddenError(error_codes.NOT_YOUR_DECK, gettext("Only the player and the event's judges may do that."))
    pool = _pool_entries(deck.registration) if deck.format == DeckFormat.LIMITED else None
    report = _store_validation(deck, selectors.deck_data(deck, pool), now)
    deck.save()
    return deck, report


def _counts(rows: list[dict]) -> dict[str, int]:
    out: dict[str, int] = {}
    for row in rows:
        out[row["name"]] = out.get(row["name"], 0) + row["count"]
    return out


def _diff(before: list[dict], after: list[dict]) -> dict[str, list[dict]]:
    old, new = _counts(before), _counts(after)
    added = [{"name": n, "count": new[n] - old.get(n, 0)} for n in new if new[n] > old.get(n, 0)]
    removed = [{"name": n, "count": old[n] - new.get(n, 0)} for n in old if old[n] > new.get(n, 0)]
    return {"added": added, "removed": removed}


def _changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What a correction changed: cards added and removed per section, sleeves, checklist cards."""
    changes: dict[str, Any] = {}
    for section in ("main", "sideboard", "commander"):
        diff = _diff(before[section], after[section])
        if diff["added"] or diff["removed"]:
            changes[section] = diff
    if before["opaque_sleeves"] != after["opaque_sleeves"]:
        changes["opaque_sleeves"] = {"from": before["opaque_sleeves"], "to": after["opaque_sleeves"]}
    if before["checklist_cards"] != after["checklist_cards"]:
        changes["checklist_cards"] = {"from": before["checklist_cards"], "to": after["checklist_cards"]}
    return changes


def _snapshot(deck: Deck) -> dict[str, Any]:
    return {
        "main": deck.main,
        "sideboard": deck.sideboard,
        "commander": deck.commander,
        "opaque_sleeves": deck.opaque_sleeves,
        "checklist_cards": deck.checklist_cards,
    }


@transaction.atomic
def correct_deck(
    *,
    deck_id: int,
    actor,
    reason: str,
    main: Sequence[dict] | None = None,
    sideboard: Sequence[dict] | None = None,
    commander: Sequence[dict] | None = None,
    opaque_sleeves: bool | None = None,
    checklist_cards: Sequence[dict] | None = None,
    now: dt.datetime | None = None,
) -> DeckCorrection:
    """A judge corrects a registered list (any time, also after the deadline); logged for good."""
    now = now or timezone.now()
    deck = Deck.objects.select_for_update().select_related("event", "registration").filter(pk=deck_id).first()
    if deck is None:
        selectors.get_deck(deck_id)
    authorize(actor, deck.event_id, Permission.STAFF, message=selectors.STAFF_ONLY)
    reason = (reason or "").strip()
    if not reason:
        raise DomainError(error_codes.REASON_REQUIRED, gettext("Say why the list is corrected."), field="reason")
    before, valid_before = _snapshot(deck), deck.valid
    pool = _pool_entries(deck.registration) if deck.format == DeckFormat.LIMITED else None
    resolved = adapter.resolve(
        format=deck.format,
        main=main if main is not None else deck.main,
        sideboard=sideboard if sideboard is not None else deck.sideboard,
        commander=commander if commander is not None else deck.commander,
        pool=pool,
        opaque_sleeves=deck.opaque_sleeves if opaque_sleeves is None else opaque_sleeves,
        checklist_policy=selectors.checklist_policy(deck.event_id),
        checklist_cards=checklist_cards
        if checklist_cards is not None
        else adapter.stored_checklist_cards(deck.checklist_cards),
    )
    _store_validation(deck, resolved, now)
    after = _snapshot(deck)
    changes = _changes(before, after)
    if not changes:
        raise DomainError(error_codes.NO_CHANGE, gettext("The correction changes nothing in the list."))
    deck.updated_at = now
    deck.updated_by = actor
    deck.version += 1
    deck.save()
    return DeckCorrection.objects.create(
        deck=deck,
        judge=actor,
        at=now,
        reason=reason,
        changes=changes,
        before=before,
        after=after,
        valid_before=valid_before,
        valid_after=deck.valid,
    )


def resolved_pool(cards: Sequence[dict], *, suggest: bool) -> list[dict]:
    """A limited pool's card list (names or card ids, with counts) as the catalogue's rows
    (``card_id``, ``count``...); a name the catalogue does not hold refuses the whole list
    (``unknown_card``, with the catalogue's nearest names for the first five when ``suggest``)."""
    resolved = adapter.resolve(format=core.LIMITED, main=cards)
    unknown = [line.name for line in resolved.deck.main if line.card is None]
    if unknown:
        extra = {"suggestions": {n: card_selectors.suggest_names(n, 3) for n in unknown[:5]}} if suggest else {}
        raise DomainError(
            error_codes.UNKNOWN_CARD,
            gettext("Not in the catalogue: %(join)s.") % {"join": ", ".join(unknown[:10])},
            field="cards",
            cards=unknown[:50],
            **extra,
        )
    return [row for row in resolved.stored(resolved.deck.main) if row["card_id"] is not None]


# Only organisers enter sealed pools (the API checks it before the body too).
POOL_EDITORS_ONLY = gettext_lazy("Only an organiser of this event may enter pools.")


@transaction.atomic
def set_sealed_pool(*, registration_id: int, actor, cards: Sequence[dict]) -> SealedPool:
    """The organiser enters a sealed player's pool (names or card ids, with counts)."""
    registration = Registration.objects.select_related("event").filter(pk=registration_id).first()
    if registration is None:
        raise DomainError(
            error_codes.UNKNOWN_REGISTRATION,
            gettext("No registration has id %(registration_id)s.") % {"registration_id": registration_id},
            status_code=404,
        )
    authorize(actor, registration.event, Permission.ORGANISER, message=POOL_EDITORS_ONLY)
    if not cards:
        raise DomainError(error_codes.EMPTY_DECKLIST, gettext("The pool is empty."), field="cards")
    rows = resolved_pool(cards, suggest=True)
    if sum(row["count"] for row in rows) > MAX_POOL_CARDS:
        raise DomainError(
            error_codes.TOO_MANY_ENTRIES,
            gettext("A pool has at most %(MAX_POOL_CARDS)s cards.") % {"MAX_POOL_CARDS": MAX_POOL_CARDS},
            field="cards",
        )
    pool, _ = SealedPool.objects.update_or_create(
        registration=registration,
        defaults={"cards": [{"card_id": r["card_id"], "count": r["count"]} for r in rows], "entered_by": actor},
    )
    return pool


@transaction.atomic
def set_deck_rules(*, event_id: int, actor, checklist_policy: str) -> DeckRules:
    event = selectors.event_or_404(event_id)
    authorize(actor, event, Permission.RULES_EDITOR)  # organisers and the head judge
    if checklist_policy not in core.POLICIES:
        raise DomainError(
            error_codes.INVALID_POLICY,
            gettext("Policy must be one of %(join)s.") % {"join": ", ".join(core.POLICIES)},
            field="checklist_policy",
        )
    rules, _ = DeckRules.objects.update_or_create(event=event, defaults={"checklist_policy": checklist_policy})
    return rules


@transaction.atomic
def select_for_deck_check(
    *,
    event_id: int,
    actor,
    method: str,
    percent: int = 10,
    seed: int | None = None,
    registration_ids: Sequence[int] = (),
    now: dt.datetime | None = None,
) -> DeckCheckSelection:
    """Pick decks to check: a random share (reproducible from the stored seed) or chosen ones."""
    now = now or timezone.now()
    event = selectors.event_or_404(event_id)
    authorize(actor, event, Permission.STAFF, message=selectors.STAFF_ONLY)
    with_decks = sorted(Deck.objects.filter(event=event).values_list("registration_id", flat=True))
    if method == SelectionMethod.RANDOM:
        if not with_decks:
            raise ConflictError(error_codes.NOTHING_TO_CHECK, gettext("No deck is registered yet."))
        if not 1 <= percent <= 100:
            raise DomainError(
                error_codes.INVALID_PERCENT, gettext("The share is between 1 and 100 percent."), field="percent"
            )
        seed = secrets.randbits(48) if seed is None else seed
        count = max(1, math.ceil(len(with_decks) * percent / 100))
        chosen = sorted(random.Random(seed).sample(with_decks, count))
    elif method == SelectionMethod.CHOSEN:
        chosen = sorted(set(registration_ids))
        if not chosen:
            raise DomainError(error_codes.NOTHING_TO_CHECK, gettext("Choose at least one deck."), field="registrations")
        missing = sorted(set(chosen) - set(with_decks))
        if missing:
            raise DomainError(
                error_codes.NO_DECK,
                "These registrations have no deck in this event: " + ", ".join(map(str, missing)),
                field="registrations",
                registrations=missing,
            )
        seed, percent = None, None
    else:
        raise DomainError(error_codes.INVALID_METHOD, gettext("Method is random or chosen."), field="method")
    return DeckCheckSelection.objects.create(
        event=event,
        method=method,
        seed=seed,
        percent=percent,
        registration_ids=chosen,
        created_by=actor,
        created_at=now,
    )


@transaction.atomic
def record_deck_check(
    *,
    deck_id: int,
    actor,
    found: Sequence[dict] = (),
    notes: str = "",
    selection_id: int | None = None,
    now: dt.datetime | None = None,
) -> DeckCheck:
    """Record a deck check: no findings means the physical deck matched the list."""
    now = now or timezone.now()
    deck = selectors.get_deck(deck_id)
    authorize(actor, deck.event_id, Permission.STAFF, message=selectors.STAFF_ONLY)
    selection = None
    if selection_id is not None:
        selection = DeckCheckSelection.objects.filter(pk=selection_id, event_id=deck.event_id).first()
        if selection is None:
            raise DomainError(
                error_codes.UNKNOWN_SELECTION,
                gettext("No deck check selection %(selection_id)s in this event.") % {"selection_id": selection_id},
                field="selection",
            )
    rows = [_finding_row(index, finding) for index, finding in enumerate(found)]
    if len((notes or "").strip()) > findings.MAX_NOTES:
        raise DomainError(
            error_codes.TOO_LONG,
            gettext("Deck check notes have at most %(limit)s characters.") % {"limit": findings.MAX_NOTES},
            field="notes",
        )
    if "\x00" in (notes or "") or any(
        "\x00" in r["description"] or any("\x00" in c for c in r["cards"]) for r in rows
    ):  # the page posts raw text; PostgreSQL refuses NUL (500)
        raise DomainError(
            error_codes.NULL_CHARACTERS_NOT_ALLOWED, gettext("Null characters are not allowed."), field="notes"
        )
    return DeckCheck.objects.create(
        event_id=deck.event_id,
        deck=deck,
        selection=selection,
        judge=actor,
        at=now,
        deck_version=deck.version,
        matches=not rows,
        findings=rows,
        notes=(notes or "").strip(),
    )


def _finding_row(index: int, finding: dict) -> dict:
    """One finding as stored, its infraction defaulting to the kind's usual one."""
    kind = finding.get("kind", "")
    if kind not in findings.FINDING_KINDS:
        raise DomainError(
            error_codes.INVALID_FINDING,
            gettext("Unknown finding %(kind)s.") % {"kind": repr(kind)},
            field=f"findings[{index}].kind",
        )
    infraction = finding.get("infraction")
    if infraction is None:
        infraction = findings.FINDING_KINDS[kind][1]
    if infraction and infraction not in findings.INFRACTIONS:
        raise DomainError(
            error_codes.INVALID_FINDING,
            gettext("Unknown infraction %(infraction)s.") % {"infraction": repr(infraction)},
            field=f"findings[{index}].infraction",
        )
    description = (finding.get("description") or "").strip()
    if kind == findings.OTHER and not description:
        raise DomainError(
            error_codes.INVALID_FINDING, gettext("Describe what was found."), field=f"findings[{index}].description"
        )
    if len(description) > findings.MAX_DESCRIPTION:
        raise DomainError(
            error_codes.TOO_LONG,
            gettext("A finding's description has at most %(limit)s characters.") % {"limit": findings.MAX_DESCRIPTION},
            field=f"findings[{index}].description",
        )
    cards = [str(c).strip() for c in finding.get("cards") or [] if str(c).strip()]
    if len(cards) > findings.MAX_CARDS or any(len(c) > findings.MAX_CARD_NAME for c in cards):
        raise DomainError(
            error_codes.TOO_LONG,
            gettext("A finding names at most %(limit)s cards, each at most %(name_limit)s characters long.")
            % {"limit": findings.MAX_CARDS, "name_limit": findings.MAX_CARD_NAME},
            field=f"findings[{index}].cards",
        )
    return {"kind": kind, "description": description, "cards": cards, "infraction": infraction}


# --- draft history and pick data ---------------------------------------------------------------


@transaction.atomic
def set_pod_logs_public(*, pod_id: int, actor, public: bool) -> Pod:
    """The organiser makes every seat's draft log of a pod public, or private again. Only after
    decklists are published: until then the logs show picks that are hidden (R16)."""
    pod = Pod.objects.select_for_update().select_related("event").filter(pk=pod_id).first()
    if pod is None:
        raise NotFoundError(error_codes.UNKNOWN_POD, gettext("No pod has id %(id)s.") % {"id": pod_id})
    authorize(actor, pod.event, Permission.ORGANISER)
    if public and not pod.event.decklists_published:
        raise ConflictError(
            error_codes.DECKLISTS_NOT_PUBLISHED,
            gettext("Draft logs can be made public once the event's decklists are published."),
        )
    if pod.logs_public != public:
        pod.logs_public = public
        pod.save(update_fields=["logs_public"])
    return pod


@transaction.atomic
def set_pick_data_sharing(*, event_id: int, actor, share: bool) -> Registration:
    """A player agrees (or no longer agrees) that their picks go, anonymised, into the event's
    pick data (``decks.pickdata``)."""
    registration = (
        Registration.objects.select_for_update().filter(event_id=event_id, user_id=getattr(actor, "pk", None)).first()
    )
    if registration is None:
        raise ForbiddenError(error_codes.NOT_REGISTERED, gettext("You are not registered for this event."))
    if registration.share_pick_data != share:
        registration.share_pick_data = share
        registration.save(update_fields=["share_pick_data"])
    return registration
