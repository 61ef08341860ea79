"""The apps' layers (.importlinter's ``app-layers`` contract), read from the source of every app
module: no import of an app above, or of an independent sibling, anywhere in a module, in a
function or not. import-linter sees function-local imports too; this test names the one that
tempts (an import moved into a function to get past a cycle), and the contract has no
exception (issue 50: the events platform left the draft engine for the events app).
"""

from __future__ import annotations

import ast
import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _contract() -> configparser.SectionProxy:
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    return config["importlinter:contract:app-layers"]


def layers() -> list[list[str]]:
    """The contract's layers, top first; each a list of independent siblings."""
    return [[app.strip() for app in line.split("|")] for line in _contract()["layers"].split("\n") if line.strip()]


def ignored_imports() -> set[tuple[str, str]]:
    lines = _contract().get("ignore_imports", "").split("\n")
    return {tuple(part.strip() for part in line.split("->")) for line in lines if line.strip()}  # type: ignore[misc]


def apps() -> list[str]:
    """The project's apps: every package beside manage.py with an ``apps.py``."""
    return sorted(path.parent.name for path in ROOT.glob("*/apps.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imported_modules(tree: ast.AST, module: str) -> list[tuple[str, int, bool]]:
    """Every module ``tree`` imports (``from x import y``: ``x.y`` when y is a module, else
    ``x``), with its line and whether the import is inside a function."""
    in_function: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            in_function.update(id(inner) for inner in ast.walk(node) if inner is not node)
    found = []
    for node in ast.walk(tree):
        local = id(node) in in_function
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno, local) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package of ``module``
                package = module.split(".")[: -node.level]
                base = ".".join([*package, base] if base else package)
            for alias in node.names:
                name = f"{base}.{alias.name}"
                found.append((name if _is_module(name) else base, node.lineno, local))
    return sorted(set(found))


def violations() -> list[str]:
    """Each import of a module of an app above, or of an independent sibling."""
    rank = {app: (index, position) for index, line in enumerate(layers()) for position, app in enumerate(line)}
    found = []
    for app in rank:
        for path in sorted((ROOT / app).rglob("*.py")):
            module = module_name(path)
            for target, line, local in imported_modules(ast.parse(path.read_text(), str(path)), module):
                other = target.split(".")[0]
                if other == app or other not in rank:
                    continue
                if rank[other][0] > rank[app][0]:  # lower layer: allowed
                    continue
                where = "a function-local import" if local else "an import"
                found.append(f"{path.relative_to(ROOT)}:{line}: {where} of {target} ({other} is not below {app})")
    return sorted(set(found))


def test_every_app_is_in_the_layers_contract():
    named = {app for line in layers() for app in line}
    assert named == set(apps()), "every app is a layer of .importlinter's app-layers contract"


def test_no_app_module_imports_an_app_above_it_in_a_function_or_not():
    assert violations() == []


def test_the_contract_has_no_exception():
    assert ignored_imports() == set()


def test_the_walk_finds_a_function_local_import_of_an_app_above(tmp_path):
    """The walk sees an import hidden in a function (what the rounds' mail used to do)."""
    source = "def mail():\n    from accounts.services.round_mail import mail_round\n"
    found = imported_modules(ast.parse(source), "matches.services.rounds")
    assert ("accounts.services.round_mail", 2, True) in found
    rank = {app: index for index, line in enumerate(layers()) for app in line}
    assert rank["accounts"] < rank["matches"]  # accounts is above matches: that import is refused
