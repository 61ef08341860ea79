"""Reads of the decks app: who may see which deck, pools, a deck's view, the judges' list."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from cards import languages
from cards.models import Layout
from decks import adapter, error_codes, findings
from decks import validation as core
from decks.models import ChecklistPolicy, Deck, DeckCheck, DeckCheckSelection, DeckCorrection, DeckRules, SealedPool
from drafts.models import DraftCard, PodState, Seat
from draftsite.errors import ConflictError, ForbiddenError, NotFoundError
from events import permissions
from events.access import Permission, authorize
from events.models import DraftFormat, Event, EventStaff, Registration

POOL_STATES = (PodState.DECK_BUILDING, PodState.DONE)


def event_or_404(event_id: int) -> Event:
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        raise NotFoundError(
            error_codes.UNKNOWN_EVENT, gettext("No event has id %(event_id)s.") % {"event_id": event_id}
        )
    return event


def get_deck(deck_id: int) -> Deck:
    deck = Deck.objects.select_related("event", "registration").filter(pk=deck_id).first()
    if deck is None:
        raise NotFoundError(error_codes.UNKNOWN_DECK, gettext("No deck has id %(deck_id)s.") % {"deck_id": deck_id})
    return deck


def is_staff(user, event: Event | int) -> bool:
    """Organisers and judges of the event (they see and check every deck)."""
    return permissions.sees_everything(user, event)


# The decks app's wording of the staff refusal (the code is ``events.access``'s).
STAFF_ONLY = gettext_lazy("Only the event's judges and organisers may do that.")


def owns(user, deck: Deck) -> bool:
    return (
        getattr(user, "is_authenticated", False)
        and deck.registration.user_id is not None
        and deck.registration.user_id == user.pk
    )


def can_see_deck(user, deck: Deck) -> bool:
    """The player, the event's staff; everyone once decklists are published (never before)."""
    return deck.event.decklists_published or owns(user, deck) or is_staff(user, deck.event_id)


def visible_deck(user, deck_id: int) -> Deck:
    deck = get_deck(deck_id)
    if not can_see_deck(user, deck):
        raise ForbiddenError(
            error_codes.NOT_YOUR_DECK, gettext("Decks are private to their player until decklists are published.")
        )
    return deck


def own_registration(user, event: Event) -> Registration | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Registration.objects.filter(event=event, user=user).first()


def get_registration(event: Event, registration_id: int) -> Registration:
    registration = Registration.objects.filter(event=event, pk=registration_id).first()
    if registration is None:
        raise NotFoundError(
            error_codes.UNKNOWN_REGISTRATION,
            gettext("No registration %(registration_id)s in this event.") % {"registration_id": registration_id},
        )
    return registration


def get_registration_by_id(registration_id: int) -> Registration:
    """Any registration by id (with its event), or ``unknown_registration``."""
    registration = Registration.objects.select_related("event").filter(pk=registration_id).first()
    if registration is None:
        raise NotFoundError(
            error_codes.UNKNOWN_REGISTRATION, gettext("No registration has id %(pk)s.") % {"pk": registration_id}
        )
    return registration


def sealed_pool(registration: Registration) -> SealedPool | None:
    return SealedPool.objects.filter(registration=registration).first()


def access_registration(user, event: Event, registration_id: int | None = None) -> Registration:
    """The registration a deck is entered for: the user's own, or (the event's staff only) the
    one named by ``registration_id``. The role is checked before anything else is read."""
    own = own_registration(user, event)
    if registration_id is not None and (own is None or own.pk != registration_id):
        authorize(user, event, Permission.STAFF, message=STAFF_ONLY)
        return get_registration(event, registration_id)
    if own is None:
        raise ForbiddenError(error_codes.NOT_REGISTERED, gettext("You are not registered for this event."))
    return own


def registration_in_event(event: Event, registration_id: int) -> Registration | None:
    return Registration.objects.filter(event=event, pk=registration_id).first()


def player_decks(user) -> list[dict[str, Any]]:
    """Every event the user is registered for, with their deck and its status."""
    rows = []
    for registration in Registration.objects.filter(user=user).select_related("event"):
        deck = getattr(registration, "deck", None)
        rows.append({"event": registration.event, "deck": deck, "status": deck_status(deck, registration.event)})
    return rows


