"""The called paper draft over HTTP and websockets: the API, the pages, the open table (R15),
the follow link, printable seating, the dashboard, and deck registration afterwards."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from drafts.models import PodLogEntry, Seat
from events.access import SYSTEM
from paper import services
from paper.models import CallPause, PostedDfc
from tests.paper.conftest import T0

pytestmark = pytest.mark.django_db


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def players(pod):
    return [
        s.registration.user
        for s in Seat.objects.filter(pod=pod).select_related("registration__user").order_by("position")
    ]


def post_json(client, url, body=None):
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def codes(response):
    return [e["code"] for e in response.json()["errors"]]


def test_a_late_joining_page_shows_the_current_call(paper, organiser):
    _, (pod, _) = paper
    # Called 100 s ago: picks 1 and 2 (40 s each) are over, pick 3 (35 s) has about 15 s left.
    services.start_call(pod_id=pod.pk, actor=organiser, now=timezone.now() - dt.timedelta(seconds=100))
    me = players(pod)[3]
    body = client_for(me).get(f"/api/paper/pods/{pod.pk}/call/").json()
    assert (body["call"]["phase"], body["call"]["pick"], body["call"]["direction"]) == ("pick", 3, "left")
    assert 13_000 < body["call"]["remaining_ms"] <= 15_000
    server = dt.datetime.fromisoformat(body["server_time"])
    assert abs((server - timezone.now()).total_seconds()) < 5
    ends = dt.datetime.fromisoformat(body["call"]["ends_at"])
    assert abs(ends - server - dt.timedelta(milliseconds=body["call"]["remaining_ms"])) < dt.timedelta(milliseconds=1)
    # The phone page and the caller page show pick 3 from their first byte (no script needed).
    page = client_for(me).get(reverse("paper:pod", args=[pod.pk])).content.decode()
    assert 'id="call-pick" aria-live="polite">3<' in page
    caller = client_for(organiser).get(reverse("paper:caller", args=[pod.pk])).content.decode()
    assert 'id="call-pick" aria-live="polite">3<' in caller and "Server time" in caller


def test_a_player_cannot_pause_403_and_nothing_is_stored(paper, organiser, judge):
    _, (pod, _) = paper
    services.start_call(pod_id=pod.pk, actor=organiser)
    player = client_for(players(pod)[0])
    for action in ("pause", "resume", "repeat-pick", "skip-to-review", "restart-round"):
        response = post_json(player, f"/api/paper/pods/{pod.pk}/{action}/", {"reason": "x" * 500})  # bad body too
        assert response.status_code == 403 and codes(response) == ["not_event_staff"], action
    assert post_json(player, f"/api/paper/pods/{pod.pk}/start/").status_code == 403
    page = player.post(reverse("paper:control", args=[pod.pk, "pause"]), {"reason": "break"})
    assert page.status_code == 403
    assert not CallPause.objects.exists()
    # A judge may: with a reason, logged; without one, a 400 with a stable code.
    judge_client = client_for(judge)
    response = post_json(judge_client, f"/api/paper/pods/{pod.pk}/pause/", {})
    assert response.status_code == 400 and codes(response) == ["reason_required"]
    response = post_json(judge_client, f"/api/paper/pods/{pod.pk}/pause/", {"reason": "Card on the floor"})
    assert response.status_code == 200 and response.json()["call"]["paused"]
    assert response.json()["pauses"][0]["reason"] == "Card on the floor"
    assert PodLogEntry.objects.filter(pod=pod, action="call_pause", actor=judge).count() == 1
    # The players' view of the pause: that it is paused, not the judge's reason.
    seen = player.get(f"/api/paper/pods/{pod.pk}/call/").json()
    assert seen["call"]["paused"] and "Card on the floor" not in json.dumps(seen)
    assert "log" not in seen
    staff_view = judge_client.get(f"/api/paper/pods/{pod.pk}/call/").json()
    assert [(e["text"], e["reason"], e["by"]) for e in staff_view["log"]] == [
        ("Paused", "Card on the floor", "judge"),
        ("Call started", "", "org"),
    ]
    response = post_json(judge_client, f"/api/paper/pods/{pod.pk}/pause/", {"reason": "again"})
    assert response.status_code == 409 and codes(response) == ["call_paused"]


def test_the_digital_pod_controls_refuse_a_paper_pod_with_a_stable_code(paper, organiser):
    _, (pod, _) = paper
    for action in ("start", "pause", "resume", "advance"):
        response = post_json(client_for(organiser), f"/api/pods/{pod.pk}/{action}/")
        assert response.status_code == 409 and codes(response) == ["paper_pod"], action
    page = client_for(organiser).post(
        reverse("drafts:pod-control", args=[pod.pk, "start"]), {"confirmed": "yes"}, follow=True
    )
    assert "call it from its caller page" in page.content.decode()


def test_paper_routes_on_a_digital_pod_are_404(paper, organiser, judge):
    from drafts import services as draft_services
    from events import services as event_services

    event = draft_services.create_event(name="Digital", date=T0.date(), created_by=organiser, set_codes=["ISD"])
    regs = [event_services.register_player(event_id=event.pk, name=f"g{i}", actor=SYSTEM) for i in range(2)]
    (digital,) = draft_services.seat_players(event_id=event.pk, seed=1, pods=[[r.pk for r in regs]], actor=SYSTEM)
    response = client_for(organiser).get(f"/api/paper/pods/{digital.pk}/call/")
    assert response.status_code == 404 and codes(response) == ["unknown_paper_pod"]
    assert client_for(organiser).get(reverse("paper:caller", args=[digital.pk])).status_code == 404


def test_flights_over_the_api(paper, organiser, judge):
    event, (pod, other) = paper
    assert post_json(client_for(judge), f"/api/paper/events/{event.pk}/flights/", {"pods": [pod.pk]}).status_code == 403
    response = post_json(
        client_for(organiser),
        f"/api/paper/events/{event.pk}/flights/",
        {"pods": [pod.pk, other.pk], "delay_seconds": 5},
    )
    assert response.status_code == 201 and response.json()["pods"] == sorted([pod.pk, other.pk])
    flight = response.json()["id"]
    response = post_json(client_for(judge), f"/api/paper/flights/{flight}/pause/", {"reason": "Lunch"})
    assert response.status_code == 200 and sorted(response.json()["pods"]) == sorted([pod.pk, other.pk])
    assert post_json(client_for(players(pod)[0]), f"/api/paper/flights/{flight}/resume/").status_code == 403
    assert post_json(client_for(judge), f"/api/paper/flights/{flight}/resume/").status_code == 200
    response = post_json(client_for(organiser), f"/api/paper/events/{event.pk}/flights/", {"pods": []})
    assert response.status_code == 400


def test_players_post_dfcs_to_their_pods_table_r15(paper, organiser):
    _, (pod, other) = paper
    me, mate = players(pod)[:2]
    stranger = players(other)[0]
    response = post_json(client_for(me), f"/api/paper/pods/{pod.pk}/dfcs/", {"card": "Gatstaf Shepherd"})
    assert response.status_code == 201
    # R16: a single-faced card is not open information: refused, nothing stored.
    response = post_json(client_for(me), f"/api/paper/pods/{pod.pk}/dfcs/", {"card": "Abattoir Ghoul"})
    assert response.status_code == 400 and codes(response) == ["not_a_dfc"]
    response = post_json(client_for(me), f"/api/paper/pods/{pod.pk}/dfcs/", {"card": "Gatstaf Sheperd"})
    assert response.status_code == 400 and codes(response) == ["unknown_card"]
    assert PostedDfc.objects.count() == 1
    # Pod-mates and staff see it with both faces (R14); another pod's player does not.
    table = client_for(mate).get(f"/api/paper/pods/{pod.pk}/dfcs/").json()
    mine = next(seat for seat in table["seats"] if seat["cards"])
    assert [f["name"] for f in mine["cards"][0]["faces"]] == ["Gatstaf Shepherd", "Gatstaf Howler"]
    assert client_for(stranger).get(f"/api/paper/pods/{pod.pk}/dfcs/").status_code == 403
    assert (
        post_json(client_for(stranger), f"/api/paper/pods/{pod.pk}/dfcs/", {"card": "Delver of Secrets"}).status_code
        == 403
    )
    assert "Gatstaf Howler" in client_for(organiser).get(reverse("paper:table", args=[pod.pk])).content.decode()
    # Posting is never required, and a player may take a card back; only their own.
    posted = PostedDfc.objects.get()
    assert client_for(mate).delete(f"/api/paper/dfcs/{posted.pk}/").status_code == 403
    assert client_for(me).delete(f"/api/paper/dfcs/{posted.pk}/").status_code == 204
    assert not PostedDfc.objects.exists()
    # The page form does the same.
    response = client_for(me).post(
        reverse("paper:post-dfc", args=[pod.pk]), {"card": "Delver of Secrets", "count": "2"}
    )
    assert response.status_code == 302 and PostedDfc.objects.get().count == 2


def test_the_follow_link_needs_the_organisers_consent_and_can_be_revoked(paper, organiser):
    event, (pod, _) = paper
    services.start_call(pod_id=pod.pk, actor=organiser)
    token = pod.spectator_token
    anonymous = Client()
    assert anonymous.get(f"/api/paper/follow/{token}/").status_code == 404
    assert anonymous.get(reverse("paper:follow", args=[token])).status_code == 404
    response = client_for(organiser).put(
        f"/api/paper/events/{event.pk}/followers/", data=json.dumps({"allowed": True}), content_type="application/json"
    )
    assert response.status_code == 200
    body = anonymous.get(f"/api/paper/follow/{token}/").json()
    assert body["call"]["phase"] == "pick" and len(body["seats"]) == 8 and "pauses" in body
    page = anonymous.get(reverse("paper:follow", args=[token]))
    assert page.status_code == 200 and "Open table" in page.content.decode()
    # The room page links to it; following the link works.
    room = client_for(organiser).get(reverse("paper:room", args=[event.pk])).content.decode()
    link = f"/paper/follow/{token}/"
    assert link in room and anonymous.get(link).status_code == 200
    client_for(organiser).post(reverse("paper:control", args=[pod.pk, "follow-link"]))
    assert anonymous.get(link).status_code == 404
    pod.refresh_from_db()
    assert anonymous.get(f"/paper/follow/{pod.spectator_token}/").status_code == 200
    services.set_followers_allowed(event_id=event.pk, allowed=False, actor=organiser)
    assert anonymous.get(f"/paper/follow/{pod.spectator_token}/").status_code == 404


def test_printable_seating_slips_and_the_wall_list(paper, organiser):
    event, (pod, other) = paper
    wall = client_for(organiser).get(f"/api/paper/events/{event.pk}/seating/").json()["seating"]
    assert len(wall) == 16 and [r["name"] for r in wall] == sorted((r["name"] for r in wall), key=str.casefold)
    first = Seat.objects.select_related("registration").get(pod=other, position=2)
    assert {"name": first.registration.name, "pod": 2, "seat": 3} in wall
    room = client_for(organiser).get(reverse("paper:room", args=[event.pk])).content.decode()
    for name in ("paper:slips", "paper:wall"):
        url = reverse(name, args=[event.pk])
        assert url in room
        page = client_for(organiser).get(url).content.decode()
        assert first.registration.name in page
    slips = client_for(organiser).get(reverse("paper:slips", args=[event.pk])).content.decode()
    assert "Pod 2 · seat 3" in slips and "pass left to seat 4" in slips
    assert client_for(players(pod)[0]).get(reverse("paper:wall", args=[event.pk])).status_code == 403


def test_the_dashboard_shows_paper_pods_who_paused_them_and_why(paper, organiser, judge):
    event, (pod, other) = paper
    services.start_call(pod_id=pod.pk, actor=organiser)
    services.control_pod(pod_id=pod.pk, action="pause", actor=judge, reason="Pack 2 is missing a card")
    panel = client_for(organiser).get(reverse("drafts:dashboard-panel", args=[event.pk])).content.decode()
    assert "Paused by judge: Pack 2 is missing a card" in panel
    assert reverse("paper:caller", args=[pod.pk]) in panel and reverse("paper:caller", args=[other.pk]) in panel
    assert "Not called yet" in panel
    dashboard = client_for(organiser).get(reverse("drafts:dashboard", args=[event.pk])).content.decode()
    assert reverse("paper:room", args=[event.pk]) in dashboard
    # Following the room's caller links works.
    room = client_for(organiser).get(reverse("paper:room", args=[event.pk])).content.decode()
    assert client_for(organiser).get(reverse("paper:caller", args=[other.pk])).status_code == 200
    assert 'id="caller-link-2"' in room


def test_the_caller_page_controls_without_script(paper, organiser, judge):
    _, (pod, _) = paper
    client = client_for(organiser)
    response = client.post(reverse("paper:control", args=[pod.pk, "start"]), {"delay_seconds": "0"}, follow=True)
    assert "is being called" in response.content.decode()
    response = client_for(judge).post(reverse("paper:control", args=[pod.pk, "skip-to-review"]))
    assert response.status_code == 200 and "Please confirm" in response.content.decode()  # confirm first
    response = client_for(judge).post(reverse("paper:control", args=[pod.pk, "skip-to-review"]), {"confirmed": "yes"})
    assert response.status_code == 302
    assert client_for(judge).post(reverse("paper:control", args=[pod.pk, "start"])).status_code == 403


def test_decks_of_a_paper_draft_are_registered_from_a_pasted_list_without_the_pool_check(paper, organiser):
    from decks import services as deck_services

    event, (pod, _) = paper
    event.deck_format = "limited"
    event.save(update_fields=["deck_format"])
    me = players(pod)[0]
    page = client_for(me).get(reverse("decks:my-deck", args=[event.pk])).content.decode()
    assert 'name="decklist"' in page  # the paste form, not "no pool yet"
    main = [
        {"name": "Gatstaf Shepherd", "count": 1},
        {"name": "Abattoir Ghoul", "count": 22},
        {"name": "Island", "count": 17},
    ]
    deck, report = deck_services.register_deck(event_id=event.pk, actor=me, main=main)
    assert not any("pool" in e["code"] for e in report.errors), report.errors
    # The checklist-card checks stay on (R9): a DFC neither sleeved nor represented is flagged.
    assert not deck.valid and any("checklist" in e["code"] or "sleeve" in e["code"] for e in report.errors)
    deck, report = deck_services.register_deck(event_id=event.pk, actor=me, main=main, opaque_sleeves=True)
    assert deck.valid, report.errors


@pytest.mark.parametrize("card", ["99999999999999999999", "0", "a\x00b", "é" * 300, ""])
def test_odd_cards_are_a_clean_400(paper, card):
    _, (pod, _) = paper
    response = post_json(client_for(players(pod)[0]), f"/api/paper/pods/{pod.pk}/dfcs/", {"card": card})
    assert response.status_code == 400
    assert not PostedDfc.objects.exists()


def test_a_player_finds_their_pods_call_from_the_event_page(paper):
    event, (pod, _) = paper
    me = client_for(players(pod)[1])
    page = me.get(reverse("drafts:event-detail", args=[event.pk])).content.decode()
    link = reverse("paper:pod", args=[pod.pk])
    assert f'href="{link}" id="my-pod-call"' in page
    assert me.get(link).status_code == 200


def test_an_organiser_creates_a_paper_draft_from_the_event_form(organiser):
    from events.models import Event

    response = client_for(organiser).post(
        reverse("drafts:event-create"),
        {
            "name": "Paper Friday",
            "date": "2026-12-04",
            "enforcement_level": "regular",
            "draft_format": "paper",
            "set_codes": "ISD",
            "pack_size": "14",
            "deck_building_minutes": "30",
            "pick_timer": "on",
        },
    )
    event = Event.objects.get(name="Paper Friday")
    assert response.status_code == 302
    assert (event.draft_format, event.set_codes, event.pack_size) == ("paper", ["ISD"] * 3, 14)
    response = client_for(organiser).post(
        reverse("drafts:event-create"),
        {
            "name": "No set",
            "date": "2026-12-04",
            "enforcement_level": "regular",
            "draft_format": "paper",
            "pack_size": "14",
            "deck_building_minutes": "30",
        },
    )
    assert response.status_code == 200 and not Event.objects.filter(name="No set").exists()


def test_my_draft_on_the_events_page_opens_the_pods_call_not_the_online_seat(paper):
    """Issue 27: on /events/ a paper event's "My draft" went to the online seat page, which
    waits for a pack that never comes. Follow the link: it is the pod's call."""
    import re

    _, (pod, _) = paper
    me = client_for(players(pod)[2])
    page = me.get(reverse("drafts:event-list")).content.decode()
    links = re.findall(r'<a class="button primary" href="([^"]+)">My draft', page)
    assert links == [reverse("paper:pod", args=[pod.pk])]
    followed = me.get(links[0])
    assert followed.status_code == 200
    body = followed.content.decode()
    assert 'id="call-pick"' in body and "Waiting for the next pack" not in body
    # The pod's open board links "My draft" to the call as well.
    board = me.get(reverse("drafts:pod-board", args=[pod.pk]))
    if board.status_code == 200:
        mine = re.findall(r'<a href="([^"]+)">My draft</a>', board.content.decode())
        assert mine == [reverse("paper:pod", args=[pod.pk])]
        assert me.get(mine[0]).status_code == 200


