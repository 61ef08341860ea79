"""The deck validation, as a judge checks a list, in plain Python (no Django, no database).

Input is already resolved: every line of the list carries the catalogue card it names (or
``None`` when the name is unknown), every checklist card the official checklist/substitute
cards its name may mean. :func:`validate` then applies, in this order:

* the list itself: unknown names, deck size (limited 40, constructed 60, commander exactly
  100 with the commander), sideboard size (constructed 15), copies (constructed 4, commander
  1, basic lands exempt; counted per card, whichever face names it), the pool (limited), and
  color identity across every face (commander, R39);
* how double-faced cards are represented (R9-R12, MTR 3.5): each checklist card is official
  (R11), has exactly one name marked (R10), and that name is one it lists (R11); checklist
  cards and represented DFC copies match one for one; all or none (R12) under the chosen
  policy; and without fully opaque sleeves every DFC copy is represented (R9).

Each checklist card problem is reported once, at its cause: a checklist card that is wrong in
itself (unofficial, unmarked, marked twice, marking a name it does not list) still stands for
the DFC its mark names, so the same card does not also produce "not represented" errors.

:func:`physical_deck` says what a judge should find in the deck box (R13): represented DFC
copies are replaced by their checklist cards and set aside.
"""

from decks.validation import codes
from decks.validation.codes import *  # noqa: F401,F403  (the problem codes)
from decks.validation.data import *  # noqa: F401,F403  (formats, policies, data classes)
from decks.validation.data import __all__ as _data_names
from decks.validation.physical import physical_deck
from decks.validation.problems import zone_label
from decks.validation.validate import dfc_copies, validate

__all__ = [
    "validate",
    "dfc_copies",
    "zone_label",
    "physical_deck",
    *_data_names,
    *(name for name in vars(codes) if name.isupper()),
]
