"""events.access: one look-up of an event with the caller's permission, used by the API, the
pages and the services alike (a system caller passes no user and is trusted). Pods' and seats'
look-ups are the draft engine's (tests/drafts/test_access.py)."""

from __future__ import annotations

import pytest

from drafts import error_codes
from draftsite.errors import ForbiddenError, NotFoundError
from events import access as event_access
from events import error_codes as event_error_codes
from events.access import Permission
from events.models import DraftFormat, StaffRole
from tests.factories import EventFactory, EventStaffFactory, UserFactory
from tests.shared_fixtures import make_pod

pytestmark = pytest.mark.django_db


def test_a_paper_event_is_looked_up_as_one():
    booster = EventFactory(draft_format=DraftFormat.BOOSTER)
    with pytest.raises(NotFoundError) as error:
        event_access.access_event(booster.pk, draft_format=DraftFormat.PAPER)
    assert error.value.code == error_codes.UNKNOWN_EVENT
    assert error.value.message == f"No paper draft event has id {booster.pk}."
    paper = EventFactory(draft_format=DraftFormat.PAPER)
    assert event_access.access_event(paper.pk, draft_format=DraftFormat.PAPER) == paper


def test_event_permissions(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, start=False)
    event = pod.event
    judge = EventStaffFactory(event=event, role=StaffRole.JUDGE).user
    outsider = UserFactory()
    assert event_access.access_event(event.pk, organiser, permission=Permission.ORGANISER) == event
    assert event_access.access_event(event.pk, judge, permission=Permission.STAFF) == event
    assert event_access.access_event(event.pk, players[0], permission=Permission.MEMBER) == event
    for user, permission in (
        (judge, Permission.ORGANISER),
        (players[0], Permission.STAFF),
        (outsider, Permission.MEMBER),
    ):
        with pytest.raises(ForbiddenError) as error:
            event_access.access_event(event.pk, user, permission=permission)
        assert error.value.code == event_error_codes.NOT_EVENT_STAFF
    assert (
        event_access.access_event(event.pk, event_access.SYSTEM, permission=Permission.ORGANISER) == event
    )  # the system
    with pytest.raises(ForbiddenError) as error:  # None is nobody, not the system (issue 31)
        event_access.access_event(event.pk, None, permission=Permission.ORGANISER)
    assert error.value.code == event_error_codes.NOT_EVENT_STAFF
    assert event_access.access_event(event.pk) == event  # without a permission: a look-up
    with pytest.raises(ForbiddenError) as error:  # another app keeps its wording, not its own code
        event_access.access_event(event.pk, judge, permission=Permission.ORGANISER, message="No.")
    assert (error.value.code, error.value.message) == (event_error_codes.NOT_EVENT_STAFF, "No.")
    with pytest.raises(ForbiddenError):  # authorize: None is nobody, not the system
        event_access.authorize(None, event, Permission.ORGANISER)
    event_access.authorize(event_access.SYSTEM, event, Permission.ORGANISER)
