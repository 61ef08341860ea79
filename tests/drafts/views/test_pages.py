"""Draft pages through the Django test client: who may open what, what each page shows, and
that no page a player or spectator can open carries another seat's hidden cards (R15-R16)."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.test import Client
from django.utils import timezone

from drafts import presence, services
from drafts.models import DraftCard, Pack, Pick, Pod, PodLogEntry, PodState, Seat
from events import services as event_services
from events.access import SYSTEM
from events.models import Event, StaffRole
from tests.drafts import conftest
from tests.factories import EventStaffFactory, UserFactory
from tests.places import held, piled

pytestmark = pytest.mark.django_db


def make_pod(*args, **kwargs):
    """A pod started now: pages enforce clocks against the real time."""
    return conftest.make_pod(*args, now=timezone.now(), **kwargs)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def head(seat):
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    return pack, list(DraftCard.objects.in_pack(pack).select_related("card")) if pack else []


def hidden_names_for(seat) -> set[str]:
    """Single-faced cards the player of ``seat`` must never see: in other seats' packs or piles."""
    mine = held(holder=seat) + piled(pk=seat.pk)
    cards = DraftCard.objects.filter(pod=seat.pod, is_dfc=False).exclude(pk__in=mine).select_related("card")
    return {c.card.name for c in cards}


def all_single_faced(pod) -> set[str]:
    return {c.card.name for c in DraftCard.objects.filter(pod=pod, is_dfc=False).select_related("card")}


def play_some_picks(pod, rounds_of_picks=2):
    """Every seat picks its first card a couple of times (piles get DFCs and single-faced cards)."""
    for _ in range(rounds_of_picks):
        for seat in Seat.objects.filter(pod=pod).order_by("position"):
            pack, cards = head(seat)
            if pack is not None:
                services.make_pick(seat_id=seat.pk, draft_card_id=cards[0].pk, pack_id=pack.pk, actor=SYSTEM)


@pytest.fixture
def judge(db, pod):
    user = UserFactory(username="judy")
    EventStaffFactory(event=pod.event, user=user, role=StaffRole.JUDGE)
    return user


@pytest.fixture
def pod(organiser, players, cube_names):
    return make_pod(organiser, players, cube_names)


@pytest.fixture
def seats(pod):
    return list(Seat.objects.filter(pod=pod).order_by("position"))


# --- events ------------------------------------------------------------------------------


def test_events_list_for_anonymous_players_and_organisers(pod, organiser, players):
    anonymous = Client().get("/events/")
    assert anonymous.status_code == 200 and b"Log in to see your events" in anonymous.content
    player_page = client_for(players[0]).get("/events/").content.decode()
    seat = Seat.objects.get(pod=pod, position=0)
    assert "Cube night" in player_page and f"/events/seats/{seat.pk}/" in player_page
    assert "Create an event" not in player_page and "Dashboard" not in player_page
    organiser_page = client_for(organiser).get("/events/").content.decode()
    assert "Create an event" in organiser_page and f"/events/{pod.event_id}/dashboard/" in organiser_page
    outsider = UserFactory(username="newcomer")
    empty = client_for(outsider).get("/events/").content.decode()
    assert "No events yet" in empty and "Upcoming events you can join" in empty


