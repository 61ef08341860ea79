"""The event API's PATCH (/api/events/<id>/) edits an event through the events app's settings
service, which logs and notifies. Left here when the staff tests moved to tests/events: the event
list and detail API's tests move with those modules."""

from __future__ import annotations

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from drafts import services
from events.models import EventLogEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organiser, cube_names):
    return services.create_event(
        name="Thursday cube", date=timezone.localdate(), created_by=organiser, draft_format="cube", cube_list=cube_names
    )


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_event_patch_goes_through_the_service_logs_and_tells_live_pages(
    event, organiser, django_capture_on_commit_callbacks, monkeypatch
):
    from events import live

    told = []
    monkeypatch.setattr(live, "notify_event", lambda event_id: told.append(event_id))
    with django_capture_on_commit_callbacks(execute=True):
        response = api(organiser).patch(
            f"/api/events/{event.pk}/", {"decklists_published": True, "deck_building_minutes": 30}, format="json"
        )
    assert response.status_code == 200 and response.json()["decklists_published"] is True
    entry = EventLogEntry.objects.get(event=event, action="event_updated")
    assert entry.actor == organiser
    assert entry.details["changes"] == {"decklists_published": [False, True], "deck_building_minutes": [25, 30]}
    assert told == [event.pk]
    # Nothing changed: nothing logged.
    api(organiser).patch(f"/api/events/{event.pk}/", {"decklists_published": True}, format="json")
    assert EventLogEntry.objects.filter(event=event, action="event_updated").count() == 1
