"""The judges' rules desk page: pick a card and a zone, add actions, read what the rules say.

The whole sequence lives in the query string (``?card=...&zone=hand&a=cast:face_down=disguise
&a=resolve``), so a page can be shared, and it is rendered on the server by the same service as
the API (:mod:`rulesdesk.simulation`); it works without JavaScript.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from cards.models import Layout
from cards.rules import ACTIONS
from cards.rules.faces import TURN_UP_VIA
from cards.rules.state import FACE_DOWN_BY, ZONES, where
from cards.rules.zones import FACE_DOWN_CASTS, FACE_LABELS
from draftsite.errors import DomainError
from draftsite.i18n import localize
from rulesdesk import error_codes, simulation

ACTION_LABELS = {
    "cast": gettext_lazy("Cast"),
    "play_land": gettext_lazy("Play as a land"),
    "resolve": gettext_lazy("Resolve"),
    "put_onto_battlefield": gettext_lazy("Put onto the battlefield"),
    "transform": gettext_lazy("Transform"),
    "flip": pgettext_lazy("verb", "Flip"),
    "turn_face_up": gettext_lazy("Turn face up"),
    "turn_face_down": gettext_lazy("Turn face down"),
    "manifest": gettext_lazy("Manifest"),
    "cloak": gettext_lazy("Cloak"),
    "move": gettext_lazy("Move to zone"),
    "lose_abilities": gettext_lazy("Lose all abilities"),
    "tap": gettext_lazy("Tap"),
    "untap": gettext_lazy("Untap"),
    "end_game": gettext_lazy("End the game"),
    "meld": gettext_lazy("Meld with the partner"),
}
# The words a judge reads for the rules core's codes (zones, faces, what turned a card face down
# and how it turns face up): every select of the page shows these, never the code itself.
ZONE_WORDS = {
    "library": gettext_lazy("Library"),
    "hand": gettext_lazy("Hand"),
    "stack": gettext_lazy("Stack"),
    "battlefield": gettext_lazy("Battlefield"),
    "graveyard": gettext_lazy("Graveyard"),
    "exile": gettext_lazy("Exile"),
    "command": gettext_lazy("Command zone"),
}
FACE_WORDS = {"front": gettext_lazy("Front face"), "back": gettext_lazy("Back face")}
FACE_DOWN_WORDS = {
    "disguise": gettext_lazy("Disguise"),
    "morph": gettext_lazy("Morph"),
    "manifest": gettext_lazy("Manifest"),
    "cloak": gettext_lazy("Cloak"),
    "effect": gettext_lazy("Another effect"),
}
TURN_UP_WORDS = {
    "disguise": gettext_lazy("Paying its disguise cost"),
    "morph": gettext_lazy("Paying its morph cost"),
    "mana_cost": gettext_lazy("Paying its mana cost (a manifested or cloaked creature card)"),
    "effect": gettext_lazy("An effect"),
}


def _choices(codes, words) -> list[tuple[str, Any]]:
    return [(code, words.get(code, code)) for code in codes]


# The parameter controls of the "add a step" form: name -> (label, (value, words) choices; None
# for a flag, CARD for a card named in a text field).
CARD = "card"
PARAM_CONTROLS = [
    ("face", gettext_lazy("Face (cast, play as a land)"), _choices(FACE_LABELS, FACE_WORDS)),
    ("face_down", gettext_lazy("Cast face down with"), _choices(FACE_DOWN_CASTS, FACE_DOWN_WORDS)),
    ("via", gettext_lazy("Turn face up via"), _choices(TURN_UP_VIA, TURN_UP_WORDS)),
    ("to", gettext_lazy("Move to"), _choices([zone for zone in ZONES if zone != "stack"], ZONE_WORDS)),
    ("by", gettext_lazy("Turned face down by"), _choices(FACE_DOWN_BY, FACE_DOWN_WORDS)),
    ("transformed", gettext_lazy("Put onto the battlefield transformed"), None),
    ("partner", gettext_lazy("Meld partner (a card name)"), CARD),
    ("partner_zone", gettext_lazy("Meld partner is"), _choices(ZONES, ZONE_WORDS)),
]
_PARAM_WORDS = {
    "face": FACE_WORDS,
    "face_down": FACE_DOWN_WORDS,
    "via": TURN_UP_WORDS,
    "to": ZONE_WORDS,
    "by": FACE_DOWN_WORDS,
    "partner_zone": ZONE_WORDS,
}
_PARAM_LABELS = {name: label for name, label, _ in PARAM_CONTROLS}


def _params_text(params: dict[str, Any]) -> str:
    """A step's parameters as the form named them: "Turn face up via: Paying its mana cost"."""
    parts = []
    for key, value in params.items():
        label = _PARAM_LABELS.get(key, key.replace("_", " "))
        if value is True:
            parts.append(str(label))
        else:
            parts.append(f"{label}: {_PARAM_WORDS.get(key, {}).get(value, value)}")
    return ", ".join(parts)