def staffed_events(user) -> list[dict[str, Any]]:
    """The events the user is staff of, and whether as an organiser."""
    event_ids = EventStaff.objects.filter(user=user).values_list("event_id", flat=True)
    return [
        {"event": event, "organiser": permissions.is_organiser(user, event)}
        for event in Event.objects.filter(pk__in=event_ids)
    ]


def checklist_policy(event: Event | int) -> str:
    event_id = event if isinstance(event, int) else event.pk
    rules = DeckRules.objects.filter(event_id=event_id).first()
    return rules.checklist_policy if rules else ChecklistPolicy.DECK


def is_locked(event: Event, now: dt.datetime | None = None) -> bool:
    """MTR: a list cannot change once accepted; here, from the decklist deadline on."""
    now = now or timezone.now()
    return event.decklist_deadline is not None and now >= event.decklist_deadline


def pool_checked(event) -> bool:
    """Paper drafts: the players hold the cards, so the site has no pool to check decks against."""
    return event.draft_format != DraftFormat.PAPER


def pool_for(registration: Registration) -> tuple[str, list[dict]] | None:
    """The limited pool: the organiser's sealed pool, or the seat's drafted pile.

    Returns ``(source, [{"card_id", "count"}])`` or None; a draft still running is a conflict.
    """
    sealed = SealedPool.objects.filter(registration=registration).first()
    if sealed is not None:
        return "sealed", [dict(row) for row in sealed.cards]
    seat = Seat.objects.select_related("pod").filter(registration=registration).first()
    if seat is None:
        return None
    if seat.pod.state not in POOL_STATES:
        raise ConflictError(
            error_codes.POOL_NOT_READY,
            gettext("The draft is not over yet: decks are built once it reaches deck building."),
        )
    counts = Counter(DraftCard.objects.filter(pk__in=seat.pile_ids).values_list("card_id", flat=True))
    return "draft", [{"card_id": card_id, "count": n} for card_id, n in sorted(counts.items())]


def pool_view(pool: list[dict]) -> list[dict]:
    """Pool rows with names and DFC flags, by name."""
    infos = adapter.resolve_ids(row["card_id"] for row in pool)
    rows = [
        {
            "card_id": row["card_id"],
            "name": infos[row["card_id"]].name,
            "count": row["count"],
            "is_dfc": infos[row["card_id"]].is_dfc,
        }
        for row in pool
        if row["card_id"] in infos
    ]
    return sorted(rows, key=lambda r: r["name"])


COLOR_NAMES = {
    "W": gettext_lazy("White"),
    "U": gettext_lazy("Blue"),
    "B": gettext_lazy("Black"),
    "R": gettext_lazy("Red"),
    "G": gettext_lazy("Green"),
}
_BACK_LABELS = {Layout.MELD: gettext_lazy("Melds into")}


def color_names(colors: Sequence[str]) -> str:
    """A face's colors in words ("White, Blue"; "Colorless"), never by color alone."""
    return ", ".join(str(COLOR_NAMES[c]) for c in "WUBRG" if c in colors) or gettext("Colorless")


def with_faces(rows: list[dict]) -> list[dict]:
    """Pool rows (``pool_view``) with what the builder shows of each card: its ``sides``, one
    for a single-faced card (every face of a split or adventure card in it), front and back for
    a DFC, each ``{"label", "mana_cost", "type_line", "colors"}`` (colors in words).

    The faces come from ``drafts.cardinfo``'s cache of card payloads."""
    from drafts import cardinfo

    infos = cardinfo.card_info({row["card_id"] for row in rows})
    out = []
    for row in rows:
        info = infos.get(row["card_id"])
        faces = (info or {}).get("faces") or []
        if info and info["is_dfc"] and len(faces) > 1:
            groups = [
                (gettext("Front face"), faces[:1]),
                (str(_BACK_LABELS.get(info["layout"], gettext_lazy("Back face"))), faces[1:]),
            ]
        else:
            groups = [("", faces)]
        sides = [
            {
                "label": label,
                "mana_cost": " // ".join(f["mana_cost"] for f in group if f["mana_cost"]),
                "type_line": " // ".join(f["type_line"] for f in group if f["type_line"]),
                "colors": color_names("".join("".join(f["colors"]) for f in group)),
            }
            for label, group in groups
            if group
        ]
        out.append({**row, "sides": sides})
    return out