def test_create_event_page_is_for_organisers_and_shows_form_errors(organiser, players, cube_names):
    assert client_for(players[0]).get("/events/new/").status_code == 403
    assert Client().get("/events/new/").status_code == 302
    org = client_for(organiser)
    page = org.get("/events/new/")
    assert page.status_code == 200 and b"<title>Create an event" in page.content
    bad = org.post(
        "/events/new/",
        {
            "name": "Cube",
            "date": "2026-12-01",
            "enforcement_level": "regular",
            "draft_format": "cube",
            "cube_list": "No Such Card\nSingle 001",
            "pack_size": 15,
            "deck_building_minutes": 25,
        },
    )
    assert bad.status_code == 200 and "not in the catalogue" in bad.content.decode()
    missing = org.post(
        "/events/new/",
        {
            "name": "Boosters",
            "date": "2026-12-01",
            "enforcement_level": "regular",
            "draft_format": "booster",
            "pack_size": 15,
            "deck_building_minutes": 25,
        },
    )
    assert missing.status_code == 200 and "Choose the set of the boosters." in missing.content.decode()
    assert not Event.objects.exists()
    good = org.post(
        "/events/new/",
        {
            "name": "Cube",
            "date": "2026-12-01",
            "enforcement_level": "regular",
            "draft_format": "cube",
            "cube_list": "\n".join(cube_names),
            "pack_size": 15,
            "deck_building_minutes": 30,
        },
    )
    event = Event.objects.get()
    assert good.status_code == 302 and good["Location"] == f"/events/{event.pk}/"
    assert event.pick_timer is False and event.deck_building_minutes == 30 and len(event.cube_card_ids) == 360


def test_event_page_join_register_seat_and_start(organiser, players, cube_names):
    event = services.create_event(
        name="Open cube",
        date=timezone.localdate(),
        created_by=organiser,
        draft_format="cube",
        cube_list=cube_names,
        pick_timer=False,
    )
    newcomer = client_for(players[0])
    page = newcomer.get(f"/events/{event.pk}/").content.decode()
    assert "Join this event" in page and "Organiser" not in page
    assert newcomer.post(f"/events/{event.pk}/join/").status_code == 302
    assert event.registrations.filter(user=players[0]).exists()
    # Only organisers register others or seat players.
    assert newcomer.post(f"/events/{event.pk}/register/", {"name": "Gwen"}).status_code == 403
    assert newcomer.post(f"/events/{event.pk}/seating/", {"confirmed": "yes"}).status_code == 403
    org = client_for(organiser)
    org.post(f"/events/{event.pk}/register/", {"name": "Guest Gwen"})
    org.post(f"/events/{event.pk}/register/", {"username": players[1].username})
    bad = org.post(f"/events/{event.pk}/register/", {"username": "nobody"}, follow=True)
    assert "No account is called" in bad.content.decode()
    assert sorted(event.registrations.values_list("name", flat=True)) == ["Guest Gwen", "p0", "p1"]
    # Seating asks first (no script: a confirm page), then seats with the seed.
    ask = org.post(f"/events/{event.pk}/seating/", {"seed": "42"})
    assert ask.status_code == 200 and b"Seat all 3 registered players" in ask.content
    assert not Pod.objects.filter(event=event).exists()
    org.post(f"/events/{event.pk}/seating/", {"seed": "42", "confirmed": "yes"})
    pod = Pod.objects.get(event=event)
    again = services.seat_players(event_id=event.pk, seed=42, actor=SYSTEM)[0]
    assert list(again.seats.order_by("position").values_list("registration__name", flat=True)) == list(
        Seat.objects.filter(pod__event=event).order_by("position").values_list("registration__name", flat=True)
    )
    pod = Pod.objects.get(event=event)
    detail = org.get(f"/events/{event.pk}/").content.decode()
    assert f"Start pod {pod.number}" in detail and "Dashboard" in detail
    org.post(f"/events/pods/{pod.pk}/control/start/", {"confirmed": "yes", "next": f"/events/{event.pk}/"})
    pod.refresh_from_db()
    assert pod.state == PodState.DRAFTING
    mine = newcomer.get(f"/events/{event.pk}/").content.decode()
    seat = Seat.objects.get(registration__user=players[0])
    assert "Open my draft" in mine and f"/events/seats/{seat.pk}/" in mine


# --- the player's page ---------------------------------------------------------------------


