"""The proposals API (/api/events/<id>/penalty-proposals/): the same proposals and services as
the proposals page; the event's judges list, issue and dismiss one or many; players never see
a proposal (403 before the body), another event's judge neither."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from events.models import EventLogEntry
from judgecalls.proposals import MAX_SOURCES
from penalties import services as penalty_services
from penalties.models import DismissedSource, Penalty, PenaltyStatus
from tests.drafts.conftest import cube_names  # noqa: F401  (fixture)
from tests.factories import EventFactory, EventStaffFactory, UserFactory
from tests.judgecalls.conftest import Floor
from tests.judgecalls.test_proposals import timed_out  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def base(floor) -> str:
    return f"/api/events/{floor.event.pk}/penalty-proposals/"


def codes(answer) -> list[str]:
    return [e["code"] for e in answer.json()["errors"]]


def test_the_list_shows_rule_and_default_at_the_rel():
    floor = Floor(level="regular")
    # The clock is real and T0 long past: every table's time ran out without a result.
    answer = floor.client(floor.judge).get(base(floor))
    assert answer.status_code == 200
    row = next(p for p in answer.json() if p["source"] == f"result:{floor.match.pk}")
    assert row["rule"] == "IPG 3.1" and row["infraction"] == "tardiness" and row["enforcement_level"] == "regular"
    assert row["match_round"] == 1 and row["facts"].startswith("No result reported for round 1, table 1")
    by_player = {t["registration"]: t for t in row["targets"]}
    assert set(by_player) == {floor.match.player_a_id, floor.match.player_b_id}
    # Regular REL: Tardiness is a Warning and Regular never upgrades (IPG 3.1 at Regular: educational).
    assert {(t["default"], t["expected"], t["upgraded"]) for t in by_player.values()} == {("warning", "warning", False)}


@pytest.mark.parametrize(("level", "default"), [("competitive", "game_loss"), ("professional", "game_loss")])
def test_the_default_follows_the_events_rel(level, default):
    floor = Floor(level=level)
    row = next(p for p in floor.client(floor.judge).get(base(floor)).json() if p["source"].startswith("result:"))
    assert row["enforcement_level"] == level
    assert {(t["default"], t["default_display"]) for t in row["targets"]} == {(default, "Game Loss")}


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_same_category_count_and_the_upgrade_today_not_yesterday(timed_out):  # noqa: F811
    """IPG 3.6 at Competitive: a second LPV Warning today becomes a Game Loss; yesterday's
    Warning does not count (IPG 3: the count resets between days)."""
    pod, judge, picks = timed_out
    pod.event.enforcement_level = "competitive"
    pod.event.save(update_fields=["enforcement_level"])
    pick = picks[0]
    registration = pick.seat.registration
    url = f"/api/events/{pod.event_id}/penalty-proposals/"

    def target():
        row = next(p for p in api(judge).get(url).json() if p["source"] == f"pick:{pick.pk}")
        assert row["rule"] == "IPG 3.6" and (row["pod"], row["draft_round"]) == (pod.pk, 1)
        return row["targets"][0]

    def warn(when):
        penalty_services.issue_penalty(
            event_id=pod.event_id,
            registration_id=registration.pk,
            infraction_code="limited_procedure_violation",
            actor=judge,
            description="Revealed a pick",
            now=when,
        )

    now = timezone.now()
    assert (target()["counted"], target()["expected"], target()["upgraded"]) == (0, "warning", False)
    warn(now - dt.timedelta(days=1, hours=1))
    assert (target()["counted"], target()["expected"]) == (0, "warning")
    warn(now)
    t = target()
    assert (t["default"], t["counted"], t["expected"], t["upgraded"]) == ("warning", 1, "game_loss", True)
    assert "Repeat offence" in t["upgrade_reason"] and t["expected_display"] == "Game Loss"
    # Issued through the API, it carries the upgrade (the same service as the page).
    issued = api(judge).post(url + f"pick:{pick.pk}/issue/", format="json").json()["issued"]
    assert [p["penalty"] for p in issued] == ["game_loss"]


def test_issue_one_by_its_source_then_it_is_gone_and_a_second_issue_is_a_409():
    floor = Floor()
    source = f"result:{floor.match.pk}"
    answer = floor.client(floor.judge).post(base(floor) + f"{source}/issue/", format="json")
    assert answer.status_code == 201
    issued = answer.json()["issued"]
    assert {p["registration"] for p in issued} == {floor.match.player_a_id, floor.match.player_b_id}
    assert all(p["source"] == source and p["penalty"] == "game_loss" for p in issued)
    assert all(p["status"] == PenaltyStatus.PENDING_REVIEW for p in issued)  # the head judge reviews a Game Loss
    assert Penalty.objects.filter(source=source, issued_by=floor.judge).count() == 2
    assert source not in {p["source"] for p in floor.client(floor.judge).get(base(floor)).json()}
    again = floor.client(floor.judge2).post(base(floor) + f"{source}/issue/", format="json")
    assert again.status_code == 409 and codes(again) == ["proposal_handled"]
    assert Penalty.objects.filter(source=source).count() == 2


def test_issue_many_at_once_and_dismiss_many_at_once():
    floor = Floor()
    tables = list(floor.round.matches.filter(player_b__isnull=False).order_by("table"))
    sources = [f"result:{m.pk}" for m in tables]
    judge = floor.client(floor.judge)
    answer = judge.post(base(floor) + "issue/", {"sources": sources[:2]}, format="json")
    assert answer.status_code == 201 and len(answer.json()["issued"]) == 4
    dismissed = judge.post(base(floor) + "dismiss/", {"sources": sources[2:], "reason": "Slips in"}, format="json")
    assert dismissed.status_code == 200 and dismissed.json() == {"dismissed": sources[2:]}
    assert set(DismissedSource.objects.values_list("source", flat=True)) == set(sources[2:])
    assert not {p["source"] for p in judge.get(base(floor)).json()} & set(sources)
    assert EventLogEntry.objects.filter(action="proposals.issued").count() == 1
    assert EventLogEntry.objects.filter(action="proposals.dismissed").count() == 1


def test_dismiss_one_needs_a_reason():
    floor = Floor()
    source = f"result:{floor.match.pk}"
    judge = floor.client(floor.judge)
    blank = judge.post(base(floor) + f"{source}/dismiss/", {"reason": ""}, format="json")
    assert blank.status_code == 400 and not DismissedSource.objects.exists()
    answer = judge.post(base(floor) + f"{source}/dismiss/", {"reason": "Result slip was on the desk"}, format="json")
    assert answer.status_code == 200 and DismissedSource.objects.get().source == source
    assert not Penalty.objects.exists()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"sources": []}, None),
        ({"sources": "result:1"}, None),
        ({"sources": ["nonsense"]}, "invalid_source"),
        ({"sources": ["result:1"] * (MAX_SOURCES + 1)}, None),
        ({}, None),
    ],
)
def test_bad_bodies_are_400s_and_nothing_is_issued(body, code):
    floor = Floor()
    answer = floor.client(floor.judge).post(base(floor) + "issue/", body, format="json")
    assert answer.status_code == 400
    if code:
        assert codes(answer) == [code]
    assert not Penalty.objects.exists()


def test_a_malformed_source_in_the_path_is_a_400_a_stale_one_a_409():
    floor = Floor()
    judge = floor.client(floor.judge)
    bad = judge.post(base(floor) + "result:abc/issue/", format="json")
    assert bad.status_code == 400 and codes(bad) == ["invalid_source"]
    stale = judge.post(base(floor) + "result:999999/issue/", format="json")
    assert stale.status_code == 409 and codes(stale) == ["proposal_handled"]


def test_players_and_other_events_judges_never_see_or_act_on_proposals():
    floor = Floor()
    source = f"result:{floor.match.pk}"
    outsider = UserFactory(username="elsewhere_judge")
    EventStaffFactory(event=EventFactory(), user=outsider, role="judge")  # a judge of another event
    for user in (floor.player_a(), floor.player_b(), outsider):
        client = floor.client(user)
        listed = client.get(base(floor))
        assert listed.status_code == 403 and codes(listed) == ["not_event_staff"]
        assert source not in listed.content.decode()
        # Refused before the body: a bad body still gets the 403.
        assert client.post(base(floor) + "issue/", {"sources": 7}, format="json").status_code == 403
        assert client.post(base(floor) + f"{source}/issue/", format="json").status_code == 403
        assert client.post(base(floor) + f"{source}/dismiss/", {"reason": "x"}, format="json").status_code == 403
        assert (
            client.post(base(floor) + "dismiss/", {"sources": [source], "reason": "x"}, format="json").status_code
            == 403
        )
    assert not Penalty.objects.exists() and not DismissedSource.objects.exists()
    assert floor.client(floor.judge).get("/api/events/999999/penalty-proposals/").status_code == 404


def test_a_broken_body_on_issue_one_is_a_400_and_issues_nothing():
    floor = Floor()
    answer = floor.client(floor.judge).post(
        base(floor) + f"result:{floor.match.pk}/issue/", "[" * 5000 + "]" * 5000, content_type="application/json"
    )
    assert answer.status_code == 400 and not Penalty.objects.exists()
