"""Events pin their collation version (Event.collation_version, drafts migration 0030): an event
made before MTGJSON ``balanceColors`` was honoured keeps opening, from its stored seed, the
packs it would have opened then (draft rounds and sealed boosters); a new event opens version 2.
The backup carries the version (a file without it is version 1)."""

from __future__ import annotations

import datetime as dt
import json
import random

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from decks.models import SealedPool
from drafts import services
from drafts.services.packs import SetPacks, open_packs
from draftsite.backup import BackupError, export_event, import_event
from events import roles
from events import services as event_services
from events.access import SYSTEM
from events.boosters import COLLATION_VERSION, COLLATION_VERSION_UNBALANCED
from events.models import DraftFormat, Event
from sealed import services as sealed_services
from sealed.models import SealedPack
from tests.factories import UserFactory

BEFORE_0030 = ("drafts", "0029_pods_due_partial_indexes")
OLDER_NOTE = "its packs open with the earlier collation (version 1)"


@pytest.fixture
def organiser(db):
    user = UserFactory(username="collation-org")
    user.groups.add(Group.objects.get_or_create(name=roles.ORGANISER)[0])
    return user


def draft(organiser, name="ISD night") -> Event:
    return services.create_event(
        created_by=organiser, name=name, date=dt.date(2026, 12, 6), draft_format=DraftFormat.BOOSTER, set_codes=["ISD"]
    )


def cards(packs) -> list:
    return [[(c.printing_id, c.foil, c.slot) for c in pack.cards] for pack in packs]


@pytest.mark.django_db
def test_a_new_event_opens_the_current_collation_and_a_pinned_one_its_own(organiser):
    event = draft(organiser)
    assert event.collation_version == COLLATION_VERSION == 2
    assert Event.objects.get(pk=event.pk).collation_version == COLLATION_VERSION
    current = open_packs(event, 99, 8)
    # The same event pinned to version 1 opens, round by round, the packs of the old collation.
    Event.objects.filter(pk=event.pk).update(collation_version=COLLATION_VERSION_UNBALANCED)
    event.refresh_from_db()
    older = open_packs(event, 99, 8)
    rng = random.Random(99)
    unbalanced = SetPacks("ISD", None, collation_version=COLLATION_VERSION_UNBALANCED)
    assert all(cards(older[r]) == cards([unbalanced.open(rng) for _ in range(8)]) for r in (1, 2, 3))
    rng = random.Random(99)
    balanced = SetPacks("ISD")
    assert all(cards(current[r]) == cards([balanced.open(rng) for _ in range(8)]) for r in (1, 2, 3))
    assert cards(older[1]) != cards(current[1])


@pytest.mark.django_db
def test_a_sealed_event_opens_its_boosters_with_its_version(organiser):
    players = [UserFactory(username=f"cv{i}") for i in range(2)]
    other = {COLLATION_VERSION_UNBALANCED: COLLATION_VERSION, COLLATION_VERSION: COLLATION_VERSION_UNBALANCED}
    for version in (COLLATION_VERSION_UNBALANCED, COLLATION_VERSION):
        event = sealed_services.create_sealed_event(
            actor=organiser, name=f"Sealed v{version}", date=dt.date(2026, 12, 6), boosters=["ISD"], seed=7
        )
        assert event.collation_version == COLLATION_VERSION
        Event.objects.filter(pk=event.pk).update(collation_version=version)
        registration = event_services.register_player(
            event_id=event.pk, actor=SYSTEM, user=players[version - 1], name="P"
        )
        sealed_services.open_pools(event_id=event.pk, actor=organiser)
        packs = SealedPack.objects.filter(registration=registration).order_by("number")
        got = [[(c["printing_id"], c["foil"], c["slot"]) for c in p.cards] for p in packs]

        def opened(with_version: int, registration=registration) -> list:
            rng = random.Random(f"7:{registration.pk}")  # a player's boosters come from seed:registration
            opener = SetPacks("ISD", "default", collation_version=with_version)
            return [[(c.printing_id, c.foil, c.slot) for c in opener.open(rng).cards] for _ in range(6)]

        assert got == opened(version)
        assert got != opened(other[version])
        assert SealedPool.objects.filter(registration=registration).exists()


