"""What an event backup (draftsite/backup.py) holds of sealed events: the settings and seed,
the boosters the site opened (each card with its pack slot), the pools players registered at
the table and the swap (who builds from which pool, confirmations and disputes as each pool's
status). Added in format version 3: older files import with none.

The pool each player builds from is ``decks.SealedPool``, which the decks app's sections carry.
A disputed pool links its judge call (judgecalls/backup.py) since format version 4; in a file
written before, it has none and its status says it was disputed."""

from draftsite.backup import EVENT, USER, Section
from sealed.models import PaperPool, PoolSwap, SealedEvent, SealedPack

SINCE = 3

SECTIONS = [
    Section("sealed_events", SealedEvent, "event", {"event": EVENT, "opened_by": USER}, since=SINCE),
    Section("sealed_packs", SealedPack, "event", {"event": EVENT, "registration": "registrations"}, since=SINCE),
    Section(
        "paper_pools",
        PaperPool,
        "event",
        {"event": EVENT, "registered_by": "registrations", "builder": "registrations", "judge_call": "judge_calls"},
        since=SINCE,
    ),
    Section(
        "pool_swaps",
        PoolSwap,
        "event",
        {"event": EVENT, "actor": USER},
        json_links={"assignments": {"pool": "paper_pools", "from": "registrations", "to": "registrations"}},
        since=SINCE,
    ),
]
