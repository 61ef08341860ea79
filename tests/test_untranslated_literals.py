"""Every message a refusal carries to a person goes through gettext: the test walks every app
module (the pure cores aside, whose English messages draftsite.errors localizes) and fails on an
error raised with a bare string literal as its message."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = [
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
    "push",
    "rulesdesk",
    "sealed",
]
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


# A message for the person on the page: ``messages.success(request, "...")``, or a literal
# handed to a parameter that becomes one (``success``, ``message``), in any app module
# (issue 46: "Your appeal has gone to the head judge." reached every reader in English).
_MESSAGE_PARAMETERS = {"success", "message"}
_MESSAGE_LEVELS = {"success", "info", "warning", "error", "debug"}


def _is_text(node) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(node.value.strip())
    )


def page_messages(tree) -> list[int]:
    # The module's own functions that take a message parameter, by position.
    positions: dict[str, set[int]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            names = [a.arg for a in node.args.args]
            positions[node.name] = {i for i, name in enumerate(names) if name in _MESSAGE_PARAMETERS}
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        owner = getattr(func, "value", None)
        if name in _MESSAGE_LEVELS and isinstance(owner, ast.Name) and owner.id == "messages":
            if len(node.args) >= 2 and _is_text(node.args[1]):
                lines.append(node.lineno)
        if any(kw.arg in _MESSAGE_PARAMETERS and _is_text(kw.value) for kw in node.keywords):
            lines.append(node.lineno)
        if any(i < len(node.args) and _is_text(node.args[i]) for i in positions.get(name, ())):
            lines.append(node.lineno)
    return lines


def test_no_app_module_shows_a_page_message_that_skips_the_catalogue():
    found = []
    for relative, tree in modules():
        found += [f"{relative}:{line}" for line in page_messages(tree)]
    assert found == []


def test_the_message_check_sees_a_literal():
    source = """
def _post(request, pk, action, success: str):
    messages.success(request, success)

def appeal(request):
    _post(request, 1, None, "Your appeal has gone to the head judge.")
    messages.info(request, "Saved.")
    access(1, message="Only staff.")
    _post(request, 1, None, gettext("Fine."))
"""
    assert page_messages(ast.parse(source)) == [6, 7, 8]
