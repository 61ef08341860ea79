"""The rules desk's simulation: look a card up, run a sequence of rules-core actions on it,
and describe every step as plain dicts. Shared by ``POST /api/rules/simulate`` and the
``/rules/`` page, so both always agree. It reads the catalogue and writes nothing (so it is not
a service: the app has none).

Errors are :class:`draftsite.errors.DomainError` with the codes of
:mod:`rulesdesk.error_codes`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from django.utils.translation import gettext

from cards import selectors
from cards.models import Card
from cards.rules import (
    ACTIONS,
    CardData,
    Characteristics,
    GameObject,
    InvalidAction,
    apply,
    characteristics,
    color_identity,
    controller_view,
    names_for_naming,
)
from cards.rules.actions import check_params
from cards.rules.state import ZONES
from draftsite.errors import DomainError
from draftsite.i18n import localize
from rulesdesk.adapter import card_data
from rulesdesk.error_codes import INVALID_ACTION, TOO_MANY_ACTIONS, UNKNOWN_CARD

MAX_ACTIONS = 50
MAX_QUERY_LENGTH = 200
START_ZONES = tuple(zone for zone in ZONES if zone != "stack")
REQUEST_FIELDS = frozenset({"card", "zone", "actions"})


def find_card(query: Any, field: str = "card", **extra: Any) -> Card:
    """The catalogue card a query names (id, full name or any face name), or ``unknown_card``
    with suggestions. ``field`` (and ``extra``) go into the error."""
    text = str(query).strip() if isinstance(query, (str, int)) and not isinstance(query, bool) else ""
    if not text:
        raise DomainError(
            UNKNOWN_CARD,
            gettext("Name a card: its full name, a face name or its id."),
            field=field,
            suggestions=[],
            **extra,
        )
    if len(text) > MAX_QUERY_LENGTH:
        raise DomainError(
            UNKNOWN_CARD,
            gettext("A card name has at most %(MAX_QUERY_LENGTH)s characters.")
            % {"MAX_QUERY_LENGTH": MAX_QUERY_LENGTH},
            field=field,
            suggestions=[],
            **extra,
        )
    # An id is ASCII digits within the key's range (cards.selectors): "²" or a 30-digit number
    # is looked up as a name, and names no card.
    card = selectors.find_card(text)
    if card is None:
        raise DomainError(
            UNKNOWN_CARD,
            gettext("No card is called “%(text)s”.") % {"text": text},
            field=field,
            suggestions=selectors.suggest_names(text),
            **extra,
        )
    return card


def _invalid(message: str, field: str, **extra: Any) -> DomainError:
    return DomainError(INVALID_ACTION, message, field=field, **extra)


def parse_zone(zone: Any) -> str:
    if zone is None or zone == "":
        return "hand"
    if zone not in START_ZONES:
        raise _invalid(
            gettext("Unknown starting zone %(zone)s; one of %(join)s.")
            % {"zone": repr(zone), "join": ", ".join(START_ZONES)},
            "zone",
        )
    return zone


def _card_param(found: dict[str, CardData], action: str, where: str, index: int, name: str, value: Any) -> CardData:
    """A parameter that names a card (meld's ``partner``): the catalogue card it names, as the
    core's :class:`CardData`; ``invalid_action`` when it is not a name or an id,
    ``unknown_card`` (with suggestions) when no card has that name."""
    field = f"{where}.{name}"
    if isinstance(value, bool) or not isinstance(value, (str, int)) or not str(value).strip():
        raise _invalid(
            gettext("%(where)s: %(action)s's %(name)s names a card: its full name, a face name or its id.")
            % {"where": where, "action": action, "name": name},
            field,
            index=index,
        )
    key = str(value).strip()
    if key not in found:
        found[key] = card_data(find_card(key, field=field, index=index))
    return found[key]


def parse_actions(raw: Any) -> list[tuple[str, dict[str, Any]]]:
    """``[{"action": "cast", "face_down": "disguise"}, ...]`` checked against the core's action
    table: ``invalid_action`` (with the step's index and field) or ``too_many_actions``. A
    parameter naming a card (``{"action": "meld", "partner": "Gisela, the Broken Blade"}``) is
    looked up in the catalogue (``unknown_card`` with suggestions)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise _invalid(gettext("actions must be a list of objects."), "actions")
    if len(raw) > MAX_ACTIONS:
        raise DomainError(
            TOO_MANY_ACTIONS,
            gettext("At most %(MAX_ACTIONS)s actions per simulation (%(count)s given).")
            % {"MAX_ACTIONS": MAX_ACTIONS, "count": len(raw)},
            field="actions",
            limit=MAX_ACTIONS,
        )
    steps = []
    cards: dict[str, CardData] = {}
    for index, item in enumerate(raw):
        where = f"actions[{index}]"
        if not isinstance(item, Mapping):
            raise _invalid(
                gettext('%(where)s must be an object with an "action".') % {"where": where}, where, index=index
            )
        name = item.get("action")
        if not isinstance(name, str) or name not in ACTIONS:
            raise _invalid(
                gettext("%(where)s: unknown action %(name)s; one of %(join)s.")
                % {"where": where, "name": repr(name), "join": ", ".join(ACTIONS)},
                f"{where}.action",
                index=index,
            )
        params = {key: value for key, value in item.items() if key != "action"}
        try:
            clean = check_params(name, params, partial(_card_param, cards, name, where, index))
        except InvalidAction as exc:
            field = f"{where}.{exc.field}" if exc.field else where
            # The core's own wording, through the catalogue where it has one.
            message = gettext("%(field)s: %(problem)s.") % {"field": where, "problem": localize(exc.args[0])}
            raise _invalid(message, field, index=index) from None
        steps.append((name, clean))
    return steps


def characteristics_dict(chars: Characteristics) -> dict[str, Any]:
    return {
        "name": chars.name,
        "mana_cost": chars.mana_cost,
        "mana_value": chars.mana_value,
        "colors": list(chars.colors),
        "supertypes": list(chars.supertypes),
        "card_types": list(chars.card_types),
        "subtypes": list(chars.subtypes),
        "power": chars.power,
        "toughness": chars.toughness,
        "loyalty": chars.loyalty,
        "defense": chars.defense,
        "ward": chars.ward,
        "rules_text": chars.rules_text,
        "source": chars.source,
    }


def state_dict(obj: GameObject) -> dict[str, Any]:
    """The STATE of the API contract; ``controller_sees`` is what a face-down object's
    controller may look at (R20), ``None`` when it is face up; ``melded_with`` is the other card
    of a melded permanent (CR 712.4), ``None`` when it is not one."""
    return {
        "zone": obj.zone,
        "face_down": obj.face_down,
        "face_down_by": obj.face_down_by,
        "face_up": obj.face_up,
        "flipped": obj.flipped,
        "tapped": obj.tapped,
        "lost_abilities": obj.lost_abilities,
        "melded_with": obj.melded_with.name if obj.melded_with is not None else None,
        "characteristics": characteristics_dict(characteristics(obj)),
        "controller_sees": characteristics_dict(controller_view(obj)) if obj.face_down else None,
    }


WATCHED = ("zone", "face_down", "face_down_by", "face_up", "flipped", "tapped", "lost_abilities", "melded_with")
WATCHED_CHARS = (
    "name",
    "mana_cost",
    "mana_value",
    "colors",
    "supertypes",
    "card_types",
    "subtypes",
    "power",
    "toughness",
    "ward",
)


def _show(value: Any) -> str:
    if value is None or value == [] or value == "":
        return "none"
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed between two states, for people: ``["zone: hand → stack", ...]``."""
    found = [
        f"{key.replace('_', ' ')}: {_show(before[key])} → {_show(after[key])}"
        for key in WATCHED
        if before[key] != after[key]
    ]
    old, new = before["characteristics"], after["characteristics"]
    found += [
        f"{key.replace('_', ' ')}: {_show(old[key])} → {_show(new[key])}"
        for key in WATCHED_CHARS
        if old[key] != new[key]
    ]
    return found


def card_dict(card: Card) -> dict[str, Any]:
    data = card_data(card)
    faces = sorted(card.faces.all(), key=lambda f: f.position)
    return {
        "id": card.pk,
        "name": card.name,
        "layout": card.layout,
        "is_dfc": data.is_dfc,
        "color_identity": list(color_identity(data)),
        "names_for_naming": list(names_for_naming(data)),
        "faces": [
            {
                "position": face.position,
                "name": face.name,
                "mana_cost": face.mana_cost or None,
                "mana_value": face.mana_value,
                "type_line": face.type_line,
                "oracle_text": face.oracle_text,
                "colors": list(face.colors or ""),
                "power": face.power or None,
                "toughness": face.toughness or None,
                "loyalty": face.loyalty or None,
                "disguise_cost": face.disguise_cost or None,
                "morph_cost": face.morph_cost or None,
                "megamorph_cost": face.megamorph_cost or None,
            }
            for face in faces
        ],
    }


def run_sequence(card: Card, zone: str, steps: Sequence[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The steps of a simulation: a ``start`` step, then one per action. An action after an
    illegal (or no-effect) step applies to the unchanged state."""
    obj = GameObject(card=card_data(card), zone=zone)
    state = state_dict(obj)
    out = [
        {
            "action": "start",
            "params": {},
            "outcome": "ok",
            "reason": None,
            "events": [],
            "changes": [],
            "state": state,
            "also": [],
        }
    ]
    for name, params in steps:
        result = apply(obj, name, **params)
        obj = result.state
        new_state = state_dict(obj)
        out.append(
            {
                "action": name,
                # A card parameter by the card's full name: a reference that can be sent again.
                "params": {key: value.name if isinstance(value, CardData) else value for key, value in params.items()},
                "outcome": result.outcome,
                "reason": localize(result.reason),
                "events": list(result.events),
                "changes": changes(state, new_state),
                "state": new_state,
                "also": [
                    {
                        "name": other.name,
                        "zone": other.zone,
                        "characteristics": characteristics_dict(characteristics(other)),
                    }
                    for other in result.also
                ],
            }
        )
        state = new_state
    return out


def simulate(payload: Mapping[str, Any]) -> dict[str, Any]:
    """Run a simulate request ``{"card", "zone", "actions"}`` (already JSON-decoded)."""
    if not isinstance(payload, Mapping):
        raise _invalid(gettext("The request body must be a JSON object."), "body")
    unknown = sorted(set(payload) - REQUEST_FIELDS)
    if unknown:
        raise _invalid(
            gettext("Unknown field %(unknown)s; fields: card, zone, actions.") % {"unknown": repr(unknown[0])},
            unknown[0],
        )
    zone = parse_zone(payload.get("zone"))
    steps = parse_actions(payload.get("actions"))
    card = find_card(payload.get("card"))
    return {"card": card_dict(card), "zone": zone, "steps": run_sequence(card, zone, steps)}


# -- the page's query-string form: a=cast:face_down=disguise&a=resolve ----------------------
# Parameters are separated by a comma that starts a new "key=": card names have commas of
# their own ("meld:partner=Gisela, the Broken Blade,partner_zone=battlefield").
_PARAM_SEPARATOR = re.compile(r",(?=\s*\w+\s*=)")


def parse_query_action(text: str) -> dict[str, Any]:
    """``"cast:face_down=disguise,face=front"`` -> ``{"action": "cast", "face_down": ...}``;
    ``true``/``false`` become booleans."""
    name, _, rest = text.strip().partition(":")
    item: dict[str, Any] = {"action": name.strip()}
    for part in filter(None, (p.strip() for p in _PARAM_SEPARATOR.split(rest))):
        key, sep, value = part.partition("=")
        if not sep:
            raise _invalid(gettext("%(text)s: parameters are written key=value.") % {"text": repr(text)}, "a")
        value = value.strip()
        item[key.strip()] = {"true": True, "false": False}.get(value.lower(), value)
    return item


def simulate_query(card_query: str, zone: str, actions: Sequence[str]) -> tuple[Card, list[dict[str, Any]]]:
    """The page's simulation: ``a=`` actions in their query-string form (the same checks, in the
    same order, as the API's)."""
    start = parse_zone(zone)
    steps = parse_actions([parse_query_action(text) for text in actions])
    card = find_card(card_query)
    return card, run_sequence(card, start, steps)


def format_query_action(name: str, params: Mapping[str, Any]) -> str:
    """The inverse of :func:`parse_query_action`."""
    parts = [
        f"{key}={str(value).lower() if isinstance(value, bool) else value}"
        for key, value in params.items()
        if value is not None
    ]
    return f"{name}:{','.join(parts)}" if parts else name
