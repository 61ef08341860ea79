"""The judges' rules desk page: pick a card and a zone, add actions, read what the rules say.

The whole sequence lives in the query string (``?card=...&zone=hand&a=cast:face_down=disguise
&a=resolve``), so a page can be shared, and it is rendered on the server by the same service as
the API (:mod:`rulesdesk.services`); it works without JavaScript.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from cards.rules import ACTIONS
from cards.rules.faces import TURN_UP_VIA
from cards.rules.state import FACE_DOWN_BY, ZONES, where
from cards.rules.zones import FACE_DOWN_CASTS, FACE_LABELS
from draftsite.errors import DomainError
from draftsite.i18n import localize
from rulesdesk import error_codes, services

ACTION_LABELS = {
    "cast": gettext_lazy("Cast"),
    "play_land": gettext_lazy("Play as a land"),
    "resolve": gettext_lazy("Resolve"),
    "put_onto_battlefield": gettext_lazy("Put onto the battlefield"),
    "transform": gettext_lazy("Transform"),
    "flip": gettext_lazy("Flip"),
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
# The parameter controls of the "add a step" form: name -> (label, choices; None for a flag,
# CARD for a card named in a text field).
CARD = "card"
PARAM_CONTROLS = [
    ("face", gettext_lazy("Face (cast, play as a land)"), FACE_LABELS),
    ("face_down", gettext_lazy("Cast face down with"), FACE_DOWN_CASTS),
    ("via", gettext_lazy("Turn face up via"), TURN_UP_VIA),
    ("to", gettext_lazy("Move to"), tuple(zone for zone in ZONES if zone != "stack")),
    ("by", gettext_lazy("Turned face down by"), FACE_DOWN_BY),
    ("transformed", gettext_lazy("Put onto the battlefield transformed"), None),
    ("partner", gettext_lazy("Meld partner (a card name)"), CARD),
    ("partner_zone", gettext_lazy("Meld partner is"), ZONES),
]
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
    item = services.parse_query_action(actions[index])
    item[field.rsplit(".", 1)[1]] = name
    fixed = services.format_query_action(item.pop("action"), item)
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
            chosen[key] = value[: services.MAX_QUERY_LENGTH]
    return services.format_query_action(name, chosen)


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


def _status(state: dict[str, Any]) -> list[str]:
    status = [localize(where(state["zone"]))]
    if state["face_down"]:
        status.append(gettext("face down (%(by)s)") % {"by": state["face_down_by"]})
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


def desk(request):
    """The rules desk: ``?card=&zone=&a=action:key=value,...`` (repeat ``a``)."""
    params = request.GET
    card_query = params.get("card", "").strip()[: services.MAX_QUERY_LENGTH]
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
        "zones": services.START_ZONES,
        "action_buttons": ACTION_LABELS.items(),
        "param_controls": PARAM_CONTROLS,
        "max_actions": services.MAX_ACTIONS,
        "error": None,
        "suggestions": [],
        "steps": [],
        "card": None,
    }
    status = 200
    if card_query:
        try:
            card, result_steps = services.simulate_query(card_query, zone, actions)
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
        "card": services.card_dict(card),
        "steps": [
            {
                **step,
                "number": index,
                "label": ACTION_LABELS.get(step["action"], gettext("Start")),
                "outcome_label": OUTCOME_LABELS[step["outcome"]],
                "rows": _rows(step["state"]),
                "status": _status(step["state"]),
                "also_text": _also(step),
                "params_text": ", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in step["params"].items()),
                "upto_url": _desk_url(card_query, zone, actions[:index]),
            }
            for index, step in enumerate(result_steps)
        ],
        "share_url": request.build_absolute_uri(_desk_url(card_query, zone, actions)),
        "undo_url": _desk_url(card_query, zone, actions[:-1]) if actions else None,
        "final": result_steps[-1]["state"],
    }