def deck_data(deck: Deck, pool: list[dict] | None = None) -> adapter.Resolved:
    """The stored deck resolved again (by card id) for checking or display."""
    return adapter.resolve(
        format=deck.format,
        main=deck.main,
        sideboard=deck.sideboard,
        commander=deck.commander,
        pool=pool,
        opaque_sleeves=deck.opaque_sleeves,
        checklist_policy=checklist_policy(deck.event_id),
        checklist_cards=adapter.stored_checklist_cards(deck.checklist_cards),
    )


def printed_languages(deck: Deck) -> list[str]:
    """The languages (their own names) of the printed names a stored list was written with."""
    codes = {
        row["language"]
        for section in (deck.main, deck.sideboard, deck.commander)
        for row in section
        if row.get("printed_name") and row.get("language")
    }
    return [languages.name_of(code) for code in sorted(codes)]


def deck_view(deck: Deck) -> dict[str, Any]:
    """Everything a deck page, the printable list and the API show about one deck."""
    resolved = deck_data(deck)
    data = resolved.deck
    physical = core.physical_deck(data)
    return {
        "main": _view_lines(data.main, resolved.printed),
        "sideboard": _view_lines(data.sideboard, resolved.printed),
        "commander": _view_lines(data.commander, resolved.printed),
        "dfcs": _view_dfcs(resolved, deck.opaque_sleeves),
        "checklist_cards": resolved.checklist_rows,
        "physical": {
            key: [{"name": n, "count": c} for n, c in physical[key]] for key in ("main", "sideboard", "set_aside")
        }
        | {"checklist_cards": [{"checklist": label, "marked": mark} for label, mark in physical["checklist_cards"]]},
    }


def _view_lines(section: Sequence[core.Line], printed: dict) -> list[dict]:
    """A section's lines as shown: the English name first, the printed one beside it."""
    out = []
    for line in section:
        row = {
            "card_id": line.card.key if line.card and isinstance(line.card.key, int) else None,
            "name": line.card.name if line.card else line.name,
            "count": line.count,
            "is_dfc": bool(line.card and line.card.is_dfc),
            "known": line.card is not None,
        }
        if line.card is not None and line.card.key in printed:
            # English name first; the printed one beside it, so any judge can read the list
            row["printed_name"], row["language"] = printed[line.card.key]
        out.append(row)
    return out


def _view_dfcs(resolved: adapter.Resolved, opaque_sleeves: bool) -> list[dict]:
    """Each double-faced card of the deck: its copies, the checklist cards that represent them
    and the copies left in opaque sleeves, by name."""
    data = resolved.deck
    by_card: dict[Any, list[str]] = {}
    for row, use in zip(resolved.checklist_rows, data.checklist_cards):
        if len(use.marked) == 1 and use.marked[0].card is not None:
            by_card.setdefault(use.marked[0].card.key, []).append(row["checklist"])
    dfcs: dict[Any, dict] = {}
    for section in (data.main, data.sideboard):
        for line in section:
            if line.card is not None and line.card.is_dfc:
                row = dfcs.setdefault(line.card.key, {"name": line.card.name, "count": 0})
                row["count"] += line.count
    for key, row in dfcs.items():
        labels = by_card.get(key, [])
        row["checklist_cards"] = dict(Counter(labels))
        row["represented"] = len(labels)
        row["sleeved"] = max(0, row["count"] - len(labels)) if opaque_sleeves else 0
    return sorted(dfcs.values(), key=lambda r: r["name"])


