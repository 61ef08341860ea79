"""The head judge's review, appeals and statements: allowed and refused transitions."""

from __future__ import annotations

import pytest

from draftsite.errors import DomainError
from events.models import EventStaff
from penalties import selectors, services
from penalties.models import Appeal, PenaltyAudit
from tests.penalties.conftest import T0, codes, minutes

pytestmark = pytest.mark.django_db


def review(world, penalty, decision, reason="Because.", penalty_kind=None, actor=None):
    return services.review_penalty(
        penalty_id=penalty.pk,
        actor=actor or world.head_judge,
        decision=decision,
        reason=reason,
        penalty=penalty_kind,
        now=minutes(10),
    )


def refused(call) -> str:
    with pytest.raises(DomainError) as exc:
        call()
    return exc.value.code


ALLOWED = [
    # (infraction, decision, new penalty, penalty after, status after)
    ("tardiness", "uphold", None, "game_loss", "final"),
    ("tardiness", "upgrade", "match_loss", "match_loss", "final"),
    ("tardiness", "upgrade", "disqualification", "disqualification", "final"),
    ("tardiness", "downgrade", "warning", "warning", "final"),
    ("tardiness", "downgrade", "no_penalty", "no_penalty", "final"),
    ("tardiness", "withdraw", None, "game_loss", "withdrawn"),
    ("slow_play", "uphold", None, "warning", "final"),  # a final warning stays reviewable
    ("slow_play", "upgrade", "game_loss", "game_loss", "final"),
    ("slow_play", "downgrade", "no_penalty", "no_penalty", "final"),
    ("slow_play", "withdraw", None, "warning", "withdrawn"),
]


@pytest.mark.parametrize(("code", "decision", "kind", "after", "status"), ALLOWED)
def test_allowed_decisions(world, code, decision, kind, after, status):
    penalty = world.issue(code)
    before = (penalty.penalty, penalty.status)
    reviewed = review(world, penalty, decision, reason="Reviewed at the desk.", penalty_kind=kind)
    assert (reviewed.penalty, reviewed.status) == (after, status)
    assert reviewed.reviewed_by == world.head_judge
    last = reviewed.history.last()
    assert (last.action, last.actor, last.reason) == (decision, world.head_judge, "Reviewed at the desk.")
    assert (last.from_penalty, last.from_status) == before
    assert (last.to_penalty, last.to_status) == (after, status)


REFUSED = [
    ("tardiness", "upgrade", "warning", "invalid_transition"),  # an upgrade must be heavier
    ("tardiness", "upgrade", "game_loss", "invalid_transition"),
    ("tardiness", "downgrade", "match_loss", "invalid_transition"),  # a downgrade must be lighter
    ("tardiness", "downgrade", "game_loss", "invalid_transition"),
    ("tardiness", "upgrade", None, "penalty_required"),
    ("tardiness", "downgrade", None, "penalty_required"),
    ("tardiness", "uphold", "warning", "invalid_transition"),
    ("tardiness", "withdraw", "warning", "invalid_transition"),
    ("tardiness", "overturn", None, "invalid_decision"),
    ("slow_play", "upgrade", "caution", "invalid_penalty"),
    ("unsporting_conduct_cheating", "upgrade", "disqualification", "invalid_transition"),
    ("missed_trigger", "downgrade", "no_penalty", "invalid_transition"),
]


@pytest.mark.parametrize(("code", "decision", "kind", "error"), REFUSED)
def test_refused_decisions(world, code, decision, kind, error):
    penalty = world.issue(code)
    count = PenaltyAudit.objects.count()
    assert refused(lambda: review(world, penalty, decision, penalty_kind=kind)) == error
    penalty.refresh_from_db()
    assert PenaltyAudit.objects.count() == count and penalty.reviewed_by is None


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_a_reason_is_required(world, reason):
    penalty = world.issue("tardiness")
    assert refused(lambda: review(world, penalty, "uphold", reason=reason)) == "reason_required"


