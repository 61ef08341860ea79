"""Every read of the draft engine, and what each viewer may see of a draft.

Reads never write, lock or enforce a clock: callers that show a pod's clocks first bring it
up to date with ``services.settle_pod_for_reading`` and pass the pod in.

The open-information rule (R15-R16) lives here: a player gets their own queue and pile in
full, and of every other seat only the DFCs (both faces, R14) in the packs it holds and in
its pile, plus how many cards each of those packs has. Nothing else about another seat's
cards leaves the server. Organisers and judges of the event see everything.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext

from drafts import cardinfo
from drafts.boosters import slot_label
from drafts.core.timing import pass_direction
from drafts.models import DraftCard, Pack, Pick, PickKind, Pod, PodState, Seat
from drafts.queue import iso, queue_payload, queue_rows
from events.models import Event

DRAFT_STATES = (PodState.DRAFTING, PodState.REVIEWING)


def spectated_pod(token: str) -> Pod | None:
    """The pod a spectator link shows (none once the organiser replaced the link)."""
    if not token or "\x00" in token:  # tokens are URL-safe; PostgreSQL refuses NUL in a query (500)
        return None
    return Pod.objects.select_related("event").filter(spectator_token=token).exclude(spectator_token="").first()


def _payloads(draft_cards: list[DraftCard]) -> dict[int, dict]:
    return cardinfo.payloads(cardinfo.rows_of(draft_cards))


_iso = iso


def pod_summary(pod: Pod | dict) -> dict:
    """The pod's state and clocks; from a Pod or from the fields the pick engine returns."""
    if isinstance(pod, Pod):
        pod = {
            "id": pod.pk,
            "event_id": pod.event_id,
            "number": pod.number,
            "state": pod.state,
            "paused_from": pod.paused_from,
            "round": pod.round,
            "review_deadline": pod.review_deadline,
            "deck_building_deadline": pod.deck_building_deadline,
            "paused_remaining_ms": pod.paused_remaining_ms,
            "pick_timer": pod.event.pick_timer,
            "version": pod.version,
        }
    return {
        "id": pod["id"],
        "event_id": pod["event_id"],
        "number": pod["number"],
        "state": pod["state"],
        "paused_from": pod["paused_from"] or None,
        "round": pod["round"],
        "direction": ("left" if pass_direction(pod["round"]) > 0 else "right") if pod["round"] else None,
        "review_deadline": iso(pod["review_deadline"]),
        "deck_building_deadline": iso(pod["deck_building_deadline"]),
        "paused_remaining_ms": pod["paused_remaining_ms"],
        "pick_timer": pod["pick_timer"],
        "version": pod["version"],
    }


def _piles_are_open(pod: Pod) -> bool:
    """Piles' DFCs are open information during the draft; after it, piles are private
    until the organiser publishes decklists."""
    return pod.effective_state in DRAFT_STATES or pod.event.decklists_published


def open_board(pod: Pod, *, include_piles: bool | None = None) -> dict:
    """R15: every DFC in the pod that a member may see, by seat; counts of every held pack."""
    include_piles = _piles_are_open(pod) if include_piles is None else include_piles
    seats = list(pod.seats.select_related("registration").order_by("position"))
    packs = list(Pack.objects.filter(pod=pod, holder__isnull=False).order_by("queue_seq"))
    lists = [pack.card_ids for pack in packs] + ([s.pile_ids for s in seats] if include_piles else [])
    payload = _payloads(list(DraftCard.objects.filter(pk__in=[pk for ids in lists for pk in ids], is_dfc=True)))

    def dfcs_in(ids: list[int]) -> list[dict]:  # in the list's order
        return [payload[pk] for pk in ids if pk in payload]

    held = defaultdict(list)
    for pack in packs:
        held[pack.holder_id].append(
            {"pack_id": pack.pk, "round": pack.round, "cards_left": len(pack.card_ids), "dfcs": dfcs_in(pack.card_ids)}
        )
    return {
        "seats": [
            {
                "position": s.position,
                "name": s.registration.name if s.registration_id else "Automatic drafter",
                "is_automatic": s.is_automatic,
                "packs": held.get(s.pk, []),
                "pile_dfcs": dfcs_in(s.pile_ids) if include_piles else None,
            }
            for s in seats
        ],
        # Piles closed because the draft is over (not because it has not begun: nothing drafted yet).
        "draft_over": pod.effective_state in (PodState.DECK_BUILDING, PodState.DONE),
    }


