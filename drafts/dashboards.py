"""Reads for the organiser's dashboard and the judges' pod view (staff only).

Everything here is for people who may see every card of the event (``sees_everything``);
player and spectator pages use ``selectors.seat_view`` and ``selectors.open_board`` only.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections import defaultdict

from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from drafts import extensions, presence, selectors
from drafts.clocks import shown_clock
from drafts.core.timing import pass_direction, pick_seconds
from drafts.models import Pack, Pick, PickKind, Pod, PodAction, PodLogEntry, PodState, Seat
from draftsite.spreadsheets import safe_cell
from events.models import Event, Registration

AUTOMATIC_KINDS = (PickKind.TIMEOUT, PickKind.AUTOMATIC_DRAFTER)


def _name(seat: Seat) -> str:
    return seat.registration.name if seat.registration_id else gettext("Automatic drafter")


def _ms_left(deadline: dt.datetime | None, now: dt.datetime) -> int | None:
    return None if deadline is None else int((deadline - now).total_seconds() * 1000)


# The clock a pod's line shows, by kind (``shown_clock``); the dashboard's script has the same words.
CLOCK_LABELS = {
    "pick": gettext_lazy("Next pick timer"),
    "review": gettext_lazy("Review"),
    "deck_building": gettext_lazy("Deck building"),
}


def pod_clock(
    pod: Pod, now: dt.datetime, soonest_pick: dt.datetime | None = None, soonest_paused_ms: int | None = None
) -> dict:
    """The pod-level clock to show (``shown_clock``), with its label and the time left now."""
    kind, deadline, frozen = shown_clock(
        state=pod.state,
        paused_from=pod.paused_from,
        review_deadline=pod.review_deadline,
        deck_building_deadline=pod.deck_building_deadline,
        paused_remaining_ms=pod.paused_remaining_ms,
        soonest_pick=soonest_pick,
        soonest_paused_ms=soonest_paused_ms,
    )
    return {
        "label": str(CLOCK_LABELS[kind]) if kind else None,
        "deadline": deadline,
        "remaining_ms": _ms_left(deadline, now) if deadline is not None else frozen,
        "paused": pod.state == PodState.PAUSED,
    }


def is_offline(is_automatic: bool, connections: int) -> bool:
    """A seat counts as offline on the dashboard when a player holds it and no page of theirs
    is connected (an automatic drafter needs none)."""
    return not is_automatic and connections == 0


def offline_counts(seats_by_pod: dict[int, list[tuple[int, bool]]]) -> dict[int, int]:
    """Each pod's offline seats (``is_offline``), from ``(seat id, is automatic)`` pairs: one
    read of the presence store for them all (the live dashboard asks every few seconds)."""
    status = presence.status([seat_id for seats in seats_by_pod.values() for seat_id, _ in seats])
    return {
        pod_id: sum(1 for seat_id, automatic in seats if is_offline(automatic, status[seat_id]["connections"]))
        for pod_id, seats in seats_by_pod.items()
    }


def _seat_rows(pod: Pod, now: dt.datetime) -> list[dict]:
    seats = list(pod.seats.select_related("registration").order_by("position"))
    packs = list(Pack.objects.filter(pod=pod, holder__isnull=False).order_by("queue_seq"))
    by_holder = defaultdict(list)
    for pack in packs:
        by_holder[pack.holder_id].append(pack)
    counts = defaultdict(lambda: defaultdict(int))
    for row in Pick.objects.filter(seat__pod=pod).values("seat_id", "kind").annotate(n=Count("pk")):
        counts[row["seat_id"]][row["kind"]] = row["n"]
    online = presence.status([s.pk for s in seats])
    drafting = pod.state == PodState.DRAFTING
    rows = [
        _seat_row(seat, by_holder.get(seat.pk, []), counts[seat.pk], online[seat.pk], drafting, now) for seat in seats
    ]
    _mark_holding_up(rows, pod, drafting)
    return rows


def _seat_row(seat: Seat, queue: list[Pack], kinds: dict, online: dict, drafting: bool, now: dt.datetime) -> dict:
    """One seat's line: its queue, how long the pack in front has waited, picks, presence."""
    head = queue[0] if queue else None
    waiting = over = None
    if head is not None and drafting:
        started = max(filter(None, [head.arrived_at, seat.last_pick_at]), default=now)
        waiting = max(0, int((now - started).total_seconds()))
        allowed = pick_seconds(head.cards_left)
        over = max(0, waiting - allowed) if allowed is not None else 0
    return {
        "seat": seat,
        "id": seat.pk,
        "position": seat.position,
        "number": seat.position + 1,
        "name": _name(seat),
        "is_automatic": seat.is_automatic,
        "ready": seat.ready,
        "registration_id": seat.registration_id,
        "queue": [{"pack_id": p.pk, "cards_left": p.cards_left, "round": p.round} for p in queue],
        "queue_length": len(queue),
        "pick_number": head.picks_made + 1 if head else None,
        "cards_left": head.cards_left if head else None,
        "deadline": head.deadline if head else None,
        "remaining_ms": (
            _ms_left(head.deadline, now) if head and head.deadline else (head.remaining_ms if head else None)
        ),
        "waiting_seconds": waiting,
        "seconds_over": over,
        "last_pick_at": seat.last_pick_at,
        "picks": sum(kinds.values()),
        "manual_picks": kinds[PickKind.MANUAL],
        "timeout_picks": kinds[PickKind.TIMEOUT],
        "automatic_picks": sum(kinds[k] for k in AUTOMATIC_KINDS),
        "connections": online["connections"],
        "last_seen": (dt.datetime.fromtimestamp(online["last_seen"], tz=dt.UTC) if online["last_seen"] else None),
    }


