import pytest

from events.models import EventStaff, StaffRole
from tests.factories import EventFactory, UserFactory


@pytest.fixture
def organiser(db):
    return UserFactory(username="org", email="org@example.test")


@pytest.fixture
def event(organiser):
    event = EventFactory(name="Friday Draft")
    EventStaff.objects.create(event=event, user=organiser, role=StaffRole.ORGANISER)
    return event
