"""What an event's live pages hear of a committed change of the event itself: its dashboards a
"changed" signal (they re-read), and a person's open staff pages that their place on the staff
changed. Channels groups (``draftsite.groups``); the draft engine's pod sockets hear a staff
change through what it registers in ``events.extensions`` (``register_staff_listener``).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from draftsite.groups import send_to_group
from events import extensions, permissions

# --- The event's dashboards: a "changed" signal on the channel layer, no data --------------


def event_group(event_id: int) -> str:
    return f"event-{event_id}"


def notify_event(event_id: int) -> None:
    """Tell the event's dashboards that its pods or settings changed (they re-read them)."""
    send_to_group(event_group(event_id), {"type": "event.changed"})


def notify_event_on_commit(event_id: int) -> None:
    """``notify_event`` once the caller's transaction commits (the staff's list, check-in and
    the dashboard follow at once)."""
    transaction.on_commit(lambda: notify_event(event_id))


# --- A person's place on the event's staff changed: their open pages re-check at once ----------
# A seat handed over closes its old player's socket at the change, because the pod's document
# says whose the seat is. Who is staff is in no document, so a removal or a role change is a
# message of its own: the staff sockets of the event's pods hear it through the draft engine's
# listener (``staff:<event id>``), the judge-call queue on the channel layer. It carries whether
# the person still sees everything, decided after the commit, so a socket closes before it makes
# another frame, without a query.


def staff_group(event_id: int) -> str:
    """The channel-layer group of the event's staff pages that are not pod sockets."""
    return f"event-staff-{event_id}"


STAFF_CHANGED = "staff.changed"


def notify_staff_changed(event_id: int, user_id: int) -> None:
    """After the commit: ``user_id``'s staff sockets of the event close unless they still see
    every card (a removed judge; an organiser's role changed to one that does not)."""
    user = get_user_model().objects.filter(pk=user_id).first()
    allowed = user is not None and permissions.sees_everything(user, event_id)
    for listener in extensions.staff_listeners():
        listener(event_id, user_id, allowed)
    send_to_group(staff_group(event_id), {"type": STAFF_CHANGED, "user": user_id, "allowed": allowed})


def notify_staff_changed_on_commit(event_id: int, user_id: int) -> None:
    transaction.on_commit(lambda: notify_staff_changed(event_id, user_id))