def test_resume_on_one_pods_caller_page_resumes_its_paused_flight(paper, organiser, judge):
    """Issue 27: the flight was paused, Resume on pod 1's caller page left pod 2 paused (the
    flight split). Resuming a pod of a paused flight ends the flight's pause on every pod."""
    event, (pod, other) = paper
    flight = services.start_flight(event_id=event.pk, pod_ids=[pod.pk, other.pk], actor=organiser, now=T0)
    services.control_flight(
        flight_id=flight.pk, action="pause", actor=judge, reason="Fire alarm", now=T0 + dt.timedelta(seconds=10)
    )
    caller = client_for(judge).get(reverse("paper:caller", args=[pod.pk])).content.decode()
    assert "every pod of flight 1" in caller  # the page says what its Resume does
    response = client_for(judge).post(reverse("paper:control", args=[pod.pk, "resume"]))
    assert response.status_code == 302
    assert not CallPause.objects.filter(ended_at__isnull=True).exists()
    calls = [client_for(judge).get(f"/api/paper/pods/{p.pk}/call/").json()["call"] for p in (pod, other)]
    assert [c["paused"] for c in calls] == [False, False]
    assert calls[0]["pick"] == calls[1]["pick"]
    assert sorted(PodLogEntry.objects.filter(action="call_resume").values_list("pod_id", flat=True)) == sorted(
        [pod.pk, other.pk]
    )
