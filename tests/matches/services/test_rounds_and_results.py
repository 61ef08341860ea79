"""Rounds, pairings, results, drops and penalties through the services."""

import pytest

from draftsite.errors import DomainError
from matches import error_codes, selectors, services
from matches.models import MatchLogEntry, MatchStatus, PairingMode, Round
from tests.matches.conftest import T0, Tournament, minutes


def codes(excinfo):
    return excinfo.value.code


@pytest.mark.django_db
def test_pod_round_one_pairs_across_the_table(world):
    world.configure()
    round_obj = world.pair()
    tables = [(m.table, m.player_a.name, m.player_b.name) for m in round_obj.matches.order_by("table")]
    assert tables == [
        (1, "Player 1", "Player 5"),
        (2, "Player 2", "Player 6"),
        (3, "Player 3", "Player 7"),
        (4, "Player 4", "Player 8"),
    ]
    assert MatchLogEntry.objects.filter(action="paired", round=round_obj).exists()


@pytest.mark.django_db
def test_three_rounds_in_a_pod_then_no_more(world):
    world.configure()
    seen = set()
    for number in (1, 2, 3):
        round_obj = world.pair()
        assert round_obj.number == number
        for m in round_obj.matches.all():
            pair = frozenset((m.player_a_id, m.player_b_id))
            assert pair not in seen  # no rematch in a pod of eight over three rounds
            seen.add(pair)
        world.play_round(round_obj)
    with pytest.raises(DomainError) as caught:
        world.pair()
    assert codes(caught) == error_codes.ALL_ROUNDS_PLAYED
    rows = selectors.standings(world.event, world.pod.pk)
    assert rows[0].match_points == 9 and rows[0].record == "3-0-0" and rows[0].rank == 1
    assert sorted(r.match_points for r in rows) == [0, 3, 3, 3, 6, 6, 6, 9]


@pytest.mark.django_db
def test_pairings_are_reproducible_from_the_stored_seed(db):
    first = Tournament(pods=2, size=5)
    first.configure(mode=PairingMode.ACROSS_EVENT, seed=99)
    r1 = first.pair(pod=False)
    names = [(m.player_a.name, m.player_b.name if m.player_b_id else None) for m in r1.matches.order_by("table")]
    Round.objects.all().delete()
    again = first.pair(pod=False)
    assert names == [
        (m.player_a.name, m.player_b.name if m.player_b_id else None) for m in again.matches.order_by("table")
    ]
    assert again.seed == "99:event"


@pytest.mark.django_db
def test_across_the_event_uses_the_mtr_round_count_and_byes(db):
    t = Tournament(pods=2, size=5)  # 10 players -> 4 rounds (MTR: 9-16 players)
    t.configure(mode=PairingMode.ACROSS_EVENT)
    services.drop_player(event_id=t.event.pk, registration_id=t.regs[0].pk, actor=t.judge, now=T0)
    byes = []
    for _round in range(1, 5):
        round_obj = t.pair(pod=False)
        bye = round_obj.matches.filter(player_b=None).first()
        assert bye is not None and bye.table == 0  # 9 active players: a bye each round
        assert t.regs[0].pk not in {m.player_a_id for m in round_obj.matches.all()} | {
            m.player_b_id for m in round_obj.matches.all()
        }
        byes.append(bye.player_a_id)
        t.play_round(round_obj)
    assert len(set(byes)) == 4  # never a second bye
    with pytest.raises(DomainError) as caught:
        t.pair(pod=False)
    assert codes(caught) == error_codes.ALL_ROUNDS_PLAYED


@pytest.mark.django_db
def test_pair_refuses_while_the_round_runs_and_the_mode_is_respected(world):
    world.configure()
    round_obj = world.pair()
    with pytest.raises(DomainError) as caught:
        world.pair()
    assert codes(caught) == error_codes.ROUND_IN_PROGRESS
    with pytest.raises(DomainError) as caught:
        world.pair(pod=False)
    assert codes(caught) == error_codes.POD_REQUIRED
    with pytest.raises(DomainError) as caught:
        services.finish_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    assert codes(caught) == error_codes.ROUND_NOT_STARTED


