"""Issuing penalties: defaults, the automatic repeat upgrade, deviations and the review queue,
and bad input (400, nothing stored)."""

from __future__ import annotations

import pytest

from draftsite.errors import DomainError
from penalties import services
from penalties.models import Penalty, PenaltyAudit
from tests.penalties.conftest import codes, minutes

pytestmark = pytest.mark.django_db


# --- the automatic upgrade of repeat warnings ------------------------------------------


@pytest.mark.parametrize("level", ["competitive", "professional"])
def test_second_tournament_error_warning_for_the_same_infraction_becomes_a_game_loss(world, level):
    world.event.enforcement_level = level
    world.event.save()
    first = world.issue("slow_play", now=minutes(1))
    assert (first.penalty, first.status, first.upgrade_reason) == ("warning", "final", "")
    second = world.issue("slow_play", now=minutes(30))
    assert second.default_penalty == "warning"
    assert second.penalty == second.expected_penalty == second.issued_penalty == "game_loss"
    assert second.status == "pending_review"  # a Game Loss waits for the head judge
    assert "IPG 3" in second.upgrade_reason and f"#{first.pk}" in second.upgrade_reason
    assert not second.is_deviation
    actions = list(second.history.values_list("action", "from_penalty", "to_penalty"))
    assert actions == [("auto_upgraded", "warning", "game_loss"), ("issued", "game_loss", "game_loss")]
    third = world.issue("slow_play", now=minutes(60))
    assert third.penalty == "game_loss" and "number 3" in third.upgrade_reason


def test_the_upgrade_is_shown_with_its_reason_on_the_api(world):
    world.issue("slow_play", now=minutes(1))
    second = world.issue("slow_play", now=minutes(2))
    body = world.client(world.player).get(f"/api/penalties/{second.pk}/").json()
    assert body["penalty"] == "game_loss" and "second" in body["upgrade_reason"]


def test_only_the_same_infraction_same_player_same_event_counts(world):
    world.issue("slow_play", now=minutes(1))
    assert world.issue("marked_cards", now=minutes(2)).penalty == "warning"  # other infraction
    assert world.issue("slow_play", reg=world.other_reg, now=minutes(3)).penalty == "warning"  # other player
    other = world.issue("slow_play", reg=world.elsewhere_reg, actor=world.other_judge, now=minutes(4))
    assert other.penalty == "warning"  # other event


def test_a_withdrawn_warning_does_not_count(world):
    first = world.issue("slow_play", now=minutes(1))
    services.review_penalty(
        penalty_id=first.pk, actor=world.head_judge, decision="withdraw", reason="Wrong player.", now=minutes(2)
    )
    assert world.issue("slow_play", now=minutes(3)).penalty == "warning"


def test_regular_rel_does_not_upgrade_repeat_warnings(regular_world):
    regular_world.issue("slow_play", now=minutes(1))
    second = regular_world.issue("slow_play", now=minutes(2))
    assert (second.penalty, second.status, second.upgrade_reason) == ("warning", "final", "")


def test_game_play_errors_upgrade_at_the_third_warning(world):
    assert world.issue("hidden_card_error", now=minutes(1)).penalty == "warning"
    assert world.issue("hidden_card_error", now=minutes(2)).penalty == "warning"
    third = world.issue("hidden_card_error", now=minutes(3))
    assert third.penalty == "game_loss" and "IPG 2" in third.upgrade_reason


def test_failure_to_maintain_game_state_is_never_upgraded(world):
    for n in range(4):
        assert world.issue("failure_to_maintain_game_state", now=minutes(n)).penalty == "warning"


def test_a_game_loss_default_is_not_upgraded_further(world):
    world.issue("tardiness", now=minutes(1))
    second = world.issue("tardiness", now=minutes(2))
    assert second.penalty == "game_loss" and second.upgrade_reason == ""


# --- deviations, the review queue ------------------------------------------------------


def test_warnings_at_default_are_final_at_once(world):
    penalty = world.issue("deck_problem")
    assert penalty.status == "final"
    assert list(penalty.history.values_list("action", "actor")) == [("issued", world.judge.pk)]