def test_seat_page_shows_the_pack_pile_clock_and_queue(pod, players, seats):
    pack, cards = head(seats[0])
    page = client_for(players[0]).get(f"/events/seats/{seats[0].pk}/")
    text = page.content.decode()
    assert page.status_code == 200 and "<title>Draft · pod 1, seat 1" in text
    for card in cards:
        assert card.card.name in text
    assert f'data-pack="{pack.pk}"' in text and f'name="pack" value="{pack.pk}"' in text
    assert 'role="timer"' in text and "Pick timer" in text
    assert "No other pack waiting" in text
    assert (
        f'data-socket="/ws/seats/{seats[0].pk}/?pod={pod.pk}"' in text
        and "js/live.js" in text
        and "js/draft.js" in text
    )
    # DFCs show both faces (R14): front and back names are both on the page, with a flip control.
    dfc = next(c for c in cards if c.is_dfc)
    front, back = dfc.card.name.split(" // ")
    assert front in text and back in text and "data-flip" in text


def test_queue_count_and_wrong_seat_access(pod, players, seats):
    # Seat 7 picks: its pack passes left to seat 0, whose queue now has two packs.
    pack, cards = head(seats[7])
    services.make_pick(seat_id=seats[7].pk, draft_card_id=cards[0].pk, pack_id=pack.pk, actor=SYSTEM)
    text = client_for(players[0]).get(f"/events/seats/{seats[0].pk}/").content.decode()
    assert "more pack waiting after this one" in text and "<strong>1</strong>" in text
    assert client_for(players[1]).get(f"/events/seats/{seats[0].pk}/").status_code == 403
    assert client_for(players[1]).get(f"/events/seats/{seats[0].pk}/panel/").status_code == 403
    assert Client().get(f"/events/seats/{seats[0].pk}/").status_code == 302
    assert client_for(players[0]).get("/events/seats/999999/").status_code == 404