@pytest.mark.django_db
def test_report_and_confirm(world):
    world.configure()
    round_obj = world.pair()
    match = round_obj.matches.get(table=1)
    a, b = world.user_of[match.player_a_id], world.user_of[match.player_b_id]
    with pytest.raises(DomainError) as caught:
        services.report_result(match_id=match.pk, actor=a, won=2, lost=1, now=T0)
    assert codes(caught) == error_codes.ROUND_NOT_STARTED
    services.start_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    services.report_result(match_id=match.pk, actor=a, won=2, lost=1, now=minutes(30))
    with pytest.raises(DomainError) as caught:
        services.confirm_result(match_id=match.pk, actor=a, now=minutes(31))
    assert codes(caught) == error_codes.CANNOT_CONFIRM_OWN_REPORT
    services.confirm_result(match_id=match.pk, actor=b, now=minutes(31))
    match.refresh_from_db()
    assert (match.status, match.a_wins, match.b_wins, match.draws) == (MatchStatus.CONFIRMED, 2, 1, 0)
    assert list(MatchLogEntry.objects.filter(match=match).values_list("action", flat=True)) == ["reported", "confirmed"]
    with pytest.raises(DomainError) as caught:
        services.report_result(match_id=match.pk, actor=b, won=2, lost=0, now=minutes(32))
    assert codes(caught) == error_codes.RESULT_CONFIRMED


@pytest.mark.django_db
@pytest.mark.parametrize("won,lost,drawn", [(3, 0, 0), (2, 2, 0), (-1, 2, 0), (1, 1, 4), (None, 1, 0)])
def test_impossible_scores_are_refused(world, won, lost, drawn):
    world.configure()
    round_obj = world.pair()
    services.start_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    match = round_obj.matches.get(table=1)
    with pytest.raises(DomainError) as caught:
        services.report_result(
            match_id=match.pk, actor=world.user_of[match.player_a_id], won=won, lost=lost, drawn=drawn, now=T0
        )
    assert codes(caught) == error_codes.IMPOSSIBLE_SCORE
    assert not match.reports.exists()


@pytest.mark.django_db
def test_someone_elses_match_and_closed_rounds_are_refused(world):
    world.configure()
    round_obj = world.pair()
    match = round_obj.matches.get(table=1)
    other = world.user_of[round_obj.matches.get(table=2).player_a_id]
    services.start_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    with pytest.raises(DomainError) as caught:
        services.report_result(match_id=match.pk, actor=other, won=2, lost=0, now=T0)
    assert codes(caught) == error_codes.NOT_YOUR_MATCH
    for m in round_obj.matches.all():
        services.enter_result(match_id=m.pk, actor=world.judge, a_wins=2, b_wins=0, now=T0)
    services.finish_round(round_id=round_obj.pk, actor=world.organiser, now=minutes(50))
    with pytest.raises(DomainError) as caught:
        services.report_result(match_id=match.pk, actor=world.user_of[match.player_a_id], won=2, lost=0, now=T0)
    assert codes(caught) == error_codes.ROUND_CLOSED
    # Staff correct a closed round's result with a reason; it is logged with the old value.
    with pytest.raises(DomainError) as caught:
        services.enter_result(match_id=match.pk, actor=world.judge, a_wins=0, b_wins=2, now=minutes(60))
    assert codes(caught) == error_codes.REASON_REQUIRED
    services.enter_result(
        match_id=match.pk, actor=world.judge, a_wins=0, b_wins=2, reason="Slip misread", now=minutes(60)
    )
    entry = MatchLogEntry.objects.filter(match=match, action="corrected").get()
    assert entry.actor == world.judge and entry.details["before"]["a_wins"] == 2


