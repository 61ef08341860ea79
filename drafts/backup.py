"""What an event backup (draftsite/backup.py) holds of the draft: the event, its staff and
players, pods, seats, packs, the cards opened in them, picks and the pod log."""

from drafts.core.collation import COLLATION_VERSION_UNBALANCED
from drafts.models import (
    DraftCard,
    Event,
    EventLogEntry,
    EventStaff,
    Pack,
    Pick,
    Pod,
    PodLogEntry,
    Registration,
    Seat,
    StaffInvitation,
)
from draftsite.backup import CARD, EVENT, PRINTING, USER, EventRoot, IdList, Section

EVENT_ROOT = EventRoot(
    Event,
    links={"created_by": USER},
    card_lists=("cube_card_ids",),
    # A file written before events pinned their collation: the event opened the packs of then.
    absent={"collation_version": COLLATION_VERSION_UNBALANCED},
)

SECTIONS = [
    Section("staff", EventStaff, "event", {"event": EVENT, "user": USER}),
    Section("registrations", Registration, "event", {"event": EVENT, "user": USER}),
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

LEFT_OUT = {
    StaffInvitation: "a one-use link for this site only; the organiser invites again after a move",
    EventLogEntry: "not in the format so far (the event's settings and staff changes)",
}
