"""What an event backup (draftsite/backup.py) holds of what every event has: the event itself,
its staff and its registered players (the apps above add their sections: drafts' pods...)."""

from draftsite.backup import EVENT, USER, EventRoot, Section
from events.boosters import COLLATION_VERSION_UNBALANCED
from events.models import Event, EventLogEntry, EventStaff, Registration, StaffInvitation

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
]

LEFT_OUT = {
    StaffInvitation: "a one-use link for this site only; the organiser invites again after a move",
    EventLogEntry: "not in the format so far (the event's settings and staff changes)",
}
