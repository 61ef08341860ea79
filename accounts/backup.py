"""What an event's backup (draftsite.backup) leaves out of the accounts app, and why."""

from __future__ import annotations

from accounts.models import CheckIn, EventCheckIn, JoinLink, WaitlistEntry

LEFT_OUT = {
    JoinLink: "a join link is the running event's door: a restored event opens registration anew with a new link",
    WaitlistEntry: "the waitlist only matters before seating; the registrations it led to are backed up",
    EventCheckIn: "check-in only matters before seating; the seats it led to are backed up",
    CheckIn: "check-in only matters before seating; the seats it led to are backed up",
}
