"""The draft engine's stored functions, one source file each (``drafts/sql/<function>.sql``).

Each file is a template: ``{{ NAME }}`` stands for a value of the Python engine (the clocks and
rounds of ``drafts.core.timing``, the pass direction, the automatic drafter's rarity ranks, the
pods' states, the picks' kinds, the log's actions, the refusal codes), so a rule is written
once. ``render(name)`` gives one function's SQL, ``render_all()`` every function's, in the
order they are created.

A migration applies what was rendered when it was written, and embeds it (``SQL_FUNCTIONS``):
history stays as it ran. When a constant or a file changes, ``python -m drafts.sql migration``
writes the next migration, which embeds the functions that changed only (and their previous
text, ``PREVIOUS_FUNCTIONS``, for its way back); until it exists,
``tests/drafts/test_pick_function_migrations.py`` fails (what the migrations leave differs from
the files).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from pathlib import Path

DIRECTORY = Path(__file__).resolve().parent

# The organiser's and the player's controls beside the pick, each one stored function of the
# same signature (pod, actor, now, cutoff, arguments as jsonb) for a pod whose row the caller
# has locked (``drafts.services.changes.control``): Python builds the order and reads the answer.
CONTROLS = (
    "drafts_start",
    "drafts_pause",
    "drafts_resume",
    "drafts_extend",
    "drafts_deck_building_clock",
    "drafts_start_deck_building",
    "drafts_advance_round",
    "drafts_hand_seat",
    "drafts_move_pile_card",
)

# In the order they are created: a SQL-language function's body is checked when it is created
# (it may call only functions created before it); PL/pgSQL bodies are checked at their first call.
# The controls come last (they answer through ``drafts_control_answer``).
FUNCTIONS = (
    "drafts_draftcard_entry",
    "drafts_pick_seconds",
    "drafts_review_seconds",
    "drafts_seat_queue",
    "drafts_seat_queues",
    "drafts_take",
    "drafts_automatic_card",
    "drafts_due",
    "drafts_begin_round",
    "drafts_settle_pod",
    "drafts_settle",
    "drafts_pick",
    "drafts_pod_document",
    "drafts_pick_live",
    "drafts_ready",
    "drafts_ms_left",
    "drafts_control_answer",
    *CONTROLS,
)

# The engine's stored columns, by model: only the functions here write them
# (``tests/drafts/test_engine_writes.py`` fails on a Python module outside ``drafts/sql`` that does).
# Not among them: a pod's ``version``, which whatever changes what its pages show moves (an
# event's settings, the spectator link, a pile's cover: ``drafts.services.changes.write``).
ENGINE_COLUMNS = {
    "Pod": (
        "state",
        "paused_from",
        "paused_remaining_ms",
        "round",
        "review_deadline",
        "deck_building_deadline",
        "queue_seq",
        "started_at",
        "finished_at",
    ),
    "Pack": ("holder", "holder_id", "queue_seq", "arrived_at", "picks_made", "deadline", "remaining_ms", "card_ids"),
    "Seat": ("ready", "last_pick_at", "pile_ids", "is_automatic"),
}

# The stored entry of the card whose id is ``u.id`` (an element of a pack's or pile's array):
# a lookup by primary key per id, not a join of the array to the cards. PL/pgSQL keeps a
# statement's plan for the connection's life; planned while the cards' table was small, such a
# join became a hash join over the whole table, and a 1,000-player saturation run stalled on
# it (5 December 2026). A lookup by primary key is an index scan whatever the table's size.
CARD_ENTRY = "(SELECT c.document_entry FROM drafts_draftcard c WHERE c.id = u.id)"

PLACEHOLDER = re.compile(r"\{\{\s*([A-Z][A-Z0-9_]*)\s*\}\}")

# The refusals ``drafts_pick``, ``drafts_ready`` and the controls answer with (``drafts.error_codes``): REFUSED_<CODE>.
REFUSALS = (
    "UNKNOWN_SEAT",
    "NOT_YOUR_SEAT",
    "POD_PAUSED",
    "POD_NOT_DRAFTING",
    "ALREADY_PICKED",
    "NO_PACK",
    "WRONG_PACK",
    "CARD_NOT_IN_PACK",
    "POD_NOT_REVIEWING",
    "PAPER_POD",
    "POD_NOT_PAUSED",
    "POD_ALREADY_STARTED",
    "POD_FINISHED",
    "POD_NOT_STARTED",
    "DRAFT_NOT_OVER",
    "NO_RUNNING_CLOCK",
    "INVALID_TIMER",
    "CARD_NOT_IN_PILE",
    "INVALID_POSITION",
)


def literal(value: object) -> str:
    """A Python value as a SQL literal: text quoted (quotes doubled), whole numbers as they are."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError(f"no SQL literal for {value!r}")
    if isinstance(value, int):
        return str(value)
    return "'" + value.replace("'", "''") + "'"


