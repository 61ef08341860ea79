"""What each viewer may see of a draft.

The open-information rule (R15-R16) lives here: a player gets their own queue and pile in
full, and of every other seat only the DFCs (both faces, R14) in the packs it holds and in
its pile, plus how many cards each of those packs has. Nothing else about another seat's
cards leaves the server. Organisers and judges of the event see everything.
"""

from __future__ import annotations

import datetime as dt
import time
from collections import defaultdict

from django.conf import settings
from django.db.models import Count, Prefetch, Q
from django.utils import timezone

from cards.models import Card, CardFace, LocalizedName
from cards.selectors import printed_names_of
from drafts.models import DraftCard, Pack, Pick, PickKind, Pod, PodState, Seat
from drafts.services.picks import enforce_deadlines, next_due_at
from drafts.timing import pass_direction

DRAFT_STATES = (PodState.DRAFTING, PodState.REVIEWING)


def fresh_pod(pod_id: int, now: dt.datetime | None = None) -> Pod | None:
    """The pod with every deadline already past enforced first (reads never see stale clocks)."""
    now = now or timezone.now()
    pod = Pod.objects.select_related("event").filter(pk=pod_id).first()
    if pod is None:
        return None
    due = next_due_at(pod)
    if due is not None and due <= now:
        enforce_deadlines(pod_id=pod_id, now=now)
        pod = Pod.objects.select_related("event").get(pk=pod_id)
    return pod


# Catalogue cards do not change during an event: their rendered faces are kept per process
# for a few minutes, so a pick or a page costs no catalogue queries once the pod is warm.
_CARD_INFO_TTL = 300.0
_card_info_cache: dict[int, tuple[float, dict]] = {}


def _card_info(card_ids: set[int]) -> dict[int, dict]:
    now = time.monotonic()
    info = {}
    for pk in card_ids:
        hit = _card_info_cache.get(pk)
        if hit is not None and now - hit[0] < _CARD_INFO_TTL:
            info[pk] = hit[1]
    missing = card_ids - set(info)
    if not missing:
        return info
    if len(_card_info_cache) > 50_000:
        _card_info_cache.clear()
    cards = Card.objects.filter(pk__in=missing).prefetch_related(
        Prefetch("faces", queryset=CardFace.objects.order_by("position")),
        # i18n (issue 16): the face names printed in the site's languages, so pages show the
        # player's printed name beside the English one.
        Prefetch("localized_names", queryset=LocalizedName.objects.filter(
            language__in=[code for code, _ in settings.LANGUAGES]).order_by("position", "pk")))
    for card in cards:
        info[card.pk] = {
            "card_id": card.pk,
            "name": card.name,
            "layout": card.layout,
            "is_dfc": card.is_dfc,
            "color_identity": list(card.color_identity),
            "faces": [
                {"name": f.name, "mana_cost": f.mana_cost, "type_line": f.type_line,
                 "oracle_text": f.oracle_text, "power": f.power or None,
                 "toughness": f.toughness or None, "loyalty": f.loyalty or None,
                 "colors": list(f.colors)}
                for f in card.faces.all()
            ],
            "printed_names": printed_names_of(card),
        }
        _card_info_cache[card.pk] = (now, info[card.pk])
    return info


def _payloads(draft_cards: list[DraftCard]) -> dict[int, dict]:
    info = _card_info({dc.card_id for dc in draft_cards})
    images = {}
    printing_ids = {dc.printing_id for dc in draft_cards if dc.printing_id}
    if printing_ids:
        from cards.models import Printing

        images = dict(Printing.objects.filter(pk__in=printing_ids).values_list("pk", "image_uris"))
    return {
        dc.pk: {"id": dc.pk, **info[dc.card_id], "rarity": dc.rarity, "foil": dc.foil,
                "image_uris": images.get(dc.printing_id) or {}}
        for dc in draft_cards
    }


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None


def pod_summary(pod: Pod) -> dict:
    return {
        "id": pod.pk, "event_id": pod.event_id, "number": pod.number, "state": pod.state,
        "paused_from": pod.paused_from or None, "round": pod.round,
        "direction": ("left" if pass_direction(pod.round) > 0 else "right") if pod.round else None,
        "review_deadline": _iso(pod.review_deadline),
        "deck_building_deadline": _iso(pod.deck_building_deadline),
        "paused_remaining_ms": pod.paused_remaining_ms,
        "pick_timer": pod.event.pick_timer, "version": pod.version,
    }


def _piles_are_open(pod: Pod) -> bool:
    """Piles' DFCs are open information during the draft; after it, piles are private
    until the organiser publishes decklists."""
    state = pod.paused_from if pod.state == PodState.PAUSED else pod.state
    return state in DRAFT_STATES or pod.event.decklists_published


