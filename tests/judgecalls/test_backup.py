"""Judge calls in the event backup (judgecalls/backup.py, format version 4): a call's caller,
seat, steps, outcome and penalty, and a pool dispute's attached pools, survive export ->
import; a call from a match table is left out (matches are not in the format); a version-3
file (no judge calls) still imports."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from draftsite.backup import BackupError, declarations, export_event, import_event
from events.models import Event
from judgecalls import services
from judgecalls.models import JudgeCall, Outcome
from penalties import services as penalty_services
from sealed import services as sealed_services
from sealed.models import PaperPool, PoolStatus
from tests.judgecalls.conftest import T0, Floor, minutes
from tests.sealed.conftest import NOW, make_event, organiser, players  # noqa: F401  (fixtures)
from tests.sealed.test_services import paper_pool

pytestmark = pytest.mark.django_db


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


def calls(event: Event) -> list[tuple]:
    """The event's calls as a judge reads them: people by name, pools by who registered them,
    the penalty by what it says (nothing here is an id of the event's rows)."""
    pools = {p.pk: p.registered_by.name for p in PaperPool.objects.filter(event=event).select_related("registered_by")}
    return [
        (
            call.caller.name,
            call.seat and (call.seat.pod.number, call.seat.position),
            call.reason,
            call.status,
            call.created_at,
            (_username(call.claimed_by), call.claimed_at),
            (_username(call.escalated_by), call.escalated_at),
            (_username(call.resolved_by), call.resolved_at),
            call.outcome,
            call.note,
            call.penalty and (call.penalty.registration.name, call.penalty.infraction.code, call.penalty.description),
            json.dumps([{**a, "pool": pools[a["pool"]]} for a in call.attachments]),
        )
        for call in JudgeCall.objects.filter(event=event).order_by("created_at", "pk")
    ]


@pytest.fixture
def floor_calls(db) -> Floor:
    """Round 1 running: a drafter's call claimed, escalated and resolved with a penalty;
    another drafter's call still open; a call from table 1 (left out of the file)."""
    floor = Floor()
    seats = {seat.registration_id: seat for seat in floor.pod.seats.all()}
    other = floor.other_match
    penalised, waiting = other.player_a, other.player_b
    call = services.call_from_seat(
        seat_id=seats[penalised.pk].pk, actor=floor.user_of[penalised.pk], reason="Looked at a pack", now=T0
    )
    services.claim_call(call_id=call.pk, actor=floor.judge, now=minutes(1))
    services.escalate_call(call_id=call.pk, actor=floor.judge, note="Head judge's call", now=minutes(2))
    penalty = penalty_services.issue_penalty(
        event_id=floor.event.pk,
        registration_id=penalised.pk,
        infraction_code="slow_play",
        actor=floor.head_judge,
        description="Held the pack",
        now=minutes(3),
    )
    services.resolve_call(
        call_id=call.pk,
        actor=floor.head_judge,
        outcome=Outcome.PENALTY,
        note="Warning",
        penalty_id=penalty.pk,
        now=minutes(4),
    )
    services.call_from_seat(
        seat_id=seats[waiting.pk].pk, actor=floor.user_of[waiting.pk], reason="Misdeal", now=minutes(5)
    )
    services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), reason="Rules question", now=minutes(6))
    return floor


def test_the_calls_of_an_event_round_trip_but_a_table_call(floor_calls):
    floor = floor_calls
    before = calls(floor.event)
    table_call = before.pop()  # the last, from table 1
    assert table_call[0] == floor.match.player_a.name and table_call[1] is None
    document = export_event(floor.event.pk)
    assert document["format_version"] == 4
    rows = document["judge_calls"]
    assert len(rows) == 2 and all("match" not in row for row in rows)
    # No ids of this database: people by username, the caller, seat and penalty by their keys.
    resolved = rows[0]
    assert (resolved["claimed_by"], resolved["escalated_by"], resolved["resolved_by"]) == ("judge", "judge", "hj")
    caller = next(r for r in document["registrations"] if r["key"] == resolved["caller"])
    assert caller["name"] == floor.other_match.player_a.name
    assert document["seats"][resolved["seat"] - 1]["registration"] == resolved["caller"]
    assert document["penalties"][resolved["penalty"] - 1]["description"] == "Held the pack"

    copy = import_event(json.loads(json.dumps(document)), rename="Friday draft (restored)").event
    assert calls(copy) == before
    assert not JudgeCall.objects.filter(event=copy, match__isnull=False).exists()
    # The copy exports to the same file (apart from its name and the time of the export).
    again = export_event(copy.pk)
    for doc in (document, again):
        doc.pop("exported_at")
        doc["event"].pop("name")
    assert json.loads(json.dumps(again)) == json.loads(json.dumps(document))