@pytest.mark.django_db
def test_the_organiser_page_says_when_an_event_opens_the_earlier_collation(client, organiser):
    event = draft(organiser)
    client.force_login(organiser)
    url = reverse("drafts:event-detail", args=[event.pk])
    assert OLDER_NOTE not in client.get(url).content.decode()
    Event.objects.filter(pk=event.pk).update(collation_version=COLLATION_VERSION_UNBALANCED)
    assert OLDER_NOTE in client.get(url).content.decode()
    client.force_login(UserFactory(username="collation-player"))
    assert OLDER_NOTE not in client.get(url).content.decode()  # organisers' business
    client.force_login(organiser)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert "a colação anterior (versão 1)" in page


@pytest.mark.django_db
def test_the_backup_carries_the_version_and_an_older_file_is_version_1(organiser):
    event = draft(organiser)
    Event.objects.filter(pk=event.pk).update(collation_version=COLLATION_VERSION_UNBALANCED)
    document = json.loads(json.dumps(export_event(event.pk)))
    assert document["event"]["collation_version"] == COLLATION_VERSION_UNBALANCED
    assert import_event(document, rename="v1 copy").event.collation_version == COLLATION_VERSION_UNBALANCED

    current = draft(organiser, "ZNR night")
    document = json.loads(json.dumps(export_event(current.pk)))
    assert document["event"]["collation_version"] == COLLATION_VERSION
    assert import_event(document, rename="v2 copy").event.collation_version == COLLATION_VERSION
    # A file written before events pinned their collation: the event opened the packs of then.
    del document["event"]["collation_version"]
    assert import_event(document, rename="old file").event.collation_version == COLLATION_VERSION_UNBALANCED
    document["event"]["collation_version"] = 9  # no collation this site can open
    with pytest.raises(BackupError, match="event_collation_version_known"):
        import_event(document, rename="unknown version")
    assert not Event.objects.filter(name="unknown version").exists()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_migration_pins_every_existing_event_to_version_1():
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE_0030])
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO drafts_event (name, date, enforcement_level, draft_format, set_codes, booster_kinds,"
                " cube_card_ids, pack_size, pick_timer, deck_building_minutes, deck_format, decklists_published,"
                " created_at) VALUES ('Made before', '2026-12-05', 'regular', 'booster', '[\"ISD\"]', '[]', '[]',"
                " 15, true, 25, 'limited', false, now()) RETURNING id"
            )
            (old_id,) = cursor.fetchone()
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert Event.objects.get(pk=old_id).collation_version == COLLATION_VERSION_UNBALANCED
    assert Event.objects.get(pk=old_id).older_collation
    # A row written without the column (bench/history.py) is a new event: the database default.
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO drafts_event (name, date, enforcement_level, draft_format, set_codes, booster_kinds,"
            " cube_card_ids, pack_size, pick_timer, deck_building_minutes, deck_format, decklists_published,"
            " created_at) VALUES ('Made after', '2026-12-06', 'regular', 'booster', '[\"ISD\"]', '[]', '[]',"
            " 15, true, 25, 'limited', false, now()) RETURNING id"
        )
        (new_id,) = cursor.fetchone()
    assert Event.objects.get(pk=new_id).collation_version == COLLATION_VERSION


@pytest.mark.django_db
def test_the_event_api_shows_the_version_read_only(api_client, organiser):
    event = draft(organiser)
    Event.objects.filter(pk=event.pk).update(collation_version=COLLATION_VERSION_UNBALANCED)
    api_client.force_authenticate(organiser)
    url = reverse("api-event-detail", args=[event.pk])
    assert api_client.get(url).json()["collation_version"] == COLLATION_VERSION_UNBALANCED
    # Read-only: a PATCH naming it changes nothing (the seed keeps opening the same packs).
    answer = api_client.patch(url, {"collation_version": COLLATION_VERSION, "name": "ISD night (v1)"}, format="json")
    assert answer.status_code == 200
    assert (
        answer.json()["collation_version"] == COLLATION_VERSION_UNBALANCED and answer.json()["name"] == "ISD night (v1)"
    )
    assert Event.objects.get(pk=event.pk).collation_version == COLLATION_VERSION_UNBALANCED
    # A new event answers the current version, from its creation on.
    created = api_client.post(
        reverse("api-event-list"), {"name": "ZNR night", "date": "2026-12-06", "set_codes": ["ISD"]}, format="json"
    )
    assert created.status_code == 201, created.json()
    assert created.json()["collation_version"] == COLLATION_VERSION
    new_url = reverse("api-event-detail", args=[created.json()["id"]])
    assert api_client.get(new_url).json()["collation_version"] == COLLATION_VERSION