def queue(seat: Seat, *, full: bool = False) -> list[dict]:
    """The seat's packs in queue order: the pack in front in full, of those waiting behind it
    only their DFCs (R15); ``full`` (staff) shows every card."""
    return queue_payload(queue_rows(seat.pk), full=full)


def pile(seat: Seat) -> list[dict]:
    cards = list(DraftCard.objects.in_pile(seat))
    payload = _payloads(cards)
    return [payload[dc.pk] for dc in cards]


def seat_view(seat: Seat, now: dt.datetime | None = None, *, pod: Pod | None = None) -> dict:
    """Everything the player in ``seat`` may see right now (``pod``: the seat's pod, brought up
    to date by the caller; else read as it is)."""
    pod = pod or Pod.objects.select_related("event").get(pk=seat.pod_id)
    now = now or timezone.now()
    seat.refresh_from_db()
    return {
        "seat": {
            "id": seat.pk,
            "position": seat.position,
            "name": seat.registration.name if seat.registration_id else "Automatic drafter",
            "is_automatic": seat.is_automatic,
            "pile_cover": seat.pile_cover,
            "ready": seat.ready,
        },
        "pod": pod_summary(pod),
        "queue": queue(seat),
        "pile": pile(seat),
        "board": open_board(pod),
        "server_time": now.isoformat(),
    }


def pod_overview(pod: Pod, now: dt.datetime | None = None) -> dict:
    """The organiser's and judges' view: every seat, every card, who is holding things up."""
    now = now or timezone.now()
    seats = list(pod.seats.select_related("registration").order_by("position"))
    automatic = dict(
        Pick.objects.filter(seat__pod=pod, kind=PickKind.TIMEOUT)
        .values("seat_id")
        .annotate(n=Count("pk"))
        .values_list("seat_id", "n")
    )
    picks = dict(
        Pick.objects.filter(seat__pod=pod).values("seat_id").annotate(n=Count("pk")).values_list("seat_id", "n")
    )
    return {
        "pod": pod_summary(pod),
        "spectator_token": pod.spectator_token,
        "seats": [
            {
                "id": s.pk,
                "position": s.position,
                "name": s.registration.name if s.registration_id else "Automatic drafter",
                "registration_id": s.registration_id,
                "is_automatic": s.is_automatic,
                "ready": s.ready,
                "last_pick_at": _iso(s.last_pick_at),
                "picks": picks.get(s.pk, 0),
                "timeout_picks": automatic.get(s.pk, 0),
                "queue": queue(s, full=True),
                "pile": pile(s),
            }
            for s in seats
        ],
        "server_time": now.isoformat(),
    }


def draft_log(seat: Seat, *, include_packs: bool = True) -> list[dict]:
    """Every pick of a seat, and (``include_packs``) what each pack held at that pick.

    A player's own log leaves out the packs until decklists are published: the cards they
    passed now sit in other seats' packs and piles, which are hidden (R16).
    """
    picks = list(Pick.objects.filter(seat=seat).order_by("round", "pick_number"))
    ids = {p.draft_card_id for p in picks}
    if include_packs:
        ids |= {pk for p in picks for pk in p.pack_contents}
    rows = DraftCard.objects.filter(pk__in=ids).values_list("pk", "card__name", "pack_slot")
    names = {pk: name for pk, name, _ in rows}
    # The slot a card was opened in says what another seat's pack held: with the packs only.
    slots = {pk: slot for pk, _, slot in rows}
    return [
        {
            "round": p.round,
            "pick": p.pick_number,
            "kind": p.kind,
            "made_at": _iso(p.made_at),
            "card": names.get(p.draft_card_id),
            "draft_card_id": p.draft_card_id,
            **({"slot": slots.get(p.draft_card_id, "")} if include_packs else {}),
            "pack": [names.get(pk) for pk in p.pack_contents] if include_packs else None,
            "pack_ids": list(p.pack_contents) if include_packs else None,
            **({"pack_slots": [slots.get(pk, "") for pk in p.pack_contents]} if include_packs else {}),
        }
        for p in picks
    ]


