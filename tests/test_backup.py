"""Backup and restore of an event (draftsite/backup.py, export_event / import_event).

The audit trail is append-only, so an exported event cannot be wiped and restored in place;
the round trip is proven as export -> import as a renamed copy -> export the copy: the two
documents are equal apart from the name (nothing in them is a database id). Files of format
version 1 (where a card is on the card's row) still import.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command

from decks import services as deck_services
from decks.models import Deck, DeckCheck, DeckCorrection
from drafts import services as draft_services
from drafts.models import DraftCard, Pack, Pick, Pod, PodLogEntry, Seat
from drafts.simulation import check_conservation
from draftsite.backup import (
    FORMAT_VERSION,
    BackupError,
    IdList,
    Section,
    _check_link_order,
    declarations,
    export_event,
    import_event,
)
from events import services as event_services
from events.access import SYSTEM
from events.models import Event, EventStaff, Registration, StaffRole
from judgecalls.models import JudgeCall
from penalties import services as penalty_services
from penalties.models import Appeal, DismissedSource, Penalty, PenaltyAudit
from sealed.models import PaperPool
from tests.drafts.conftest import cube_names, make_pod, organiser, players  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 11, 29, 15, 0, tzinfo=dt.UTC)


def at(minutes: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


def _pick_round(pod: Pod, now: dt.datetime) -> None:
    """Every seat takes the first card of the first pack in its queue."""
    for seat in Seat.objects.filter(pod=pod).order_by("position"):
        pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
        draft_services.make_pick(
            seat_id=seat.pk, draft_card_id=pack.card_ids[0], actor=seat.registration.user, pack_id=pack.pk, now=now
        )


@pytest.fixture
def busy_event(organiser, players, cube_names):  # noqa: F811
    """A cube event in mid-draft: picks made, a guest, judges, a deck with a correction and a
    deck check, penalties (one from a pick, one from the check) with an appeal and reviews."""
    User = get_user_model()
    pod = make_pod(organiser, players, cube_names, pick_timer=True, now=T0)
    event = pod.event
    head_judge = User.objects.create_user("hj", password="pw", first_name="Hanna", email="hj@example.org")
    judge = User.objects.create_user("judge", password="pw")
    EventStaff.objects.create(event=event, user=head_judge, role=StaffRole.HEAD_JUDGE)
    EventStaff.objects.create(event=event, user=judge, role=StaffRole.JUDGE)
    event_services.register_player(event_id=event.pk, name="Gwen Guest", actor=SYSTEM)
    # Pick 1: everyone's timer runs out (timeout picks); pick 2 by hand; a pause.
    draft_services.enforce_deadlines(pod_id=pod.pk, now=T0 + dt.timedelta(seconds=41))
    _pick_round(pod, T0 + dt.timedelta(seconds=42))
    draft_services.pause_pod(pod_id=pod.pk, actor=organiser, now=T0 + dt.timedelta(seconds=43))
    draft_services.resume_pod(pod_id=pod.pk, actor=organiser, now=T0 + dt.timedelta(seconds=44))

    seat = Seat.objects.filter(pod=pod).order_by("position").first()
    player = seat.registration.user
    # The first player puts their second pick on top: a pile in neither pick nor id order.
    draft_services.move_pile_card(seat_id=seat.pk, draft_card_id=seat.pile_ids[1], position=0, actor=player)
    # The guest plays sealed alongside (the drafters' decks come after the draft).
    guest = Registration.objects.get(event=event, name="Gwen Guest")
    deck_services.set_deck_rules(event_id=event.pk, actor=organiser, checklist_policy="per_name")
    pool_names = [f"Single {i:03d}" for i in range(1, 30) if i % 5]
    deck_services.set_sealed_pool(
        registration_id=guest.pk, actor=organiser, cards=[{"name": name, "count": 1} for name in pool_names]
    )
    deck, _ = deck_services.register_deck(
        event_id=event.pk,
        actor=organiser,
        registration_id=guest.pk,
        main=[{"name": name, "count": 1} for name in pool_names[:18]] + [{"name": "Island", "count": 20}],
        now=at(5),
    )
    deck_services.correct_deck(
        deck_id=deck.pk,
        actor=judge,
        reason="Wrong basic count",
        main=[{"name": name, "count": 1} for name in pool_names[:18]] + [{"name": "Island", "count": 22}],
        now=at(6),
    )
    selection = deck_services.select_for_deck_check(
        event_id=event.pk, actor=judge, method="chosen", registration_ids=[guest.pk], now=at(7)
    )
    check = deck_services.record_deck_check(
        deck_id=deck.pk, actor=judge, selection_id=selection.pk, notes="Sleeves fine", now=at(8)
    )
    pick = Pick.objects.filter(seat=seat).order_by("round", "pick_number").first()
    slow = penalty_services.issue_penalty(
        event_id=event.pk,
        registration_id=seat.registration_id,
        infraction_code="slow_play",
        actor=judge,
        description="Long pick",
        pod_id=pod.pk,
        draft_round=1,
        pick_number=1,
        source=f"pick:{pick.pk}",
        now=at(9),
    )
    penalty_services.appeal_penalty(penalty_id=slow.pk, actor=player, statement="I was quick", now=at(10))
    penalty_services.decide_appeal(
        penalty_id=slow.pk, actor=head_judge, decision="uphold", reason="Timer log agrees", now=at(11)
    )
    other_pick = Pick.objects.filter(seat__pod=pod).exclude(seat=seat).first()
    penalty_services.dismiss_source(
        event_id=event.pk, source=f"pick:{other_pick.pk}", actor=judge, reason="Clock was paused", now=at(12)
    )
    penalty_services.issue_penalty(
        event_id=event.pk,
        registration_id=guest.pk,
        infraction_code="slow_play",
        actor=judge,
        description="Found at the deck check",
        source=f"deck_check:{check.pk}",
        now=at(13),
    )
    return event


def _normalised(document: dict) -> dict:
    document = json.loads(json.dumps(document))
    document.pop("exported_at")
    document["event"].pop("name")
    return document


def _import_copy(document: dict, name: str = "Cube night (restored)"):
    return import_event(json.loads(json.dumps(document)), rename=name)


def test_export_is_versioned_and_complete(busy_event):
    doc = export_event(busy_event.pk)
    assert doc["format_version"] == FORMAT_VERSION
    assert doc["event"]["name"] == "Cube night" and doc["event"]["created_by"] == "org"
    assert len(doc["registrations"]) == 9
    assert {r["name"] for r in doc["registrations"] if r["user"] is None} == {"Gwen Guest"}
    assert {s["role"] for s in doc["staff"]} == {"organiser", "head_judge", "judge"}
    assert len(doc["pods"]) == 1 and len(doc["seats"]) == 8 and len(doc["picks"]) == 16
    assert len(doc["draft_cards"]) == DraftCard.objects.filter(pod__event=busy_event).count()
    assert {e["action"] for e in doc["pod_log"]} >= {"start", "pause", "resume"}
    assert len(doc["decks"]) == 1 and len(doc["deck_corrections"]) == 1 and len(doc["deck_checks"]) == 1
    assert len(doc["sealed_pools"]) == 1 and doc["deck_rules"][0]["checklist_policy"] == "per_name"
    assert doc["sealed_pools"][0]["cards"][0]["card_id"] == {"card": "Single 001"}
    assert len(doc["penalties"]) == 2 and len(doc["appeals"]) == 1 and len(doc["dismissed_sources"]) == 1
    assert [a["action"] for a in doc["penalty_audit"]].count("issued") == 2
    # Nothing refers to this database's ids: cards by name, people by username, rows by key.
    assert doc["draft_cards"][0]["card"] in {c for c in doc["event"]["cube_card_ids"]}
    assert all(isinstance(row["card_id"], dict) for row in doc["decks"][0]["main"] if row["card_id"])
    assert doc["penalties"][0]["source"].startswith("pick:")  # sources name keys in the file
    assert doc["penalties"][1]["source"] == "deck_check:1"
    assert {u["username"] for u in doc["users"]} >= {"org", "hj", "judge", "p0"}
    assert next(u for u in doc["users"] if u["username"] == "hj")["email"] == "hj@example.org"


def test_round_trip_is_lossless(busy_event):
    original = export_event(busy_event.pk)
    result = _import_copy(original)
    copy = result.event
    assert copy.pk != busy_event.pk and copy.name == "Cube night (restored)"
    assert result.created_users == []  # every account exists here
    again = export_event(copy.pk)
    assert _normalised(again) == _normalised(original)


def test_import_links_point_at_the_new_rows(busy_event):
    copy = _import_copy(export_event(busy_event.pk)).event
    pod = Pod.objects.get(event=copy)
    old_pod = Pod.objects.get(event=busy_event)
    assert pod.pk != old_pod.pk and pod.seed == old_pod.seed and pod.state == old_pod.state
    assert set(Seat.objects.filter(pod=pod).values_list("registration__event", flat=True)) == {copy.pk}
    for pick in Pick.objects.filter(seat__pod=pod):
        assert pick.draft_card.pod_id == pod.pk and pick.pack.pod_id == pod.pk
        assert set(pick.pack_contents) <= set(DraftCard.objects.filter(pod=pod).values_list("pk", flat=True))
        assert pick.draft_card_id in pick.pack_contents
    # The same cards (where they are: test_round_trip_keeps_packs_and_piles_in_order).
    assert sorted(DraftCard.objects.filter(pod=pod).values_list("card_id", "slot", "opened_in__round")) == sorted(
        DraftCard.objects.filter(pod=old_pod).values_list("card_id", "slot", "opened_in__round")
    )
    assert PodLogEntry.objects.filter(pod=pod).count() == PodLogEntry.objects.filter(pod=old_pod).count()
    # Decks: the same cards by catalogue id; correction and check on the new deck.
    deck = Deck.objects.get(event=copy)
    old_deck = Deck.objects.get(event=busy_event)
    assert deck.main == old_deck.main and deck.registration.event_id == copy.pk
    assert DeckCorrection.objects.get(deck=deck).reason == "Wrong basic count"
    check = DeckCheck.objects.get(deck=deck)
    assert check.selection.event_id == copy.pk
    assert check.selection.registration_ids == [deck.registration_id]
    assert deck.registration.name == "Gwen Guest" and deck.registration.user is None
    assert (
        deck.registration.sealed_pool.cards
        == Registration.objects.get(event=busy_event, name="Gwen Guest").sealed_pool.cards
    )
    # Penalties: sources name the copy's own pick and deck check; appeal and audit follow.
    sources = set(Penalty.objects.filter(event=copy).values_list("source", flat=True))
    first_seat = Seat.objects.get(pod=pod, position=0)
    pick = Pick.objects.get(seat=first_seat, round=1, pick_number=1)
    assert sources == {f"pick:{pick.pk}", f"deck_check:{check.pk}"}
    slow = Penalty.objects.get(event=copy, source=f"pick:{pick.pk}")
    assert slow.pod_id == pod.pk and slow.infraction.code == "slow_play"
    assert Appeal.objects.get(penalty=slow).status == "decided"
    assert list(PenaltyAudit.objects.filter(penalty=slow).values_list("action", "actor__username")) == list(
        PenaltyAudit.objects.filter(penalty__event=busy_event, penalty__source__startswith="pick:").values_list(
            "action", "actor__username"
        )
    )
    dismissed = DismissedSource.objects.get(event=copy)
    assert dismissed.source.startswith("pick:")
    assert Pick.objects.filter(pk=int(dismissed.source.split(":")[1]), seat__pod=pod).exists()
    # Timestamps Django stamps on save keep the file's values.
    assert copy.created_at == busy_event.created_at


def _places(event: Event) -> dict:
    """Each pack's cards and each pile, in order, as catalogue card names."""
    pod = Pod.objects.get(event=event)
    names = dict(DraftCard.objects.filter(pod=pod).values_list("pk", "card__name"))
    return {
        "packs": {
            (pack.round, pack.opener.position): [names[pk] for pk in pack.card_ids]
            for pack in Pack.objects.filter(pod=pod).select_related("opener")
        },
        "piles": {seat.position: [names[pk] for pk in seat.pile_ids] for seat in Seat.objects.filter(pod=pod)},
    }


