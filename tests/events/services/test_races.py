"""Races of the event staff: two requests at once never leave an event without an organiser,
nor make two people staff through one invitation (threads, real transactions)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from drafts import services
from events import services as event_services
from tests.factories import UserFactory
from tests.races import codes, race

# serialized_rollback: these tests commit for real, and the seed catalogue must come back.
pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_two_organisers_removing_each_other_at_once_leave_one_organiser(organiser, cube_names, django_user_model):
    from events.models import EventStaff, StaffRole

    event = services.create_event(
        name="Race", date=timezone.localdate(), created_by=organiser, draft_format="cube", cube_list=cube_names
    )
    other = UserFactory(username="org2")
    event_services.add_event_staff(event_id=event.pk, user=other, role=StaffRole.ORGANISER, actor=organiser)
    mine = EventStaff.objects.get(event=event, user=organiser)
    theirs = EventStaff.objects.get(event=event, user=other)
    results = race(
        lambda: event_services.remove_event_staff(event_id=event.pk, staff_id=theirs.pk, actor=organiser),
        lambda: event_services.remove_event_staff(event_id=event.pk, staff_id=mine.pk, actor=other),
    )
    assert EventStaff.objects.filter(event=event, role=StaffRole.ORGANISER).count() == 1
    assert sorted(type(r).__name__ if r is not None else "ok" for r in results) in (
        ["ForbiddenError", "ok"],
        ["ConflictError", "ok"],
    )


def test_one_invitation_accepted_by_two_people_at_once_makes_one_of_them_staff(
    organiser, cube_names, django_user_model
):
    from events.models import EventStaff

    event = services.create_event(
        name="Race", date=timezone.localdate(), created_by=organiser, draft_format="cube", cube_list=cube_names
    )
    invitation = event_services.invite_staff(event_id=event.pk, role="judge", actor=organiser)
    ann = UserFactory(username="ann")
    bob = UserFactory(username="bob")
    results = race(
        lambda: event_services.accept_staff_invitation(token=invitation.token, user=ann),
        lambda: event_services.accept_staff_invitation(token=invitation.token, user=bob),
    )
    assert codes(results) == ["invitation_used", "ok"]
    assert EventStaff.objects.filter(event=event, role="judge").count() == 1
