"""Parsing helpers shared by every format: type lines, mana costs, face-down costs,
checklist lines."""

from __future__ import annotations

import re
from collections.abc import Iterable

from cards.rules.colors import order_colors

SUPERTYPES = ("Basic", "Legendary", "Snow", "World", "Ongoing", "Host")
_SUPERTYPE_SET = frozenset(SUPERTYPES)
TYPE_DASH = "—"

_SYMBOL = re.compile(r"\{([^}]*)\}")
# "Disguise {4}{G}", "Morph {2}{U}", "Megamorph {1}{G}" or "Morph—Reveal a white card." at the
# start of a line; reminder text in parentheses is not part of the cost.
_FACE_DOWN = re.compile(
    r"^(?P<keyword>Disguise|Megamorph|Morph)(?: (?P<mana>\{[^(\n]*?)|—(?P<other>[^(\n]*?))"
    r"\s*(?:\(|$)",
    re.MULTILINE,
)
_CHECKBOX = "☐"
_TRAILING_COST = re.compile(r"(?:\s*\{[^}]*\})+\s*$")


_TYPE_CACHE: dict[str, tuple] = {}


def parse_type_line(type_line: str) -> tuple[list[str], list[str], list[str]]:
    """``"Legendary Creature — Goblin Shaman"`` -> supertypes, card types, subtypes."""
    type_line = type_line or ""
    parsed = _TYPE_CACHE.get(type_line)
    if parsed is None:
        head, _, tail = type_line.partition(TYPE_DASH)
        words = head.split()
        parsed = (
            tuple(w for w in words if w in _SUPERTYPE_SET),
            tuple(w for w in words if w not in _SUPERTYPE_SET),
            tuple(tail.split()),
        )
        if len(_TYPE_CACHE) < 20_000:  # type lines repeat a lot; the cache stays small
            _TYPE_CACHE[type_line] = parsed
    return list(parsed[0]), list(parsed[1]), list(parsed[2])


def mana_value(cost: str) -> float:
    """Mana value of a cost such as ``{2}{W/U}{G/P}``: numbers count their value, X counts 0,
    a hybrid counts its largest part, every other symbol counts 1 (half mana counts 0.5)."""
    total = 0.0
    for symbol in _SYMBOL.findall(cost or ""):
        symbol = symbol.upper()
        if symbol in {"X", "Y", "Z", ""}:
            continue
        best = 0.0
        for part in symbol.split("/"):
            if part.isdigit():
                best = max(best, float(part))
            elif part.startswith("H"):
                best = max(best, 0.5)
            elif part == "P":
                continue
            elif part == "∞":
                continue
            else:
                best = max(best, 1.0)
        total += best
    return total


def face_down_costs(text: str) -> dict[str, str]:
    """Disguise, morph and megamorph costs printed in a rules text (blank when absent)."""
    costs = {"disguise_cost": "", "morph_cost": "", "megamorph_cost": ""}
    if not text or ("orph" not in text and "isguise" not in text):
        return costs
    for match in _FACE_DOWN.finditer(text):
        key = f"{match['keyword'].lower()}_cost"
        if not costs[key]:
            costs[key] = (match["mana"] or match["other"] or "").strip()
    return costs


_COLOR_CACHE: dict = {}


def colors_string(value) -> str:
    """A list like ``["G", "U"]`` or a string like ``"GU"`` -> ``"UG"`` (WUBRG order)."""
    if not value:
        return ""
    key = value if isinstance(value, str) else tuple(value) if isinstance(value, list) else None
    if key is not None:
        cached = _COLOR_CACHE.get(key)
        if cached is not None:
            return cached
    if isinstance(value, str):
        result = order_colors(value.upper())
    elif isinstance(value, Iterable):
        result = order_colors(str(letter).upper() for letter in value)
    else:
        raise ValueError(f"colors must be a list of letters, not {value!r}")
    if key is not None and len(_COLOR_CACHE) < 4096:
        _COLOR_CACHE[key] = result
    return result


def checklist_names(text: str) -> list[str]:
    """Names from the "☐ Name {cost}" lines of a checklist card, in printed order."""
    names: list[str] = []
    for line in (text or "").splitlines():
        line = line.strip()
        if not line.startswith(_CHECKBOX):
            continue
        name = _TRAILING_COST.sub("", line[len(_CHECKBOX) :]).strip()
        if name and name not in names:
            names.append(name)
    return names


_COCKATRICE_SYMBOL = re.compile(r"(\d+|[A-Z∞])((?:/[A-Z0-9])*)")


def braced_cost(cost: str) -> str:
    """Cockatrice writes costs without braces (``"2R/W"``, ``"3U/P"``); add them:
    ``"{2}{R/W}"``, ``"{3}{U/P}"``. A cost that already has braces is returned as it is."""
    cost = (cost or "").strip()
    if not cost or "{" in cost:
        return cost
    out, pos = [], 0
    compact = cost.replace(" ", "").upper()
    while pos < len(compact):
        match = _COCKATRICE_SYMBOL.match(compact, pos)
        if not match:
            raise ValueError(f"cannot read mana cost {cost!r}")
        out.append("{" + match.group(0) + "}")
        pos = match.end()
    return "".join(out)


def split_pt(pt: str) -> tuple[str, str]:
    """``"4/4"`` -> ("4", "4"); ``"*/1+*"`` -> ("*", "1+*")."""
    if not pt:
        return "", ""
    power, _, toughness = pt.partition("/")
    return power.strip(), toughness.strip()
