"""What an event's backup (draftsite.backup) leaves out of push notifications, and why."""

from __future__ import annotations

from push.models import Announcement, EventPush, PushSent

LEFT_OUT = {
    EventPush: "notification choices belong to the players' browsers, which a restored site must subscribe anew",
    PushSent: "what was already sent only matters while the event runs",
    Announcement: "announcements were pushed as they were made; a restored event has no one to tell again",
}