def test_round_trip_keeps_packs_and_piles_in_order(busy_event):
    original = _places(busy_event)
    # Mid-draft: cards in packs and in piles, the first pile reordered by its player.
    assert all(len(pile) == 2 for pile in original["piles"].values())
    assert sum(len(cards) for cards in original["packs"].values()) > 0
    doc = export_event(busy_event.pk)
    assert all(isinstance(key, int) for row in doc["packs"] for key in row["card_ids"])
    assert not {"pack", "seat", "pile_position"} & set(doc["draft_cards"][0])
    copy = _import_copy(doc).event
    assert _places(copy) == original
    assert check_conservation(Pod.objects.get(event=copy)) == []


def _as_version_1(document: dict) -> dict:
    """The document as format version 1 wrote it: where a card is, on the card's row."""
    document = json.loads(json.dumps(document))
    place = {}
    for pack in document["packs"]:
        place.update({key: {"pack": pack["key"], "seat": None, "pile_position": None} for key in pack.pop("card_ids")})
    for seat in document["seats"]:
        place.update(
            {key: {"pack": None, "seat": seat["key"], "pile_position": n} for n, key in enumerate(seat.pop("pile_ids"))}
        )
    # Rows in reverse, so only the slots and pile positions can give the order back.
    document["draft_cards"] = [{**row, **place[row["key"]]} for row in reversed(document["draft_cards"])]
    document["format_version"] = 1
    return document