def test_a_judge_cannot_review_their_own_penalty(world):
    penalty = world.issue("tardiness", actor=world.head_judge)
    assert refused(lambda: review(world, penalty, "uphold")) == "cannot_review_own_penalty"
    # the head judge's ruling is final as issued (MTR 2.9): no other head judge reviews it again
    assert refused(lambda: review(world, penalty, "uphold", actor=world.head_judge2)) == "already_reviewed"


def _sole_head_judge(world):
    EventStaff.objects.filter(event=world.event, user=world.head_judge2).delete()


def test_a_penalty_the_sole_head_judge_issues_is_final_at_once(world):
    """Issue 46 item 4: with one head judge, their Match Loss was applied yet "awaiting the head
    judge" forever. The head judge is the final authority (MTR 1.7, 2.9): final as issued."""
    _sole_head_judge(world)
    penalty = world.issue(
        "tardiness", actor=world.head_judge, penalty="match_loss", deviation_reason="Arrived after the round's end."
    )
    assert (penalty.penalty, penalty.status) == ("match_loss", "final")
    assert (penalty.reviewed_by, penalty.reviewed_at) == (world.head_judge, T0)
    assert penalty.history.get().to_status == "final"
    assert not selectors.review_queue(world.head_judge).filter(pk=penalty.pk).exists()
    # nobody is above the only head judge: the appeal is refused with a code, not left pending
    assert (
        refused(lambda: services.appeal_penalty(penalty_id=penalty.pk, actor=world.player, statement="Unfair."))
        == "head_judge_ruling_final"
    )
    assert not Appeal.objects.exists()
    # a floor judge's Game Loss still waits for the head judge, who reviews it
    floor = world.issue("tardiness")
    assert floor.status == "pending_review" and floor.reviewed_by is None
    assert review(world, floor, "uphold").status == "final"
    # and a floor judge's penalty is appealed to that head judge as before
    other = world.issue("slow_play", now=T0)
    services.appeal_penalty(penalty_id=other.pk, actor=world.player, statement="I was not slow.")
    decided = services.decide_appeal(penalty_id=other.pk, actor=world.head_judge, decision="uphold", reason="Slow.")
    assert decided.status == "decided"


def test_a_head_judges_penalty_is_appealed_to_another_head_judge(world):
    penalty = world.issue("tardiness", actor=world.head_judge)
    services.appeal_penalty(penalty_id=penalty.pk, actor=world.player, statement="Unfair.")
    appeal = services.decide_appeal(
        penalty_id=penalty.pk, actor=world.head_judge2, decision="downgrade", penalty="warning", reason="Told."
    )
    assert appeal.status == "decided"
    penalty.refresh_from_db()
    assert (penalty.penalty, penalty.status) == ("warning", "final")


def test_the_pages_say_a_head_judges_penalty_is_final_and_offer_no_appeal_nobody_can_hear(world, client):
    penalty = world.issue("tardiness", actor=world.head_judge)
    client.force_login(world.player)
    page = client.get(f"/penalties/{penalty.pk}/").content.decode()
    # another head judge of the event hears the appeal
    assert "may appeal once to another head judge" in page and f"/penalties/{penalty.pk}/appeal/" in page
    _sole_head_judge(world)
    page = client.get(f"/penalties/{penalty.pk}/").content.decode()
    assert "final as issued, with no appeal" in page and f"/penalties/{penalty.pk}/appeal/" not in page
    client.force_login(world.head_judge)
    page = client.get(f"/penalties/{penalty.pk}/").content.decode()
    assert "another head judge must review it" not in page and "Head judge's review" not in page
    answer = client.post(
        f"/penalties/new/?event={world.event.pk}",
        {"event": world.event.pk, "registration": world.other_reg.pk, "infraction": "slow_play", "description": "x"},
        follow=True,
    )
    assert "it is final: you issued it as the head judge." in answer.content.decode()