def deck_status(deck: Deck | None, event: Event, now: dt.datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    deadline = event.decklist_deadline
    locked = is_locked(event, now)
    if deck is None:
        return {
            "state": "missing",
            "valid": False,
            "error_count": 0,
            "error_codes": [],
            "late": locked,
            "locked": locked,
        }
    codes = sorted({error["code"] for error in deck.check_errors})
    return {
        "state": "valid" if deck.valid else "invalid",
        "valid": deck.valid,
        "error_count": len(deck.check_errors),
        "error_codes": codes,
        "late": bool(deadline and deck.submitted_at > deadline),
        "locked": locked,
    }


def event_decks(
    event: Event,
    *,
    status: str = "",
    query: str = "",
    error: str = "",
    late: bool | None = None,
    now: dt.datetime | None = None,
) -> list[dict[str, Any]]:
    """Every registration of the event with its deck and status (staff view), filtered."""
    now = now or timezone.now()
    registrations = Registration.objects.filter(event=event).order_by("name")
    query = query.replace("\x00", "")  # no name holds a NUL byte (PostgreSQL refuses it in a query: 500)
    if query:
        registrations = registrations.filter(name__icontains=query)
    decks = {
        deck.registration_id: deck
        for deck in Deck.objects.filter(event=event).annotate(
            n_corrections=Count("corrections", distinct=True), n_checks=Count("checks", distinct=True)
        )
    }
    rows = []
    for registration in registrations:
        deck = decks.get(registration.pk)
        state = deck_status(deck, event, now)
        if status and state["state"] != status:
            continue
        if error and error not in state["error_codes"]:
            continue
        if late is not None and state["late"] != late:
            continue
        rows.append(
            {
                "registration": registration,
                "deck": deck,
                "status": state,
                "corrections": deck.n_corrections if deck else 0,
                "checks": deck.n_checks if deck else 0,
            }
        )
    return rows


def event_error_codes(event: Event) -> list[str]:
    """Every error code of the event's decks (the judges' filter)."""
    return sorted({code for row in event_decks(event) for code in row["status"]["error_codes"]})


def sealed_pool_rows(event: Event) -> list[tuple[Registration, SealedPool | None]]:
    """Every registration of the event, by name, with its sealed pool (or None)."""
    pools = {pool.registration_id: pool for pool in SealedPool.objects.filter(registration__event=event)}
    return [
        (registration, pools.get(registration.pk))
        for registration in Registration.objects.filter(event=event).order_by("name")
    ]


def selections(event: Event | int):
    """The event's deck check selections, newest first."""
    return DeckCheckSelection.objects.filter(event=event)


def recent_selections(event: Event, limit: int = 10) -> list[DeckCheckSelection]:
    return list(selections(event)[:limit])


def selected_decks(selection: DeckCheckSelection) -> dict[int, int]:
    """registration id -> deck id, for the registrations a selection picked."""
    return dict(
        Deck.objects.filter(event_id=selection.event_id, registration_id__in=selection.registration_ids).values_list(
            "registration_id", "pk"
        )
    )


def event_checks(event: Event):
    """Every deck check recorded in the event (the model's order: newest first)."""
    return DeckCheck.objects.filter(event=event).select_related("deck", "judge")


def recent_event_checks(event: Event, limit: int = 50) -> list[DeckCheck]:
    return list(event.deck_checks.select_related("deck__registration", "judge")[:limit])


def corrections(deck: Deck) -> list[DeckCorrection]:
    return list(deck.corrections.select_related("judge").order_by("at", "pk"))


def check_penalty_links(check: DeckCheck) -> list[dict[str, str]]:
    """One prefilled penalties link per finding that is an infraction."""
    links = []
    for finding in check.findings:
        infraction = finding.get("infraction") or ""
        if infraction not in findings.INFRACTIONS:
            continue
        label = findings.FINDING_KINDS.get(finding["kind"], ("", ""))[0]
        description = gettext("Deck check: %(finding)s.") % {"finding": label}
        if finding.get("description"):
            description += f" {finding['description']}"
        if finding.get("cards"):
            description += " " + gettext("Cards: %(cards)s.") % {"cards": ", ".join(finding["cards"])}
        links.append(
            {
                "infraction": infraction,
                "label": findings.INFRACTIONS[infraction],
                "kind": finding["kind"],
                "url": findings.penalty_url(
                    event_id=check.event_id,
                    registration_id=check.deck.registration_id,
                    infraction=infraction,
                    description=description,
                    source=f"deck_check:{check.pk}",
                ),
            }
        )
    return links


def correction_penalty_link(correction: DeckCorrection) -> str:
    deck = correction.deck
    return findings.penalty_url(
        event_id=deck.event_id,
        registration_id=deck.registration_id,
        infraction=findings.DECKLIST_PROBLEM,
        description=f"Decklist corrected by a judge (correction #{correction.pk}): {correction.reason}",
    )


def checks(deck: Deck) -> list[DeckCheck]:
    return list(deck.checks.select_related("judge", "deck").order_by("-at", "-pk"))
