"""Racing controls (threads, real transactions): two judges pausing the same pod at once leave
one pause and one clean refusal; two organisers starting the same pods get one call."""

from __future__ import annotations

import pytest
from django.utils import timezone

from drafts.models import PodLogEntry
from events import roles
from paper import services
from paper.models import CalledPod, CallPause, Flight
from tests.drafts.services.test_races import codes, race
from tests.paper.conftest import make_paper_event, user

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_two_pauses_at_once_make_one_pause():
    organiser = user("org", roles.ORGANISER)
    event, (pod,) = make_paper_event(organiser, pods=1, per_pod=4)
    services.start_call(pod_id=pod.pk, actor=organiser)

    def pause(reason):
        return lambda: services.control_pod(
            pod_id=pod.pk, action="pause", actor=organiser, reason=reason, now=timezone.now()
        )

    results = race(pause("A card fell"), pause("A pack is missing"))
    assert codes(results) == ["call_paused", "ok"]
    assert CallPause.objects.filter(ended_at__isnull=True).count() == 1
    assert PodLogEntry.objects.filter(action="call_pause").count() == 1


def test_two_flights_started_at_once_call_each_pod_once():
    organiser = user("org", roles.ORGANISER)
    event, pods = make_paper_event(organiser, pods=2, per_pod=2)

    def start():
        return services.start_flight(
            event_id=event.pk, pod_ids=[p.pk for p in pods], actor=organiser, now=timezone.now()
        )

    results = race(start, start)
    assert codes(results) == ["call_already_started", "ok"]
    assert Flight.objects.count() == 1
    assert CalledPod.objects.filter(started_at__isnull=False, flight__isnull=False).count() == 2
