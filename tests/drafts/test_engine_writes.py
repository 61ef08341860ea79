"""The engine's state is written by the engine only (issue 50): no Python module outside
``drafts/sql`` writes a stored column of ``drafts.sql.ENGINE_COLUMNS``.

A walk of every module's syntax tree finds what writes a column of a pod, pack or seat: an
assignment to ``<pod>.<column>`` (``+=`` too), ``.update(<column>=...)`` or ``.bulk_update(...,
[<column>])`` of a queryset of those models, ``.save(update_fields=[<column>])`` and a bare
``.save()`` (which writes every column) of one, ``setattr`` and a row's creation naming a column.
A pod, pack or seat is recognised by its name (``pod``, ``packs``, ``seat.pod``, ``Pod.objects``,
``self.pod``...), as this code base names them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from drafts.sql import ENGINE_COLUMNS

ROOT = Path(__file__).resolve().parents[2]

# Every first-party package and script folder (the import contracts' root packages, bench, deploy).
PACKAGES = (
    "accounts",
    "bench",
    "cards",
    "decks",
    "deploy",
    "draftsite",
    "drafts",
    "events",
    "judgecalls",
    "matches",
    "paper",
    "penalties",
    "push",
    "rulesdesk",
    "sealed",
)

# What may write an engine column outside drafts/sql, and why; by module path and the model's
# columns it writes. Nothing else may.
EXCEPTIONS = {
    # A paper pod is never the engine's (lock_pod and drafts_settle refuse it): its state is the
    # mirror of its call, which the paper app's clock runs.
    "paper/services.py": {"Pod": {"state", "paused_from", "finished_at", "started_at"}},
    # Seating before the start: a guest's seat is created automatic (no account to pick with);
    # from the start on only drafts_hand_seat changes it.
    "drafts/services/events.py": {"Seat": {"is_automatic"}},
}
# Not an exception, as it names no column: restoring a backup (draftsite.backup) writes the
# rows as they were saved.

MODELS = {"pod": "Pod", "pods": "Pod", "pack": "Pack", "packs": "Pack", "seat": "Seat", "seats": "Seat"}
RELATED = {"held_packs": "Pack", "opened_packs": "Pack"}
NAME = re.compile(r"^(?:.*_)?(pod|pods|pack|packs|seat|seats)$")


def modules() -> list[Path]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or relative.startswith("drafts/sql/"):
                continue
            found.append(path)
    return found


def model_of(node: ast.AST) -> str | None:
    """The engine model ``node`` names (a pod, a queryset of packs...), or None."""
    while isinstance(node, ast.Call):  # Pack.objects.filter(...).exclude(...)
        node = node.func
        if isinstance(node, ast.Attribute):
            node = node.value
    if isinstance(node, ast.Attribute) and node.attr == "objects" and isinstance(node.value, ast.Name):
        return {"Pod": "Pod", "Pack": "Pack", "Seat": "Seat"}.get(node.value.id)
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    if name in RELATED:
        return RELATED[name]
    match = NAME.match(name)
    return MODELS[match.group(1)] if match else None


def names(node: ast.AST | None) -> set[str]:
    """The strings of a list, tuple or set literal (update_fields, bulk_update's fields)."""
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return set()


def writes(tree: ast.AST) -> list[tuple[int, str, str]]:
    """(line, model, column) of each write of an engine column; column "*" for a whole-row save."""
    found: list[tuple[int, str, str]] = []

    def note(node: ast.stmt | ast.expr, model: str | None, columns: set[str]) -> None:
        if model is not None:
            found.extend((node.lineno, model, c) for c in sorted(columns) if c == "*" or c in ENGINE_COLUMNS[model])

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for element in target.elts if isinstance(target, ast.Tuple) else [target]:
                    if isinstance(element, ast.Attribute):
                        note(node, model_of(element.value), {element.attr})
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        keywords = {k.arg for k in node.keywords if k.arg}
        if isinstance(func, ast.Name) and func.id == "setattr" and len(node.args) >= 2:
            if isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
                note(node, model_of(node.args[0]), {node.args[1].value})
            continue
        if isinstance(func, ast.Name) and func.id in ("Pod", "Pack", "Seat"):
            note(node, func.id, keywords)  # a row made with a column's value
            continue
        if not isinstance(func, ast.Attribute):
            continue
        model = model_of(func.value)
        if func.attr in ("update", "create", "get_or_create", "update_or_create"):
            note(node, model, keywords)
        elif func.attr == "bulk_update":
            fields = (
                node.args[1]
                if len(node.args) > 1
                else next((k.value for k in node.keywords if k.arg == "fields"), None)
            )
            note(node, model, names(fields))
        elif func.attr == "save" and not isinstance(func.value, ast.Call):
            update_fields = next((k.value for k in node.keywords if k.arg == "update_fields"), None)
            note(node, model, {"*"} if update_fields is None else names(update_fields))
    return found


def allowed(relative: str, model: str, column: str) -> bool:
    return column in EXCEPTIONS.get(relative, {}).get(model, set())


def test_no_module_outside_drafts_sql_writes_an_engine_column():
    offences = []
    for path in modules():
        relative = path.relative_to(ROOT).as_posix()
        for line, model, column in writes(ast.parse(path.read_text(encoding="utf-8"), filename=relative)):
            if not allowed(relative, model, column):
                what = f"the whole {model} row" if column == "*" else f"{model}.{column}"
                offences.append(f"{relative}:{line}: writes {what}")
    assert not offences, "Engine columns are written by drafts/sql only:\n" + "\n".join(offences)


def test_every_exception_is_still_needed():
    """An exception nothing needs any more is removed, so that none hides a new write."""
    used = set()
    for path in modules():
        relative = path.relative_to(ROOT).as_posix()
        for _line, model, column in writes(ast.parse(path.read_text(encoding="utf-8"))):
            if allowed(relative, model, column):
                used.add((relative, model, column))
    declared = {(m, model, c) for m, by_model in EXCEPTIONS.items() for model, cs in by_model.items() for c in cs}
    assert declared - used == set()


@pytest.mark.parametrize(
    "source",
    [
        "pod.state = 'paused'",
        "pack.deadline += delta",
        "self.pod.paused_remaining_ms = 1",
        "seat.pile_ids, seat.ready = [], True",
        "Pack.objects.filter(pod=pod).update(remaining_ms=None)",
        "pod.packs.filter(holder__isnull=False).update(deadline=None)",
        "Seat.objects.filter(pod=pod).update(is_automatic=True)",
        "Pack.objects.bulk_update(rows, ['card_ids'])",
        "pack.save(update_fields=['remaining_ms', 'deadline'])",
        "pod.save()",
        "setattr(pod, 'review_deadline', at)",
        "Pack(pod=pod, round=1, holder=seat)",
        "Pod.objects.create(event=event, state='drafting')",
    ],
)
def test_the_walk_finds_each_kind_of_write(source):
    """The walk finds what this module forbids (else the test above could not fail)."""
    assert writes(ast.parse(source))


@pytest.mark.parametrize(
    "source",
    [
        "match.round = round_obj",  # a match's round, not a pod's
        "round_obj.save(update_fields=['state', 'finished_at'])",
        "pod.spectator_token = token",
        "pod.save(update_fields=['spectator_token', 'version'])",
        "seat.save(update_fields=['pile_cover'])",
        "context.update(deadline=deadline)",
        "Pack(pod=pod, round=1, opener=seat, initial_size=15)",
        "pod.refresh_from_db()",
    ],
)
def test_the_walk_leaves_other_writes_alone(source):
    assert not writes(ast.parse(source))
