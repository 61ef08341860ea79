"""A seat's picks as MTGO's draft-log text (what MTGO saves and log viewers read), plain Python.

    Event #: 12-1
    Time:    12/2/2026 11:00:00 PM
    Players:
        Alice
    --> Bob

    ------ ISD ------␠

    Pack 1 pick 1:
        Moon Heron
    --> Delver of Secrets

Card names are the clients' (a DFC by its front face). Without the packs (a player's own log
before decklists are published) each pick lists only the card taken. (``␠`` above marks the space
MTGO writes after the round header.)

Byte for byte in shape as MTGO writes it (tests/decks/fixtures/real/README.md): Windows line
ends, ``Time:`` and four spaces, the date and time unpadded (``2/6/2026 8:14:11 PM``), and a
space after each round's ``------ SET ------`` header.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class LoggedPick:
    round: int
    pick: int
    taken: str
    pack: tuple[str, ...] | None = None  # every card the pack held, the taken one among them


def mtgo_time(moment: dt.datetime) -> str:
    """MTGO's US-style time: month/day/year and a 12-hour clock, no zero padding of the month,
    day or hour (``2/6/2026 8:14:11 PM``)."""
    hour = moment.hour % 12 or 12
    return f"{moment.month}/{moment.day}/{moment.year} {hour}:{moment:%M:%S} {'AM' if moment.hour < 12 else 'PM'}"


def mtgo_draft_log(
    *,
    event_id: str,
    started: dt.datetime | None,
    players: Sequence[str],
    me: int,
    round_labels: Sequence[str],
    picks: Sequence[LoggedPick],
) -> str:
    lines = [
        f"Event #: {event_id}",
        f"Time:    {mtgo_time(started) if started else ''}",
        "Players:",
    ]
    lines += [("--> " if i == me else "    ") + name for i, name in enumerate(players)]
    lines.append("")
    current = None
    for p in picks:
        if p.round != current:
            current = p.round
            label = round_labels[p.round - 1] if 0 < p.round <= len(round_labels) else "CUBE"
            lines += [f"------ {label} ------ ", ""]
        lines.append(f"Pack {p.round} pick {p.pick}:")
        if p.pack is None:
            lines.append(f"--> {p.taken}")
        else:
            marked = False
            for name in p.pack:
                # One arrow even if the pack held two copies of the card taken.
                mine = name == p.taken and not marked
                marked = marked or mine
                lines.append(("--> " if mine else "    ") + name)
        lines.append("")
    return "\r\n".join(lines) + "\r\n"
