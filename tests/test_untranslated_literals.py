"""Every message a refusal carries to a person goes through gettext: the test walks every app
module (the pure cores aside, whose English messages draftsite.errors localizes) and fails on an
error raised with a bare string literal as its message."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ["cards", "decks", "drafts", "draftsite", "matches", "paper", "penalties", "rulesdesk", "sealed"]
# Plain-Python cores (no Django): their messages are English by design and translated where
# they are raised into a DomainError (draftsite.i18n.localize).
CORES = ("cards/rules/", "decks/validation/", "matches/swiss/", "paper/schedule.py", "sealed/core.py")
ERRORS = {"DomainError", "ConflictError", "NotFoundError", "ForbiddenError"}


def modules():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or relative.startswith(CORES):
                continue
            yield relative, ast.parse(path.read_text(), relative)


def bare_messages(tree) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if name not in ERRORS or len(node.args) < 2:
            continue
        message = node.args[1]
        if isinstance(message, ast.JoinedStr) or (isinstance(message, ast.Constant) and isinstance(message.value, str)):
            lines.append(node.lineno)
    return lines


def test_no_app_module_raises_an_error_with_an_untranslatable_message():
    found, walked = [], 0
    for relative, tree in modules():
        walked += 1
        found += [f"{relative}:{line}" for line in bare_messages(tree)]
    assert walked > 100
    assert found == []