@pytest.mark.parametrize("code", ["tardiness", "outside_assistance", "unsporting_conduct_cheating"])
def test_game_loss_or_heavier_goes_to_the_head_judge(world, code):
    assert world.issue(code).status == "pending_review"


def test_deviation_needs_a_reason(world):
    with pytest.raises(DomainError) as refused:
        world.issue("slow_play", penalty="game_loss")
    assert refused.value.code == "reason_required" and refused.value.extra["field"] == "deviation_reason"
    assert not Penalty.objects.exists()


@pytest.mark.parametrize(
    ("code", "chosen"), [("slow_play", "game_loss"), ("slow_play", "no_penalty"), ("tardiness", "warning")]
)
def test_any_deviation_goes_to_the_head_judge(world, code, chosen):
    penalty = world.issue(code, penalty=chosen, deviation_reason="Judgement call.")
    assert penalty.is_deviation and penalty.status == "pending_review"
    assert penalty.penalty == chosen and penalty.deviation_reason == "Judgement call."
    assert penalty.history.get().reason == "Judgement call."


def test_choosing_the_upgraded_penalty_is_no_deviation(world):
    world.issue("slow_play", now=minutes(1))
    second = world.issue("slow_play", penalty="game_loss", now=minutes(2))
    assert not second.is_deviation and second.deviation_reason == ""


def test_keeping_a_warning_on_a_repeat_is_a_deviation(world):
    world.issue("slow_play", now=minutes(1))
    with pytest.raises(DomainError) as refused:
        world.issue("slow_play", penalty="warning", now=minutes(2))
    assert refused.value.code == "reason_required"


def test_R16_revealing_a_single_faced_pick_is_a_limited_procedure_violation(world):
    """R16: single-faced cards are not open information; showing one during the draft is the
    Limited Procedure Violation infraction (IPG 3.6), a Warning."""
    penalty = world.issue(
        "limited_procedure_violation", description="Showed a single-faced pick to the neighbour during pack 1."
    )
    assert (penalty.infraction.section, penalty.penalty, penalty.status) == ("3.6", "warning", "final")


# --- the API ---------------------------------------------------------------------------