def _mark_holding_up(rows: list[dict], pod: Pod, drafting: bool) -> None:
    """A seat holds up its pod when packs pile up in its queue, or when the seat it passes
    to sits idle waiting for it."""
    direction = pass_direction(pod.round) if pod.round else 1
    by_position = {row["position"]: row for row in rows}
    for row in rows:
        receiver = by_position.get((row["position"] + direction) % max(len(rows), 1))
        idle_neighbour = receiver is not None and receiver is not row and receiver["queue_length"] == 0
        row["holding_up"] = bool(drafting and row["queue_length"] and (row["queue_length"] >= 2 or idle_neighbour))


def pod_glance(pod: Pod, now: dt.datetime | None = None) -> dict:
    """One line of the event dashboard: state, round, pick, time left, who holds the pod up."""
    now = now or timezone.now()
    rows = _seat_rows(pod, now)
    heads = [r for r in rows if r["pick_number"] is not None]
    picks = sorted({r["pick_number"] for r in heads})
    deadlines = [r["deadline"] for r in heads if r["deadline"] is not None]
    frozen = [r["remaining_ms"] for r in heads if r["deadline"] is None and r["remaining_ms"] is not None]
    holding = sorted(
        (r for r in rows if r["holding_up"]),
        key=lambda r: (-r["queue_length"], -(r["seconds_over"] or 0), r["position"]),
    )
    return {
        "pod": pod,
        "summary": selectors.pod_summary(pod),
        "seats": len(rows),
        "pick": (str(picks[0]) if len(picks) == 1 else f"{picks[0]}–{picks[-1]}") if picks else None,
        "clock": pod_clock(pod, now, min(deadlines, default=None), min(frozen, default=None)),
        "holding_up": holding,
        "offline": [r for r in rows if is_offline(r["is_automatic"], r["connections"])],
        "rows": rows,
    }


def event_glance(event: Event, pods: list[Pod], now: dt.datetime | None = None) -> list[dict]:
    """The dashboard's lines of ``pods`` (the event's, brought up to date by the caller). A
    format another app runs (paper's called pods) has its own lines: ``drafts.extensions``."""
    now = now or timezone.now()
    return [pod_glance(p, now) for p in pods]


