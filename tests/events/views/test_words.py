"""Words, not codes, on the organiser's pages (issue 27): the staff log and the settings log
name actions, roles and settings as a person says them, in the reader's language."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from drafts import services
from events import services as event_services
from events.models import StaffRole
from events.templatetags.event_tags import LOG_ACTIONS
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
ROOT = Path(settings.BASE_DIR)


def client_for(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _event(organiser, cube_names):
    return services.create_event(
        name="FNM", date=dt.date(2026, 12, 4), created_by=organiser, draft_format="cube", cube_list=cube_names
    )


def test_the_staff_log_names_actions_and_roles_in_words(organiser, cube_names):
    event = _event(organiser, cube_names)
    judge = UserFactory(username="judy")
    staff = event_services.add_event_staff(event_id=event.pk, user=judge, role=StaffRole.JUDGE, actor=organiser)
    event_services.change_staff_role(event_id=event.pk, staff_id=staff.pk, role=StaffRole.HEAD_JUDGE, actor=organiser)

    text = client_for(organiser).get(f"/events/{event.pk}/staff/").content.decode()
    log = text[text.index('id="log-title"') :]
    assert "Added to the staff · judy (Judge)" in log
    assert "Staff role changed · judy (Head judge, was Judge)" in log
    for code in ("staff_added", "staff_role_changed", "head_judge", "(judge)"):
        assert code not in log

    text = client_for(organiser, "pt-br").get(f"/events/{event.pk}/staff/").content.decode()
    log = text[text.index('id="log-title"') :]
    assert "Adicionado à equipe · judy (Juiz)" in log
    assert "Juiz principal" in log and "head_judge" not in log


def test_the_settings_log_names_each_setting_and_value(organiser, cube_names):
    event = _event(organiser, cube_names)
    event_services.update_event(
        event_id=event.pk,
        actor=organiser,
        changes={"enforcement_level": "competitive", "pick_timer": False, "deck_building_minutes": 30},
    )
    text = client_for(organiser).get(f"/events/{event.pk}/settings/").content.decode()
    log = text[text.index('id="log-title"') :]
    assert "Rules enforcement level: Regular → Competitive" in log
    assert "Pick timer on: yes → no" in log
    assert "Deck-building minutes: 25 → 30" in log
    for code in ("enforcement_level", "pick_timer", "regular", "True", "False"):
        assert code not in log


def _logged_actions() -> set[str]:
    """Every action code a module passes to log_event: a literal, a module constant or either
    side of a conditional."""
    found: set[str] = set()
    for path in ROOT.glob("*/**/*.py"):
        if ".venv" in path.parts or "tests" in path.parts or "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {
            target.id: node.value.value
            for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "log_event" and len(node.args) >= 3:
                action = node.args[2]
                for value in (action.body, action.orelse) if isinstance(action, ast.IfExp) else (action,):
                    if isinstance(value, ast.Constant):
                        found.add(str(value.value))
                    elif isinstance(value, ast.Name):
                        found.add(str(constants[value.id]))
    return found


def test_every_logged_action_has_words():
    actions = _logged_actions()
    assert {"staff_added", "check_in_opened", "judge_call.claimed"} <= actions  # the walk sees them
    assert sorted(actions - set(LOG_ACTIONS)) == []
