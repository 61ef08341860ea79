"""R15-R16: DFCs are open information to the pod; single-faced cards of another seat never
leave the server, through any endpoint a player can call, at any point of a draft."""

from __future__ import annotations

import json

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from drafts import services
from drafts.models import DraftCard, Pack, Seat
from events.access import SYSTEM
from tests.drafts import conftest
from tests.factories import UserFactory
from tests.places import held, piled

pytestmark = pytest.mark.django_db


def hidden_from(seat: Seat) -> tuple[set[int], set[str]]:
    """Ids and names of the single-faced cards held by every other seat of the pod."""
    cards = DraftCard.objects.filter(pod=seat.pod, is_dfc=False).exclude(pk__in=held(holder=seat) + piled(pk=seat.pk))
    # Unopened packs of later rounds are hidden from everyone too.
    rows = list(cards.values_list("pk", "card__name"))
    return {pk for pk, _ in rows}, {name for _, name in rows}


def card_payloads(value):
    """Every card object anywhere in a JSON document."""
    if isinstance(value, dict):
        if "rarity" in value and "faces" in value:
            yield value
        for item in value.values():
            yield from card_payloads(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_payloads(item)


def everything_a_player_can_ask(api: APIClient, seat: Seat, other: Seat) -> list[str]:
    pod, event = seat.pod, seat.pod.event
    stranger = DraftCard.objects.filter(pk__in=held(holder=other)).first()
    responses = [
        api.get(f"/api/seats/{seat.pk}/"),
        api.get(f"/api/seats/{seat.pk}/queue/"),
        api.get(f"/api/seats/{other.pk}/queue/"),
        api.get(f"/api/pods/{pod.pk}/board/"),
        api.get(f"/api/events/{event.pk}/"),
        api.get(f"/api/events/{event.pk}/pods/"),
        api.get(f"/api/events/{event.pk}/registrations/"),
        api.get(f"/api/seats/{seat.pk}/log/"),
        api.get(f"/api/seats/{seat.pk}/log/text/"),
        api.get(f"/api/seats/{other.pk}/"),
        api.get(f"/api/seats/{other.pk}/log/"),
        api.get(f"/api/seats/{other.pk}/log/text/"),
        api.get(f"/api/pods/{pod.pk}/"),
        api.post(f"/api/seats/{seat.pk}/picks/", {"card": stranger.pk} if stranger else {}, format="json"),
        api.post(f"/api/seats/{seat.pk}/pile/", {"card": stranger.pk if stranger else 1, "position": 0}, format="json"),
    ]
    return [r.content.decode() for r in responses]


def assert_nothing_hidden_leaks(api, seat, other):
    hidden_ids, hidden_names = hidden_from(seat)
    for body in everything_a_player_can_ask(api, seat, other):
        for name in hidden_names:
            assert name not in body, f"{name} leaked"
        try:
            document = json.loads(body)
        except ValueError:
            continue
        leaked = [c["id"] for c in card_payloads(document) if c["id"] in hidden_ids]
        assert not leaked


def test_no_single_faced_card_of_another_seat_reaches_a_player_during_a_whole_draft(organiser, players, cube_names):
    start = timezone.now()
    pod = conftest.make_pod(organiser, players, cube_names, pick_timer=False, now=start)
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    api = APIClient()
    api.force_authenticate(players[0])
    checkpoints = {1, 7, 14, 15}
    for round_number in (1, 2, 3):
        for pick in range(1, 16):
            for seat in seats:
                pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
                if pack is not None:
                    card = DraftCard.objects.in_pack(pack).order_by("-place").first()
                    services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, actor=SYSTEM)
            if pick in checkpoints:
                assert_nothing_hidden_leaks(api, seats[0], seats[3])
        if round_number < 3:
            services.advance_round(pod_id=pod.pk, actor=SYSTEM)
    pod.refresh_from_db()
    assert pod.state == "deck_building"
    # After the draft every pile is private, DFCs included, until decklists are published.
    board = api.get(f"/api/pods/{pod.pk}/board/").json()["board"]
    assert all(s["pile_dfcs"] is None for s in board["seats"])
    assert_nothing_hidden_leaks(api, seats[0], seats[3])


def test_the_board_shows_every_dfc_with_both_faces_and_pack_sizes(organiser, players, cube_names):
    pod = conftest.make_pod(organiser, players, cube_names, now=timezone.now())
    seat = Seat.objects.get(pod=pod, position=0)
    dfc = DraftCard.objects.filter(pod=pod, is_dfc=True, pk__in=held(pod=pod, holder__position__gt=0)).first()
    pack = Pack.objects.get(pod=pod, card_ids__contains=[dfc.pk])
    holder = pack.holder.position
    services.make_pick(seat_id=pack.holder_id, draft_card_id=dfc.pk, actor=SYSTEM)
    api = APIClient()
    api.force_authenticate(players[0])
    board = api.get(f"/api/pods/{pod.pk}/board/").json()["board"]
    picker = board["seats"][holder]
    assert [c["id"] for c in picker["pile_dfcs"]] == [dfc.pk]
    assert [f["name"] for f in picker["pile_dfcs"][0]["faces"]] == dfc.card.name.split(" // ")
    other = 2 if holder != 2 else 3
    theirs = DraftCard.objects.filter(pk__in=held(pod=pod, holder__position=other))
    shown = {c["id"] for p in board["seats"][other]["packs"] for c in p["dfcs"]}
    assert shown == set(theirs.filter(is_dfc=True).values_list("pk", flat=True))
    assert sum(p["cards_left"] for p in board["seats"][other]["packs"]) == theirs.count()
    assert [p["cards_left"] for p in board["seats"][other]["packs"]] in ([15], [15, 14])
    view = api.get(f"/api/seats/{seat.pk}/").json()
    assert len(view["queue"][0]["cards"]) == 15  # own pack in full, single-faced cards too


def test_outsiders_see_no_board(organiser, players, cube_names, django_user_model):
    pod = conftest.make_pod(organiser, players, cube_names, now=timezone.now())
    outsider = UserFactory(username="outsider")
    api = APIClient()
    api.force_authenticate(outsider)
    response = api.get(f"/api/pods/{pod.pk}/board/")
    assert response.status_code == 403 and response.json()["errors"][0]["code"] == "not_in_pod"
