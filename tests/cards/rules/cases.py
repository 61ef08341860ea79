"""Table-driven test cases for the rules core: each names the rule (RULES.md) it checks.

A case starts a seed card in a zone, runs steps (an action by name with its parameters, or a
callable taking the object), then checks the last step's outcome, reason and events, the
resulting state and its characteristics (and what its controller sees, R20).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cards.rules import (
    ActionResult,
    CardData,
    GameObject,
    apply,
    become_copy,
    characteristics,
    controller_view,
)

Step = tuple[str, dict[str, Any]] | Callable[[GameObject], ActionResult]


@dataclass
class Case:
    rule: str
    title: str
    card: CardData
    zone: str
    steps: list[Step]
    outcome: str = "ok"
    reason: str | None = None  # prefix of the last step's reason; default "<rule>:" if not ok
    events: tuple[str, ...] = ()  # events the last step must include
    not_events: tuple[str, ...] = ()  # events no step may include
    state: dict[str, Any] = field(default_factory=dict)
    chars: dict[str, Any] = field(default_factory=dict)
    controller: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.rule}-{self.title}"


def run_steps(case: Case) -> tuple[GameObject, GameObject, list[ActionResult]]:
    """Run a case: (state before the last step, final state, every step's result)."""
    obj = before = GameObject(card=case.card, zone=case.zone)
    results = []
    for step in case.steps:
        before = obj
        result = step(obj) if callable(step) else apply(obj, step[0], **step[1])
        results.append(result)
        obj = result.state
    return before, obj, results


def check_case(case: Case) -> None:
    before, obj, results = run_steps(case)
    last = results[-1]
    assert last.outcome == case.outcome, (last.outcome, last.reason)
    if case.outcome == "ok":
        assert last.reason is None
    else:
        expected = case.reason or f"{case.rule}:"
        assert last.reason and last.reason.startswith(expected), last.reason
        assert last.state == before  # a step that did not happen changes nothing
    for event in case.events:
        assert event in last.events, (event, last.events)
    for event in case.not_events:
        assert all(event not in r.events for r in results), (event, [r.events for r in results])
    for name, value in case.state.items():
        assert getattr(obj, name) == value, (name, getattr(obj, name), value)
    chars = characteristics(obj)
    for name, value in case.chars.items():
        assert getattr(chars, name) == value, (name, getattr(chars, name), value)
    seen = controller_view(obj)
    for name, value in case.controller.items():
        assert getattr(seen, name) == value, (name, getattr(seen, name), value)


def copy_of(card: CardData, zone: str = "battlefield", **state: Any) -> Callable:
    """A step: the object becomes a copy of ``card`` in the given state (R8, R47)."""
    source = GameObject(card=card, zone=zone, **state)
    return lambda obj: become_copy(obj, source)


def A(action: str, **params: Any) -> Step:  # noqa: N802 - reads like a table cell
    return (action, params)