# What the pod log says of each of the draft engine's actions; another app's (a paper call) shows
# its label (``drafts.extensions.log_action_label``).
LOG_TEXT = {
    PodAction.START: gettext_lazy("Pod started"),
    PodAction.PAUSE: gettext_lazy("Paused"),
    PodAction.RESUME: gettext_lazy("Resumed"),
    PodAction.ROUND_START: gettext_lazy("Round {round} started"),
    PodAction.ROUND_END: gettext_lazy("Round {round} finished"),
    PodAction.ALL_READY: gettext_lazy("Every player was ready: round {round} started"),
    PodAction.ADVANCE_ROUND: gettext_lazy("Review ended early: round {round} started"),
    PodAction.AUTOMATIC_PICK: gettext_lazy("Seat {seat_no}: automatic pick ({kind_text}), round {round} pick {pick}"),
    PodAction.REPLACE_WITH_AUTOMATIC: gettext_lazy("Seat {seat_no} replaced by an automatic drafter"),
    PodAction.HAND_SEAT: gettext_lazy("Seat {seat_no} handed from {previous} to {to}"),
    PodAction.DECK_BUILDING_START: gettext_lazy("Deck building started"),
    PodAction.DECK_BUILDING_OVER: gettext_lazy("Deck building over"),
    PodAction.EXTEND_CLOCKS: gettext_lazy("{clock_text} extended by {seconds} s{seat_text}"),
    PodAction.DECK_BUILDING_CLOCK: gettext_lazy("Deck-building time set to {minutes} min{scope_text}"),
    PodAction.START_DECK_BUILDING: gettext_lazy("Deck-building clock started: {minutes} min"),
    PodAction.SPECTATOR_LINK_REGENERATED: gettext_lazy("New spectator link (the old one is revoked)"),
}
_KIND_TEXT = {
    PickKind.TIMEOUT: gettext_lazy("timer ran out"),
    PickKind.AUTOMATIC_DRAFTER: gettext_lazy("automatic drafter"),
}
_CLOCK_TEXT = {
    "pick": gettext_lazy("Pick timers"),
    "review": gettext_lazy("Review clock"),
    "deck_building": gettext_lazy("Deck-building clock"),
}


def describe(entry: PodLogEntry) -> str:
    details = dict(entry.details or {})
    seat = details.get("seat")
    details.update(
        seat_no=seat + 1 if isinstance(seat, int) else "?",
        seat_text=f" for seat {seat + 1}" if isinstance(seat, int) else "",
        kind_text=_KIND_TEXT.get(details.get("kind"), details.get("kind", "")),
        clock_text=_CLOCK_TEXT.get(details.get("clock"), gettext_lazy("Clocks")),
        scope_text=gettext_lazy(" for the event's pods") if details.get("scope") == "event" else "",
        previous=details.get("previous") or gettext("nobody"),
    )
    template = LOG_TEXT.get(entry.action)
    return extensions.log_action_label(entry.action) if template is None else template.format(**details)


def log_entries(pod: Pod, limit: int | None = None) -> list[dict]:
    entries = PodLogEntry.objects.filter(pod=pod).select_related("actor").order_by("-at", "-pk")
    if limit:
        entries = entries[:limit]
    return [
        {
            "at": e.at,
            "action": e.action,
            "text": describe(e),
            "actor": e.actor.get_username() if e.actor_id else None,
            "details": e.details,
        }
        for e in entries
    ]


def pod_detail(pod: Pod, now: dt.datetime | None = None) -> dict:
    """Everything the pod page shows (``pod`` brought up to date by the caller): seats with
    queues, clocks, presence, picks, the log."""
    now = now or timezone.now()
    glance = pod_glance(pod, now)
    seated = Seat.objects.filter(pod__event=pod.event, registration__isnull=False).values("registration_id")
    glance.update(
        {
            "log": log_entries(pod, limit=40),
            "free_registrations": list(
                Registration.objects.filter(event=pod.event).exclude(pk__in=seated).order_by("name")
            ),
            "server_time": now,
        }
    )
    return glance


