"""One access layer (issue 31): event permissions are checked in ``events.access`` (and a pod's and a seat's in ``drafts.access``) only, and pages
turn domain errors into responses in ``draftsite.pages`` only.

A permission helper is a function named ``require_*``, ``_require_*`` or ``check_*permission*``,
unless it only refuses with a state error ("no pool yet": ``NotFoundError``, ``DomainError``)
and never asks who the caller is. Written anywhere but ``drafts.access``, it is a second meaning of the same
refusal (a new code, a ``None`` that means "system" here and "nobody" there), so this test walks
every module of the project and fails on one it does not know.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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
)
ACCESS_MODULES = ("events/access.py", "drafts/access.py")  # the event's, and a pod's and a seat's
PAGE_ERRORS_MODULE = "draftsite/pages.py"
HELPER_NAME = re.compile(r"^_?require_|^_?check_\w*permission")
PERMISSION_WORDS = {"ForbiddenError", "PermissionDenied", "permissions", "authorize", "authorize_pod"}
STATE_ERRORS = {"NotFoundError", "DomainError", "ConflictError"}  # a state check, not a permission

# Rules about an app's own objects, which drafts.access cannot ask without importing the apps
# that import it (a match's players, a penalty's player and issuer). Each asks drafts.access for
# the event role it needs. Shrink this list; never grow it.
OBJECT_RULES = {
    "matches/services/results.py:require_match_player",  # the match's two players
    "penalties/services.py:require_reviewer",  # HEAD_JUDGE (drafts.access), and not the penalty's issuer
    "penalties/services.py:require_appellant",  # the penalty's player
    "penalties/services.py:require_statement_writer",  # the penalty's player, issuer or head judge
}


def _modules():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" not in relative:
                yield relative, ast.parse(path.read_text(encoding="utf-8"))


def _words(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


def _is_permission_helper(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    if not HELPER_NAME.match(node.name):
        return False
    words = _words(node)
    return bool(words & PERMISSION_WORDS) or not words & STATE_ERRORS


def permission_helpers() -> set[str]:
    found = set()
    for relative, tree in _modules():
        if relative in ACCESS_MODULES:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _is_permission_helper(node):
                found.add(f"{relative}:{node.name}")
    return found


def _handles_on_its_own(handler: ast.ExceptHandler) -> bool:
    """A handler of a domain error that raises the 404 or 403 page, or puts the refusal in a
    message for the page it redirects to (what ``run`` does)."""
    caught = _words(handler.type) if handler.type is not None else set()
    if not caught & {"DomainError", "NotFoundError", "ForbiddenError"}:
        return False
    raised = set().union(*(_words(n) for n in ast.walk(handler) if isinstance(n, ast.Raise)))
    messaged = any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "error"
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == "messages"
        for n in ast.walk(handler)
    )
    return bool(raised & {"Http404", "PermissionDenied"}) or messaged


def page_error_handlers() -> set[str]:
    """Modules that turn a domain error into a page themselves."""
    found = set()
    for relative, tree in _modules():
        if relative == PAGE_ERRORS_MODULE:
            continue
        if any(isinstance(n, ast.ExceptHandler) and _handles_on_its_own(n) for n in ast.walk(tree)):
            found.add(relative)
    return found


def test_permission_helpers_live_in_the_access_module():
    found = permission_helpers()
    new = sorted(found - OBJECT_RULES)
    assert not new, (
        f"check permissions with events.access or drafts.access (authorize, access_*), not a new helper: {new}"
    )
    gone = sorted(OBJECT_RULES - found)
    assert not gone, f"no longer a helper outside the access modules: take it off OBJECT_RULES: {gone}"


def test_the_helper_walk_sees_a_helper_written_again():
    """The walk recognises the shapes the old per-app helpers had (and ignores state checks)."""
    tree = ast.parse(
        "def require_organiser(actor, event):\n"
        "    if not permissions.is_organiser(actor, event):\n"
        "        raise ForbiddenError('not_organiser', 'No.')\n"
        "def require_match_player(actor, match):\n"
        "    _side(match, actor)\n"
        "def require_pool_list(registration):\n"
        "    raise NotFoundError('no_pool', 'No pool.')\n"
    )
    named = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert [n.name for n in named if _is_permission_helper(n)] == ["require_organiser", "require_match_player"]


def test_pages_turn_domain_errors_into_responses_in_one_place():
    assert page_error_handlers() == set(), "use draftsite.pages (on_page, run, for_form)"


def test_the_page_error_walk_sees_a_refusal_handled_by_hand():
    tree = ast.parse(
        "try:\n    services.drop(event_id=1)\nexcept DomainError as exc:\n    messages.error(request, exc.message)\n"
        "try:\n    services.drop(event_id=1)\nexcept NotFoundError:\n    raise Http404\n"
        "try:\n    services.drop(event_id=1)\nexcept DomainError as exc:\n    show_on_form(form, exc)\n"
    )
    handlers = [n for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler)]
    assert [_handles_on_its_own(h) for h in handlers] == [True, True, False]


def _service_modules():
    """Every module of the apps' service layers (``services.py`` and ``services/*.py``)."""
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts or not any(part.startswith("services") for part in relative.parts):
                continue
            name = ".".join(relative.with_suffix("").parts)
            yield importlib.import_module(name.removesuffix(".__init__"))


def _public_callables(module):
    for name, value in vars(module).items():
        if name.startswith("_") or getattr(value, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(value):
            yield f"{module.__name__}.{name}", value
        elif inspect.isclass(value):
            for attribute, member in vars(value).items():
                member = member.__func__ if isinstance(member, classmethod | staticmethod) else member
                if not attribute.startswith("_") and inspect.isfunction(member):
                    yield f"{module.__name__}.{name}.{attribute}", member


def test_no_service_gives_the_acting_user_a_default():
    """Issue 31: who acts is always said (a user, or ``drafts.access.SYSTEM``): a default (``None``
    read as the system here, as nobody there) is how the two meanings crept in."""
    checked, defaulted = 0, []
    for module in _service_modules():
        for qualified, function in _public_callables(module):
            actor = inspect.signature(function).parameters.get("actor")
            if actor is None:
                continue
            checked += 1
            if actor.default is not inspect.Parameter.empty:
                defaulted.append(qualified)
    assert checked > 50  # the walk sees the services (drafts, accounts, paper, penalties, matches...)
    assert not defaulted, f"make the acting user required (pass SYSTEM for the system): {defaulted}"


def test_the_default_walk_sees_a_default_written_again():
    module = types.ModuleType("services_example")
    exec(
        "def start(*, pod_id, actor=None): ...\nclass Order:\n    @classmethod\n    def of(cls, *, actor=None): ...\n",
        module.__dict__,
    )
    found = [q for q, f in _public_callables(module) if inspect.signature(f).parameters["actor"].default is None]
    assert found == ["services_example.start", "services_example.Order.of"]
