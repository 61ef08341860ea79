"""The decks app's one reader of pick storage (draft history, draft-log and pick-data exports).

Everything the decks app shows of a draft's picks comes through here, so a change to how the
draft engine stores picks touches this module only. Reads never write.

What a pick row holds is what that seat saw (R16): the pack's contents when it picked, never
another seat's packs or pile.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from drafts.models import DraftCard, Pick, PodAction, PodLogEntry, Seat


@dataclass(frozen=True)
class PickRow:
    seat_id: int
    round: int
    pick: int  # 1-based within the round
    card_id: int  # the catalogue card taken
    kind: str  # drafts.models.PickKind
    made_at: dt.datetime
    # When this seat could first look at the pack: it had reached the seat and the seat's
    # previous pick was made (the round's start for the first pick). Pauses are not removed.
    seen_at: dt.datetime | None
    pack: tuple[int, ...] | None  # catalogue card ids the pack held (the pick among them)

    @property
    def seconds(self) -> float | None:
        if self.seen_at is None:
            return None
        return max(0.0, (self.made_at - self.seen_at).total_seconds())


def _round_starts(pod_ids: set[int]) -> dict[tuple[int, int], dt.datetime]:
    starts: dict[tuple[int, int], dt.datetime] = {}
    entries = PodLogEntry.objects.filter(pod_id__in=pod_ids, action=PodAction.ROUND_START).order_by("at")
    for pod_id, at, details in entries.values_list("pod_id", "at", "details"):
        round_number = (details or {}).get("round")
        if isinstance(round_number, int):
            starts.setdefault((pod_id, round_number), at)
    return starts


def picks_of(seats: Iterable[Seat], *, include_packs: bool) -> dict[int, list[PickRow]]:
    """seat id -> its picks in order. ``include_packs``: the pack contents at each pick."""
    seats = list(seats)
    pod_of = {s.pk: s.pod_id for s in seats}
    picks = list(
        Pick.objects.filter(seat_id__in=pod_of)
        .order_by("seat_id", "round", "pick_number")
        .values_list("seat_id", "pack_id", "round", "pick_number", "kind", "made_at", "draft_card_id", "pack_contents")
    )
    draft_ids = {p[6] for p in picks}
    if include_packs:
        draft_ids |= {pk for p in picks for pk in p[7]}
    card_of = dict(DraftCard.objects.filter(pk__in=draft_ids).values_list("pk", "card_id"))
    # When each pack was passed on: the pick before on the same pack (timestamps only).
    passed = {
        (pack_id, number): at
        for pack_id, number, at in Pick.objects.filter(pack_id__in={p[1] for p in picks}).values_list(
            "pack_id", "pick_number", "made_at"
        )
    }
    starts = _round_starts(set(pod_of.values()))
    pod_started = dict(
        Seat.objects.filter(pk__in=pod_of).values_list("pk", "pod__started_at")
    )  # round 1 when no round_start entry exists
    out: dict[int, list[PickRow]] = defaultdict(list)
    for seat_id, pack_id, round_number, number, kind, made_at, draft_card_id, contents in picks:
        previous = out[seat_id][-1].made_at if out[seat_id] else None
        arrived = (
            passed.get((pack_id, number - 1))
            if number > 1
            else starts.get((pod_of[seat_id], round_number), pod_started.get(seat_id) if round_number == 1 else None)
        )
        candidates = [t for t in (arrived, previous) if t is not None]
        out[seat_id].append(
            PickRow(
                seat_id=seat_id,
                round=round_number,
                pick=number,
                card_id=card_of[draft_card_id],
                kind=kind,
                made_at=made_at,
                seen_at=max(candidates) if candidates else None,
                pack=tuple(card_of[pk] for pk in contents if pk in card_of) if include_packs else None,
            )
        )
    return {s.pk: out.get(s.pk, []) for s in seats}