# --- downloads -------------------------------------------------------------------------


def _iso(value):
    return value.isoformat() if value else None


def pod_log_json(pod: Pod) -> str:
    seats = list(pod.seats.select_related("registration").order_by("position"))
    data = {
        "event": {"id": pod.event_id, "name": pod.event.name, "date": pod.event.date.isoformat()},
        "pod": selectors.pod_summary(pod),
        "log": [
            {
                "at": _iso(e["at"]),
                "action": e["action"],
                "text": e["text"],
                "actor": e["actor"],
                "details": e["details"],
            }
            for e in reversed(log_entries(pod))
        ],
        "seats": [
            {
                "id": s.pk,
                "position": s.position,
                "name": _name(s),
                "is_automatic": s.is_automatic,
                "picks": selectors.draft_log(s, include_packs=True),
            }
            for s in seats
        ],
        # Every pack as it was opened, each card with its slot (rare, wildcard, foil, land...).
        "packs": selectors.opened_packs(pod),
    }
    return json.dumps(data, indent=2, ensure_ascii=False)


def pod_log_text(pod: Pod) -> str:
    lines = [
        f"{pod.event.name} ({pod.event.date}) · pod {pod.number}",
        f"State: {pod.get_state_display()}",
        "",
        "Pod log:",
    ]
    for entry in reversed(log_entries(pod)):
        who = f" [{entry['actor']}]" if entry["actor"] else ""
        lines.append(f"  {entry['at']:%Y-%m-%d %H:%M:%S} {entry['text']}{who}")
    lines.append("")
    for seat in pod.seats.select_related("registration", "pod__event").order_by("position"):
        lines += [f"=== Seat {seat.position + 1}: {_name(seat)} ===", selectors.mtgo_log_text(seat, include_packs=True)]
    lines += opened_packs_text(selectors.opened_packs(pod))
    return "\n".join(lines)


def opened_packs_text(packs: list[dict]) -> list[str]:
    """The opened packs, one line per card: its slot, the card, foil."""
    lines = ["Opened packs:"] if packs else []
    for pack in packs:
        lines.append(f"  Round {pack['round']}, seat {pack['seat']}:")
        for card in pack["cards"]:
            foil = " (foil)" if card["foil"] else ""
            lines.append(f"    {card['slot'] or '-'}: {card['name']}{foil}")
        for name in pack["removed"]:
            lines.append(f"    removed: {name}")
    return lines


REPORT_COLUMNS = [
    "event_id",
    "event",
    "date",
    "pod",
    "pod_state",
    "round",
    "seat",
    "player",
    "automatic_drafter",
    "picks",
    "manual_picks",
    "timeout_picks",
    "automatic_drafter_picks",
    "last_card_picks",
    "last_pick_at",
]


def event_report_csv(event: Event) -> str:
    """Pods, seats and automatic picks of an event, one row per seat."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(REPORT_COLUMNS)
    counts = defaultdict(lambda: defaultdict(int))
    for row in Pick.objects.filter(seat__pod__event=event).values("seat_id", "kind").annotate(n=Count("pk")):
        counts[row["seat_id"]][row["kind"]] = row["n"]
    seats = (
        Seat.objects.filter(pod__event=event).select_related("registration", "pod").order_by("pod__number", "position")
    )
    for seat in seats:
        kinds = counts[seat.pk]
        writer.writerow(
            [
                event.pk,
                safe_cell(event.name),
                event.date.isoformat(),
                seat.pod.number,
                seat.pod.state,
                seat.pod.round,
                seat.position + 1,
                safe_cell(_name(seat)),
                "yes" if seat.is_automatic else "no",
                sum(kinds.values()),
                kinds[PickKind.MANUAL],
                kinds[PickKind.TIMEOUT],
                kinds[PickKind.AUTOMATIC_DRAFTER],
                kinds[PickKind.LAST_CARD],
                _iso(seat.last_pick_at) or "",
            ]
        )
    return out.getvalue()