def test_the_api_issues_a_head_judges_penalty_final(world):
    _sole_head_judge(world)
    response = world.client(world.head_judge).post(
        f"/api/events/{world.event.pk}/penalties/",
        {"registration": world.reg.pk, "infraction": "tardiness", "description": "Late."},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "final"


def test_a_judge_who_is_not_head_judge_cannot_review(world):
    penalty = world.issue("tardiness", actor=world.head_judge)
    for user in (world.judge, world.organiser, world.other_judge, world.player, world.staff):
        assert refused(lambda: review(world, penalty, "uphold", actor=user)) == "not_head_judge"  # noqa: B023 - called at once


def test_a_withdrawn_penalty_cannot_be_upgraded_or_reviewed_again(world):
    penalty = world.issue("slow_play")
    review(world, penalty, "withdraw", reason="Misidentified player.")
    for decision, kind in (("upgrade", "game_loss"), ("downgrade", "no_penalty"), ("uphold", None), ("withdraw", None)):
        assert refused(lambda: review(world, penalty, decision, penalty_kind=kind)) == "penalty_withdrawn"  # noqa: B023 - called at once


def test_review_api_round_trip_and_errors(world):
    penalty = world.issue("tardiness")
    hj = world.client(world.head_judge)
    url = f"/api/penalties/{penalty.pk}/review/"
    missing = hj.post(url, {"decision": "downgrade", "penalty": "warning"}, format="json")
    assert missing.status_code == 400 and codes(missing) == ["reason_required"]
    bad = hj.post(url, {"decision": "promote", "reason": "x"}, format="json")
    assert bad.status_code == 400 and codes(bad) == ["invalid_choice"]
    wrong_way = hj.post(url, {"decision": "upgrade", "penalty": "warning", "reason": "x"}, format="json")
    assert wrong_way.status_code == 400 and codes(wrong_way) == ["invalid_transition"]
    ok = hj.post(
        url, {"decision": "downgrade", "penalty": "warning", "reason": "Judge was told in time."}, format="json"
    )
    assert ok.status_code == 200 and ok.json()["penalty"] == "warning" and ok.json()["status"] == "final"
    assert [h["action"] for h in ok.json()["history"]] == ["issued", "downgrade"]
    # The review is the head judge's final decision: no second one (a player may still appeal).
    again = hj.post(url, {"decision": "withdraw", "reason": "Wrong table."}, format="json")
    assert again.status_code == 409 and codes(again) == ["already_reviewed"]
    other = world.issue("tardiness")
    other_url = f"/api/penalties/{other.pk}/review/"
    hj.post(other_url, {"decision": "withdraw", "reason": "Wrong table."}, format="json")
    gone = hj.post(other_url, {"decision": "upgrade", "penalty": "match_loss", "reason": "x"}, format="json")
    assert gone.status_code == 409 and codes(gone) == ["penalty_withdrawn"]
    own = world.issue("tardiness", actor=world.head_judge)
    mine = hj.post(f"/api/penalties/{own.pk}/review/", {"decision": "uphold", "reason": "x"}, format="json")
    assert mine.status_code == 403 and codes(mine) == ["cannot_review_own_penalty"]


# --- appeals ---------------------------------------------------------------------------


def test_the_player_appeals_once_and_the_head_judge_decides_finally(world):
    penalty = world.issue("tardiness")
    player = world.client(world.player)
    url = f"/api/penalties/{penalty.pk}/appeal/"
    empty = player.post(url, {"statement": "  "}, format="json")
    assert empty.status_code == 400 and codes(empty) == ["statement_required"]
    first = player.post(url, {"statement": "I told the judge I would be late."}, format="json")
    assert first.status_code == 201 and first.json()["appeal"]["status"] == "pending"
    again = player.post(url, {"statement": "Please!"}, format="json")
    assert again.status_code == 409 and codes(again) == ["already_appealed"]
    assert Appeal.objects.count() == 1

    hj = world.client(world.head_judge)
    decision_url = f"/api/penalties/{penalty.pk}/appeal/decision/"
    no_reason = hj.post(decision_url, {"decision": "downgrade", "penalty": "warning"}, format="json")
    assert no_reason.status_code == 400 and codes(no_reason) == ["reason_required"]
    decided = hj.post(
        decision_url,
        {"decision": "downgrade", "penalty": "warning", "reason": "The player had warned the scorekeeper."},
        format="json",
    )
    assert decided.status_code == 200
    body = decided.json()
    assert body["penalty"] == "warning" and body["appeal"]["status"] == "decided"
    assert body["appeal"]["decision"] == "downgrade"
    assert [h["action"] for h in body["history"]] == ["issued", "appealed", "appeal_decided"]
    # final: neither a second decision nor a later review changes it
    twice = hj.post(decision_url, {"decision": "uphold", "reason": "x"}, format="json")
    assert twice.status_code == 409 and codes(twice) == ["appeal_decided"]
    later = hj.post(
        f"/api/penalties/{penalty.pk}/review/",
        {"decision": "upgrade", "penalty": "game_loss", "reason": "x"},
        format="json",
    )
    assert later.status_code == 409 and codes(later) == ["appeal_decided"]


def test_only_the_player_may_appeal(world):
    penalty = world.issue("tardiness")
    for user in (world.other_player, world.judge, world.head_judge):
        response = world.client(user).post(f"/api/penalties/{penalty.pk}/appeal/", {"statement": "x"}, format="json")
        assert response.status_code == 403 and codes(response) == ["not_your_penalty"]
    assert not Appeal.objects.exists()


def test_deciding_a_missing_appeal(world):
    penalty = world.issue("tardiness")
    response = world.client(world.head_judge).post(
        f"/api/penalties/{penalty.pk}/appeal/decision/", {"decision": "uphold", "reason": "x"}, format="json"
    )
    assert response.status_code == 404 and codes(response) == ["no_appeal"]


def test_a_withdrawn_penalty_cannot_be_appealed_and_withdrawal_closes_an_appeal(world):
    penalty = world.issue("tardiness")
    services.appeal_penalty(penalty_id=penalty.pk, actor=world.player, statement="Unfair.")
    review(world, penalty, "withdraw", reason="Scorekeeper error.")
    appeal = Appeal.objects.get()
    assert (appeal.status, appeal.decision) == ("decided", "withdraw")
    other = world.issue("slow_play")
    review(world, other, "withdraw", reason="x")
    assert (
        refused(lambda: services.appeal_penalty(penalty_id=other.pk, actor=world.player, statement="x"))
        == "penalty_withdrawn"
    )


def test_the_issuing_head_judge_cannot_decide_the_appeal(world):
    penalty = world.issue("tardiness", actor=world.head_judge)
    services.appeal_penalty(penalty_id=penalty.pk, actor=world.player, statement="Unfair.")
    assert (
        refused(
            lambda: services.decide_appeal(penalty_id=penalty.pk, actor=world.head_judge, decision="uphold", reason="x")
        )
        == "cannot_review_own_penalty"
    )


# --- pages: confirm step, statements, disqualification report ---------------------------


def test_review_page_asks_to_confirm_before_deciding(world, client):
    penalty = world.issue("tardiness")
    client.force_login(world.head_judge)
    page = client.get(f"/penalties/{penalty.pk}/")
    assert page.status_code == 200 and "Head judge's review" in page.content.decode()
    step1 = client.post(
        f"/penalties/{penalty.pk}/review/", {"decision": "downgrade", "penalty": "warning", "reason": "Told the judge."}
    )
    assert step1.status_code == 200 and "Confirm your decision" in step1.content.decode()
    penalty.refresh_from_db()
    assert penalty.penalty == "game_loss"  # nothing changed yet
    step2 = client.post(
        f"/penalties/{penalty.pk}/review/",
        {"decision": "downgrade", "penalty": "warning", "reason": "Told the judge.", "confirm": "yes"},
    )
    assert step2.status_code == 302
    # After the decision the form is gone: the page says it is reviewed, and that the player
    # may still appeal once (not yet final: issue 27).
    after = client.get(f"/penalties/{penalty.pk}/").content.decode()
    assert "Head judge's review" not in after and 'name="decision"' not in after
    assert "Reviewed by the head judge. The player may still appeal once" in after
    penalty.refresh_from_db()
    assert (penalty.penalty, penalty.status) == ("warning", "final")


def test_review_page_refusals_show_on_the_form(world, client):
    penalty = world.issue("tardiness")
    client.force_login(world.head_judge)
    response = client.post(
        f"/penalties/{penalty.pk}/review/", {"decision": "upgrade", "penalty": "warning", "reason": "x"}
    )
    assert response.status_code == 400 and "must be heavier" in response.content.decode()
    empty = client.post(f"/penalties/{penalty.pk}/review/", {"decision": "uphold", "reason": ""})
    assert empty.status_code == 400
    client.force_login(world.judge)
    assert (
        client.post(
            f"/penalties/{penalty.pk}/review/", {"decision": "uphold", "reason": "x", "confirm": "yes"}
        ).status_code
        == 403
    )


def test_appeal_from_my_penalties_page(world, client):
    penalty = world.issue("tardiness")
    client.force_login(world.player)
    page = client.get("/penalties/")
    assert "Appeal this penalty" in page.content.decode()
    response = client.post(f"/penalties/{penalty.pk}/appeal/", {"statement": "I was at the desk."})
    assert response.status_code == 302 and Appeal.objects.get().statement == "I was at the desk."
    client.force_login(world.head_judge)
    step1 = client.post(
        f"/penalties/{penalty.pk}/appeal/decision/", {"decision": "uphold", "reason": "Seat was empty at round start."}
    )
    assert "Confirm your decision" in step1.content.decode()
    client.post(
        f"/penalties/{penalty.pk}/appeal/decision/",
        {"decision": "uphold", "reason": "Seat was empty at round start.", "confirm": "yes"},
    )
    assert Appeal.objects.get().status == "decided"


def test_disqualification_report_has_the_three_statements(world, client):
    penalty = world.issue(
        "unsporting_conduct_cheating",
        description="Stacked the deck while shuffling.",
        judge_statement="I saw the player put three lands on the bottom.",
    )
    services.add_statement(penalty_id=penalty.pk, actor=world.player, statement="I was only sorting.")
    review(world, penalty, "uphold", reason="Clear intent.")
    services.add_statement(penalty_id=penalty.pk, actor=world.head_judge, statement="Investigated; upheld.")
    client.force_login(world.organiser)
    html = client.get(f"/penalties/{penalty.pk}/disqualification/").content.decode()
    for text in (
        "Disqualification report",
        "I saw the player put three lands on the bottom.",
        "I was only sorting.",
        "Investigated; upheld.",
        "IPG 4.8",
    ):
        assert text in html
    statements = [h.action for h in penalty.history.all()]
    assert statements.count("statement") == 2
    not_dq = world.issue("slow_play")
    assert client.get(f"/penalties/{not_dq.pk}/disqualification/").status_code == 404


def test_statement_roles(world):
    penalty = world.issue("unsporting_conduct_cheating")
    assert services.statement_role(penalty, world.player) == "player"
    assert services.statement_role(penalty, world.judge) == "judge"
    assert services.statement_role(penalty, world.head_judge) == "head_judge"
    assert services.statement_role(penalty, world.other_player) is None
    response = world.client(world.other_player).post(
        f"/api/penalties/{penalty.pk}/statement/", {"statement": "x"}, format="json"
    )
    assert response.status_code == 403
    ok = world.client(world.player).post(
        f"/api/penalties/{penalty.pk}/statement/", {"statement": "My side."}, format="json"
    )
    assert ok.status_code == 200 and ok.json()["player_statement"] == "My side."
