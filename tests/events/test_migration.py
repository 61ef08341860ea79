"""The event models moved from the draft engine to the events app (events 0001, drafts 0032 and
each app's link to them): state only. A database made before the move keeps its rows, its
tables' names and its content types' ids (so permissions follow); a fresh one is the test
database itself, built through the same migrations.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from drafts.models import Pod
from events.models import Event, EventStaff, Registration
from matches.models import Round

# The draft engine's last migration before the move, and the events app unmade.
LAST_BEFORE = ("drafts", "0031_pick_live_answers_what_it_wrote")
BEFORE_THE_MOVE = [LAST_BEFORE, ("events", None)]
MOVED = ("event", "eventstaff", "staffinvitation", "eventlogentry", "registration")


def _content_type_ids(app_label: str) -> dict[str, int]:
    rows = ContentType.objects.filter(app_label=app_label, model__in=MOVED).values_list("model", "pk")
    return dict(rows)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_database_from_before_the_move_keeps_its_events_and_content_types():
    ContentType.objects.clear_cache()
    ContentType.objects.get_for_models(Event, EventStaff, Registration)  # made by the test database's post_migrate
    moved_ids = _content_type_ids("events")
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_THE_MOVE)
    try:
        # The draft engine's state of then: its own Event, Registration and EventStaff.
        old = executor.loader.project_state([LAST_BEFORE, ("matches", "0003_report_idempotency_keys")]).apps
        assert old.get_model("drafts", "Event")._meta.db_table == "drafts_event"
        assert _content_type_ids("drafts") == moved_ids and _content_type_ids("events") == {}
        user = old.get_model("auth", "User").objects.create(username="before-the-move")
        event = old.get_model("drafts", "Event").objects.create(name="Made before", date=dt.date(2026, 12, 5))
        old.get_model("drafts", "EventStaff").objects.create(event=event, user=user, role="organiser")
        registration = old.get_model("drafts", "Registration").objects.create(event=event, user=user, name="Ana")
        pod = old.get_model("drafts", "Pod").objects.create(event=event, number=1, seed=7)
        round_ = old.get_model("matches", "Round").objects.create(
            event=event, number=1, seed="7", paired_at=dt.datetime(2026, 12, 5, tzinfo=dt.UTC)
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    ContentType.objects.clear_cache()

    moved = Event.objects.get(pk=event.pk)
    assert moved.name == "Made before" and moved.date == dt.date(2026, 12, 5)
    assert list(moved.staff.values_list("user__username", "role")) == [("before-the-move", "organiser")]
    assert Registration.objects.get(pk=registration.pk).event == moved
    assert Pod.objects.get(pk=pod.pk).event == moved
    assert Round.objects.get(pk=round_.pk).event == moved
    # The same content type rows, now the events app's, with their permissions.
    assert _content_type_ids("events") == moved_ids and _content_type_ids("drafts") == {}
    assert ContentType.objects.get_for_model(Event).pk == moved_ids["event"]
    assert Permission.objects.filter(content_type__app_label="events", codename="change_event").exists()
