"""The judge-call pages and API: the caller's button and status, the staff queue and its steps."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from judgecalls import services
from judgecalls.models import CallStatus, JudgeCall
from tests.judgecalls.conftest import T0

pytestmark = pytest.mark.django_db


def browser(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_match_page_has_the_call_button_and_then_says_who_is_coming(floor):
    player = browser(floor.player_a())
    me = reverse("matches:me", args=[floor.event.pk])
    page = player.get(me).content.decode()
    assert "call-judge" in page
    action = reverse("judgecalls:call-match", args=[floor.match.pk])
    assert action in page
    answer = player.post(action, {"reason": "Trigger missed", "next": me})
    assert answer.status_code == 302 and answer["Location"] == me
    call = JudgeCall.objects.get()
    assert call.reason == "Trigger missed"
    page = player.get(me).content.decode()
    assert "Judge called. Please wait at your seat." in page and "call-judge" not in page
    services.claim_call(call_id=call.pk, actor=floor.judge, now=T0)
    assert "A judge is coming: judge." in player.get(me).content.decode()


def test_the_call_form_never_redirects_off_site(floor):
    answer = browser(floor.player_a()).post(
        reverse("judgecalls:call-match", args=[floor.match.pk]), {"next": "https://evil.example/"}
    )
    assert answer["Location"] == reverse("home")


def test_the_draft_page_has_the_call_button_for_its_player_only(floor):
    seat = floor.pod.seats.order_by("position")[0]
    user = floor.user_of[seat.registration_id]
    url = reverse("drafts:seat", args=[seat.pk])
    action = reverse("judgecalls:call-seat", args=[seat.pk])
    assert action in browser(user).get(url).content.decode()
    assert action not in browser(floor.judge).get(url).content.decode()
    browser(user).post(action, {"reason": "Misdeal", "next": url})
    assert JudgeCall.objects.get().seat == seat


def test_the_queue_page_lists_calls_with_claimant_and_steps_work(floor):
    call = services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), reason="Ruling", now=T0)
    judge = browser(floor.judge)
    page = judge.get(reverse("judgecalls:queue", args=[floor.event.pk])).content.decode()
    assert f"/ws/judgecalls/events/{floor.event.pk}/" in page and "Round 1 · table 1" in page and "Ruling" in page
    claim = reverse("judgecalls:step", args=[call.pk, "claim"])
    assert claim in page
    judge.post(claim)
    panel = browser(floor.judge2).get(reverse("judgecalls:queue-panel", args=[floor.event.pk])).content.decode()
    assert "A judge is coming: <strong>judge</strong>" in panel
    judge.post(reverse("judgecalls:step", args=[call.pk, "extension"]), {"minutes": "3"})
    floor.match.refresh_from_db()
    assert floor.match.extension_minutes == 3
    judge.post(reverse("judgecalls:step", args=[call.pk, "resolve"]), {"outcome": "ruling", "penalty_id": ""})
    assert JudgeCall.objects.get().status == CallStatus.RESOLVED


def test_a_refused_step_is_a_message_not_an_error(floor):
    call = services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), now=T0)
    services.claim_call(call_id=call.pk, actor=floor.judge, now=T0)
    answer = browser(floor.judge2).post(reverse("judgecalls:step", args=[call.pk, "claim"]), follow=True)
    assert answer.status_code == 200 and "judge has already claimed this call." in answer.content.decode()
    assert browser(floor.judge).post(reverse("judgecalls:step", args=[call.pk, "nonsense"])).status_code == 404


def test_players_never_see_the_queue(floor):
    services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), reason="SECRET", now=T0)
    for user in (floor.player_a(), floor.player_b(), floor.outsider):
        for url in (
            reverse("judgecalls:queue", args=[floor.event.pk]),
            reverse("judgecalls:queue-panel", args=[floor.event.pk]),
        ):
            assert browser(user).get(url).status_code == 403
        assert floor.client(user).get(f"/api/events/{floor.event.pk}/judge-calls/").status_code == 403


def test_the_api_calls_claims_and_the_caller_reads_only_the_state(floor):
    answer = floor.client(floor.player_a()).post(
        f"/api/matches/{floor.match.pk}/judge-call/", {"reason": "Help"}, format="json"
    )
    assert answer.status_code == 201
    call_id = answer.json()["id"]
    assert answer.json() == {"id": call_id, "status": "open", "judge": None, "created_at": answer.json()["created_at"]}
    again = floor.client(floor.player_a()).post(f"/api/matches/{floor.match.pk}/judge-call/", {}, format="json")
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "already_calling"
    queue = floor.client(floor.judge).get(f"/api/events/{floor.event.pk}/judge-calls/").json()
    assert [row["table"] for row in queue] == [1] and queue[0]["reason"] == "Help"
    claimed = floor.client(floor.judge).post(f"/api/judge-calls/{call_id}/claim/")
    assert claimed.status_code == 200 and claimed.json()["claimed_by"] == "judge"
    second = floor.client(floor.judge2).post(f"/api/judge-calls/{call_id}/claim/")
    assert second.status_code == 409 and second.json()["errors"][0]["code"] == "already_claimed"
    mine = floor.client(floor.player_a()).get(f"/api/judge-calls/{call_id}/").json()
    assert mine["judge"] == "judge" and "reason" not in mine
    assert floor.client(floor.player_b()).get(f"/api/judge-calls/{call_id}/").status_code == 403
    bad = floor.client(floor.judge).post(f"/api/judge-calls/{call_id}/resolve/", {"outcome": "x"}, format="json")
    assert bad.status_code == 400
    ext = floor.client(floor.judge).post(f"/api/judge-calls/{call_id}/extension/", {"minutes": "a"}, format="json")
    assert ext.status_code == 400
    done = floor.client(floor.judge).post(
        f"/api/judge-calls/{call_id}/resolve/", {"outcome": "no_action"}, format="json"
    )
    assert done.status_code == 200 and done.json()["status"] == "resolved"


def test_a_player_step_on_the_api_is_refused_before_the_body(floor):
    call = services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), now=T0)
    answer = floor.client(floor.player_a()).post(f"/api/judge-calls/{call.pk}/resolve/", {"outcome": 3}, format="json")
    assert answer.status_code == 403
    assert floor.client(floor.judge).post("/api/judge-calls/999999/claim/").status_code == 404


def test_the_call_box_in_the_live_panel_returns_to_the_page_not_the_fragment(floor):
    player = browser(floor.player_a())
    panel = player.get(reverse("matches:me-panel", args=[floor.event.pk])).content.decode()
    me = reverse("matches:me", args=[floor.event.pk])
    assert f'name="next" value="{me}"' in panel