@pytest.mark.django_db
def test_different_reports_make_a_dispute_that_staff_settle(world):
    world.configure()
    round_obj = world.pair()
    services.start_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    match = round_obj.matches.get(table=1)
    a, b = world.user_of[match.player_a_id], world.user_of[match.player_b_id]
    services.report_result(match_id=match.pk, actor=a, won=2, lost=0, now=T0)
    services.report_result(match_id=match.pk, actor=b, won=2, lost=1, now=T0)
    match.refresh_from_db()
    assert match.status == MatchStatus.DISPUTED and match.a_wins is None
    progress = selectors.round_progress(round_obj, T0)
    assert match in progress.disputed and match in progress.outstanding
    services.enter_result(match_id=match.pk, actor=world.judge, a_wins=1, b_wins=2, now=T0)
    match.refresh_from_db()
    assert (match.status, match.a_wins, match.b_wins) == (MatchStatus.CONFIRMED, 1, 2)


@pytest.mark.django_db
def test_finishing_needs_every_result(world):
    world.configure()
    round_obj = world.pair()
    services.start_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    with pytest.raises(DomainError) as caught:
        services.finish_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    assert codes(caught) == error_codes.RESULTS_OUTSTANDING and caught.value.extra["tables"] == [1, 2, 3, 4]


@pytest.mark.django_db
def test_repair_before_the_round_starts_is_logged(world):
    world.configure()
    round_obj = world.pair()
    r = world.regs
    tables = [[r[0].pk, r[1].pk], [r[4].pk, r[5].pk], [r[2].pk, r[6].pk], [r[3].pk, r[7].pk]]
    services.repair_pairings(round_id=round_obj.pk, actor=world.organiser, tables=tables, reason="Friends", now=T0)
    assert [(m.player_a_id, m.player_b_id) for m in round_obj.matches.order_by("table")] == [tuple(t) for t in tables]
    entry = MatchLogEntry.objects.get(action="repaired")
    assert entry.details["reason"] == "Friends" and entry.details["before"][0][1:] == [r[0].pk, r[4].pk]
    with pytest.raises(DomainError) as caught:  # someone left out
        services.repair_pairings(round_id=round_obj.pk, actor=world.organiser, tables=tables[:3], now=T0)
    assert codes(caught) == error_codes.INVALID_REPAIR
    services.start_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    with pytest.raises(DomainError) as caught:
        services.repair_pairings(round_id=round_obj.pk, actor=world.organiser, tables=tables, now=T0)
    assert codes(caught) == error_codes.ROUND_ALREADY_STARTED


@pytest.mark.django_db
def test_pairing_a_dropped_player_is_refused(world):
    world.configure()
    round_obj = world.pair()
    r = world.regs
    services.drop_player(event_id=world.event.pk, registration_id=r[7].pk, actor=world.users[7], now=T0)
    tables = [[r[0].pk, r[4].pk], [r[1].pk, r[5].pk], [r[2].pk, r[6].pk], [r[3].pk, r[7].pk]]
    with pytest.raises(DomainError) as caught:
        services.repair_pairings(round_id=round_obj.pk, actor=world.organiser, tables=tables, now=T0)
    assert codes(caught) == error_codes.PLAYER_DROPPED
    # Without the dropped player, the odd one out gets the bye.
    services.repair_pairings(round_id=round_obj.pk, actor=world.organiser, tables=tables[:3], bye=r[3].pk, now=T0)
    assert round_obj.matches.get(player_b=None).player_a_id == r[3].pk


@pytest.mark.django_db
def test_drops_keep_their_place_and_are_not_paired(world):
    world.configure()
    world.play_round(world.pair())
    loser = world.regs[4]  # seat 5 lost to seat 1 in round 1
    services.drop_player(event_id=world.event.pk, registration_id=loser.pk, actor=world.user_of[loser.pk], now=T0)
    with pytest.raises(DomainError) as caught:
        services.drop_player(event_id=world.event.pk, registration_id=loser.pk, actor=world.judge, now=T0)
    assert codes(caught) == error_codes.ALREADY_DROPPED
    with pytest.raises(DomainError) as caught:  # a player may not drop someone else
        services.drop_player(event_id=world.event.pk, registration_id=world.regs[5].pk, actor=world.users[0], now=T0)
    assert codes(caught) == error_codes.NOT_EVENT_STAFF
    round2 = world.pair()
    paired = {m.player_a_id for m in round2.matches.all()} | {m.player_b_id for m in round2.matches.all()}
    assert loser.pk not in paired and round2.matches.filter(player_b=None).count() == 1
    row = next(r for r in selectors.standings(world.event, world.pod.pk) if r.registration == loser)
    assert row.dropped_after == 1 and row.record == "0-1-0"


