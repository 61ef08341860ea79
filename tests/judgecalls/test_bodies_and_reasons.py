"""A judge call's body is a JSON object and its reason at most 200 characters (issue 46 items
12 and 13): anything else is refused with a code and opens no call; nothing is cut."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from drafts.models import Seat
from draftsite.errors import DomainError
from judgecalls import services
from judgecalls.models import MAX_REASON, JudgeCall
from tests.drafts.conftest import cube_names, make_pod, organiser, players  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db

NOT_OBJECTS = ["null", "[]", '"x"', "123", "true", '[{"reason": "x"}]']


@pytest.fixture
def seat(organiser, players, cube_names):  # noqa: F811
    pod = make_pod(organiser, players, cube_names)
    return Seat.objects.select_related("registration__user").filter(pod=pod).order_by("position").first()


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize("body", NOT_OBJECTS)
def test_a_body_that_is_not_an_object_opens_no_call_from_a_match(floor, body):
    response = _api(floor.player_a()).post(
        f"/api/matches/{floor.match.pk}/judge-call/", data=body, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["code"] == "invalid"
    assert not JudgeCall.objects.exists()


@pytest.mark.parametrize("body", NOT_OBJECTS)
def test_a_body_that_is_not_an_object_opens_no_call_from_a_seat(seat, body):
    response = _api(seat.registration.user).post(
        f"/api/seats/{seat.pk}/judge-call/", data=body, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["code"] == "invalid"
    assert not JudgeCall.objects.exists()


def test_an_object_and_no_body_still_open_a_call(floor, seat):
    assert _api(seat.registration.user).post(f"/api/seats/{seat.pk}/judge-call/").status_code == 201
    response = _api(floor.player_a()).post(
        f"/api/matches/{floor.match.pk}/judge-call/", {"reason": "Help"}, format="json"
    )
    assert response.status_code == 201
    assert JudgeCall.objects.count() == 2


def test_other_endpoints_refuse_such_a_body_with_the_same_code(floor):
    """The class: every endpoint reads its body through draftsite.api (here: a drop, whose
    view also reads the body before its serializer)."""
    response = _api(floor.player_a()).post(
        f"/api/events/{floor.event.pk}/drops/", data="[]", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid"


def test_a_reason_of_200_characters_is_stored_whole(floor):
    reason = "r" * MAX_REASON
    response = _api(floor.player_a()).post(
        f"/api/matches/{floor.match.pk}/judge-call/", {"reason": reason}, format="json"
    )
    assert response.status_code == 201
    assert JudgeCall.objects.get().reason == reason


def test_a_longer_reason_is_refused_not_cut_on_the_api(floor, seat):
    reason = "r" * (MAX_REASON + 1)
    for client, path in (
        (_api(floor.player_a()), f"/api/matches/{floor.match.pk}/judge-call/"),
        (_api(seat.registration.user), f"/api/seats/{seat.pk}/judge-call/"),
    ):
        response = client.post(path, {"reason": reason}, format="json")
        assert response.status_code == 400
        error = response.json()["errors"][0]
        assert (error["code"], error["field"]) == ("max_length", "reason")
    assert not JudgeCall.objects.exists()


def test_a_longer_reason_is_refused_on_the_page_and_by_the_service(floor):
    client = Client()
    client.force_login(floor.player_a())
    response = client.post(f"/judge-calls/matches/{floor.match.pk}/call/", {"reason": "r" * 250}, follow=True)
    assert "Write at most 200 characters; this text has 250." in response.content.decode()
    assert not JudgeCall.objects.exists()
    with pytest.raises(DomainError) as refused:
        services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), reason="r" * 201)
    assert (refused.value.code, refused.value.extra["field"]) == ("too_long", "reason")
    assert not JudgeCall.objects.exists()
