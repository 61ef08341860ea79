"""The players' side of an event, as accounts holds it: the name the site shows for an account,
who seating takes (check-in), the event page's check-in and joining parts, and joining through
the event's link (capacity, waitlist). ``AccountsConfig.ready`` registers it in
``events.extensions``: the events app and the draft engine read it there and import no accounts.
"""

from __future__ import annotations

import datetime as dt

from accounts import selectors
from accounts.services import joining
from events.extensions import Joined, Players
from events.models import Registration


def event_page(event_id: int, user, registration: Registration | None) -> dict:
    return {
        "check_in": selectors.check_in_state(event_id, registration),
        "joining": selectors.joining_state(event_id, user) if registration is None else None,
    }


def join_link_token(event_id: int) -> str | None:
    link = selectors.join_link_of(event_id)
    return None if link is None else link.token


def join(event_id: int, user, now: dt.datetime) -> Joined:
    """Through the join service, as the event's join link page: its capacity, deadline and
    waitlist hold for the API too (issue 28)."""
    joined = joining.self_register(event_id=event_id, user=user, now=now)
    if joined.status == joining.WAITLISTED:
        return Joined(None, selectors.waitlist_position(event_id, user))
    return Joined(joined.registration)


PLAYERS = Players(
    display_name=selectors.display_name,
    seatable_registration_ids=selectors.seatable_registration_ids,
    join_link_token=join_link_token,
    event_page=event_page,
    join=join,
)