def test_the_section_says_which_calls_it_leaves_out_and_why():
    section = next(s for s in declarations().sections if s.model is JudgeCall)
    rows, reason = section.left_out
    assert "match" in reason and rows.children == [("match__isnull", False)]


def disputed_event(organiser, players):  # noqa: F811
    """A paper sealed event after the swap: one pool confirmed, one disputed (a judge call with
    both pools attached), claimed and resolved by the organiser."""
    event, regs = make_event(organiser, players[:4], paper=True)
    for player in players[:4]:
        sealed_services.register_paper_pool(event_id=event.pk, actor=player, cards=paper_pool(), now=NOW)
    sealed_services.swap_pools(event_id=event.pk, actor=organiser, seed=7, now=NOW)
    sealed_services.answer_pool(event_id=event.pk, actor=players[0], confirm=True, now=NOW)
    pool = sealed_services.answer_pool(
        event_id=event.pk, actor=players[1], confirm=False, reason="a rare short", now=NOW
    )
    services.claim_call(call_id=pool.judge_call_id, actor=organiser, now=NOW + dt.timedelta(minutes=1))
    services.resolve_call(
        call_id=pool.judge_call_id, actor=organiser, outcome=Outcome.RULING, now=NOW + dt.timedelta(minutes=2)
    )
    return event


def restored(event: Event, document: dict) -> Event:
    """Delete the event, import the file into the database that no longer has it."""
    JudgeCall.objects.filter(event=event).delete()
    Event.objects.filter(pk=event.pk).delete()
    copy = import_event(json.loads(json.dumps(document))).event
    assert isinstance(copy, Event)
    return copy


def disputes(event: Event) -> list[tuple]:
    """Each pool by who registered it, with its status and its call's attached pools."""
    name = {p.pk: p.registered_by.name for p in PaperPool.objects.filter(event=event).select_related("registered_by")}
    return sorted(
        (p.registered_by.name, p.status, p.judge_call and [name[a["pool"]] for a in p.judge_call.attachments])
        for p in PaperPool.objects.filter(event=event).select_related("registered_by", "judge_call")
    )


def test_a_pool_dispute_keeps_its_call_and_the_pools_it_attaches(organiser, players):  # noqa: F811
    event = disputed_event(organiser, players)
    before, before_disputes = calls(event), disputes(event)
    disputed = [d for d in before_disputes if d[1] == PoolStatus.DISPUTED]
    assert len(disputed) == 1 and len(disputed[0][2]) == 2
    document = export_event(event.pk)
    attachments = document["judge_calls"][0]["attachments"]
    keys = {row["key"]: row["registered_by"] for row in document["paper_pools"]}
    # The pools by their keys in the file, the pool by its call's key.
    assert all(a["pool"] in keys for a in attachments)
    assert [row["judge_call"] for row in document["paper_pools"]].count(1) == 1
    copy = restored(event, document)
    assert calls(copy) == before
    assert disputes(copy) == before_disputes
    assert PaperPool.objects.get(event=copy, status=PoolStatus.DISPUTED).judge_call.event_id == copy.pk


def as_version_3(document: dict) -> dict:
    """The document as format version 3 wrote it: no judge calls, no pool's call."""
    document = json.loads(json.dumps(document))
    del document["judge_calls"]
    for row in document["paper_pools"]:
        del row["judge_call"]
    document["format_version"] = 3
    return document


def test_a_version_3_file_imports_with_no_calls(organiser, players):  # noqa: F811
    event = disputed_event(organiser, players)
    statuses = [(name, status) for name, status, _ in disputes(event)]
    document = export_event(event.pk)
    copy = import_event(as_version_3(document), rename="Prerelease (v3)").event
    assert not JudgeCall.objects.filter(event=copy).exists()
    assert [(name, status) for name, status, _ in disputes(copy)] == statuses  # still says disputed
    assert not PaperPool.objects.filter(event=copy, judge_call__isnull=False).exists()
    # A version-4 file must carry them: one without is incomplete.
    cut = {**as_version_3(document), "format_version": 4}
    with pytest.raises(BackupError, match="missing judge_calls"):
        import_event(cut, rename="Prerelease (v4, cut)")


def test_a_call_naming_a_pool_the_file_lacks_is_refused_and_stores_nothing(organiser, players):  # noqa: F811
    event = disputed_event(organiser, players)
    document = export_event(event.pk)
    document["judge_calls"][0]["attachments"][0]["pool"] = 99
    events, calls_before = Event.objects.count(), JudgeCall.objects.count()
    with pytest.raises(BackupError, match="paper_pools key 99"):
        import_event(document, rename="Prerelease (bad)")
    assert (Event.objects.count(), JudgeCall.objects.count()) == (events, calls_before)