def test_a_version_1_file_imports_to_the_same_packs_and_piles(busy_event):
    original = _places(busy_event)
    copy = _import_copy(_as_version_1(export_event(busy_event.pk))).event
    assert _places(copy) == original
    assert check_conservation(Pod.objects.get(event=copy)) == []


def test_an_unknown_card_key_in_a_pack_is_refused_and_stores_nothing(busy_event):
    doc = export_event(busy_event.pk)
    doc["packs"][0]["card_ids"].append(9999)
    events = Event.objects.count()
    with pytest.raises(
        BackupError, match=r"packs\[1\]\.card_ids names draft_cards key\(s\) the file does not contain: 9999"
    ):
        _import_copy(doc)
    assert Event.objects.count() == events


def test_import_creates_missing_accounts_without_a_password(busy_event):
    doc = export_event(busy_event.pk)
    doc = json.loads(json.dumps(doc).replace('"p7"', '"newcomer"'))
    result = _import_copy(doc, "Moved event")
    assert result.created_users == ["newcomer"]
    newcomer = get_user_model().objects.get(username="newcomer")
    assert not newcomer.has_usable_password()
    assert Registration.objects.get(event=result.event, user=newcomer)


def test_import_when_the_event_exists_is_refused(busy_event):
    doc = export_event(busy_event.pk)
    events, picks = Event.objects.count(), Pick.objects.count()
    with pytest.raises(BackupError, match="already exists"):
        import_event(doc)
    assert (Event.objects.count(), Pick.objects.count()) == (events, picks)


