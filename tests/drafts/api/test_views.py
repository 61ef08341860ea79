"""The draft API: who may do what, stable error codes, and the pick round trip."""

from __future__ import annotations

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from drafts import services
from drafts.models import DraftCard, Pack, Pick, Pod, Seat
from events.access import SYSTEM
from events.models import Event
from tests.drafts import conftest
from tests.factories import EventStaffFactory, UserFactory


def make_pod(*args, **kwargs):
    """A pod started now: API calls enforce clocks against the real time."""
    return conftest.make_pod(*args, now=timezone.now(), **kwargs)


pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def head_cards(seat):
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    return pack, list(DraftCard.objects.in_pack(pack))


def test_organiser_runs_an_event_end_to_end(organiser, players, cube_names):
    org = client_for(organiser)
    response = org.post(
        "/api/events/",
        {"name": "FNM", "date": "2026-11-29", "draft_format": "cube", "cube_list": cube_names, "pick_timer": False},
        format="json",
    )
    assert response.status_code == 201, response.json()
    event_id = response.json()["id"]
    for player in players:
        assert client_for(player).post(f"/api/events/{event_id}/registrations/", {}, format="json").status_code == 201
    again = client_for(players[0]).post(f"/api/events/{event_id}/registrations/", {}, format="json")
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "already_registered"
    guest = org.post(f"/api/events/{event_id}/registrations/", {"name": "Guest Gwen"}, format="json")
    assert guest.status_code == 201
    seating = org.post(f"/api/events/{event_id}/seating/", {"seed": 42}, format="json")
    assert seating.status_code == 201
    assert [len(Seat.objects.filter(pod_id=p["id"])) for p in seating.json()["pods"]] == [5, 4]
    pod_id = seating.json()["pods"][0]["id"]
    assert org.post(f"/api/pods/{pod_id}/start/").json()["state"] == "drafting"
    overview = org.get(f"/api/pods/{pod_id}/").json()
    assert len(overview["seats"]) == 5
    # A guest has no account and cannot pick online (issue 28): their seat picks by itself.
    guest_seat = next(s for s in overview["seats"] if s["name"] == "Guest Gwen")
    assert guest_seat["is_automatic"]
    assert all(s["queue"] for s in overview["seats"] if s is not guest_seat)


