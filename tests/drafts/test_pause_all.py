"""The dashboard's "Pause all" and "Resume all" (issue 27), and its per-pod Pause / Resume:
the services, the page forms and the API."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from drafts import error_codes, services
from drafts.models import Pack, PodLogEntry, PodState
from draftsite.errors import ConflictError, ForbiddenError
from events import services as event_services
from events.access import SYSTEM
from tests.drafts.conftest import seconds
from tests.factories import UserFactory


@pytest.fixture
def start():
    """Now, read when the test starts: the pages settle pods at the real time, so a pod started when
    the module was imported (minutes earlier in a long parallel run) may have finished its draft."""
    return timezone.now()


def make_two_pods(organiser, cube_names, start):
    """An event with two 8-seat pods, both started at `start`."""
    event = services.create_event(
        name="Two pods", date=start.date(), created_by=organiser, draft_format="cube", cube_list=cube_names
    )
    regs = [
        event_services.register_player(event_id=event.pk, user=UserFactory(username=f"q{i}"), actor=SYSTEM)
        for i in range(16)
    ]
    pods = services.seat_players(
        event_id=event.pk, seed=3, pods=[[r.pk for r in regs[:8]], [r.pk for r in regs[8:]]], actor=SYSTEM
    )
    for pod in pods:
        services.start_pod(pod_id=pod.pk, actor=organiser, now=start)
    return event, pods


@pytest.fixture
def event_with_two_pods(organiser, cube_names, start):
    return make_two_pods(organiser, cube_names, start)


def states(pods):
    for pod in pods:
        pod.refresh_from_db()
    return [pod.state for pod in pods]


def test_pause_all_stops_every_running_pods_clocks_and_resume_all_gives_each_its_time_back(
    event_with_two_pods, organiser, start
):
    event, pods = event_with_two_pods
    paused = services.pause_all_pods(event_id=event.pk, actor=organiser, now=start + seconds(10))
    assert sorted(paused) == sorted(p.pk for p in pods) and states(pods) == [PodState.PAUSED] * 2
    assert not Pack.objects.filter(pod__in=pods, holder__isnull=False, deadline__isnull=False).exists()
    assert PodLogEntry.objects.filter(pod__in=pods, action="pause", actor=organiser).count() == 2
    services.resume_all_pods(event_id=event.pk, actor=organiser, now=start + seconds(500))
    assert states(pods) == [PodState.DRAFTING] * 2
    # Each clock got back exactly what it had left when paused (the first pick's timer, minus 10 s).
    first_pick = {p.deadline - (start + seconds(500)) for p in Pack.objects.filter(pod__in=pods, holder__isnull=False)}
    assert len(first_pick) == 1


def test_pause_all_leaves_a_paused_pod_as_it_is_and_says_when_nothing_runs(event_with_two_pods, organiser, start):
    event, (first, second) = event_with_two_pods
    services.pause_pod(pod_id=first.pk, actor=organiser, now=start + seconds(5))
    assert services.pause_all_pods(event_id=event.pk, actor=organiser, now=start + seconds(6)) == [second.pk]
    assert PodLogEntry.objects.filter(pod=first, action="pause").count() == 1
    with pytest.raises(ConflictError) as nothing:
        services.pause_all_pods(event_id=event.pk, actor=organiser, now=start + seconds(7))
    assert nothing.value.code == error_codes.NO_RUNNING_POD
    assert services.resume_all_pods(event_id=event.pk, actor=organiser, now=start + seconds(8)) == sorted(
        [first.pk, second.pk]
    )
    with pytest.raises(ConflictError) as none_paused:
        services.resume_all_pods(event_id=event.pk, actor=organiser, now=start + seconds(9))
    assert none_paused.value.code == error_codes.NO_PAUSED_POD


def test_only_the_organiser_pauses_every_pod(event_with_two_pods, start):
    event, pods = event_with_two_pods
    with pytest.raises(ForbiddenError):
        services.pause_all_pods(event_id=event.pk, actor=UserFactory(username="stranger"), now=start + seconds(1))
    assert states(pods) == [PodState.DRAFTING] * 2


def test_the_dashboard_pauses_and_resumes_every_pod_and_each_pod(event_with_two_pods, organiser):
    event, pods = event_with_two_pods
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/events/{event.pk}/dashboard/").content.decode()
    assert "Pause all running pods" in page and "Resume all paused pods" in page
    # Each row has both forms; the one the state does not allow is hidden (dashboard.js flips them).
    assert f'action="/events/pods/{pods[0].pk}/control/pause/" class="inline" data-when="running" data-confirm' in page
    assert f'action="/events/pods/{pods[0].pk}/control/resume/" class="inline" data-when="paused" hidden' in page
    # The no-script path: a confirmation page first, then the act.
    asked = client.post(f"/events/{event.pk}/pods/pause/")
    assert asked.status_code == 200 and states(pods) == [PodState.DRAFTING] * 2
    done = client.post(f"/events/{event.pk}/pods/pause/", {"confirmed": "yes"}, follow=True)
    assert states(pods) == [PodState.PAUSED] * 2
    assert "Every running pod is paused." in done.content.decode()
    again = client.post(f"/events/{event.pk}/pods/pause/", {"confirmed": "yes"}, follow=True)
    assert "No pod of this event is running." in again.content.decode()
    client.post(
        f"/events/pods/{pods[1].pk}/control/resume/",
        {"confirmed": "yes", "next": f"/events/{event.pk}/dashboard/"},
    )
    assert states(pods) == [PodState.PAUSED, PodState.DRAFTING]
    assert client.post(f"/events/{event.pk}/pods/nonsense/", {"confirmed": "yes"}).status_code == 404


def test_a_judge_sees_no_control_and_cannot_post_one(event_with_two_pods, organiser):
    event, pods = event_with_two_pods
    judge = UserFactory(username="judge-x")
    event_services.add_event_staff(event_id=event.pk, user=judge, role="judge", actor=organiser)
    client = Client()
    client.force_login(judge)
    page = client.get(f"/events/{event.pk}/dashboard/").content.decode()
    assert "Pause all running pods" not in page and "/control/pause/" not in page
    assert client.post(f"/events/{event.pk}/pods/pause/", {"confirmed": "yes"}).status_code == 403
    assert states(pods) == [PodState.DRAFTING] * 2


def test_the_api_pauses_and_resumes_every_pod(event_with_two_pods, organiser):
    event, pods = event_with_two_pods
    api = APIClient()
    api.force_authenticate(organiser)
    paused = api.post(f"/api/events/{event.pk}/pods/pause/")
    assert paused.status_code == 200 and sorted(paused.json()["pods"]) == sorted(p.pk for p in pods)
    refused = api.post(f"/api/events/{event.pk}/pods/pause/")
    assert refused.status_code == 409 and refused.json()["errors"][0]["code"] == error_codes.NO_RUNNING_POD
    resumed = api.post(f"/api/events/{event.pk}/pods/resume/")
    assert resumed.status_code == 200 and states(pods) == [PodState.DRAFTING] * 2
    stranger = APIClient()
    stranger.force_authenticate(UserFactory(username="nobody"))
    assert stranger.post(f"/api/events/{event.pk}/pods/pause/").status_code == 403


@pytest.mark.django_db(transaction=True)
def test_two_organisers_pausing_every_pod_at_once_pause_each_pod_once(organiser, cube_names):
    event, pods = make_two_pods(organiser, cube_names, timezone.now())
    outcomes, barrier = [], threading.Barrier(2)

    def pause():
        barrier.wait()
        try:
            outcomes.append(services.pause_all_pods(event_id=event.pk, actor=organiser))
        except ConflictError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=pause) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # One pauses both pods; the other, locked out until then, finds nothing left to pause.
    assert sorted(outcomes, key=str) == sorted([[p.pk for p in pods], error_codes.NO_RUNNING_POD], key=str)
    assert PodLogEntry.objects.filter(pod__in=pods, action="pause").count() == 2