def cases(mapping: Mapping[object, object]) -> str:
    """``WHEN key THEN value ...`` of a CASE, in the mapping's order."""
    return " ".join(f"WHEN {literal(key)} THEN {literal(value)}" for key, value in mapping.items())


def constants() -> dict[str, str]:
    """Each placeholder's SQL text, from the Python engine's values."""
    from drafts import error_codes, state
    from drafts.core import autopick, timing
    from drafts.models import ACTIVE_STATES, PickKind, PodAction, PodState
    from events.models import DraftFormat

    values: dict[str, str] = {
        "ROUNDS": literal(timing.ROUNDS),
        "LARGEST_PACK": literal(timing.LARGEST_PACK),
        "LARGEST_PACK_SECONDS": literal(timing.PICK_SECONDS[timing.LARGEST_PACK]),
        "PICK_SECONDS_BY_CARDS_LEFT": cases(dict(sorted(timing.PICK_SECONDS.items(), reverse=True))),
        "REVIEW_SECONDS_BY_ROUND": cases(dict(sorted(timing.REVIEW_SECONDS.items()))),
        "PASS_DIRECTION_BY_ROUND": cases({n: timing.pass_direction(n) for n in range(1, timing.ROUNDS + 1)}),
        "RARITY_RANK_BY_RARITY": cases(autopick.RARITY_RANK),
        "OTHER_RARITY_RANK": literal(autopick.OTHER_RARITY_RANK),
        "FORMAT_PAPER": literal(DraftFormat.PAPER.value),
        "AUTOMATIC_NAME": literal(state.AUTOMATIC_NAME),
        "ACTIVE_STATES": ", ".join(literal(s.value) for s in ACTIVE_STATES),
    }
    for prefix, choices in (("STATE", PodState), ("KIND", PickKind), ("ACTION", PodAction)):
        for member in choices:
            values[f"{prefix}_{member.name}"] = literal(member.value)
    # PickKind.AUTOMATIC_DRAFTER is the kind "automatic": the SQL names it by its value.
    values["KIND_AUTOMATIC"] = literal(PickKind.AUTOMATIC_DRAFTER.value)
    for code in REFUSALS:
        values[f"REFUSED_{code}"] = literal(getattr(error_codes, code))
    values["CARD_ENTRY"] = CARD_ENTRY
    return values


def path(name: str) -> Path:
    if name not in FUNCTIONS:
        raise KeyError(f"no stored function {name!r} (drafts.sql.FUNCTIONS)")
    return DIRECTORY / f"{name}.sql"


def render(name: str, values: Mapping[str, str] | None = None) -> str:
    """One function's SQL with every placeholder replaced; an unknown one is an error."""
    values = constants() if values is None else values
    template = path(name).read_text(encoding="utf-8")

    def value(match: re.Match) -> str:
        key = match.group(1)
        if key not in values:
            raise KeyError(f"{name}.sql: no value for {{{{ {key} }}}} (drafts.sql.constants)")
        return values[key]

    text = PLACEHOLDER.sub(value, template)
    if "{{" in text or "}}" in text:
        raise ValueError(f"{name}.sql: a placeholder is not of the form {{{{ NAME }}}}")
    return text


def render_all() -> dict[str, str]:
    """Every function's SQL by name, in creation order."""
    values = constants()
    return {name: render(name, values) for name in FUNCTIONS}


def digest(text: str) -> str:
    """The SHA-256 of a function's SQL (what a migration writes in the function's comment)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def comment(name: str, text: str) -> str:
    """The comment a migration leaves on the function it created from ``text``."""
    return f"drafts/sql/{name}.sql sha256:{digest(text)}"
