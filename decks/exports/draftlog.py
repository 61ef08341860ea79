"""A seat's picks as MTGO's draft-log text (what MTGO saves and log viewers read), plain Python.

    Event #: 12-1
    Time:    12/02/2026 11:00:00 PM
    Players:
        Alice
    --> Bob

    ------ ISD ------

    Pack 1 pick 1:
        Moon Heron
    --> Delver of Secrets

Card names are the clients' (a DFC by its front face). Without the packs (a player's own log
before decklists are published) each pick lists only the card taken.
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
        f"Time:    {started.strftime('%m/%d/%Y %I:%M:%S %p') if started else ''}",
        "Players:",
    ]
    lines += [("--> " if i == me else "    ") + name for i, name in enumerate(players)]
    lines.append("")
    current = None
    for p in picks:
        if p.round != current:
            current = p.round
            label = round_labels[p.round - 1] if 0 < p.round <= len(round_labels) else "CUBE"
            lines += [f"------ {label} ------", ""]
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
    return "\n".join(lines) + "\n"