@pytest.mark.django_db
def test_playoff_top_4_seeded_by_standings(db):
    t = Tournament(size=8)
    t.configure(swiss_rounds=2, playoff_size=4)
    for _ in range(2):
        t.play_round(t.pair())
    playoff = t.pair()
    assert playoff.kind == "playoff" and playoff.number == 3
    seeded = [r.registration.pk for r in selectors.standings(t.event, t.pod.pk)][:4]
    assert [(m.player_a_id, m.player_b_id) for m in playoff.matches.order_by("table")] == [
        (seeded[0], seeded[3]),
        (seeded[1], seeded[2]),
    ]
    services.start_round(round_id=playoff.pk, actor=t.organiser, now=T0)
    m = playoff.matches.order_by("table").first()
    with pytest.raises(DomainError) as caught:  # a playoff match needs a winner
        services.enter_result(match_id=m.pk, actor=t.judge, a_wins=1, b_wins=1, now=T0)
    assert codes(caught) == error_codes.IMPOSSIBLE_SCORE
    for match in playoff.matches.all():
        services.enter_result(match_id=match.pk, actor=t.judge, a_wins=0, b_wins=2, now=T0)
    services.finish_round(round_id=playoff.pk, actor=t.organiser, now=T0)
    final = t.pair()
    assert [(m.player_a_id, m.player_b_id) for m in final.matches.all()] == [(seeded[3], seeded[2])]
    t.play_round(final)
    with pytest.raises(DomainError) as caught:
        t.pair()
    assert codes(caught) == error_codes.ALL_ROUNDS_PLAYED


@pytest.mark.django_db
def test_extensions_and_the_clock(world):
    world.configure(round_minutes=50)
    round_obj = world.pair()
    services.start_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    round_obj.refresh_from_db()
    match = round_obj.matches.get(table=2)
    services.grant_extension(match_id=match.pk, actor=world.judge, minutes=4, reason="Deck check", now=minutes(10))
    match.refresh_from_db()
    assert selectors.clock(round_obj, minutes(20))["remaining_seconds"] == 30 * 60
    assert selectors.clock(round_obj, minutes(20), match)["remaining_seconds"] == 34 * 60
    called = selectors.clock(round_obj, minutes(51), match)
    assert not called["time_called"]
    called = selectors.clock(round_obj, minutes(54), match)
    assert called["time_called"] and called["additional_turns"] == 5
    progress = selectors.round_progress(round_obj, minutes(52))
    assert match not in progress.over_time and len(progress.over_time) == 3
    with pytest.raises(DomainError) as caught:
        services.grant_extension(match_id=match.pk, actor=world.users[0], minutes=4, now=T0)
    assert codes(caught) == error_codes.NOT_EVENT_STAFF


@pytest.mark.django_db
def test_free_text_loses_nul_bytes_postgresql_would_refuse(world):
    world.configure()
    round_obj = world.pair()
    services.start_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    match = round_obj.matches.get(table=1)
    services.grant_extension(match_id=match.pk, actor=world.judge, minutes=2, reason="a\x00b", now=T0)
    services.enter_result(match_id=match.pk, actor=world.judge, a_wins=2, b_wins=0, reason="c\x00d", now=T0)
    drop = services.drop_player(
        event_id=world.event.pk, registration_id=world.regs[0].pk, actor=world.users[0], reason="e\x00f", now=T0
    )
    assert drop.reason == "ef"
    assert [e.details["reason"] for e in MatchLogEntry.objects.filter(match=match).order_by("pk")] == ["ab", "cd"]
