"""The matches API: a whole pod played through HTTP, 403 before 400, what each viewer sees,
CSV exports and the live socket."""

import csv
import datetime as dt
import io

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from decks.models import Deck
from drafts.models import PodState
from draftsite.routing import websocket_urlpatterns
from matches import services
from matches.models import Match, MatchStatus, Round
from penalties import services as penalty_services
from tests.matches.conftest import T0, Tournament


def body_codes(response):
    return [e["code"] for e in response.json()["errors"]]


@pytest.mark.django_db
def test_a_pod_plays_three_rounds_through_the_api(world):
    org = world.client(world.organiser)
    response = org.put(f"/api/events/{world.event.pk}/matches/settings/", {"mode": "per_pod", "seed": 5}, format="json")
    assert response.status_code == 200 and response.json()["round_minutes"] == 50
    for number in (1, 2, 3):
        response = org.post(f"/api/events/{world.event.pk}/rounds/", {"pod": world.pod.pk}, format="json")
        assert response.status_code == 201, response.json()
        round_id = response.json()["id"]
        assert response.json()["number"] == number and len(response.json()["matches"]) == 4
        assert org.post(f"/api/rounds/{round_id}/start/").json()["state"] == "running"
        for match in response.json()["matches"]:
            a = world.client(world.user_of[match["player_a"]["registration"]])
            b = world.client(world.user_of[match["player_b"]["registration"]])
            reported = a.post(f"/api/matches/{match['id']}/report/", {"won": 2, "lost": 1}, format="json")
            assert reported.status_code == 200 and reported.json()["status"] == "reported"
            confirmed = b.post(f"/api/matches/{match['id']}/confirm/")
            assert confirmed.json()["status"] == "confirmed"
            assert confirmed.json()["result"] == {
                "a_wins": 2,
                "b_wins": 1,
                "draws": 0,
                "double_loss": False,
                "penalised": False,
            }
        assert org.post(f"/api/rounds/{round_id}/finish/").json()["state"] == "finished"
    standings = world.client(None).get(f"/api/events/{world.event.pk}/standings/?pod={world.pod.pk}").json()
    assert [row["match_points"] for row in standings["standings"]] == [9, 6, 6, 6, 3, 3, 3, 0]
    assert standings["standings"][0]["record"] == "3-0-0"
    response = org.post(f"/api/events/{world.event.pk}/rounds/", {"pod": world.pod.pk}, format="json")
    assert response.status_code == 409 and body_codes(response) == ["all_rounds_played"]


@pytest.mark.django_db
def test_refusals_have_stable_codes_and_403_comes_before_400(world):
    world.configure()
    round_obj = world.pair()
    match = round_obj.matches.get(table=1)
    stranger = world.client(world.user_of[round_obj.matches.get(table=2).player_a_id])
    # Not your match: 403 even with a nonsense body.
    response = stranger.post(f"/api/matches/{match.pk}/report/", {"won": "lots"}, format="json")
    assert response.status_code == 403 and body_codes(response) == ["not_your_match"]
    player = world.client(world.user_of[match.player_a_id])
    response = player.post(f"/api/rounds/{round_obj.pk}/start/", {"bad": 1}, format="json")
    assert response.status_code == 403 and body_codes(response) == ["not_event_staff"]
    response = player.post(f"/api/matches/{match.pk}/result/", {"a_wins": "x"}, format="json")
    assert response.status_code == 403 and body_codes(response) == ["not_event_staff"]
    # The round has not started.
    response = player.post(f"/api/matches/{match.pk}/report/", {"won": 2, "lost": 0}, format="json")
    assert response.status_code == 409 and body_codes(response) == ["round_not_started"]
    services.start_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    response = player.post(f"/api/matches/{match.pk}/report/", {"won": 3, "lost": 0}, format="json")
    assert response.status_code == 400 and body_codes(response) == ["impossible_score"]
    assert not match.reports.exists()
    response = player.post(f"/api/matches/{match.pk}/confirm/")
    assert response.status_code == 400 and body_codes(response) == ["nothing_to_confirm"]
    player.post(f"/api/matches/{match.pk}/report/", {"won": 2, "lost": 0}, format="json")
    response = player.post(f"/api/matches/{match.pk}/confirm/")
    assert response.status_code == 400 and body_codes(response) == ["cannot_confirm_own_report"]
    response = world.client(world.organiser).post(f"/api/rounds/{round_obj.pk}/repair/", {"tables": []}, format="json")
    assert response.status_code == 409 and body_codes(response) == ["round_already_started"]