OUTCOME_LABELS = {
    "ok": gettext_lazy("Happens"),
    "no_effect": gettext_lazy("Nothing happens"),
    "illegal": gettext_lazy("Not allowed"),
}


def _desk_url(card: str, zone: str, actions: list[str]) -> str:
    query = [("card", card), ("zone", zone)] + [("a", action) for action in actions]
    return f"{reverse('rules:desk')}?{urlencode(query)}"


def _suggestion_url(name: str, exc: DomainError, card_query: str, zone: str, actions: list[str]) -> str:
    """The desk with a suggested name in place of the unknown one: the card, or a step's card
    parameter (meld's partner, ``actions[2].partner``)."""
    index, field = exc.extra.get("index"), str(exc.extra.get("field", "card"))
    if not isinstance(index, int) or not 0 <= index < len(actions) or "." not in field:
        return _desk_url(name, zone, actions)
    item = simulation.parse_query_action(actions[index])
    item[field.rsplit(".", 1)[1]] = name
    fixed = simulation.format_query_action(item.pop("action"), item)
    return _desk_url(card_query, zone, [*actions[:index], fixed, *actions[index + 1 :]])


def _added_action(params: Any) -> str | None:
    """The ``a=`` value for the "add a step" form's submitted action and parameter controls."""
    name = params.get("add", "")
    spec = ACTIONS.get(name)
    if spec is None:
        return None
    chosen: dict[str, Any] = {}
    for key in spec.params:
        value = params.get(key, "").strip()
        if key == "transformed":
            if value:
                chosen[key] = True
        elif value:
            chosen[key] = value[: simulation.MAX_QUERY_LENGTH]
    return simulation.format_query_action(name, chosen)


def _type_line(chars: dict[str, Any]) -> str:
    left = " ".join(chars["supertypes"] + chars["card_types"])
    return f"{left} — {' '.join(chars['subtypes'])}" if chars["subtypes"] else left


def _pt(chars: dict[str, Any]) -> str:
    if chars["power"] is None and chars["toughness"] is None:
        return ""
    return f"{chars['power']}/{chars['toughness']}"


