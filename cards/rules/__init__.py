"""The rules core: plain Python, no Django. Dataclasses in, dataclasses out (R1-R47).

Modules:

- ``data``: :class:`FaceData` and :class:`CardData`, a card as printed;
- ``state``: :class:`GameObject` (a card in a zone, face up or down, flipped, tapped ...) and
  :class:`ActionResult`;
- ``characteristics``: :func:`characteristics`, what an object is right now;
- ``zones`` and ``faces``: the actions; ``actions``: all of them by name (:func:`apply`);
- ``questions``: questions about a card as a whole: names that may be chosen, playable faces,
  color identity;
- ``manifest``: manifest dread; ``colors``: color helpers.
"""

from cards.rules.actions import ACTIONS, InvalidAction, apply, run
from cards.rules.characteristics import (
    Characteristics,
    characteristics,
    controller_view,
    copiable_values,
)
from cards.rules.data import CardData, FaceData
from cards.rules.faces import (
    become_copy,
    create_token_copy,
    flip,
    lose_abilities,
    tap,
    transform,
    turn_face_down,
    turn_face_up,
    untap,
)
from cards.rules.manifest import ManifestDreadResult, manifest_dread
from cards.rules.meld import meld
from cards.rules.questions import (
    color_identity,
    named_face,
    names_for_naming,
    playable_faces,
    share_name,
)
from cards.rules.rooms import unlock
from cards.rules.state import ActionResult, GameObject, new_object
from cards.rules.zones import cast, cloak, end_game, manifest, move, play_land, put_onto_battlefield, resolve

__all__ = [
    "ACTIONS",
    "ActionResult",
    "CardData",
    "Characteristics",
    "FaceData",
    "GameObject",
    "InvalidAction",
    "ManifestDreadResult",
    "apply",
    "become_copy",
    "cast",
    "characteristics",
    "cloak",
    "color_identity",
    "controller_view",
    "copiable_values",
    "create_token_copy",
    "end_game",
    "flip",
    "lose_abilities",
    "manifest",
    "manifest_dread",
    "move",
    "named_face",
    "names_for_naming",
    "new_object",
    "play_land",
    "playable_faces",
    "put_onto_battlefield",
    "resolve",
    "run",
    "share_name",
    "tap",
    "transform",
    "turn_face_down",
    "turn_face_up",
    "untap",
    "meld",
    "unlock",
]