@pytest.mark.django_db
def test_a_player_sees_their_own_match_but_not_others_penalties_or_reports(world):
    world.configure()
    round_obj = world.pair()
    services.start_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    mine, theirs = round_obj.matches.get(table=1), round_obj.matches.get(table=2)
    penalty_services.issue_penalty(
        event_id=world.event.pk,
        registration_id=theirs.player_a_id,
        infraction_code="tardiness",
        actor=world.judge,
        match_round=1,
        description="Secret: arrived at 10:14",
        now=T0,
    )
    me = world.client(world.user_of[mine.player_a_id])
    other = me.get(f"/api/matches/{theirs.pk}/").json()
    assert "penalties" not in other and "reports" not in other  # public: pairing and result only
    mate = world.client(world.user_of[theirs.player_b_id]).get(f"/api/matches/{theirs.pk}/").json()
    assert mate["penalties"] == [{"registration": theirs.player_a_id, "penalty": "game_loss"}]
    staff = world.client(world.judge).get(f"/api/matches/{theirs.pk}/").json()
    assert staff["penalties"][0]["infraction"] == "Tardiness"
    for url in (
        f"/api/rounds/{round_obj.pk}/",
        f"/api/events/{world.event.pk}/standings/",
        f"/matches/rounds/{round_obj.pk}/",
        f"/matches/events/{world.event.pk}/standings/",
        f"/api/events/{world.event.pk}/results.csv",
        f"/matches/events/{world.event.pk}/me/",
    ):
        body = me.get(url).content.decode()
        assert "Secret: arrived" not in body and "game_loss" not in body and "Game Loss" not in body, url
    my = me.get(f"/api/events/{world.event.pk}/my-match/").json()
    assert my["match"]["id"] == mine.pk and my["opponent"]["registration"] == mine.player_b_id
    assert my["clock"]["remaining_seconds"] is not None and my["clock"]["additional_turns"] == 5


@pytest.mark.django_db
def test_csv_exports(world):
    world.configure()
    round_obj = world.play_round(world.pair())
    client = world.client(None)
    pairings = list(csv.reader(io.StringIO(client.get(f"/api/events/{world.event.pk}/pairings.csv").content.decode())))
    assert pairings[0] == ["Pod", "Round", "Table", "Player", "Opponent"]
    assert pairings[1] == ["1", "1", "1", "Player 1", "Player 5"]
    results = list(
        csv.reader(
            io.StringIO(
                client.get(f"/matches/events/{world.event.pk}/results.csv?round={round_obj.pk}").content.decode()
            )
        )
    )
    assert results[1][4:9] == ["Player 1", "Player 5", "2", "0", "0"]
    standings = list(
        csv.reader(io.StringIO(client.get(f"/api/events/{world.event.pk}/standings.csv").content.decode()))
    )
    assert standings[1][:5] == ["1", "1", "Player 1", "3", "1-0-0"] and len(standings) == 9


@pytest.mark.django_db
def test_csv_cells_never_start_a_formula(db):
    t = Tournament(size=2)
    reg = t.regs[0]
    reg.name = '=HYPERLINK("x")'
    reg.save()
    t.configure()
    t.pair()
    text = t.client(None).get(f"/api/events/{t.event.pk}/pairings.csv").content.decode()
    assert "'=HYPERLINK" in text


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_socket_says_changed_when_a_result_is_reported():
    t = Tournament()
    t.configure()
    round_obj = t.pair()
    services.start_round(round_id=round_obj.pk, actor=t.organiser, now=T0)
    match = Match.objects.filter(round=round_obj).order_by("table").first()

    async def scenario():
        communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"ws/matches/events/{t.event.pk}/")
        communicator.scope["user"] = AnonymousUser()
        connected, _ = await communicator.connect()
        assert connected
        assert (await communicator.receive_json_from())["type"] == "hello"
        assert (await communicator.receive_json_from())["type"] == "changed"
        from channels.db import database_sync_to_async

        await database_sync_to_async(services.report_result)(
            match_id=match.pk, actor=t.user_of[match.player_a_id], won=2, lost=0, now=T0
        )
        message = await communicator.receive_json_from(timeout=5)
        await communicator.disconnect()
        return message

    message = async_to_sync(scenario)()
    assert message == {"type": "changed", "pod": None, "event": t.event.pk}
    assert Match.objects.get(pk=match.pk).status == MatchStatus.REPORTED


@pytest.mark.django_db
def test_pairing_round_one_says_who_has_no_legal_deck_and_which_pods_still_build(world):
    """Issue 27: the API pairs as it is asked (pairing anyway is the call itself) and answers
    the dashboard's round-1 warning with the round, read from the same selector as the page."""
    world.configure()
    type(world.pod).objects.filter(pk=world.pod.pk).update(
        state=PodState.DECK_BUILDING, deck_building_deadline=T0 + dt.timedelta(minutes=25)
    )
    for reg in world.regs[:6]:
        Deck.objects.create(
            event=world.event, registration=reg, format="limited", valid=True, submitted_at=T0, updated_at=T0
        )
    Deck.objects.create(
        event=world.event, registration=world.regs[6], format="limited", valid=False, submitted_at=T0, updated_at=T0
    )
    org = world.client(world.organiser)
    first = org.post(f"/api/events/{world.event.pk}/rounds/", {"pod": world.pod.pk}, format="json")
    assert first.status_code == 201 and first.json()["number"] == 1
    warning = first.json()["round_one_warning"]
    assert warning["no_deck"] == [{"registration": world.regs[7].pk, "name": "Player 8"}]
    assert warning["illegal_deck"] == [{"registration": world.regs[6].pk, "name": "Player 7"}]
    assert warning["deck_building_pods"] == [{"pod": world.pod.pk, "number": 1}]
    world.play_round(Round.objects.get(pk=first.json()["id"]))
    second = org.post(f"/api/events/{world.event.pk}/rounds/", {"pod": world.pod.pk}, format="json")
    assert second.status_code == 201 and second.json()["round_one_warning"] is None  # round 2: no warning