def test_player_picks_through_the_api(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    seat = Seat.objects.get(pod=pod, position=0)
    pack, cards = head_cards(seat)
    api = client_for(players[0])
    view = api.get(f"/api/seats/{seat.pk}/").json()
    assert [c["id"] for c in view["queue"][0]["cards"]] == [c.pk for c in cards]
    response = api.post(f"/api/seats/{seat.pk}/picks/", {"card": cards[3].pk, "pack": pack.pk}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["pick"]["pick_number"] == 1 and body["pod"]["state"] == "drafting"
    assert body["pick"]["pod_version"] == Pod.objects.get(pk=pod.pk).version
    assert [c["id"] for c in api.get(f"/api/seats/{seat.pk}/").json()["pile"]] == [cards[3].pk]
    double = api.post(f"/api/seats/{seat.pk}/picks/", {"card": cards[3].pk, "pack": pack.pk}, format="json")
    assert double.status_code == 409 and double.json()["errors"][0]["code"] == "already_picked"
    assert Pick.objects.filter(seat=seat).count() == 1


@pytest.mark.parametrize(
    "payload, status, code",
    [
        ({}, 400, "required"),
        ({"card": "x"}, 400, "invalid"),
        ({"card": -1}, 400, "min_value"),
        ({"card": 999999}, 400, "card_not_in_pack"),
        ({"card": 1, "position": -3}, 400, "min_value"),
    ],
)
def test_bad_pick_input_is_a_clean_400(organiser, players, cube_names, payload, status, code):
    pod = make_pod(organiser, players, cube_names)
    seat = Seat.objects.get(pod=pod, position=0)
    response = client_for(players[0]).post(f"/api/seats/{seat.pk}/picks/", payload, format="json")
    assert response.status_code == status
    assert response.json()["errors"][0]["code"] == code


def test_a_player_cannot_use_another_seat(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    other = Seat.objects.get(pod=pod, position=1)
    _, cards = head_cards(other)
    api = client_for(players[0])
    for method, url, body in [
        ("get", f"/api/seats/{other.pk}/", None),
        ("post", f"/api/seats/{other.pk}/picks/", {"card": cards[0].pk}),
        ("post", f"/api/seats/{other.pk}/pile/", {"card": cards[0].pk, "position": 0}),
        ("get", f"/api/seats/{other.pk}/log/", None),
        ("post", f"/api/seats/{other.pk}/replace/", {"automatic": True}),
        ("get", f"/api/pods/{pod.pk}/", None),
        ("post", f"/api/pods/{pod.pk}/pause/", None),
    ]:
        response = getattr(api, method)(url, body, format="json")
        assert response.status_code == 403, url
        assert response.json()["errors"][0]["code"] in {"not_your_seat", "not_event_staff"}
    assert not Pick.objects.exists()


def test_anonymous_gets_401(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    seat = Seat.objects.get(pod=pod, position=0)
    response = APIClient().get(f"/api/seats/{seat.pk}/")
    assert response.status_code in (401, 403)
    assert response.json()["errors"][0]["code"] == "not_authenticated"


def test_judge_sees_the_pod_but_cannot_steer_it(organiser, players, cube_names, django_user_model):
    pod = make_pod(organiser, players, cube_names)
    judge = UserFactory(username="judy")
    EventStaffFactory(event=pod.event, user=judge, role="judge")
    api = client_for(judge)
    assert api.get(f"/api/pods/{pod.pk}/").status_code == 200
    seat = Seat.objects.get(pod=pod, position=3)
    assert api.get(f"/api/seats/{seat.pk}/").status_code == 200
    assert api.post(f"/api/pods/{pod.pk}/pause/").status_code == 403
    _, cards = head_cards(seat)
    assert api.post(f"/api/seats/{seat.pk}/picks/", {"card": cards[0].pk}, format="json").status_code == 403


def test_pause_resume_and_replace_through_the_api(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    org = client_for(organiser)
    assert org.post(f"/api/pods/{pod.pk}/pause/").json()["state"] == "paused"
    again = org.post(f"/api/pods/{pod.pk}/pause/")
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "pod_paused"
    seat = Seat.objects.get(pod=pod, position=0)
    _, cards = head_cards(seat)
    paused = client_for(players[0]).post(f"/api/seats/{seat.pk}/picks/", {"card": cards[0].pk}, format="json")
    assert paused.status_code == 409 and paused.json()["errors"][0]["code"] == "pod_paused"
    assert org.post(f"/api/pods/{pod.pk}/resume/").json()["state"] == "drafting"
    bad = org.post(f"/api/seats/{seat.pk}/replace/", {}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "invalid_replacement"
    done = org.post(f"/api/seats/{seat.pk}/replace/", {"automatic": True}, format="json")
    assert done.status_code == 200 and done.json()["is_automatic"] is True


def test_event_creation_needs_the_organiser_role_and_valid_sets(players, organiser):
    response = client_for(players[0]).post(
        "/api/events/", {"name": "x", "date": "2026-11-29", "set_codes": ["ISD"]}, format="json"
    )
    assert response.status_code == 403
    org = client_for(organiser)
    bad = org.post("/api/events/", {"name": "x", "date": "2026-11-29", "set_codes": ["NOPE"]}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "unknown_set"
    bad = org.post("/api/events/", {"name": "x", "date": "2026-11-29", "set_codes": ["A", "B"]}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "invalid_sets"
    bad = org.post(
        "/api/events/",
        {"name": "x", "date": "2026-11-29", "draft_format": "cube", "cube_list": ["Gatstaf Sheperd"]},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "unknown_card"
    bad = org.post("/api/events/", {"name": "x", "date": "not a date"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "date"
    assert not Event.objects.exists()


def test_draft_log_json_and_mtgo_text(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    seat = Seat.objects.get(pod=pod, position=0)
    _, cards = head_cards(seat)
    services.make_pick(seat_id=seat.pk, draft_card_id=cards[2].pk, actor=SYSTEM)
    api = client_for(players[0])
    log = api.get(f"/api/seats/{seat.pk}/log/").json()
    # During the draft a player's log has their picks, not the packs they passed (R16).
    assert log["picks"][0]["card"] == cards[2].card.name and log["picks"][0]["pack"] is None
    text = api.get(f"/api/seats/{seat.pk}/log/text/").content.decode()
    assert "Pack 1 pick 1:" in text and f"--> {cards[2].card.name}" in text
    assert cards[3].card.name not in text
    assert "--> p0" in text  # the seat's own player is marked in the player list
    staff = client_for(organiser).get(f"/api/seats/{seat.pk}/log/text/").content.decode()
    assert f"--> {cards[2].card.name}" in staff and f"    {cards[3].card.name}" in staff
    pod.event.decklists_published = True
    pod.event.save()
    assert len(api.get(f"/api/seats/{seat.pk}/log/").json()["picks"][0]["pack"]) == 15


@pytest.mark.parametrize("field", ["card", "pack", "position"])
@pytest.mark.parametrize("number", [2**31, 2**63, 10**30, -(2**63) - 1])
def test_a_pick_past_the_integer_range_is_a_400_over_the_api_and_the_no_script_form(
    organiser, players, cube_names, field, number
):
    """Ids are bigint, positions integer (draftsite.bounds): never a 500, nothing picked."""
    from django.test import Client

    pod = make_pod(organiser, players, cube_names)
    seat = Seat.objects.get(pod=pod, position=0)
    pack, cards = head_cards(seat)
    body = {"card": cards[0].pk, "pack": pack.pk, field: number}
    response = client_for(players[0]).post(f"/api/seats/{seat.pk}/picks/", body, format="json")
    assert response.status_code in (400, 409), response.content
    page = Client(raise_request_exception=False)
    page.force_login(players[0])
    answer = page.post(f"/events/seats/{seat.pk}/pick/", {**body, "confirmed": "yes"}, follow=True)
    assert answer.status_code == 200
    assert [m.level_tag for m in answer.context["messages"]] == ["error"]
    assert not Pick.objects.filter(seat=seat).exists()