def test_no_page_a_player_opens_shows_another_seats_single_faced_cards(pod, players, seats, organiser):
    """R16 across every page and download a player can open."""
    play_some_picks(pod, 3)
    seat = seats[2]
    user = players[2]
    hidden = hidden_names_for(seat)
    assert hidden
    client = client_for(user)
    urls = [
        f"/events/seats/{seat.pk}/",
        f"/events/seats/{seat.pk}/panel/",
        f"/events/pods/{pod.pk}/board/",
        f"/events/pods/{pod.pk}/board/panel/",
        f"/events/{pod.event_id}/",
        "/events/",
        f"/events/seats/{seat.pk}/log.txt",
        f"/events/seats/{seat.pk}/log.json",
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        text = response.content.decode()
        leaked = {name for name in hidden if name in text}
        assert not leaked, (url, sorted(leaked)[:5])
    # ... while the open information is there (R15): other seats' DFCs, both faces.
    board = client.get(f"/events/pods/{pod.pk}/board/").content.decode()
    other_dfc = (
        DraftCard.objects.filter(pod=pod, is_dfc=True, pk__in=held(holder__isnull=False) + piled(pod=pod))
        .exclude(pk__in=held(holder=seat) + piled(pk=seat.pk))
        .select_related("card")
        .first()
    )
    for face in other_dfc.card.name.split(" // "):
        assert face in board
    # Staff-only pages stay closed to the player.
    for url in [
        f"/events/{pod.event_id}/dashboard/",
        f"/events/{pod.event_id}/dashboard/panel/",
        f"/events/pods/{pod.pk}/",
        f"/events/pods/{pod.pk}/panel/",
        f"/events/pods/{pod.pk}/log.txt",
        f"/events/pods/{pod.pk}/log.json",
        f"/events/{pod.event_id}/report.csv",
        f"/events/seats/{seats[3].pk}/log.txt",
        f"/events/seats/{seats[3].pk}/log.json",
    ]:
        assert client.get(url).status_code == 403, url


def test_pick_without_script_confirms_first_and_refuses_a_stale_pack(pod, players, seats):
    client = client_for(players[0])
    pack, cards = head(seats[0])
    ask = client.post(f"/events/seats/{seats[0].pk}/pick/", {"card": cards[2].pk, "pack": pack.pk, "position": ""})
    assert ask.status_code == 200 and f"Pick {cards[2].card.name}?" in ask.content.decode()
    assert not Pick.objects.exists()
    done = client.post(f"/events/seats/{seats[0].pk}/pick/", {"card": cards[2].pk, "pack": pack.pk, "confirmed": "yes"})
    assert done.status_code == 302 and Pick.objects.get().draft_card_id == cards[2].pk
    # The same (stale) form again: refused with a message, nothing stored.
    stale = client.post(
        f"/events/seats/{seats[0].pk}/pick/", {"card": cards[3].pk, "pack": pack.pk, "confirmed": "yes"}, follow=True
    )
    assert "already moved on" in stale.content.decode() or "No pack is waiting" in stale.content.decode()
    assert Pick.objects.count() == 1
    # Somebody else's seat: refused.
    assert (
        client_for(players[1])
        .post(f"/events/seats/{seats[0].pk}/pick/", {"card": cards[3].pk, "confirmed": "yes"})
        .status_code
        == 403
    )


def test_pile_order_and_cover_without_script(pod, players, seats):
    """R17: the pick goes where the player says; the pile can be reordered and covered."""
    client = client_for(players[0])
    picked = []
    for position in (None, 0):
        pack, cards = head(seats[0])
        if pack is None:  # wait for the next pack: every other seat picks once
            play_others(pod, seats[0])
            pack, cards = head(seats[0])
        data = {"card": cards[0].pk, "pack": pack.pk, "confirmed": "yes"}
        if position is not None:
            data["position"] = position
        client.post(f"/events/seats/{seats[0].pk}/pick/", data)
        picked.append(cards[0].pk)
    pile = list(DraftCard.objects.in_pile(seats[0]).values_list("pk", flat=True))
    assert pile == [picked[1], picked[0]]  # the second pick went to the top
    client.post(f"/events/seats/{seats[0].pk}/pile/", {"card": picked[1], "position": 1})
    pile = list(DraftCard.objects.in_pile(seats[0]).values_list("pk", flat=True))
    assert pile == [picked[0], picked[1]]
    client.post(f"/events/seats/{seats[0].pk}/pile-cover/", {"cover": "checklist"})
    seats[0].refresh_from_db()
    assert seats[0].pile_cover == "checklist"
    assert "a checklist card" in client.get(f"/events/seats/{seats[0].pk}/").content.decode()
    bad = client.post(f"/events/seats/{seats[0].pk}/pile/", {"card": picked[0], "position": 9}, follow=True)
    assert "Pile positions run from" in bad.content.decode()
    assert (
        client_for(players[1])
        .post(f"/events/seats/{seats[0].pk}/pile/", {"card": picked[0], "position": 0})
        .status_code
        == 403
    )


def play_others(pod, but):
    for seat in Seat.objects.filter(pod=pod).exclude(pk=but.pk).order_by("position"):
        pack, cards = head(seat)
        if pack is not None:
            services.make_pick(seat_id=seat.pk, draft_card_id=cards[0].pk, pack_id=pack.pk, actor=SYSTEM)


def finish_round(pod):
    while Pack.objects.filter(pod=pod, round=pod.round, holder__isnull=False).exists():
        for seat in Seat.objects.filter(pod=pod).order_by("position"):
            pack, cards = head(seat)
            if pack is not None and pack.round == pod.round:
                services.make_pick(seat_id=seat.pk, draft_card_id=cards[0].pk, pack_id=pack.pk, actor=SYSTEM)
    pod.refresh_from_db()


def test_review_screen_ready_button_and_deck_building_link(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, pick_timer=False)
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    finish_round(pod)
    assert pod.state == PodState.REVIEWING
    client = client_for(players[0])
    text = client.get(f"/events/seats/{seats[0].pk}/").content.decode()
    assert "Round 1 is over: review your pile" in text and "ready for the next pack" in text
    client.post(f"/events/seats/{seats[0].pk}/ready/")
    text = client.get(f"/events/seats/{seats[0].pk}/").content.decode()
    assert "You are ready. Waiting for 7 other players" in text
    for seat in seats[1:]:
        services.mark_ready(seat_id=seat.pk, actor=SYSTEM)
    pod.refresh_from_db()
    assert pod.round == 2 and pod.state == PodState.DRAFTING
    finish_round(pod)
    services.advance_round(pod_id=pod.pk, actor=SYSTEM)
    pod.refresh_from_db()
    finish_round(pod)
    assert pod.state == PodState.DECK_BUILDING
    text = client.get(f"/events/seats/{seats[0].pk}/").content.decode()
    assert "build your deck" in text
    # Follow the link rather than trusting its text: it must reach the registration page.
    deck_link = re.search(r'href="([^"]+)"[^>]*>Register my deck<', text).group(1)
    assert client.get(deck_link).status_code == 200
    assert "Deck-building time left" in text


def test_staff_can_read_a_seat_page_but_not_pick(pod, organiser, judge, seats):
    for user in (organiser, judge):
        text = client_for(user).get(f"/events/seats/{seats[0].pk}/").content.decode()
        assert "read-only" in text and "pick-button" not in text
        pack, cards = head(seats[0])
        assert (
            client_for(user)
            .post(f"/events/seats/{seats[0].pk}/pick/", {"card": cards[0].pk, "confirmed": "yes"})
            .status_code
            == 403
        )
    assert not Pick.objects.exists()


# --- spectators ---------------------------------------------------------------------------


def test_spectator_sees_only_open_information_and_a_revoked_link_is_refused(pod, organiser):
    play_some_picks(pod, 3)
    token = pod.spectator_token
    anonymous = Client()
    for url in (f"/events/watch/{token}/", f"/events/watch/{token}/panel/"):
        response = anonymous.get(url)
        text = response.content.decode()
        assert response.status_code == 200
        assert not {n for n in all_single_faced(pod) if n in text}, url
    page = anonymous.get(f"/events/watch/{token}/").content.decode()
    some_dfc = DraftCard.objects.filter(pod=pod, is_dfc=True, pk__in=piled(pod=pod)).select_related("card").first()
    assert some_dfc.card.name.split(" // ")[1] in page
    assert f'data-socket="/ws/watch/{token}/?pod={pod.pk}"' in page
    # The organiser makes a new link: the old one stops working (R15 view stays on the new).
    ask = client_for(organiser).post(f"/events/pods/{pod.pk}/control/spectator-link/")
    assert ask.status_code == 200 and b"stops working" in ask.content
    client_for(organiser).post(f"/events/pods/{pod.pk}/control/spectator-link/", {"confirmed": "yes"})
    pod.refresh_from_db()
    assert pod.spectator_token != token
    assert anonymous.get(f"/events/watch/{token}/").status_code == 404
    assert anonymous.get(f"/events/watch/{token}/panel/").status_code == 404
    assert anonymous.get(f"/events/watch/{pod.spectator_token}/").status_code == 200
    assert PodLogEntry.objects.filter(pod=pod, action="spectator_link_regenerated", actor=organiser).exists()


def test_spectators_see_no_piles_after_the_draft(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, pick_timer=False)
    for _ in range(3):
        finish_round(pod)
        if pod.state == PodState.REVIEWING:
            services.advance_round(pod_id=pod.pk, actor=SYSTEM)
            pod.refresh_from_db()
    assert pod.state == PodState.DECK_BUILDING
    text = Client().get(f"/events/watch/{pod.spectator_token}/").content.decode()
    assert "private again" in text
    assert not any(n in text for n in DraftCard.objects.filter(pod=pod).values_list("card__name", flat=True))


# --- staff ----------------------------------------------------------------------------------


def test_dashboard_shows_every_pod_and_who_holds_it_up(pod, organiser, judge, players, seats):
    # Seats 8 and 7 pick, then 8 again: seat 1 has two packs queued and holds up the pod.
    for seat in (seats[7], seats[6]):
        pack, cards = head(seat)
        services.make_pick(seat_id=seat.pk, draft_card_id=cards[0].pk, pack_id=pack.pk, actor=SYSTEM)
    page = client_for(organiser).get(f"/events/{pod.event_id}/dashboard/")
    text = page.content.decode()
    assert page.status_code == 200 and "<title>Dashboard · Cube night" in text
    assert "Pod 1" in text and "Drafting" in text and "Holding up" in text
    assert "Seat 1 p0: 2 packs" in text and "Seat 8 p7" not in text.split("Holding up")[-1]
    assert f'data-socket="/ws/events/{pod.event_id}/"' in text
    judge_text = client_for(judge).get(f"/events/{pod.event_id}/dashboard/").content.decode()
    assert "(read-only)" in judge_text
    panel = client_for(judge).get(f"/events/{pod.event_id}/dashboard/panel/")
    assert panel.status_code == 200 and panel["Cache-Control"] == "no-store"
    assert client_for(players[0]).get(f"/events/{pod.event_id}/dashboard/").status_code == 403


def test_dashboard_empty_state(organiser, cube_names):
    event = services.create_event(
        name="Empty", date=timezone.localdate(), created_by=organiser, draft_format="cube", cube_list=cube_names
    )
    text = client_for(organiser).get(f"/events/{event.pk}/dashboard/").content.decode()
    assert "No pods yet" in text


def test_pod_page_connection_status_queue_and_automatic_picks(pod, organiser, seats):
    presence.forget([s.pk for s in seats])
    presence.touch(seats[0].pk, "channel-a")
    presence.touch(seats[0].pk, "channel-b")
    presence.touch(seats[1].pk, "channel-c")
    presence.leave(seats[1].pk, "channel-c")
    services.replace_with_automatic(seat_id=seats[3].pk, actor=organiser)
    text = client_for(organiser).get(f"/events/pods/{pod.pk}/").content.decode()
    assert "online (2 tabs)" in text and "offline, seen" in text and "automatic drafter" in text
    row = text.split('data-label="Seat">4')[1].split("</tr>")[0]
    assert 'data-label="Automatic picks">1' in row
    assert "Seat 4 replaced by an automatic drafter" in text and "by org" in text


def test_judge_sees_the_pod_read_only_and_controls_are_refused(pod, judge, organiser):
    text = client_for(judge).get(f"/events/pods/{pod.pk}/").content.decode()
    assert "(read-only)" in text and "control-pause" not in text and "Controls" not in text
    for action in ("pause", "extend", "replace", "spectator-link", "start"):
        response = client_for(judge).post(
            f"/events/pods/{pod.pk}/control/{action}/", {"confirmed": "yes", "seconds": "30"}
        )
        assert response.status_code == 403
    pod.refresh_from_db()
    assert pod.state == PodState.DRAFTING
    organiser_text = client_for(organiser).get(f"/events/pods/{pod.pk}/").content.decode()
    assert "control-pause" in organiser_text and "Controls" in organiser_text


def test_every_control_confirms_first_then_acts_and_is_logged(pod, organiser, seats):
    org = client_for(organiser)
    url = f"/events/pods/{pod.pk}/control/"
    ask = org.post(url + "pause/")
    assert (
        ask.status_code == 200
        and b"Every clock stops" in ask.content
        and b'name="confirmed" value="yes"' in ask.content
    )
    pod.refresh_from_db()
    assert pod.state == PodState.DRAFTING
    assert org.post(url + "pause/", {"confirmed": "yes"}).status_code == 302
    pod.refresh_from_db()
    assert pod.state == PodState.PAUSED
    org.post(url + "extend/", {"confirmed": "yes", "seconds": "30", "seat": seats[2].pk})
    org.post(url + "resume/", {"confirmed": "yes"})
    org.post(url + "extend/", {"confirmed": "yes", "seconds": "60"})
    org.post(url + "deck-building-clock/", {"confirmed": "yes", "minutes": "40"})
    # a guest: refused
    free = event_services.register_player(event_id=pod.event_id, user=UserFactory(username="larry"), actor=SYSTEM)
    org.post(url + "hand-seat/", {"confirmed": "yes", "seat": seats[5].pk, "registration": free.pk})
    org.post(url + "replace/", {"confirmed": "yes", "seat": seats[6].pk})
    actions = list(PodLogEntry.objects.filter(pod=pod, actor=organiser).values_list("action", flat=True))
    for action in ("pause", "extend_clocks", "resume", "deck_building_clock", "hand_seat", "replace_with_automatic"):
        assert action in actions
    seats[5].refresh_from_db()
    assert seats[5].registration_id == free.pk
    pod.event.refresh_from_db()
    assert pod.event.deck_building_minutes == 40
    # A refused control says why on the page it came from; bad input too.
    refused = org.post(url + "start/", {"confirmed": "yes"}, follow=True)
    assert "already started" in refused.content.decode()
    nothing = org.post(url + "extend/", {"confirmed": "yes"}, follow=True)
    assert "Give the number of seconds" in nothing.content.decode()
    assert org.post(url + "explode/", {"confirmed": "yes"}).status_code == 404
    assert org.get(url + "pause/").status_code == 405
    # An off-site "next" is ignored.
    away = org.post(url + "pause/", {"confirmed": "yes", "next": "https://evil.example/"})
    assert away["Location"] == f"/events/pods/{pod.pk}/"


def test_downloads_pod_log_and_event_report(pod, organiser, judge, players, seats):
    play_some_picks(pod, 2)
    services.pause_pod(pod_id=pod.pk, actor=organiser)
    staff = client_for(judge)
    text = staff.get(f"/events/pods/{pod.pk}/log.txt")
    assert text.status_code == 200 and "attachment" in text["Content-Disposition"]
    body = text.content.decode()
    assert "Pod log:" in body and "Paused [org]" in body and "=== Seat 8: p7 ===" in body
    data = json.loads(staff.get(f"/events/pods/{pod.pk}/log.json").content)
    assert len(data["seats"]) == 8 and len(data["seats"][0]["picks"]) == 2
    assert data["seats"][0]["picks"][0]["pack"]  # staff see what each pack held
    assert any(e["action"] == "pause" for e in data["log"])
    report = staff.get(f"/events/{pod.event_id}/report.csv")
    assert report["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(report.content.decode())))
    assert len(rows) == 8 and rows[0]["pod"] == "1" and rows[0]["picks"] == "2" and rows[0]["player"] == "p0"
    # A player's own log: their picks, not what the packs held (those cards are hidden now).
    own = json.loads(client_for(players[0]).get(f"/events/seats/{seats[0].pk}/log.json").content)
    assert own["picks"][0]["pack"] is None and own["picks"][0]["card"]


def test_report_cells_never_start_a_formula(organiser, cube_names):
    event = services.create_event(
        name="=HYPERLINK(1)", date=timezone.localdate(), created_by=organiser, draft_format="cube", cube_list=cube_names
    )
    a = event_services.register_player(event_id=event.pk, name="+danger", actor=SYSTEM)
    b = event_services.register_player(event_id=event.pk, name="Safe", actor=SYSTEM)
    services.seat_players(event_id=event.pk, pods=[[a.pk, b.pk]], seed=1, actor=SYSTEM)
    rows = list(csv.reader(io.StringIO(client_for(organiser).get(f"/events/{event.pk}/report.csv").content.decode())))
    assert rows[1][1] == "'=HYPERLINK(1)" and {rows[1][7], rows[2][7]} == {"'+danger", "Safe"}


def test_board_page_for_members_and_staff_only(pod, players, organiser):
    outsider = UserFactory(username="stranger")
    assert client_for(outsider).get(f"/events/pods/{pod.pk}/board/").status_code == 403
    assert client_for(outsider).get(f"/events/seats/{Seat.objects.filter(pod=pod).first().pk}/").status_code == 403
    assert client_for(players[4]).get(f"/events/pods/{pod.pk}/board/").status_code == 200
    assert client_for(organiser).get(f"/events/pods/{pod.pk}/board/").status_code == 200
    assert client_for(outsider).get(f"/events/{pod.event_id}/").status_code == 200  # can join


def test_paused_pod_freezes_the_player_clock(pod, organiser, players, seats):
    services.pause_pod(pod_id=pod.pk, actor=organiser)
    text = client_for(players[0]).get(f"/events/seats/{seats[0].pk}/").content.decode()
    assert "Paused" in text and 'data-frozen="1"' in text and "data-deadline" not in text
    assert "picks resume with the pod" in text


def test_clock_and_state_formatting():
    from drafts.templatetags.draft_tags import clock, seconds_text, state_badge

    assert clock(61_000) == "1:01" and clock(60_001) == "1:01" and clock(-5) == "0:00"
    assert clock(3_600_500) == "1:00:01" and clock(None) == "—"
    assert seconds_text(42) == "42 s" and seconds_text(125) == "2 min 05 s"
    # A state is never told by color alone: an icon and words.
    badge = state_badge("paused", "reviewing")
    assert "Paused (between rounds)" in badge and 'aria-hidden="true"' in badge


def test_staff_reading_a_seat_are_not_addressed_as_its_player(pod, organiser, judge, seats):
    for user in (organiser, judge):
        text = client_for(user).get(f"/events/seats/{seats[0].pk}/").content.decode()
        assert "Your pack" not in text and "Pack in front of" in text
        assert 'class="tag you"' not in text
    mine = client_for(seats[0].registration.user).get(f"/events/seats/{seats[0].pk}/").content.decode()
    assert "Your pack" in mine and 'class="tag you"' in mine


@pytest.mark.django_db
def test_the_board_says_piles_are_private_again_only_once_the_draft_is_over(organiser, players, cube_names):
    """Before the draft nothing has been drafted: no "private again now that the draft is over"."""
    from django.template.loader import render_to_string

    from drafts import selectors
    from drafts.models import Pod, PodState
    from drafts.views.common import present_board
    from tests.drafts.conftest import make_pod

    note = "Drafted cards are private again now that the draft is over."
    pod = make_pod(organiser, players, cube_names, start=False)

    def board_html():
        fresh = Pod.objects.select_related("event").get(pk=pod.pk)
        return render_to_string("drafts/_board.html", {"board": present_board(selectors.open_board(fresh))})

    assert note not in board_html()
    Pod.objects.filter(pk=pod.pk).update(state=PodState.DONE)
    assert note in board_html()


def test_a_misspelt_cube_card_gets_a_suggestion_in_the_readers_language(organiser, cube_names):
    form = {
        "name": "Cube",
        "date": "2026-12-01",
        "enforcement_level": "regular",
        "draft_format": "cube",
        "cube_list": "Singel 001\nSingle 002",
        "pack_size": 15,
        "deck_building_minutes": 25,
    }
    page = client_for(organiser).post("/events/new/", form, HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert "“Singel 001”: você quis dizer Single 001" in page
    assert "did you mean" not in page
    assert not Event.objects.exists()


AUTOMATIC_WORDS = (
    "Your seat is now drafted automatically",
    "The organiser gave your seat to an automatic drafter",
    "Your picks so far stay in the seat's pile",
)


@pytest.mark.parametrize("accept", ["en", "pt-br", "es", "it", "ru"])
def test_the_player_of_an_automatic_seat_reads_so_and_has_no_controls(pod, organiser, players, seats, accept):
    """Issue 46 item 2, server-rendered: the page said "Waiting for the next pack" with the pile
    controls on. It says the seat is drafted automatically, in the reader's language, with no
    pick or pile control; staff reading the seat see it as before."""
    pack, cards = head(seats[0])
    services.make_pick(seat_id=seats[0].pk, draft_card_id=cards[0].pk, pack_id=pack.pk, actor=players[0])
    services.replace_with_automatic(seat_id=seats[0].pk, actor=organiser)
    page = client_for(players[0]).get(f"/events/seats/{seats[0].pk}/", HTTP_ACCEPT_LANGUAGE=accept)
    text = page.content.decode()
    assert 'id="automatic-seat"' in text
    assert all((word in text) == (accept == "en") for word in AUTOMATIC_WORDS), accept
    for control in ('id="pack-form"', 'data-api="move"', 'id="pile-cover"', 'draggable="true"', "Waiting for the next"):
        assert control not in text, control
    staff = client_for(organiser).get(f"/events/seats/{seats[0].pk}/").content.decode()
    assert 'id="automatic-seat"' not in staff
