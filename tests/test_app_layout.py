"""Issue 31: every app does the same thing the same way. A ``tasks.py`` holds Celery tasks only
(publishing to live pages is a ``live.py`` the services call on commit), forms live in the
app's ``forms.py``, and a module called ``services`` is where the writes are."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
APPS = (
    "accounts",
    "cards",
    "decks",
    "drafts",
    "draftsite",
    "events",
    "judgecalls",
    "matches",
    "paper",
    "penalties",
    "rulesdesk",
    "sealed",
)
# Apps whose tasks.py is tasks only. To add: drafts and judgecalls, once their publishing
# moves to their live modules (issue 31).
TASKS_ONLY = ("matches", "paper", "decks", "penalties", "rulesdesk", "cards", "accounts")


def _is_task(node: ast.FunctionDef) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("shared_task", "task"):
            return True
    return False


def test_a_tasks_module_holds_only_tasks():
    found = []
    for app in TASKS_ONLY:
        path = ROOT / app / "tasks.py"
        if not path.exists():
            continue
        tree = ast.parse(path.read_text(), str(path))
        functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
        assert any(_is_task(f) for f in functions), f"{app}/tasks.py holds no task: name it for what it does"
        found += [f"{app}/tasks.py:{f.name}" for f in functions if not _is_task(f)]
    assert found == [], "not a task: move it to the app's live.py (or a module named for what it does)"


def test_the_matches_app_has_no_tasks_module():
    assert not (ROOT / "matches" / "tasks.py").exists()  # it held no task: matches/live.py


def test_forms_live_in_the_apps_forms_module():
    assert [str(p.relative_to(ROOT)) for app in APPS for p in (ROOT / app).glob("views/forms.py")] == []


def test_the_rules_desk_has_no_services_module_for_it_writes_nothing():
    assert not (ROOT / "rulesdesk" / "services.py").exists()
    source = (ROOT / "rulesdesk" / "simulation.py").read_text()
    assert ".save(" not in source and ".create(" not in source and ".update(" not in source
