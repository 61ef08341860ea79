"""The README's demo includes a paper draft with two pods in progress that the demo organiser
calls from the browser."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from drafts.demo import create_demo_accounts
from drafts.models import PodState
from events.models import Event
from paper.demo import DEMO_PAUSE_REASON, create_demo_paper_event

pytestmark = pytest.mark.django_db


def test_the_demo_paper_draft_has_two_pods_in_progress_the_organiser_can_call():
    create_demo_accounts()
    first = create_demo_paper_event()
    event = create_demo_paper_event()  # run again: the demo starts over, in the same state
    assert not Event.objects.filter(pk=first.pk).exists()
    assert Event.objects.filter(name=event.name).count() == 1
    pods = list(event.pods.order_by("number"))
    assert len(pods) == 2 and all(p.seats.count() == 8 for p in pods)
    assert all(p.state == PodState.PAUSED for p in pods)
    client = Client()
    client.force_login(get_user_model().objects.get(username="organiser"))
    room = client.get(reverse("drafts:event-detail", args=[event.pk])).content.decode()
    assert reverse("paper:room", args=[event.pk]) in room
    room = client.get(reverse("paper:room", args=[event.pk])).content.decode()
    assert DEMO_PAUSE_REASON in room
    for pod in pods:
        caller_url = reverse("paper:caller", args=[pod.pk])
        assert caller_url in room
        page = client.get(caller_url).content.decode()
        assert 'id="resume-call"' in page and 'id="call-pick" aria-live="polite">1<' in page
    # The README's demo step: Resume on one pod's caller page resumes the flight, both pods together.
    resumed = client.post(f"/api/paper/pods/{pods[0].pk}/resume/", data=json.dumps({}), content_type="application/json")
    assert resumed.status_code == 200
    for pod in pods:
        view = client.get(f"/api/paper/pods/{pod.pk}/call/").json()
        assert (view["call"]["phase"], view["call"]["pick"], view["call"]["paused"]) == ("pick", 1, False)
        assert 33_000 < view["call"]["remaining_ms"] <= 35_000  # 5 s of pick 1 were called before the pause
    # Players follow on their phones, signed in or on the pod's link.
    player = Client()
    player.force_login(get_user_model().objects.get(username="player2"))
    table = player.get(reverse("paper:pod", args=[pods[0].pk])).content.decode()
    assert "Delver of Secrets" in table
    pods[1].refresh_from_db()
    assert Client().get(reverse("paper:follow", args=[pods[1].spectator_token])).status_code == 200


def test_the_demo_command_adds_the_matches_then_the_paper_draft():
    """``load_demo`` (drafts) imports neither app: each registers its part from its ready()."""
    from drafts import extensions
    from matches import demo as matches_demo
    from paper import demo as paper_demo

    assert extensions.demo_parts() == (matches_demo.add_to_demo, paper_demo.add_to_demo)