def open_board(pod: Pod, *, include_piles: bool | None = None) -> dict:
    """R15: every DFC in the pod that a member may see, by seat; counts of every held pack."""
    include_piles = _piles_are_open(pod) if include_piles is None else include_piles
    seats = list(pod.seats.select_related("registration").order_by("position"))
    packs = list(Pack.objects.filter(pod=pod, holder__isnull=False)
                 .annotate(n=Count("cards")).order_by("queue_seq"))
    dfc_filter = Q(pack__in=packs)
    if include_piles:
        dfc_filter |= Q(seat__pod=pod)
    dfcs = list(DraftCard.objects.filter(dfc_filter, pod=pod, is_dfc=True).order_by("slot", "pile_position"))
    payload = _payloads(dfcs)
    by_pack, by_pile = defaultdict(list), defaultdict(list)
    for dc in dfcs:
        (by_pack[dc.pack_id] if dc.pack_id else by_pile[dc.seat_id]).append(payload[dc.pk])
    held = defaultdict(list)
    for pack in packs:
        held[pack.holder_id].append({"pack_id": pack.pk, "round": pack.round, "cards_left": pack.n,
                                     "dfcs": by_pack.get(pack.pk, [])})
    return {"seats": [
        {"position": s.position, "name": s.registration.name if s.registration_id else "Automatic drafter",
         "is_automatic": s.is_automatic, "packs": held.get(s.pk, []),
         "pile_dfcs": by_pile.get(s.pk, []) if include_piles else None}
        for s in seats
    ]}


def queue(seat: Seat) -> list[dict]:
    """The seat's packs in queue order, every card in full (only its own player sees this)."""
    packs = list(Pack.objects.filter(holder=seat).order_by("queue_seq"))
    cards = list(DraftCard.objects.filter(pack__in=packs).order_by("slot"))
    payload = _payloads(cards)
    by_pack = defaultdict(list)
    for dc in cards:
        by_pack[dc.pack_id].append(payload[dc.pk])
    return [{"pack_id": p.pk, "round": p.round, "pick_number": p.picks_made + 1,
             "cards_left": p.cards_left, "deadline": _iso(p.deadline),
             "remaining_ms": p.remaining_ms, "cards": by_pack[p.pk]} for p in packs]


def pile(seat: Seat) -> list[dict]:
    cards = list(DraftCard.objects.filter(seat=seat).order_by("pile_position"))
    payload = _payloads(cards)
    return [payload[dc.pk] for dc in cards]


def seat_view(seat: Seat, now: dt.datetime | None = None) -> dict:
    """Everything the player in ``seat`` may see right now."""
    now = now or timezone.now()
    pod = fresh_pod(seat.pod_id, now)
    seat.refresh_from_db()
    return {
        "seat": {"id": seat.pk, "position": seat.position, "name": seat.registration.name
                 if seat.registration_id else "Automatic drafter", "is_automatic": seat.is_automatic,
                 "pile_cover": seat.pile_cover, "ready": seat.ready},
        "pod": pod_summary(pod),
        "queue": queue(seat),
        "pile": pile(seat),
        "board": open_board(pod),
        "server_time": now.isoformat(),
    }


def pod_overview(pod_id: int, now: dt.datetime | None = None) -> dict | None:
    """The organiser's and judges' view: every seat, every card, who is holding things up."""
    now = now or timezone.now()
    pod = fresh_pod(pod_id, now)
    if pod is None:
        return None
    seats = list(pod.seats.select_related("registration").order_by("position"))
    automatic = dict(Pick.objects.filter(seat__pod=pod, kind=PickKind.TIMEOUT)
                     .values("seat_id").annotate(n=Count("pk")).values_list("seat_id", "n"))
    picks = dict(Pick.objects.filter(seat__pod=pod).values("seat_id").annotate(n=Count("pk"))
                 .values_list("seat_id", "n"))
    return {
        "pod": pod_summary(pod),
        "spectator_token": pod.spectator_token,
        "seats": [
            {"id": s.pk, "position": s.position,
             "name": s.registration.name if s.registration_id else "Automatic drafter",
             "registration_id": s.registration_id, "is_automatic": s.is_automatic,
             "ready": s.ready, "last_pick_at": _iso(s.last_pick_at),
             "picks": picks.get(s.pk, 0), "timeout_picks": automatic.get(s.pk, 0),
             "queue": queue(s), "pile": pile(s)}
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
    names = dict(DraftCard.objects.filter(pk__in=ids).values_list("pk", "card__name"))
    return [{"round": p.round, "pick": p.pick_number, "kind": p.kind, "made_at": _iso(p.made_at),
             "card": names.get(p.draft_card_id), "draft_card_id": p.draft_card_id,
             "pack": [names.get(pk) for pk in p.pack_contents] if include_packs else None,
             "pack_ids": list(p.pack_contents) if include_packs else None}
            for p in picks]


def mtgo_log_text(seat: Seat, *, include_packs: bool = True) -> str:
    """The seat's picks in the plain-text format of MTGO draft logs."""
    pod = seat.pod
    event = pod.event
    seats = list(pod.seats.select_related("registration").order_by("position"))
    lines = [f"Event #: {event.pk}-{pod.number}",
             f"Time:    {pod.started_at.strftime('%m/%d/%Y %I:%M:%S %p') if pod.started_at else ''}",
             "Players:"]
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