def opened_packs(pod: Pod, opener: Seat | None = None) -> list[dict]:
    """The packs opened in a pod (or by one seat), by round and seat, each card with the slot it
    was opened in (rare or mythic, wildcard, foil, land...) and what was taken out (R17).

    Hidden information (R16): staff, or the opener once decklists are published (the caller
    checks, ``access.sees_log_packs``)."""
    packs = Pack.objects.filter(pod=pod).select_related("opener").order_by("round", "opener__position", "pk")
    if opener is not None:
        packs = packs.filter(opener=opener)
    packs = list(packs)
    cards: dict[int, list[dict]] = defaultdict(list)
    for pack_id, name, slot, foil, rarity in (
        DraftCard.objects.filter(opened_in__in=[p.pk for p in packs])
        .order_by("opened_in_id", "slot")
        .values_list("opened_in_id", "card__name", "pack_slot", "foil", "rarity")
    ):
        cards[pack_id].append(
            {"name": name, "slot": slot, "slot_label": slot_label(slot) if slot else "", "foil": foil, "rarity": rarity}
        )
    return [
        {
            "round": p.round,
            "seat": p.opener.position + 1 if p.opener_id else None,
            "cards": cards[p.pk],
            "removed": [r.get("name") for r in (p.removed or []) if isinstance(r, dict)],
        }
        for p in packs
    ]


def mtgo_log_text(seat: Seat, *, include_packs: bool = True) -> str:
    """The seat's picks in the plain-text format of MTGO draft logs."""
    pod = seat.pod
    event = pod.event
    seats = list(pod.seats.select_related("registration").order_by("position"))
    lines = [
        f"Event #: {event.pk}-{pod.number}",
        f"Time:    {pod.started_at.strftime('%m/%d/%Y %I:%M:%S %p') if pod.started_at else ''}",
        "Players:",
    ]
    for s in seats:
        name = s.registration.name if s.registration_id else "Automatic drafter"
        lines.append(("--> " if s.pk == seat.pk else "    ") + name)
    lines.append("")
    current_round = None
    for entry in draft_log(seat, include_packs=include_packs):
        if entry["round"] != current_round:
            current_round = entry["round"]
            label = event.set_codes[current_round - 1] if event.set_codes else "CUBE"
            lines += [f"------ {label} ------ ", ""]
        lines.append(f"Pack {entry['round']} pick {entry['pick']}:")
        if entry["pack"] is None:
            lines.append(f"--> {entry['card']}")
        else:
            for pk, name in zip(entry["pack_ids"], entry["pack"]):
                lines.append(("--> " if pk == entry["draft_card_id"] else "    ") + (name or "?"))
        lines.append("")
    return "\n".join(lines) + "\n"


# --- an event's pods and seats ------------------------------------------------------------


def seats_by_event(user) -> dict[int, Seat]:
    """The user's seat in each event they are seated in."""
    return {s.pod.event_id: s for s in Seat.objects.filter(registration__user=user).select_related("pod")}


def seat_of(registration) -> Seat | None:
    return Seat.objects.filter(registration=registration).select_related("pod").first()


def pods_with_seats(event: Event) -> list[dict]:
    """The event's pods by number, each with its seats in order."""
    return [
        {"pod": pod, "seats": sorted(pod.seats.all(), key=lambda s: s.position)}
        for pod in event.pods.order_by("number").prefetch_related("seats__registration")
    ]


def seated_registration_ids(event: Event) -> set[int]:
    return set(
        Seat.objects.filter(pod__event=event, registration__isnull=False).values_list("registration_id", flat=True)
    )


def seated_players(event: Event, user_ids) -> dict[int, Seat]:
    """Of these accounts, those seated as players in the event: user id -> their first seat.
    A judge who also plays the event is usually a mistake (the staff page warns)."""
    seats = (
        Seat.objects.filter(pod__event=event, registration__user_id__in=list(user_ids))
        .select_related("pod", "registration")
        .order_by("pod__number", "position")
    )
    found: dict[int, Seat] = {}
    for seat in seats:
        found.setdefault(seat.registration.user_id, seat)
    return found


def seated_warning(seat: Seat) -> str:
    """What the staff pages and the API say about a judge who also plays the event."""
    return gettext(
        "%(name)s is also seated as a player in this event (pod %(pod)s, seat %(seat)s): "
        "a judge should not judge an event they play in."
    ) % {"name": seat.registration.name, "pod": seat.pod.number, "seat": seat.position + 1}
