"""The audit trail is append-only: no ORM call, admin page or (on PostgreSQL) raw SQL changes
or deletes a row."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import ProtectedError

from penalties import services
from penalties.models import AuditImmutableError, Penalty, PenaltyAudit
from tests.penalties.conftest import minutes

pytestmark = pytest.mark.django_db


@pytest.fixture
def audited(world):
    penalty = world.issue("tardiness", now=minutes(1))
    services.review_penalty(
        penalty_id=penalty.pk,
        actor=world.head_judge,
        decision="downgrade",
        penalty="warning",
        reason="Told the judge in time.",
        now=minutes(2),
    )
    return penalty


def snapshot():
    return list(PenaltyAudit.objects.order_by("pk").values_list("pk", "action", "reason", "from_penalty", "to_penalty"))


def test_history_records_who_when_what_and_why(world, audited):
    rows = list(audited.history.all())
    assert [(r.action, r.actor, r.at, r.from_penalty, r.to_penalty, r.from_status, r.to_status) for r in rows] == [
        ("issued", world.judge, minutes(1), "game_loss", "game_loss", "", "pending_review"),
        ("downgrade", world.head_judge, minutes(2), "game_loss", "warning", "pending_review", "final"),
    ]
    assert rows[1].reason == "Told the judge in time."


def test_model_save_refuses_updates(audited):
    before = snapshot()
    row = PenaltyAudit.objects.first()
    row.reason = "rewritten"
    with pytest.raises(AuditImmutableError) as refused:
        row.save()
    assert refused.value.code == "audit_immutable"
    with pytest.raises(AuditImmutableError):
        row.save(update_fields=["reason"])
    assert snapshot() == before


def test_model_delete_refuses(audited):
    before = snapshot()
    with pytest.raises(AuditImmutableError):
        PenaltyAudit.objects.first().delete()
    assert snapshot() == before


@pytest.mark.parametrize(
    "operation",
    [
        lambda qs: qs.update(reason="rewritten"),
        lambda qs: qs.delete(),
        lambda qs: qs.bulk_update(list(qs), ["reason"]),
        lambda qs: qs.update_or_create(pk=qs.first().pk, defaults={"reason": "x"}),
    ],
)
def test_queryset_update_and_delete_refuse(audited, operation):
    before = snapshot()
    with pytest.raises(AuditImmutableError):
        operation(PenaltyAudit.objects.all())
    assert snapshot() == before


def test_related_manager_refuses_too(audited):
    before = snapshot()
    with pytest.raises(AuditImmutableError):
        audited.history.all().delete()
    with pytest.raises(AuditImmutableError):
        audited.history.update(reason="x")
    assert snapshot() == before


def test_a_penalty_with_history_cannot_be_deleted(audited):
    with pytest.raises((ProtectedError, AuditImmutableError)):
        Penalty.objects.get(pk=audited.pk).delete()
    assert Penalty.objects.filter(pk=audited.pk).exists() and len(snapshot()) == 2


def test_new_rows_can_still_be_appended(world, audited):
    services.appeal_penalty(penalty_id=audited.pk, actor=world.player, statement="Appeal.")
    assert [r[1] for r in snapshot()] == ["issued", "downgrade", "appealed"]


def test_database_refuses_raw_sql_changes(audited):
    """A trigger refuses UPDATE and DELETE even outside the ORM."""
    table = PenaltyAudit._meta.db_table
    for sql in (f"UPDATE {table} SET reason = 'x'", f"DELETE FROM {table}"):
        with pytest.raises(DatabaseError, match="audit_immutable"):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(sql)
    assert len(snapshot()) == 2 and snapshot()[0][2] != "x"


# --- admin -----------------------------------------------------------------------------


@pytest.fixture
def admin_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.com", "pw"))
    return client


def test_admin_shows_audit_rows_read_only(admin_client, audited):
    row = PenaltyAudit.objects.first()
    page = admin_client.get(f"/admin/penalties/penaltyaudit/{row.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="_save"' not in html and 'name="reason"' not in html
    assert f"/admin/penalties/penaltyaudit/{row.pk}/delete/" not in html


def test_admin_refuses_to_change_an_audit_row(admin_client, audited):
    before = snapshot()
    row = PenaltyAudit.objects.first()
    response = admin_client.post(
        f"/admin/penalties/penaltyaudit/{row.pk}/change/",
        {"reason": "rewritten", "action": "issued", "at_0": "2026-11-29", "at_1": "15:00:00"},
    )
    assert response.status_code == 403
    assert snapshot() == before


def test_admin_refuses_to_delete_an_audit_row(admin_client, audited):
    before = snapshot()
    row = PenaltyAudit.objects.first()
    assert admin_client.get(f"/admin/penalties/penaltyaudit/{row.pk}/delete/").status_code == 403
    assert admin_client.post(f"/admin/penalties/penaltyaudit/{row.pk}/delete/", {"post": "yes"}).status_code == 403
    bulk = admin_client.post(
        "/admin/penalties/penaltyaudit/",
        {"action": "delete_selected", "_selected_action": [r[0] for r in before], "post": "yes"},
    )
    assert bulk.status_code in (200, 302)
    assert snapshot() == before


def test_admin_refuses_to_add_audit_rows(admin_client, audited):
    assert admin_client.get("/admin/penalties/penaltyaudit/add/").status_code == 403


def test_admin_penalty_is_read_only_and_undeletable(admin_client, audited):
    response = admin_client.post(f"/admin/penalties/penalty/{audited.pk}/change/", {"penalty": "disqualification"})
    assert response.status_code == 403
    assert admin_client.post(f"/admin/penalties/penalty/{audited.pk}/delete/", {"post": "yes"}).status_code == 403
    audited.refresh_from_db()
    assert audited.penalty == "warning"


def test_admin_audit_inline_on_a_penalty_has_no_edit_fields(admin_client, audited):
    html = admin_client.get(f"/admin/penalties/penalty/{audited.pk}/change/").content.decode()
    assert "Told the judge in time." in html
    assert 'name="history-0-reason"' not in html and 'name="history-0-DELETE"' not in html
