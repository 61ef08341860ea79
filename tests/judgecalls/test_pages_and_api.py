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


def test_a_call_is_linked_to_a_penalty_chosen_from_its_players_penalties(floor):
    """Issue 46 item 5: the resolve form lists the event's penalties of the call's players by
    name (a select), not a box for a number; the API keeps taking the id, checked the same."""
    from penalties import services as penalty_services

    call = services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), reason="Drew 8", now=T0)

    def issue(registration):
        return penalty_services.issue_penalty(
            event_id=floor.event.pk,
            registration_id=registration.pk,
            infraction_code="slow_play",
            actor=floor.judge,
            description="Slow",
            now=T0,
        )

    mine, theirs = issue(floor.match.player_b), issue(floor.other_match.player_a)
    judge = browser(floor.judge)
    panel = judge.get(reverse("judgecalls:queue-panel", args=[floor.event.pk])).content.decode()
    row = panel.split(f'data-call="{call.pk}"')[1].split("</tr>")[0]
    assert 'name="penalty_id" min=' not in row and '<select name="penalty_id"' in row
    assert f'<option value="{mine.pk}">#{mine.pk} · {floor.match.player_b.name} · ' in row
    assert f'value="{theirs.pk}"' not in row  # another table's player
    # The API still takes the number, with the same check.
    api = floor.client(floor.judge)
    wrong = api.post(
        f"/api/judge-calls/{call.pk}/resolve/", {"outcome": "penalty", "penalty_id": theirs.pk}, format="json"
    )
    assert wrong.status_code == 400 and wrong.json()["errors"][0]["code"] == "penalty_mismatch"
    judge.post(
        reverse("judgecalls:step", args=[call.pk, "resolve"]), {"outcome": "penalty", "penalty_id": str(mine.pk)}
    )
    assert JudgeCall.objects.get(pk=call.pk).penalty == mine


def test_the_penalty_form_opened_from_a_call_comes_back_to_it_with_the_penalty_chosen(floor):
    """Issue 46 item 5, the other way: issuing from the call's context returns to the call,
    the new penalty chosen in its resolve form; an off-site return address is ignored."""
    from judgecalls.context import call_context
    from penalties.models import Penalty

    call = services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), reason="Drew 8", now=T0)
    judge = browser(floor.judge)
    (first, _) = call_context(call, T0, floor.judge)["players"]
    form_url = first.penalty_url
    page = judge.get(form_url).content.decode()
    here = reverse("judgecalls:context", args=[call.pk])
    assert f'<input type="hidden" name="next" value="{here}">' in page
    fields = {
        "event": floor.event.pk,
        "registration": first.registration.pk,
        "infraction": "slow_play",
        "description": "Slow",
        "penalty": "",
        "next": here,
    }
    answer = judge.post(form_url, fields)
    penalty = Penalty.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"{here}?penalty={penalty.pk}"
    context = judge.get(answer["Location"]).content.decode()
    resolve = context.split('id="call-resolve"')[1].split("</section>")[0]
    assert f'<option value="{penalty.pk}" selected>' in resolve and '<option value="penalty" selected>' in resolve
    off_site = judge.post(form_url, {**fields, "next": "https://evil.example/"})
    assert off_site["Location"] == reverse("penalties:detail", args=[Penalty.objects.latest("pk").pk])