def _rows(state: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    """(label, what everyone sees, what the controller sees if face down) per characteristic."""
    public = state["characteristics"]
    private = state["controller_sees"]
    fields = [
        (gettext("Name"), lambda c: c["name"] or gettext("(no name)")),
        (gettext("Mana cost"), lambda c: c["mana_cost"] or gettext("(none)")),
        (gettext("Mana value"), lambda c: str(c["mana_value"])),
        (gettext("Colors"), lambda c: "".join(c["colors"]) or gettext("colorless")),
        (gettext("Type line"), _type_line),
        (gettext("Power/toughness"), lambda c: _pt(c) or "—"),
        (gettext("Ward"), lambda c: c["ward"] or "—"),
    ]
    return [(label, show(public), show(private) if private else None) for label, show in fields]


_CHANGE_LABELS = {
    "zone": gettext_lazy("Zone"),
    "face_down": gettext_lazy("Face down"),
    "face_down_by": gettext_lazy("Turned face down by"),
    "face_up": gettext_lazy("Face up"),
    "flipped": gettext_lazy("Flipped"),
    "tapped": gettext_lazy("Tapped"),
    "lost_abilities": gettext_lazy("Lost all abilities"),
    "melded_with": gettext_lazy("Melded with"),
    "name": gettext_lazy("Name"),
    "mana_cost": gettext_lazy("Mana cost"),
    "mana_value": gettext_lazy("Mana value"),
    "colors": gettext_lazy("Colors"),
    "supertypes": gettext_lazy("Supertypes"),
    "card_types": gettext_lazy("Card types"),
    "subtypes": gettext_lazy("Subtypes"),
    "power": gettext_lazy("Power"),
    "toughness": gettext_lazy("Toughness"),
    "ward": gettext_lazy("Ward"),
}
_CHANGE_WORDS = {"zone": ZONE_WORDS, "face_down_by": FACE_DOWN_WORDS, "face_up": FACE_WORDS}


def _word(key: str, value: Any) -> str:
    if value is None or value == [] or value == "":
        return gettext("none")
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(_CHANGE_WORDS.get(key, {}).get(value, value))


def _changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What a step changed, in the reader's words ("Zone: Hand → Stack"); the API keeps its
    English list (rulesdesk.simulation.changes)."""
    pairs = [(key, before[key], after[key]) for key in simulation.WATCHED]
    pairs += [(key, before["characteristics"][key], after["characteristics"][key]) for key in simulation.WATCHED_CHARS]
    return [
        f"{_CHANGE_LABELS.get(key, key)}: {_word(key, old)} → {_word(key, new)}"
        for key, old, new in pairs
        if old != new
    ]


EVENT_WORDS = {
    "cast": gettext_lazy("cast"),
    "cast_face_down": gettext_lazy("cast face down"),
    "cast_transformed": gettext_lazy("cast transformed"),
    "resolved": gettext_lazy("resolved"),
    "played_land": gettext_lazy("played as a land"),
    "transformed": gettext_lazy("transformed"),
    "flipped": gettext_lazy("flipped"),
    "turned_face_down": gettext_lazy("turned face down"),
    "turned_face_up": gettext_lazy("turned face up"),
    "manifested": gettext_lazy("manifested"),
    "cloaked": gettext_lazy("cloaked"),
    "manifested_dread": gettext_lazy("manifested dread"),
    "looked_at_top_cards": gettext_lazy("looked at the top cards"),
    "lost_abilities": gettext_lazy("lost all abilities"),
    "tapped": gettext_lazy("tapped"),
    "untapped": gettext_lazy("untapped"),
    "token_created": gettext_lazy("token created"),
    "token_ceases_to_exist": gettext_lazy("the token ceases to exist"),
    "became_copy": gettext_lazy("became a copy"),
    "melded": gettext_lazy("melded"),
    "enters_battlefield": gettext_lazy("enters the battlefield"),
    "entered_transformed": gettext_lazy("entered transformed"),
    "left_battlefield": gettext_lazy("left the battlefield"),
    "revealed": gettext_lazy("revealed"),
    "on_an_adventure": gettext_lazy("on an adventure"),
    "game_ended": gettext_lazy("the game ended"),
    "special_action": gettext_lazy("special action"),
    "fully_unlocked": gettext_lazy("fully unlocked"),
    "counter:+1/+1": gettext_lazy("a +1/+1 counter"),
}


def _event_word(event: str) -> str:
    """A rules-core event code ("cast_face_down", "paid:{3}", "moved_to_graveyard") as words."""
    if event in EVENT_WORDS:
        return str(EVENT_WORDS[event])
    kind, _, detail = event.partition(":")
    if kind == "paid" and detail:
        return gettext("paid %(cost)s") % {"cost": detail}
    if kind == "exiled" and detail:
        return gettext("exiled %(name)s") % {"name": detail}
    if kind == "door_unlocked" and detail:
        return gettext("door unlocked: %(name)s") % {"name": detail}
    if event.startswith("moved_to_"):
        zone = event.removeprefix("moved_to_")
        return gettext("moved to: %(zone)s") % {"zone": ZONE_WORDS.get(zone, zone)}
    return event


def _status(state: dict[str, Any]) -> list[str]:
    status = [localize(where(state["zone"]))]
    if state["face_down"]:
        by = state["face_down_by"]
        status.append(gettext("face down (%(by)s)") % {"by": FACE_DOWN_WORDS.get(by, by) if by else "—"})
    elif state["face_up"] == "back":
        status.append(gettext("back face up"))
    if state["flipped"]:
        status.append(gettext("flipped"))
    if state["tapped"]:
        status.append(gettext("tapped"))
    if state["lost_abilities"]:
        status.append(gettext("lost all abilities"))
    if state["melded_with"]:
        status.append(gettext("melded with %(name)s: one permanent, two cards") % {"name": state["melded_with"]})
    return status


def _also(step: dict[str, Any]) -> list[str]:
    """The cards a step moved along with this one, as sentences (CR 712.4)."""
    return [
        gettext("%(name)s went too: it is %(where)s.")
        % {"name": other["name"], "where": localize(where(other["zone"]))}
        for other in step["also"]
    ]


_LAYOUTS_NAMED_DOUBLE_FACED = {Layout.TRANSFORM, Layout.MODAL_DFC}


def _layout_word(layout: str) -> str:
    return str(Layout(layout).label) if layout in Layout.values else layout


def desk(request):
    """The rules desk: ``?card=&zone=&a=action:key=value,...`` (repeat ``a``)."""
    params = request.GET
    card_query = params.get("card", "").strip()[: simulation.MAX_QUERY_LENGTH]
    zone = params.get("zone") or "hand"
    actions = params.getlist("a")
    added = _added_action(params)
    if added is not None:
        return HttpResponseRedirect(_desk_url(card_query, zone, actions + [added]))

    context: dict[str, Any] = {
        "title": gettext("Rules desk"),
        "card_query": card_query,
        "zone": zone,
        "actions": actions,
        "zones": _choices(simulation.START_ZONES, ZONE_WORDS),
        "action_buttons": ACTION_LABELS.items(),
        "param_controls": PARAM_CONTROLS,
        "max_actions": simulation.MAX_ACTIONS,
        "type_line_label": gettext("Type line"),
        "error": None,
        "suggestions": [],
        "steps": [],
        "card": None,
    }
    status = 200
    if card_query:
        try:
            card, result_steps = simulation.simulate_query(card_query, zone, actions)
        except DomainError as exc:
            context["error"] = exc.message
            context["suggestions"] = [
                {"name": name, "url": _suggestion_url(name, exc, card_query, zone, actions)}
                for name in exc.extra.get("suggestions", [])
            ]
            status = 200 if exc.code == error_codes.UNKNOWN_CARD else 400
        else:
            context.update(_result_context(request, card, result_steps, card_query, zone, actions))
    return render(request, "rulesdesk/desk.html", context, status=status)


def _result_context(
    request, card, result_steps: list[dict[str, Any]], card_query: str, zone: str, actions: list[str]
) -> dict[str, Any]:
    """The card, every step as the page shows it, and the links to share, undo or go back."""
    return {
        "card": {
            **simulation.card_dict(card),
            "layout_label": _layout_word(card.layout),
            # One badge says it (issue 46): "double-faced" only where the layout's own name
            # does not (a meld card), never beside "Transforming double-faced".
            "dfc_badge": card.is_dfc and card.layout not in _LAYOUTS_NAMED_DOUBLE_FACED,
        },
        "steps": [
            {
                **step,
                "number": index,
                "label": ACTION_LABELS.get(step["action"], gettext("Start")),
                "outcome_label": OUTCOME_LABELS[step["outcome"]],
                "rows": _rows(step["state"]),
                "changes": _changes(result_steps[index - 1]["state"], step["state"]) if index else [],
                "status": _status(step["state"]),
                "events": [_event_word(event) for event in step["events"]],
                "also_text": _also(step),
                "params_text": _params_text(step["params"]),
                "upto_url": _desk_url(card_query, zone, actions[:index]),
            }
            for index, step in enumerate(result_steps)
        ],
        "share_url": request.build_absolute_uri(_desk_url(card_query, zone, actions)),
        "undo_url": _desk_url(card_query, zone, actions[:-1]) if actions else None,
        "final": result_steps[-1]["state"],
    }
