"""Reports: the event's CSV and printable page, penalties per player across events, the pages'
empty states and filters, and the admin review queue."""

from __future__ import annotations

import csv
import io

import pytest

from penalties import selectors, services
from penalties.models import Penalty
from tests.penalties.conftest import minutes

pytestmark = pytest.mark.django_db


def test_event_csv_has_every_penalty_and_column(world):
    world.issue("slow_play", now=minutes(1), fix="Reminded to keep pace.")
    world.issue("slow_play", now=minutes(2))
    world.issue("tardiness", reg=world.other_reg, now=minutes(3), match_round=2)
    world.issue("slow_play", reg=world.elsewhere_reg, actor=world.other_judge, now=minutes(4))  # other event
    response = world.client(world.organiser).get(f"/api/events/{world.event.pk}/penalties.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 3
    assert [r["penalty"] for r in rows] == ["warning", "game_loss", "game_loss"]
    assert rows[0]["fix"] == "Reminded to keep pace." and rows[0]["ipg_section"] == "3.3"
    assert rows[1]["upgrade_reason"].startswith("Repeat offence") and rows[2]["match_round"] == "2"
    assert set(selectors.CSV_COLUMNS) == set(rows[0])


def test_csv_cells_cannot_become_spreadsheet_formulas(world):
    world.issue("slow_play", description='=HYPERLINK("http://evil")')
    rows = list(csv.reader(io.StringIO(selectors.event_csv(world.event))))
    assert rows[1][selectors.CSV_COLUMNS.index("description")].startswith("'=")


def test_printable_event_report(world, client):
    world.issue("marked_cards", description="Sleeves bent.")
    client.force_login(world.organiser)
    html = client.get(f"/penalties/events/{world.event.pk}/report/").content.decode()
    assert "Penalty report: Innistrad PPTQ" in html and "Sleeves bent." in html and "window.print()" in html


def test_empty_states(world, client):
    client.force_login(world.organiser)
    assert "No penalties yet" in client.get(f"/penalties/events/{world.event.pk}/").content.decode()
    assert "No penalties were issued" in client.get(f"/penalties/events/{world.event.pk}/report/").content.decode()
    client.force_login(world.head_judge)
    assert "Nothing to review" in client.get("/penalties/queue/").content.decode()
    client.force_login(world.staff)
    assert "No penalties found" in client.get("/penalties/players/?q=nobody").content.decode()
    client.force_login(world.player)
    assert "No events to judge" in client.get("/penalties/new/").content.decode()


def test_event_list_filters(world, client):
    world.issue("slow_play", description="first")
    world.issue("tardiness", reg=world.other_reg, description="second")
    client.force_login(world.judge)
    page = client.get(f"/penalties/events/{world.event.pk}/?status=pending_review")
    assert [p.description for p in page.context["penalties"]] == ["second"]
    page = client.get(f"/penalties/events/{world.event.pk}/?infraction=slow_play")
    assert [p.description for p in page.context["penalties"]] == ["first"]
    page = client.get(f"/penalties/events/{world.event.pk}/?q=bob")
    assert [p.description for p in page.context["penalties"]] == ["second"]
    page = client.get(f"/penalties/events/{world.event.pk}/?status=bogus")
    assert page.status_code == 200 and len(page.context["penalties"]) == 2
    api = world.client(world.judge).get(f"/api/events/{world.event.pk}/penalties/?penalty=game_loss")
    assert [p["description"] for p in api.json()] == ["second"]


def test_penalties_per_player_across_events(world):
    world.issue("slow_play")
    world.issue("slow_play", reg=world.elsewhere_reg, actor=world.other_judge)
    world.issue("marked_cards", reg=world.guest_reg)
    groups = {g["name"]: g for g in selectors.player_report()}
    assert len(groups["alice"]["penalties"]) == 2
    assert {p.event_id for p in groups["alice"]["penalties"]} == {world.event.pk, world.other_event.pk}
    assert "Gwen Guest (guest)" in groups
    response = world.client(world.staff).get(f"/api/players/{world.player.pk}/penalties/")
    assert len(response.json()) == 2


def test_issue_pages_render_for_a_judge(world, client):
    client.force_login(world.judge)
    chooser = client.get("/penalties/new/").content.decode()
    assert f"/penalties/new/?event={world.event.pk}" in chooser
    form = client.get(f"/penalties/new/?event={world.event.pk}").content.decode()
    for text in (
        '<label for="id_registration">',
        'for="id_infraction"',
        "IPG defaults",
        "3.6 Limited Procedure Violation",
    ):
        assert text in form
    assert client.get("/penalties/new/?event=999999").status_code == 404
    assert client.get("/penalties/new/?event=abc").status_code == 400  # not a number (draftsite.whole_numbers)


def test_admin_review_queue_and_decision(world, client):
    penalty = world.issue("tardiness")
    world.head_judge.is_staff = True
    world.head_judge.save()
    from django.contrib.auth.models import Permission

    world.head_judge.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="penalties", codename__startswith="view_")
    )
    client.force_login(world.head_judge)
    queue = client.get("/admin/penalties/reviewqueueitem/")
    assert queue.status_code == 200 and f"/admin/penalties/penalty/{penalty.pk}/review/" in queue.content.decode()
    page = client.get(f"/admin/penalties/penalty/{penalty.pk}/review/")
    assert page.status_code == 200
    no_reason = client.post(f"/admin/penalties/penalty/{penalty.pk}/review/", {"decision": "uphold", "reason": ""})
    assert no_reason.status_code == 400
    done = client.post(
        f"/admin/penalties/penalty/{penalty.pk}/review/",
        {"decision": "upgrade", "penalty": "match_loss", "reason": "Second time today."},
    )
    assert done.status_code == 302
    penalty.refresh_from_db()
    assert (penalty.penalty, penalty.status) == ("match_loss", "final")
    assert penalty.history.last().actor == world.head_judge
    assert (
        f"/admin/penalties/penalty/{penalty.pk}/review/"
        not in client.get("/admin/penalties/reviewqueueitem/").content.decode()
    )


def test_admin_review_is_refused_to_a_staff_user_who_is_not_head_judge(world, client):
    penalty = world.issue("tardiness")
    world.judge.is_staff = True
    world.judge.save()
    client.force_login(world.judge)
    response = client.post(f"/admin/penalties/penalty/{penalty.pk}/review/", {"decision": "uphold", "reason": "x"})
    assert response.status_code == 403
    assert Penalty.objects.get().status == "pending_review"


def test_admin_decides_an_appeal(world, client, django_user_model):
    penalty = world.issue("tardiness", actor=world.head_judge2)
    services.appeal_penalty(penalty_id=penalty.pk, actor=world.player, statement="I was there.")
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(root)
    response = client.post(
        f"/admin/penalties/penalty/{penalty.pk}/review/",
        {"decision": "downgrade", "penalty": "warning", "reason": "Seat mix-up.", "appeal": "yes"},
    )
    assert response.status_code == 302
    penalty.refresh_from_db()
    assert penalty.appeal.status == "decided" and penalty.penalty == "warning"
