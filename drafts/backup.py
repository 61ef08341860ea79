"""What an event backup (draftsite/backup.py) holds of the draft: pods, seats, packs, the cards
opened in them, picks and the pod log (the event, its staff and players: events.backup)."""

from drafts.models import DraftCard, Pack, Pick, Pod, PodLogEntry, Seat
from draftsite.backup import CARD, EVENT, PRINTING, USER, IdList, Section

SECTIONS = [
    Section("pods", Pod, "event", {"event": EVENT}),
    # Where a draft card is: the pack or the pile that lists it, in order.
    Section(
        "seats",
        Seat,
        "pod__event",
        {"pod": "pods", "registration": "registrations"},
        later_id_lists={"pile_ids": IdList("draft_cards")},
    ),
    Section(
        "packs",
        Pack,
        "pod__event",
        {"pod": "pods", "opener": "seats", "holder": "seats"},
        later_id_lists={"card_ids": IdList("draft_cards")},
    ),
    Section(
        "draft_cards",
        DraftCard,
        "pod__event",
        {"pod": "pods", "card": CARD, "printing": PRINTING, "opened_in": "packs"},
        bulk=True,
    ),
    Section(
        "picks",
        Pick,
        "seat__pod__event",
        {"seat": "seats", "draft_card": "draft_cards", "pack": "packs", "made_by": USER},
        bulk=True,
        id_lists={"pack_contents": IdList("draft_cards")},
    ),
    Section("pod_log", PodLogEntry, "pod__event", {"pod": "pods", "actor": USER}, bulk=True),
]