def test_commands_round_trip_through_a_file(busy_event, tmp_path, capsys):
    path = tmp_path / "event.json"
    call_command("export_event", str(busy_event.pk), "--output", str(path))
    assert json.loads(path.read_text())["format_version"] == FORMAT_VERSION
    with pytest.raises(CommandError, match="already exists"):
        call_command("import_event", str(path))
    call_command("import_event", str(path), "--rename", "Restored")
    assert 'Imported "Restored"' in capsys.readouterr().out
    copy = Event.objects.get(name="Restored")
    assert Pick.objects.filter(seat__pod__event=copy).count() == 16


def test_export_of_an_unknown_event_is_a_command_error(db):
    with pytest.raises(CommandError, match="no event with id"):
        call_command("export_event", "999999")


def _version_1_card_in_a_missing_pack(document: dict) -> dict:
    document = _as_version_1(document)
    document["draft_cards"][0]["pack"] = 42
    return document


@pytest.mark.parametrize(
    "mangle, message",
    [
        (lambda d: "not json at all {", "not valid JSON"),
        (lambda d: [], "not an event backup"),
        (lambda d: {k: v for k, v in d.items() if k != "format_version"}, "format_version"),
        (lambda d: {**d, "format_version": 99}, "not supported"),
        (lambda d: {**d, "format_version": True}, "not supported"),
        (lambda d: {k: v for k, v in d.items() if k != "picks"}, "missing picks"),
        (lambda d: {**d, "seats": [{**d["seats"][0], "pod": 42}, *d["seats"][1:]]}, "pods key 42"),
        (
            lambda d: {**d, "draft_cards": [{**d["draft_cards"][0], "card": "No Such Card"}, *d["draft_cards"][1:]]},
            "not in this catalogue",
        ),
        (lambda d: {**d, "picks": [{**d["picks"][0], "made_at": "yesterday-ish"}, *d["picks"][1:]]}, "malformed"),
        (lambda d: {**d, "penalties": [{**d["penalties"][0], "infraction": "made_up"}]}, "Unknown infraction"),
        (lambda d: {**d, "pods": [{**d["pods"][0], "colour": "red"}]}, "unknown field"),
        (lambda d: {**d, "seats": [{**d["seats"][0], "pile_ids": 3}, *d["seats"][1:]]}, "list of draft_cards keys"),
        (_version_1_card_in_a_missing_pack, "packs key 42"),
        # The last rows are fine until the database refuses a duplicate pick (one transaction).
        (lambda d: {**d, "picks": [*d["picks"], {**d["picks"][-1], "key": 999}]}, "database rule"),
    ],
)
def test_malformed_file_is_a_command_error_and_stores_nothing(busy_event, tmp_path, mangle, message):
    doc = export_event(busy_event.pk)
    doc["event"]["name"] = "Fresh name"  # so only the mangling can fail
    mangled = mangle(doc)
    path = tmp_path / "bad.json"
    path.write_text(mangled if isinstance(mangled, str) else json.dumps(mangled))
    User = get_user_model()
    before = (
        Event.objects.count(),
        Pod.objects.count(),
        Pick.objects.count(),
        Penalty.objects.count(),
        PenaltyAudit.objects.count(),
        User.objects.count(),
    )
    with pytest.raises(CommandError, match=message):
        call_command("import_event", str(path))
    after = (
        Event.objects.count(),
        Pod.objects.count(),
        Pick.objects.count(),
        Penalty.objects.count(),
        PenaltyAudit.objects.count(),
        User.objects.count(),
    )
    assert after == before


