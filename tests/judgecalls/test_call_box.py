"""The draft page's call box, live: its fragment view (the seat's player only) and the caller's
socket (ws/judgecalls/seats/<id>/, frames typed in judgecalls/protocol.py) that says when to
fetch it."""

from __future__ import annotations

import typing

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connections
from django.test import Client
from django.urls import reverse

from draftsite.routing import websocket_urlpatterns
from judgecalls import protocol as frames
from judgecalls import services
from judgecalls.models import JudgeCall, Outcome
from tests.judgecalls.conftest import T0, Floor


def keys_of(frame_type) -> set[str]:
    return set(typing.get_type_hints(frame_type))


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def seats(floor):
    first, second = floor.pod.seats.order_by("position")[:2]
    return first, floor.user_of[first.registration_id], second, floor.user_of[second.registration_id]


def box_of(client, seat) -> tuple[int, str]:
    response = client.get(reverse("judgecalls:seat-box", args=[seat.pk]))
    return response.status_code, response.content.decode()


@pytest.mark.django_db
def test_the_box_fragment_follows_the_players_call_through_every_step(floor):
    seat, user, _other_seat, _other = seats(floor)
    player = browser(user)
    status, box = box_of(player, seat)
    assert status == 200 and "call-judge" in box and 'id="judge-call"' in box and "<html" not in box
    # The page's box carries where the script listens and fetches; the fragment has no script.
    page = player.get(reverse("drafts:seat", args=[seat.pk])).content.decode()
    assert f'data-socket="/ws/judgecalls/seats/{seat.pk}/"' in page and "js/callbox.js" in page
    assert 'aria-live="polite"' in page and "js/callbox.js" not in box
    call = services.call_from_seat(seat_id=seat.pk, actor=user, reason="Misdeal", now=T0)
    assert "Judge called. Please wait at your seat." in box_of(player, seat)[1]
    services.claim_call(call_id=call.pk, actor=floor.judge, now=T0)
    box = box_of(player, seat)[1]
    assert "A judge is coming: judge." in box and "call-judge" not in box
    services.escalate_call(call_id=call.pk, actor=floor.judge, now=T0)
    assert "Your call went to the head judge; they are coming." in box_of(player, seat)[1]
    services.resolve_call(call_id=call.pk, actor=floor.head_judge, outcome=Outcome.RULING)
    box = box_of(player, seat)[1]
    assert "Your judge call was resolved." in box and "call-judge" in box  # and may call again


@pytest.mark.django_db
def test_a_call_posted_by_the_script_answers_with_the_box_and_its_message(floor):
    seat, user, _other_seat, _other = seats(floor)
    player = browser(user)
    action = reverse("judgecalls:call-seat", args=[seat.pk])
    box_url = reverse("judgecalls:seat-box", args=[seat.pk])
    answer = player.post(action, {"reason": "Misdeal", "next": box_url}, follow=True)
    body = answer.content.decode()
    assert answer.status_code == 200 and answer.redirect_chain == [(box_url, 302)]
    assert "A judge has been called to your seat." in body and "Judge called. Please wait" in body
    twice = player.post(action, {"next": box_url}, follow=True).content.decode()
    assert "You have already called a judge; one is on the way." in twice
    assert JudgeCall.objects.count() == 1
    # Shown once in the box, so not again on the next full page.
    page = player.get(reverse("drafts:seat", args=[seat.pk])).content.decode()
    assert "A judge has been called to your seat." not in page


@pytest.mark.django_db
def test_only_the_seats_player_gets_its_box(floor):
    seat, user, _other_seat, other = seats(floor)
    services.call_from_seat(seat_id=seat.pk, actor=user, reason="Misdeal", now=T0)
    for someone in (other, floor.judge, floor.head_judge, floor.outsider):
        status, body = box_of(browser(someone), seat)
        assert status == 403 and "Judge called" not in body, someone
    anonymous = Client().get(reverse("judgecalls:seat-box", args=[seat.pk]))
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    assert browser(user).get(reverse("judgecalls:seat-box", args=[999999])).status_code == 404


def connect(path, user):
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    communicator.scope["user"] = user
    return communicator


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_callers_socket_says_call_box_on_each_change_of_their_own_call_only():
    floor = Floor()
    seat, user, other_seat, other = seats(floor)

    async def scenario():
        mine = connect(f"ws/judgecalls/seats/{seat.pk}/", user)
        theirs = connect(f"ws/judgecalls/seats/{other_seat.pk}/", other)
        assert (await mine.connect())[0] and (await theirs.connect())[0]
        opening = [await mine.receive_json_from(), await mine.receive_json_from()]
        await theirs.receive_json_from()
        await theirs.receive_json_from()
        call = await database_sync_to_async(services.call_from_seat)(
            seat_id=seat.pk, actor=user, reason="SECRET reason", now=T0
        )
        pushed = [await mine.receive_json_from(timeout=5)]
        await database_sync_to_async(services.claim_call)(call_id=call.pk, actor=floor.judge, now=T0)
        pushed.append(await mine.receive_json_from(timeout=5))
        await database_sync_to_async(services.resolve_call)(
            call_id=call.pk, actor=floor.judge, outcome=Outcome.NO_ACTION, note="SECRET note"
        )
        pushed.append(await mine.receive_json_from(timeout=5))
        other_heard = await theirs.receive_nothing(timeout=0.5)
        await mine.send_json_to({"type": "heartbeat"})
        beat = await mine.receive_json_from()
        await mine.send_json_to({"type": "pick"})
        error = await mine.receive_json_from()
        await mine.disconnect()
        await theirs.disconnect()
        await database_sync_to_async(connections.close_all)()
        return opening, pushed, other_heard, beat, error

    opening, pushed, other_heard, beat, error = async_to_sync(scenario)()
    assert opening == [frames.caller_hello(), frames.call_box()]
    assert set(opening[0]) == keys_of(frames.CallerHelloFrame) and opening[0]["role"] == "caller"
    assert pushed == [frames.call_box()] * 3 and all(set(f) == keys_of(frames.CallBoxFrame) for f in pushed)
    assert pushed[0] == {"type": "call_box"}
    assert other_heard is True  # the other player's socket heard nothing of this call
    assert set(beat) == keys_of(frames.HeartbeatFrame) and beat["type"] == "heartbeat"
    assert error == frames.error("unknown_message") and set(error) == keys_of(frames.ErrorFrame)
    assert "SECRET" not in repr(opening + pushed)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_only_the_seats_player_opens_the_callers_socket():
    floor = Floor()
    seat, user, _other_seat, other = seats(floor)

    async def attempt(who):
        communicator = connect(f"ws/judgecalls/seats/{seat.pk}/", who)
        connected, _ = await communicator.connect()
        await communicator.disconnect()
        return connected

    for someone in (other, floor.judge, floor.head_judge, floor.outsider, AnonymousUser()):
        assert async_to_sync(attempt)(someone) is False, someone
    assert async_to_sync(attempt)(user) is True
    missing = connect("ws/judgecalls/seats/999999/", user)
    assert async_to_sync(missing.connect)()[0] is False
