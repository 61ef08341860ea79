"""Penalties changing match results, and the reporting race (one dispute, never two results).

On PostgreSQL (CI) the round and match row locks serialise the two reports; on the embedded
SQLite site writers queue for the database lock. Either way one report sees the other.
"""

import threading

import pytest
from django.db import connection

from matches import selectors, services
from matches.models import Drop, MatchLogEntry, MatchStatus, ResultReport
from penalties import services as penalty_services
from tests.matches.conftest import T0, Tournament, minutes


def issue(t, reg, code, **kwargs):
    return penalty_services.issue_penalty(
        event_id=t.event.pk,
        registration_id=reg.pk,
        infraction_code=code,
        actor=t.judge,
        description="Seen at the table.",
        now=T0,
        **kwargs,
    )


def started_round(t):
    t.configure()
    round_obj = t.pair()
    services.start_round(round_id=round_obj.pk, actor=t.organiser, now=T0)
    return round_obj


@pytest.mark.django_db
def test_a_game_loss_is_a_game_won_by_the_opponent(world):
    round_obj = started_round(world)
    match = round_obj.matches.get(table=1)
    a = match.player_a
    penalty = issue(world, a, "tardiness", match_round=1)  # Game Loss at Competitive
    assert penalty.penalty == "game_loss" and penalty.match_link.match == match
    a_user, b_user = world.user_of[match.player_a_id], world.user_of[match.player_b_id]
    services.report_result(match_id=match.pk, actor=a_user, won=1, lost=1, now=T0)
    services.report_result(match_id=match.pk, actor=b_user, won=1, lost=1, now=T0)
    match.refresh_from_db()
    score = selectors.effective_score(match, selectors.penalties_by_match([match.pk])[match.pk])
    assert (score.a_wins, score.b_wins, score.penalised) == (1, 2, True)  # the 1-1 becomes 1-2
    row = {r.registration.pk: r for r in selectors.standings(world.event, world.pod.pk)}
    assert row[match.player_b_id].match_points == 3 and row[a.pk].match_points == 0
    # The head judge withdraws it: the result goes back to what was played.
    penalty_services.review_penalty(
        penalty_id=penalty.pk, actor=world.head_judge, decision="withdraw", reason="He was on time.", now=minutes(5)
    )
    score = selectors.effective_score(match, selectors.penalties_by_match([match.pk]).get(match.pk, []))
    assert (score.a_wins, score.b_wins, score.penalised) == (1, 1, False)


@pytest.mark.django_db
def test_a_match_loss_decides_the_match_without_a_report(world):
    round_obj = started_round(world)
    match = round_obj.matches.get(table=2)
    issue(world, match.player_b, "outside_assistance")  # Match Loss; no round given: the current one
    progress = selectors.round_progress(round_obj, T0)
    assert match not in progress.outstanding
    payload = selectors.match_payload(match, selectors.penalties_by_match([match.pk])[match.pk], staff=True)
    assert payload["result"]["a_wins"] == 2 and payload["result"]["b_wins"] == 0
    assert payload["penalties"][0]["penalty"] == "match_loss"
    assert MatchLogEntry.objects.filter(match=match, action="penalty").exists()


@pytest.mark.django_db
def test_a_disqualification_drops_the_player(world):
    round_obj = started_round(world)
    match = round_obj.matches.get(table=3)
    issue(world, match.player_a, "unsporting_conduct_cheating", match_round=1)
    drop = Drop.objects.get(registration=match.player_a)
    assert drop.after_round == 1 and "Disqualified" in drop.reason
    for m in round_obj.matches.exclude(pk=match.pk):
        services.enter_result(match_id=m.pk, actor=world.judge, a_wins=2, b_wins=0, now=T0)
    services.finish_round(round_id=round_obj.pk, actor=world.organiser, now=minutes(50))
    round2 = world.pair(now=minutes(55))
    paired = {m.player_a_id for m in round2.matches.all()} | {m.player_b_id for m in round2.matches.all()}
    assert match.player_a_id not in paired


@pytest.mark.django_db
def test_warnings_do_not_touch_matches(world):
    round_obj = started_round(world)
    match = round_obj.matches.get(table=1)
    issue(world, match.player_a, "slow_play", match_round=1)
    assert not match.penalty_links.exists()


def report_at_once(t, match, scores):
    """Both players of ``match`` report at the same moment (threads, real transactions)."""
    users = [t.user_of[match.player_a_id], t.user_of[match.player_b_id]]
    barrier = threading.Barrier(2)
    errors = []

    def report(user, won, lost):
        try:
            barrier.wait()
            services.report_result(match_id=match.pk, actor=user, won=won, lost=lost, now=T0)
        except Exception as exc:  # collected and asserted on by the test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=report, args=(user, *score)) for user, score in zip(users, scores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    match.refresh_from_db()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_both_players_reporting_different_results_at_once_make_one_dispute():
    t = Tournament()
    match = started_round(t).matches.get(table=1)
    report_at_once(t, match, [(2, 0), (2, 1)])
    assert match.status == MatchStatus.DISPUTED and match.a_wins is None
    assert ResultReport.objects.filter(match=match).count() == 2
    assert MatchLogEntry.objects.filter(match=match, action="disputed").count() == 1
    assert MatchLogEntry.objects.filter(match=match, action="confirmed").count() == 0


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_both_players_reporting_the_same_result_at_once_confirm_it_once():
    t = Tournament()
    match = started_round(t).matches.get(table=1)
    report_at_once(t, match, [(2, 1), (1, 2)])
    assert (match.status, match.a_wins, match.b_wins) == (MatchStatus.CONFIRMED, 2, 1)
    assert MatchLogEntry.objects.filter(match=match, action="confirmed").count() == 1
