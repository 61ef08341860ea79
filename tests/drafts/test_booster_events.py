"""Events choose a booster kind per round; every opened card records its slot, shown to staff
and to the opener once decklists are published, never before (R16), and kept in the backup."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from drafts import error_codes, services
from drafts.models import DraftCard, Pack, Seat
from drafts.services.packs import open_packs
from draftsite.backup import export_event, import_event
from draftsite.errors import DomainError
from events import services as event_services
from events.access import SYSTEM
from events.models import Event

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def started_pod(organiser, players, set_codes=("DSK",), **kwargs):
    event = services.create_event(
        name="Duskmourn draft", date="2026-12-06", created_by=organiser, set_codes=list(set_codes), **kwargs
    )
    regs = [event_services.register_player(event_id=event.pk, user=u, actor=SYSTEM) for u in players]
    (pod,) = services.seat_players(event_id=event.pk, seed=11, pods=[[r.pk for r in regs]], actor=SYSTEM)
    services.start_pod(pod_id=pod.pk, actor=organiser)
    return pod


def test_an_event_stores_each_rounds_kind_the_default_filled_in(organiser):
    dsk = services.create_event(name="A", date="2026-12-06", created_by=organiser, set_codes=["DSK"])
    assert dsk.booster_kinds == ["play", "play", "play"]
    mixed = services.create_event(
        name="B",
        date="2026-12-06",
        created_by=organiser,
        set_codes=["ZNR", "ZNR", "DSK"],
        booster_kinds=["draft", "arena", ""],
    )
    assert mixed.booster_kinds == ["default", "arena", "play"]
    assert mixed.round_boosters() == [("ZNR", "default"), ("ZNR", "arena"), ("DSK", "play")]


@pytest.mark.parametrize(
    "kinds, code",
    [
        (["collector"], error_codes.UNKNOWN_BOOSTER_KIND),
        (["play", "play"], error_codes.INVALID_BOOSTER_KINDS),
    ],
)
def test_a_kind_the_set_lacks_is_refused_and_nothing_is_stored(organiser, kinds, code):
    with pytest.raises(DomainError) as refused:
        services.create_event(name="C", date="2026-12-06", created_by=organiser, set_codes=["DSK"], booster_kinds=kinds)
    assert refused.value.code == code
    assert not Event.objects.filter(name="C").exists()


def test_events_from_before_booster_kinds_open_what_they_opened(organiser):
    """An event stored with no kinds opens each set's default kind: the same packs as one that
    names it."""
    before = Event(set_codes=["ISD", "ZNR", "ISD"], booster_kinds=[], draft_format="booster")
    named = Event(set_codes=["ISD", "ZNR", "ISD"], booster_kinds=["default"] * 3, draft_format="booster")
    assert open_packs(before, 5, 8) == open_packs(named, 5, 8)


def test_api_takes_booster_kinds_and_refuses_unknown_ones_with_a_code(organiser):
    client = api(organiser)
    body = {"name": "Play", "date": "2026-12-06", "set_codes": ["dsk"], "booster_kinds": ["play"]}
    made = client.post("/api/events/", body, format="json")
    assert made.status_code == 201 and made.json()["booster_kinds"] == ["play", "play", "play"]
    refused = client.post("/api/events/", {**body, "name": "Nope", "booster_kinds": ["set"]}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == error_codes.UNKNOWN_BOOSTER_KIND
    assert not Event.objects.filter(name="Nope").exists()


def test_api_lists_a_sets_kinds_and_collations(organiser):
    client = api(organiser)
    znr = client.get("/api/sets/znr/boosters/").json()
    assert znr["default"] == "default"
    assert {k["name"]: k["collation"] for k in znr["kinds"]} == {"default": "mtgjson", "arena": "mtgjson"}
    dsk = client.get("/api/sets/DSK/boosters/").json()
    assert dsk["kinds"][0]["collation"] == "published" and dsk["kinds"][0]["label"] == "Play Booster"
    unknown = client.get("/api/sets/NOPE/boosters/")
    assert unknown.status_code == 400 and unknown.json()["errors"][0]["code"] == error_codes.UNKNOWN_SET


def test_the_event_form_says_which_collation_each_set_uses_and_checks_the_kind(client, organiser):
    client.force_login(organiser)
    page = client.get(reverse("drafts:event-create")).content.decode()
    assert 'data-set="DSK" data-kind="play"' in page
    assert "the slots and rates Wizards of the Coast published" in page
    assert "plain rarity collation" in page  # CHK
    form = {
        "name": "Form draft",
        "date": "2026-12-06",
        "enforcement_level": "regular",
        "draft_format": "booster",
        "set_codes": "DSK",
        "booster_kind": "collector",
        "pack_size": 15,
        "deck_building_minutes": 25,
    }
    refused = client.post(reverse("drafts:event-create"), form)
    assert refused.status_code == 200 and "DSK has no collector boosters" in refused.content.decode()
    assert not Event.objects.filter(name="Form draft").exists()
    made = client.post(reverse("drafts:event-create"), {**form, "booster_kind": "", "set_round_3": "ZNR"})
    assert made.status_code == 302
    event = Event.objects.get(name="Form draft")
    assert event.booster_kinds == ["play", "play", "default"]
    detail = client.get(reverse("drafts:event-detail", args=[event.pk])).content.decode()
    assert "DSK (Play Booster), DSK (Play Booster), ZNR (Draft Booster)" in detail


def test_the_event_form_chooses_a_kind_per_round_and_refuses_one_under_its_round(client, organiser):
    client.force_login(organiser)
    form = {
        "name": "Rounds draft",
        "date": "2026-12-06",
        "enforcement_level": "regular",
        "draft_format": "booster",
        "set_codes": "DSK",
        "booster_kind": "play",
        "set_round_2": "ZNR",
        "booster_kind_round_2": "arena",
        "set_round_3": "ZNR",
        "booster_kind_round_3": "collector",
        "pack_size": 15,
        "deck_building_minutes": 25,
    }
    refused = client.post(reverse("drafts:event-create"), form).content.decode()
    round_3 = refused.split('id="field-booster_kind_round_3"')[1].split('class="form-field')[0]
    assert "ZNR has no collector boosters" in round_3
    assert "has no" not in refused.split('id="field-booster_kind_round_2"')[1].split('class="form-field')[0]
    assert not Event.objects.filter(name="Rounds draft").exists()
    made = client.post(reverse("drafts:event-create"), {**form, "booster_kind_round_3": "draft"})
    assert made.status_code == 302
    assert Event.objects.get(name="Rounds draft").booster_kinds == ["play", "arena", "default"]


def test_a_dsk_pod_opens_play_boosters_and_records_every_slot(organiser, players):
    pod = started_pod(organiser, players)
    packs = Pack.objects.filter(pod=pod)
    assert packs.count() == 24 and all(p.initial_size == 14 and p.removed == [] for p in packs)
    slots = Counter(DraftCard.objects.filter(pod=pod).values_list("pack_slot", flat=True))
    assert slots == {"land": 24, "common": 168, "uncommon": 72, "rare_mythic": 24, "wildcard": 24, "foil": 24}


def test_slots_are_hidden_from_players_until_decklists_are_published_r16(client, organiser, players):
    pod = started_pod(organiser, players)
    seat = Seat.objects.get(pod=pod, position=0)
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    services.make_pick(seat_id=seat.pk, draft_card_id=pack.card_ids[0], actor=players[0], pack_id=pack.pk)
    client.force_login(players[0])
    log = json.loads(client.get(reverse("drafts:seat-log-json", args=[seat.pk])).content)
    assert "opened_packs" not in log and len(log["picks"]) == 1
    assert all("slot" not in pick and "pack_slots" not in pick for pick in log["picks"])
    page = client.get(reverse("drafts:seat", args=[seat.pk])).content.decode()
    assert 'id="opened-packs"' not in page
    other = Seat.objects.get(pod=pod, position=1)
    assert client.get(reverse("drafts:seat-log-json", args=[other.pk])).status_code in (403, 404)

    event = pod.event
    event.decklists_published = True
    event.save(update_fields=["decklists_published"])
    log = json.loads(client.get(reverse("drafts:seat-log-json", args=[seat.pk])).content)
    assert log["picks"][0]["slot"] and len(log["picks"][0]["pack_slots"]) == 14
    assert [p["round"] for p in log["opened_packs"]] == [1, 2, 3]
    assert all(p["seat"] == 1 for p in log["opened_packs"])
    assert Counter(c["slot"] for c in log["opened_packs"][0]["cards"])["wildcard"] == 1
    page = client.get(reverse("drafts:seat", args=[seat.pk])).content.decode()
    assert 'id="opened-packs"' in page and 'data-slot="rare_mythic"' in page and "Wildcard" in page
    assert page.count('data-slot="foil"') == 3  # this seat's three packs, not the others'


def test_the_organisers_pod_log_shows_every_packs_slots(client, organiser, players):
    pod = started_pod(organiser, players)
    client.force_login(organiser)
    data = json.loads(client.get(reverse("drafts:pod-log-json", args=[pod.pk])).content)
    assert len(data["packs"]) == 24
    assert Counter(c["slot"] for p in data["packs"] for c in p["cards"])["rare_mythic"] == 24
    text = client.get(reverse("drafts:pod-log-text", args=[pod.pk])).content.decode()
    assert "Opened packs:" in text and "    wildcard: " in text and "    foil: " in text
    page = client.get(reverse("drafts:pod-detail", args=[pod.pk])).content.decode()
    assert page.count('data-slot="land"') == 24
    client.force_login(players[0])
    assert client.get(reverse("drafts:pod-log-json", args=[pod.pk])).status_code in (403, 404)


def test_the_backup_keeps_kinds_and_slots_and_an_older_file_still_restores(organiser, players):
    pod = started_pod(organiser, players, set_codes=("ZNR", "ZNR", "DSK"), booster_kinds=["arena", "", "play"])
    document = export_event(pod.event_id)
    assert document["event"]["booster_kinds"] == ["arena", "default", "play"]
    assert Counter(c["pack_slot"] for c in document["draft_cards"])["wildcard"] == 8
    copy = import_event(json.loads(json.dumps(document)), rename="Restored").event
    assert copy.booster_kinds == ["arena", "default", "play"]
    assert Counter(DraftCard.objects.filter(pod__event=copy).values_list("pack_slot", flat=True)) == Counter(
        DraftCard.objects.filter(pod__event=pod.event).values_list("pack_slot", flat=True)
    )
    # A file written before booster kinds: no booster_kinds, no pack_slot.
    older = json.loads(json.dumps(document))
    older["event"].pop("booster_kinds")
    for card in older["draft_cards"]:
        card.pop("pack_slot")
    restored = import_event(older, rename="Restored from an older file").event
    assert restored.booster_kinds == []
    assert set(DraftCard.objects.filter(pod__event=restored).values_list("pack_slot", flat=True)) == {""}
    assert restored.round_boosters() == [("ZNR", None), ("ZNR", None), ("DSK", None)]
