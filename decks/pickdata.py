"""An event's anonymised pick data (17lands' layout, :mod:`decks.exports.pickdata`).

Only the picks of players who opted in (``Registration.share_pick_data``), only from pods whose
draft is over, and only once the event's decklists are published: before that the picks are
hidden information (R16). Each draft gets a random id; no name, account or seat number is
written, and rows are ordered by that random id.
"""

from __future__ import annotations

import random
import secrets

from django.utils.translation import gettext

from cards.models import Printing
from decks import error_codes, exporting, picks
from decks.exports.pickdata import Draft, SeenPick, write_csv
from decks.selectors import POOL_STATES
from drafts.models import Seat
from draftsite.errors import ConflictError
from events.models import DraftFormat, Event

EVENT_TYPES = {DraftFormat.BOOSTER: "TournamentDraft", DraftFormat.CUBE: "TournamentCubeDraft"}


def _set_card_ids(event: Event) -> set[int]:
    if event.draft_format == DraftFormat.CUBE:
        return set(event.cube_card_ids or [])
    return set(
        Printing.objects.filter(card_set__code__in=event.set_codes or [], in_boosters=True).values_list(
            "card_id", flat=True
        )
    )


def event_pick_data(event: Event, *, rng: random.Random | None = None) -> str:
    """The CSV; ``rng`` makes the draft ids reproducible in tests (default: ``secrets``)."""
    if not event.decklists_published:
        raise ConflictError(
            error_codes.DECKLISTS_NOT_PUBLISHED,
            gettext("Pick data can be downloaded once the event's decklists are published."),
        )
    seats = list(
        Seat.objects.filter(
            pod__event=event, pod__state__in=POOL_STATES, registration__share_pick_data=True
        ).select_related("pod")
    )
    by_seat = picks.picks_of(seats, include_packs=True)
    set_ids = _set_card_ids(event)
    ids = set_ids | {pk for rows in by_seat.values() for r in rows for pk in (r.card_id, *(r.pack or ()))}
    names = exporting.client_names(ids)

    def draft_id() -> str:
        return f"{rng.getrandbits(128):032x}" if rng is not None else secrets.token_hex(16)

    drafts = [
        Draft(
            draft_id=draft_id(),
            # To the hour: the pod's start, not a time that singles out a player.
            draft_time=seat.pod.started_at.strftime("%Y-%m-%d %H:00:00") if seat.pod.started_at else "",
            picks=[
                SeenPick(r.round, r.pick, names[r.card_id], tuple(names[pk] for pk in r.pack or ()))
                for r in by_seat[seat.pk]
            ],
        )
        for seat in seats
    ]
    expansion = "/".join(dict.fromkeys(event.set_codes or [])) or "CUBE"  # one code per round
    return write_csv(
        expansion=expansion,
        event_type=EVENT_TYPES.get(event.draft_format, "TournamentDraft"),
        drafts=drafts,
        set_cards=[names[pk] for pk in set_ids if pk in names],
    )
