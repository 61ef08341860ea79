"""One way into the engine: every transport's pick gives the same arguments (``PickOrder``),
and one call of ``drafts_pick`` answers every pick, refused ones too.

The no-script page (``drafts.views.player.seat_pick``) passes the seat's holder, checked again
in the pod's lock, and the request's received-at stamp (``ReceivedAtMiddleware``), as HTTP and
the socket do."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.utils import timezone

from drafts import error_codes, services
from drafts.models import DraftCard, Pack, Pick, PickKind, Seat
from drafts.services import fastpath
from drafts.simulation import check_conservation
from draftsite.errors import ConflictError
from events import services as event_services
from events.access import SYSTEM
from tests.drafts import conftest
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def live_pod(organiser, players, cube_names):
    """Started now (the middleware stamps real time): every clock runs out in 40 s."""
    return conftest.make_pod(organiser, players, cube_names, now=timezone.now())


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def head(seat_id: int) -> tuple[Pack, list[int]]:
    pack = Pack.objects.filter(holder_id=seat_id).order_by("queue_seq").first()
    return pack, list(DraftCard.objects.in_pack(pack).values_list("pk", flat=True))


def page_pick(client: Client, seat: Seat, card: int, pack: Pack):
    return client.post(f"/events/seats/{seat.pk}/pick/", {"card": card, "pack": pack.pk, "confirmed": "yes"})


def test_a_no_script_pick_checks_the_holder_in_the_pods_lock(live_pod, organiser, players, monkeypatch):
    """The seat is handed over after the page checked access, before the pick runs: refused."""
    from drafts.views import player

    seat = Seat.objects.get(pod=live_pod, position=0)
    pack, cards = head(seat.pk)
    checked = player.get_seat

    def checked_then_handed_over(*args, **kwargs):
        found = checked(*args, **kwargs)
        newcomer = event_services.register_player(
            event_id=live_pod.event_id, user=UserFactory(username="rita"), actor=SYSTEM
        )
        services.hand_seat(seat_id=seat.pk, registration_id=newcomer.pk, actor=organiser)
        return found

    monkeypatch.setattr(player, "get_seat", checked_then_handed_over)
    answer = page_pick(client_for(players[0]), seat, cards[2], pack)
    assert answer.status_code == 302
    assert [str(m) for m in get_messages(answer.wsgi_request)] == ["That is not your seat."]
    assert not Pick.objects.filter(seat=seat).exists()
    assert check_conservation(live_pod) == []


def test_a_no_script_pick_counts_from_when_the_server_received_it(live_pod, players, monkeypatch):
    """Received before its clock ran out, run after it (a slow database): the player's card,
    never a timeout pick, as over HTTP and the socket."""
    seat = Seat.objects.get(pod=live_pod, position=0)
    pack, cards = head(seat.pk)
    deadline = timezone.now() + dt.timedelta(seconds=5)
    Pack.objects.filter(pk=pack.pk).update(deadline=deadline)
    made, seen = services.make_pick, {}

    def run_late(**kwargs):
        seen.update(kwargs)
        return made(**kwargs, now=deadline + dt.timedelta(seconds=10))  # past the grace period too

    monkeypatch.setattr(services, "make_pick", run_late)
    answer = page_pick(client_for(players[0]), seat, cards[2], pack)
    assert answer.status_code == 302
    assert seen["owner"] == players[0] and seen["received_at"] is not None and seen["received_at"] < deadline
    pick = Pick.objects.get(seat=seat)
    assert (pick.draft_card_id, pick.kind, pick.made_at) == (cards[2], PickKind.MANUAL, seen["received_at"])
    assert check_conservation(live_pod) == []


def test_a_paused_pod_refuses_a_pick_in_one_call(live_pod, organiser, players, monkeypatch):
    """A paused pod: ``drafts_pick`` refuses the pick itself, in its one call."""
    services.pause_pod(pod_id=live_pod.pk, actor=organiser)
    seat = Seat.objects.get(pod=live_pod, position=0)
    _pack, cards = head(seat.pk)
    calls, call = [], fastpath.call

    def counted(**kwargs):
        calls.append(kwargs)
        return call(**kwargs)

    monkeypatch.setattr(fastpath, "call", counted)
    with pytest.raises(ConflictError) as refused:
        services.make_pick(seat_id=seat.pk, draft_card_id=cards[0], actor=players[0], owner=players[0])
    assert refused.value.code == error_codes.POD_PAUSED
    assert len(calls) == 1
    assert not Pick.objects.exists()


def test_every_transport_gives_the_same_order():
    """Users or their ids; a position below 0 is refused before the engine; never received later
    than now."""
    now = timezone.now()

    class User:
        pk = 4
        is_authenticated = True

    late = services.picks.PickOrder.of(
        seat_id=1, draft_card_id=2, actor=User(), owner=User(), now=now, received_at=now + dt.timedelta(seconds=1)
    )
    by_ids = services.picks.PickOrder.of(seat_id=1, draft_card_id=2, actor=4, owner=4, now=now, received_at=now)
    assert late == by_ids and late.received_at == now
    assert late.function_arguments()["owner_id"] == 4
    with pytest.raises(Exception) as invalid:
        services.picks.PickOrder.of(seat_id=1, draft_card_id=2, actor=SYSTEM, position=-1)
    assert getattr(invalid.value, "code", None) == error_codes.INVALID_POSITION
