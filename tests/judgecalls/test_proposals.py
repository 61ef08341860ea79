"""The site's proposed penalties: each trigger with its IPG default at each REL, the repeat
count across days (the same logic as the issue form), issuing and dismissing one or many."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from decks import services as deck_services
from drafts import services as draft_services
from drafts.models import Pick, PickKind
from draftsite.errors import ConflictError, ForbiddenError
from events import services as event_services
from events.access import SYSTEM
from events.models import StaffRole
from judgecalls import error_codes, services
from judgecalls.proposals import proposals
from penalties import services as penalty_services
from penalties.models import DismissedSource, Penalty, PenaltyStatus
from tests.drafts.conftest import cube_names  # noqa: F401  (fixture)
from tests.factories import EventStaffFactory, UserFactory
from tests.judgecalls.conftest import T0, Floor, minutes
from tests.penalties.conftest import make_pod

pytestmark = pytest.mark.django_db
LEVELS = ["regular", "competitive", "professional"]


def by_source(event, now):
    return {p.source: p for p in proposals(event, now)}


@pytest.mark.parametrize("level", LEVELS)
def test_a_missing_decklist_at_the_deadline_proposes_tardiness(level):
    floor = Floor(level=level)
    floor.event.decklist_deadline = minutes(-60)
    floor.event.save(update_fields=["decklist_deadline"])
    assert not [s for s in by_source(floor.event, minutes(-61)) if s.startswith("decklist:")]
    found = by_source(floor.event, minutes(1))
    p = found[f"decklist:{floor.regs[0].pk}"]
    assert p.rule == "IPG 3.1" and p.infraction.code == "tardiness"
    assert (
        p.targets[0].default == {"regular": "warning", "competitive": "game_loss", "professional": "game_loss"}[level]
    )


def test_a_handed_over_seats_former_player_owes_no_decklist(cube_names):  # noqa: F811
    """Issue 46 item 8: the player whose seat was handed to another has no pool to build from;
    the seat's new holder owes its deck, and is proposed if it is missing."""
    organiser = UserFactory(username="org")
    drafters = [UserFactory(username=f"drafter{i}") for i in range(8)]
    pod = make_pod(organiser, drafters, cube_names, now=T0)
    reserve = event_services.register_player(event_id=pod.event_id, user=UserFactory(username="reserve"), actor=SYSTEM)
    seat = pod.seats.get(position=0)
    former = seat.registration
    draft_services.hand_seat(seat_id=seat.pk, registration_id=reserve.pk, actor=organiser, now=T0)
    pod.event.decklist_deadline = T0
    pod.event.save(update_fields=["decklist_deadline"])
    found = {s for s in by_source(pod.event, minutes(1)) if s.startswith("decklist:")}
    assert f"decklist:{former.pk}" not in found
    assert f"decklist:{reserve.pk}" in found
    assert found == {f"decklist:{s.registration_id}" for s in pod.seats.all()}


@pytest.mark.parametrize("level", LEVELS)
def test_a_list_corrected_after_its_deadline_proposes_a_decklist_problem(level):
    floor = Floor(level=level)
    floor.event.deck_format = "constructed"
    floor.event.decklist_deadline = minutes(10)
    floor.event.save(update_fields=["deck_format", "decklist_deadline"])
    deck, _ = deck_services.register_deck(
        event_id=floor.event.pk, actor=floor.users[0], main=[{"name": "Island", "count": 40}], now=T0
    )
    deck_services.correct_deck(
        deck_id=deck.pk, actor=floor.judge, reason="Wrote 39", main=[{"name": "Island", "count": 41}], now=minutes(20)
    )
    p = next(p for s, p in by_source(floor.event, minutes(21)).items() if s.startswith("correction:"))
    assert p.rule == "IPG 3.4" and p.targets[0].registration == floor.regs[0]
    assert p.targets[0].default == ("warning" if level == "regular" else "game_loss")


@pytest.mark.parametrize("level", LEVELS)
def test_an_unreported_result_when_time_ran_out_is_proposed_for_both_players(level):
    floor = Floor(level=level)
    assert not [s for s in by_source(floor.event, minutes(49)) if s.startswith("result:")]
    found = by_source(floor.event, minutes(51))
    p = found[f"result:{floor.match.pk}"]
    assert {t.registration for t in p.targets} == {floor.match.player_a, floor.match.player_b}
    assert p.match_round == 1 and p.targets[0].default == ("warning" if level == "regular" else "game_loss")
    # The table's extension moves its end: not proposed until the extended time is up.
    services.extend_time(
        call_id=services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), now=T0).pk,
        actor=floor.judge,
        minutes=5,
        now=T0,
    )
    assert f"result:{floor.match.pk}" not in by_source(floor.event, minutes(51))