def test_judge_issues_through_the_api(world):
    response = world.client(world.judge).post(
        f"/api/events/{world.event.pk}/penalties/",
        {
            "registration": world.reg.pk,
            "infraction": "tardiness",
            "description": "Arrived 12 minutes late.",
            "fix": "Game loss applied to game 1.",
            "match_round": 2,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["penalty"] == "game_loss" and body["status"] == "pending_review"
    assert body["match_round"] == 2 and body["history"][0]["action"] == "issued"
    assert body["player"] == {"registration": world.reg.pk, "name": "Alice"}


BAD = [
    ({}, "required"),
    ({"registration": "x", "infraction": "slow_play", "description": "d"}, "invalid"),
    ({"registration": 0, "infraction": "slow_play", "description": "d"}, "min_value"),
    ({"registration": None, "infraction": "slow_play", "description": "d"}, "null"),
    ({"infraction": "slow_play", "description": "d"}, "required"),
    ({"registration": "REG", "infraction": "nope", "description": "d"}, "unknown_infraction"),
    ({"registration": "REG", "infraction": "slow_play", "description": ""}, "description_required"),
    ({"registration": "REG", "infraction": "slow_play", "description": "   "}, "description_required"),
    ({"registration": "REG", "infraction": "slow_play", "description": "d", "penalty": "caution"}, "invalid_choice"),
    ({"registration": "REG", "infraction": "slow_play", "description": "d", "penalty": "game_loss"}, "reason_required"),
    ({"registration": "REG", "infraction": "slow_play", "description": "d", "source": "pick:abc"}, "invalid_source"),
    ({"registration": "REG", "infraction": "slow_play", "description": "d", "source": "card:1"}, "invalid_source"),
    ({"registration": "REG", "infraction": "slow_play", "description": "d", "source": "pick:99999"}, "unknown_pick"),
    ({"registration": "REG", "infraction": "slow_play", "description": "d", "pod": 99999}, "unknown_pod"),
    ({"registration": "REG", "infraction": "slow_play", "description": "d", "match_round": 0}, "min_value"),
    ({"registration": "REG", "infraction": "slow_play", "description": "d", "pick_number": "many"}, "invalid"),
    ({"registration": "REG", "infraction": "slow_play", "description": "x" * 5001}, "max_length"),
    ({"registration": "OTHER_EVENT_REG", "infraction": "slow_play", "description": "d"}, "not_registered"),
    ({"registration": 999999, "infraction": "slow_play", "description": "d"}, "not_registered"),
    (["not", "an", "object"], "invalid"),
]


@pytest.mark.parametrize(("payload", "code"), BAD)
def test_malformed_input_gives_400_and_stores_nothing(world, payload, code):
    if isinstance(payload, dict):
        payload = {
            k: (world.reg.pk if v == "REG" else world.elsewhere_reg.pk if v == "OTHER_EVENT_REG" else v)
            for k, v in payload.items()
        }
    response = world.client(world.judge).post(f"/api/events/{world.event.pk}/penalties/", payload, format="json")
    assert response.status_code == 400, response.json()
    assert code in codes(response)
    assert not Penalty.objects.exists() and not PenaltyAudit.objects.exists()


def test_broken_json_gives_400(world):
    response = world.client(world.judge).post(
        f"/api/events/{world.event.pk}/penalties/", "{not json", content_type="application/json"
    )
    assert response.status_code == 400 and codes(response) == ["malformed_request"]
    assert not Penalty.objects.exists()


def test_unknown_event_gives_404(world):
    response = world.client(world.judge).post("/api/events/999999/penalties/", {}, format="json")
    assert response.status_code == 404 and codes(response) == ["unknown_event"]


def test_html_form_shows_errors_and_stores_nothing(world, client):
    client.force_login(world.judge)
    response = client.post(
        f"/penalties/new/?event={world.event.pk}",
        {
            "event": world.event.pk,
            "registration": world.reg.pk,
            "infraction": "slow_play",
            "description": "Slow.",
            "penalty": "match_loss",
        },
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Give the reason for deviating" in html
    # The error is summarised at the top of the form (it used to sit below the fold, alone),
    # with a link to the field that needs it.
    summary = html.index('id="form-errors"')
    assert summary < html.index('id="id_registration"')
    assert "The penalty was not recorded" in html[summary : summary + 600]
    assert 'href="#id_deviation_reason"' in html[summary : html.index('id="id_registration"')]
    assert not Penalty.objects.exists()


def test_html_form_issues_and_redirects_to_the_penalty(world, client):
    client.force_login(world.judge)
    response = client.post(
        f"/penalties/new/?event={world.event.pk}",
        {
            "event": world.event.pk,
            "registration": world.reg.pk,
            "infraction": "marked_cards",
            "description": "Two sleeves scuffed.",
            "fix": "Resleeved.",
        },
    )
    penalty = Penalty.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/penalties/{penalty.pk}/"
    assert (penalty.penalty, penalty.status, penalty.fix) == ("warning", "final", "Resleeved.")


def test_repeat_warnings_reset_between_the_days_of_a_multi_day_tournament(world):
    """IPG 2 and 3: for multi-day tournaments the penalty count of Game Play and Tournament
    Errors resets between days. A Warning on day 1 leaves day 2's first one a Warning; the
    second on the same day is a Game Loss."""
    import datetime as dt

    world.event.enforcement_level = "competitive"
    world.event.save()
    day1 = world.issue("slow_play", now=minutes(1))
    day2 = world.issue("slow_play", now=minutes(1) + dt.timedelta(days=1, hours=2))
    again = world.issue("slow_play", now=minutes(1) + dt.timedelta(days=1, hours=3))
    assert (day1.penalty, day2.penalty) == ("warning", "warning")
    assert again.penalty == "game_loss" and f"#{day2.pk}" in again.upgrade_reason
    assert f"#{day1.pk}" not in again.upgrade_reason and "today" in again.upgrade_reason