def _tied_to_the_event(model, event_model) -> bool:
    """Whether a chain of foreign keys leads from ``model`` to the event."""
    seen, todo = set(), [model]
    while todo:
        current = todo.pop()
        if current is event_model:
            return True
        if current in seen:
            continue
        seen.add(current)
        todo += [
            f.related_model for f in current._meta.concrete_fields if f.is_relation and (f.many_to_one or f.one_to_one)
        ]
    return False


def _not_covered(declared) -> list[str]:
    from django.apps import apps

    event_model = declared.root.model
    covered = {section.model for section in declared.sections} | set(declared.left_out) | {event_model}
    return sorted(
        model._meta.label
        for model in apps.get_models()
        if not model._meta.proxy and _tied_to_the_event(model, event_model) and model not in covered
    )


def test_every_model_tied_to_an_event_is_exported_or_left_out_with_a_reason():
    """A new model reaching an event through its foreign keys must be declared in its app's
    backup.py: a section of the document, or LEFT_OUT with the reason."""
    declared = declarations()
    assert _not_covered(declared) == []
    assert all(reason.strip() for reason in declared.left_out.values())
    assert not {section.model for section in declared.sections} & set(declared.left_out)


def test_the_coverage_check_finds_a_model_no_app_declares():
    declared = declarations()
    without_picks = dataclasses.replace(declared, sections=tuple(s for s in declared.sections if s.model is not Pick))
    assert _not_covered(without_picks) == ["drafts.Pick"]


def test_id_lists_may_name_a_later_section_only_when_declared_later():
    def sections(**lists):
        return [Section("packs", Pack, "pod__event", {}, **lists), Section("draft_cards", DraftCard, "pod__event", {})]

    _check_link_order(sections(later_id_lists={"card_ids": IdList("draft_cards")}))
    with pytest.raises(ImproperlyConfigured, match="below it"):
        _check_link_order(sections(id_lists={"card_ids": IdList("draft_cards")}))
    with pytest.raises(ImproperlyConfigured, match="no app declares"):
        _check_link_order(sections(later_id_lists={"card_ids": IdList("cards")}))


def test_json_ids_may_name_a_later_section_only_when_declared_later():
    def sections(**links):
        return [Section("calls", JudgeCall, "event", {}, **links), Section("pools", PaperPool, "event", {})]

    _check_link_order(sections(later_json_links={"attachments": {"pool": "pools"}}))
    with pytest.raises(ImproperlyConfigured, match="below it"):
        _check_link_order(sections(json_links={"attachments": {"pool": "pools"}}))
    with pytest.raises(ImproperlyConfigured, match="no app declares"):
        _check_link_order(sections(later_json_links={"attachments": {"pool": "paper"}}))


def test_sections_come_in_the_order_of_the_installed_apps():
    """The document's sections keep the order of format version 1; version 3 added the sealed
    ones (after the decks and penalties they may link to), version 4 the judge calls (between
    the penalties they name and the sealed pools that name them)."""
    assert [section.name for section in declarations().sections] == [
        "staff",
        "registrations",
        "pods",
        "seats",
        "packs",
        "draft_cards",
        "picks",
        "pod_log",
        "deck_rules",
        "sealed_pools",
        "decks",
        "deck_corrections",
        "deck_check_selections",
        "deck_checks",
        "penalties",
        "appeals",
        "dismissed_sources",
        "penalty_audit",
        "judge_calls",
        "sealed_events",
        "sealed_packs",
        "paper_pools",
        "pool_swaps",
    ]
    assert {s.name for s in declarations().sections if s.since == 3} == {
        "sealed_events",
        "sealed_packs",
        "paper_pools",
        "pool_swaps",
    }
    assert {s.name for s in declarations().sections if s.since == 4} == {"judge_calls"}