@pytest.fixture
def timed_out(cube_names):  # noqa: F811
    organiser, judge = UserFactory(username="org"), UserFactory(username="judge")
    drafters = [UserFactory(username=f"drafter{i}") for i in range(8)]
    pod = make_pod(organiser, drafters, cube_names, now=T0)
    EventStaffFactory(event=pod.event, user=judge, role=StaffRole.JUDGE)
    draft_services.enforce_deadlines(pod_id=pod.pk, now=T0 + dt.timedelta(seconds=41))
    return pod, judge, Pick.objects.filter(seat__pod=pod, kind=PickKind.TIMEOUT).order_by("pk")


@pytest.mark.parametrize("level", LEVELS)
def test_a_timed_out_pick_is_a_limited_procedure_violation_except_at_regular(timed_out, level):
    pod, judge, picks = timed_out
    pod.event.enforcement_level = level
    pod.event.save(update_fields=["enforcement_level"])
    found = [p for s, p in by_source(pod.event, T0).items() if s.startswith("pick:")]
    if level == "regular":
        assert found == []  # educational REL: no proposal at all
        return
    assert len(found) == picks.count() == 8
    assert found[0].rule == "IPG 3.6" and found[0].targets[0].default == "warning"
    assert found[0].draft_round == 1 and found[0].pick_number == 1


def test_the_repeat_count_is_per_day(timed_out):
    pod, judge, picks = timed_out
    pod.event.enforcement_level = "competitive"
    pod.event.save(update_fields=["enforcement_level"])
    first = picks[0]
    registration = first.seat.registration
    now = dt.datetime(2026, 11, 30, 18, 0, tzinfo=dt.UTC)
    penalty_services.issue_penalty(
        event_id=pod.event_id,
        registration_id=registration.pk,
        infraction_code="limited_procedure_violation",
        actor=judge,
        description="Revealed a pick",
        now=now - dt.timedelta(days=1),
    )
    target = by_source(pod.event, now)[f"pick:{first.pk}"].targets[0]
    assert (target.counted, target.expected) == (0, "warning")  # yesterday's does not count (IPG 3)
    penalty_services.issue_penalty(
        event_id=pod.event_id,
        registration_id=registration.pk,
        infraction_code="limited_procedure_violation",
        actor=judge,
        description="Revealed a pick",
        now=now - dt.timedelta(hours=1),
    )
    target = by_source(pod.event, now)[f"pick:{first.pk}"].targets[0]
    assert (target.counted, target.expected) == (1, "game_loss")  # today's second: upgraded


def test_issuing_many_at_once_makes_penalties_and_they_are_no_longer_proposed():
    floor = Floor()
    sources = [f"result:{floor.match.pk}", f"result:{floor.other_match.pk}"]
    issued = services.issue_proposals(event_id=floor.event.pk, actor=floor.judge, sources=sources, now=minutes(51))
    assert len(issued) == 4 and {p.source for p in issued} == set(sources)
    assert all(p.status == PenaltyStatus.PENDING_REVIEW for p in issued)  # Game Loss: the head judge reviews
    assert not set(sources) & set(by_source(floor.event, minutes(52)))
    with pytest.raises(ConflictError) as exc:
        services.issue_proposals(event_id=floor.event.pk, actor=floor.judge, sources=sources[:1], now=minutes(52))
    assert exc.value.code == error_codes.PROPOSAL_HANDLED and Penalty.objects.count() == 4


def test_dismissing_and_who_may():
    floor = Floor()
    source = f"result:{floor.match.pk}"
    with pytest.raises(ForbiddenError):
        services.dismiss_proposals(
            event_id=floor.event.pk, actor=floor.player_a(), sources=[source], reason="x", now=minutes(51)
        )
    services.dismiss_proposals(
        event_id=floor.event.pk, actor=floor.judge, sources=[source], reason="Slip was late", now=minutes(51)
    )
    assert DismissedSource.objects.get(source=source).reason == "Slip was late"
    assert source not in by_source(floor.event, minutes(52)) and not Penalty.objects.exists()


def test_the_proposals_page_issues_the_chosen_and_players_never_see_it():
    floor = Floor()
    url = reverse("judgecalls:proposals", args=[floor.event.pk])
    judge = Client()
    judge.force_login(floor.judge)
    player = Client()
    player.force_login(floor.player_a())
    assert player.get(url).status_code == 403
    # The page reads the real clock: the round's end is long past (T0 is in the past).
    page = judge.get(url).content.decode()
    assert f'value="result:{floor.match.pk}"' in page and "IPG 3.1" in page
    judge.post(url, {"action": "issue", "source": [f"result:{floor.match.pk}"]})
    assert Penalty.objects.filter(source=f"result:{floor.match.pk}").count() == 2
    answer = judge.post(url, {"action": "issue", "source": []}, follow=True)
    assert "Choose at least one proposal." in answer.content.decode()
