"""The plain-Python deck check (decks.validation): table-driven, one row per rule and error code.

No database: cards are hand-made CardInfo values with the real names and properties of ISD,
ZNR and CHK cards, so these tests pin the rules themselves (R9-R13, R39, MTR 3.5).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from decks import validation as v
from decks.validation import CardInfo, Checklist, ChecklistUse, DeckData, Line, Mark

DELVER = CardInfo(1, "Delver of Secrets // Insectile Aberration", is_dfc=True, color_identity="U")
GATSTAF = CardInfo(2, "Gatstaf Shepherd // Gatstaf Howler", is_dfc=True, color_identity="G")
SCHOLAR = CardInfo(3, "Civilized Scholar // Homicidal Brute", is_dfc=True, color_identity="UR")
EMERIA = CardInfo(4, "Emeria's Call // Emeria, Shattered Skyclave", is_dfc=True, color_identity="W")
AKKI = CardInfo(5, "Akki Lavarunner // Tok-Tok, Volcano Born", color_identity="R")  # flip: not a DFC
ISLAND = CardInfo(6, "Island", is_basic=True, color_identity="U")
THINK = CardInfo(7, "Think Twice", color_identity="U")
ALANDRA = CardInfo(8, "Alandra, Sky Dreamer", color_identity="U")
SLIME = CardInfo(9, "Slime Against Humanity", color_identity="G", copy_limit=v.ANY_NUMBER)
NEGATE = CardInfo(10, "Negate", color_identity="U")
PLAINS = CardInfo("basic:Plains", "Plains", is_basic=True, color_identity="W")

ISD_CHECKLIST = Checklist(
    100, "Innistrad Checklist", "Innistrad Checklist (TISD 13)", v.CHECKLIST, frozenset({1, 2, 3})
)
SZNR = tuple(
    Checklist(
        200 + n,
        "Double-Faced Substitute Card",
        f"Double-Faced Substitute Card (SZNR {n})",
        v.SUBSTITUTE,
        frozenset({4}),
    )
    for n in range(1, 4)
)
SKHM = Checklist(
    300, "Double-Faced Substitute Card", "Double-Faced Substitute Card (SKHM 1)", v.SUBSTITUTE, frozenset({99})
)


def line(card: CardInfo, count: int, name: str | None = None) -> Line:
    return Line(name or card.name.split(" // ")[0], count, card)


def isd(*marks: CardInfo | str) -> ChecklistUse:
    return ChecklistUse(
        "Innistrad Checklist",
        (ISD_CHECKLIST,),
        tuple(Mark(m, None) if isinstance(m, str) else Mark(m.name.split(" // ")[0], m) for m in marks),
    )


def deck(
    main=(),
    sideboard=(),
    *,
    fmt=v.CONSTRUCTED,
    sleeves=False,
    policy=v.POLICY_DECK,
    checklists=(),
    commander=(),
    pool=None,
) -> DeckData:
    return DeckData(
        format=fmt,
        main=list(main),
        sideboard=list(sideboard),
        commander=list(commander),
        pool=pool,
        opaque_sleeves=sleeves,
        checklist_policy=policy,
        checklist_cards=list(checklists),
    )


def codes(data: DeckData) -> list[str]:
    return v.validate(data).codes


def fill(n: int) -> Line:
    return line(ISLAND, n)


# --- the list itself ---------------------------------------------------------------------

SIZE_CASES = [
    # (format, main, commander, expected codes)
    ("limited 40 is enough", v.LIMITED, [fill(40)], [], []),
    ("limited 39 too small", v.LIMITED, [fill(39)], [], ["deck_too_small"]),
    ("constructed 60 is enough", v.CONSTRUCTED, [fill(60)], [], []),
    ("constructed 59 too small", v.CONSTRUCTED, [fill(59)], [], ["deck_too_small"]),
    ("constructed may exceed 60", v.CONSTRUCTED, [fill(75)], [], []),
    ("commander 99 + commander", v.COMMANDER, [fill(99)], [line(ALANDRA, 1)], []),
    ("commander 98 + commander", v.COMMANDER, [fill(98)], [line(ALANDRA, 1)], ["deck_too_small"]),
    ("commander 100 + commander", v.COMMANDER, [fill(100)], [line(ALANDRA, 1)], ["deck_too_large"]),
]


@pytest.mark.parametrize("label,fmt,main,commander,expected", SIZE_CASES, ids=[c[0] for c in SIZE_CASES])
def test_deck_size(label, fmt, main, commander, expected):
    assert codes(deck(main, fmt=fmt, commander=commander)) == expected


COPY_CASES = [
    ("constructed 4 copies", v.CONSTRUCTED, [line(THINK, 4), fill(56)], [], []),
    ("constructed 5 copies", v.CONSTRUCTED, [line(THINK, 4), fill(56)], [line(THINK, 1)], ["too_many_copies"]),
    ("basic lands are exempt", v.CONSTRUCTED, [fill(60)], [], []),
    ("any number of Slime Against Humanity", v.CONSTRUCTED, [line(SLIME, 30), fill(30)], [], []),
    ("limited has no copy limit", v.LIMITED, [line(THINK, 7), fill(33)], [], []),
]


@pytest.mark.parametrize("label,fmt,main,side,expected", COPY_CASES, ids=[c[0] for c in COPY_CASES])
def test_copies(label, fmt, main, side, expected):
    assert codes(deck(main, side, fmt=fmt)) == expected


def test_copies_count_by_card_not_by_face():
    """Gatstaf Howler names Gatstaf Shepherd // Gatstaf Howler: 3 + 2 is 5 copies."""
    data = deck([line(GATSTAF, 3, "Gatstaf Shepherd"), line(GATSTAF, 2, "Gatstaf Howler"), fill(55)], sleeves=True)
    report = v.validate(data)
    assert report.codes == ["too_many_copies"]
    assert report.errors[0]["actual"] == 5
    assert {"Gatstaf Shepherd // Gatstaf Howler", "Gatstaf Shepherd", "Gatstaf Howler"} <= set(
        report.errors[0]["cards"]
    )


def test_commander_is_singleton_across_command_zone_and_deck():
    data = deck([line(THINK, 2), line(ALANDRA, 1), fill(96)], fmt=v.COMMANDER, commander=[line(ALANDRA, 1)])
    assert sorted(codes(data)) == ["too_many_copies", "too_many_copies"]


def test_sideboard_too_large():
    assert codes(deck([fill(60)], [line(THINK, 4), line(NEGATE, 4), fill(8)])) == ["sideboard_too_large"]
    assert codes(deck([fill(60)], [line(THINK, 4), line(NEGATE, 4), fill(7)])) == []


def test_unknown_card_with_suggestions():
    data = deck([Line("Gatstaf Sheperd", 4, None), fill(56)])
    data.suggestions = {"Gatstaf Sheperd": ["Gatstaf Shepherd"]}
    report = v.validate(data)
    assert report.codes == ["unknown_card"]
    assert report.errors[0]["cards"] == ["Gatstaf Sheperd"]
    assert report.errors[0]["suggestions"] == ["Gatstaf Shepherd"]
    assert report.summary["main"] == 60  # unknown cards still count towards the size


POOL = [line(DELVER, 1), line(THINK, 2), line(GATSTAF, 1)]


@pytest.mark.parametrize(
    "main,side,expected",
    [
        ([line(DELVER, 1), line(THINK, 2), fill(37)], [line(GATSTAF, 1)], []),
        ([line(THINK, 3), fill(37)], [], ["not_in_pool"]),
        ([line(NEGATE, 1), fill(39)], [], ["not_in_pool"]),
        ([line(THINK, 2), fill(38)], [line(THINK, 1)], ["not_in_pool"]),  # main + sideboard
        ([line(PLAINS, 20), fill(20)], [], []),  # basic lands are free, also one not in the catalogue
    ],
    ids=["from the pool", "more copies than opened", "never opened", "sideboard counts", "basics"],
)
def test_not_in_pool(main, side, expected):
    assert codes(deck(main, side, fmt=v.LIMITED, pool=POOL, sleeves=True)) == expected


def test_limited_without_pool_is_not_checked_against_one():
    assert codes(deck([line(NEGATE, 1), fill(39)], fmt=v.LIMITED)) == []


def test_r39_color_identity_counts_both_faces():
    """Civilized Scholar's front face is blue, its back face red: identity UR (R39)."""
    data = deck(
        [line(SCHOLAR, 1), line(THINK, 1), fill(97)], fmt=v.COMMANDER, commander=[line(ALANDRA, 1)], sleeves=True
    )
    report = v.validate(data)
    assert report.codes == ["color_identity"]
    assert "Civilized Scholar // Homicidal Brute" in report.errors[0]["cards"]
    assert report.errors[0]["identity"] == "UR"


def test_r39_without_commander_warns():
    report = v.validate(deck([fill(100)], fmt=v.COMMANDER))
    assert report.valid
    assert [w["code"] for w in report.warnings] == ["no_commander"]


# --- double-faced cards: R9-R12 -------------------------------------------------------------

BASE = [line(DELVER, 2), line(GATSTAF, 1), fill(57)]

DFC_CASES = [
    # label, sleeves, policy, checklist cards, expected codes
    ("R9 opaque sleeves, no checklist", True, v.POLICY_DECK, [], []),
    (
        "R9 no sleeves, no checklist",
        False,
        v.POLICY_DECK,
        [],
        ["dfc_needs_sleeves_or_checklist", "dfc_needs_sleeves_or_checklist"],
    ),
    ("R9 every copy by checklist, no sleeves", False, v.POLICY_DECK, [isd(DELVER), isd(DELVER), isd(GATSTAF)], []),
    ("R10 no mark", True, v.POLICY_DECK, [isd()], ["checklist_no_mark"]),
    (
        "R10 two marks",
        True,
        v.POLICY_DECK,
        [isd(DELVER), isd(DELVER, GATSTAF), isd(GATSTAF)],
        ["checklist_multiple_marks"],
    ),
    (
        "R11 unofficial",
        True,
        v.POLICY_DECK,
        [isd(DELVER), isd(DELVER), ChecklistUse("Proxy I drew", (), (Mark("Gatstaf Shepherd", GATSTAF),))],
        ["checklist_unofficial"],
    ),
    (
        "R11 not listed",
        True,
        v.POLICY_DECK,
        [isd(DELVER), isd(DELVER), isd(GATSTAF), isd(EMERIA)],
        ["checklist_not_listed"],
    ),
    (
        "R11 unknown marked name",
        True,
        v.POLICY_DECK,
        [isd(DELVER), isd(DELVER), isd(GATSTAF), isd("Not A Card")],
        ["checklist_not_listed"],
    ),
    (
        "R12 deck policy: one DFC represented, another sleeved",
        True,
        v.POLICY_DECK,
        [isd(DELVER), isd(DELVER)],
        ["checklist_partial"],
    ),
    ("R12 deck policy: one copy of two", True, v.POLICY_DECK, [isd(DELVER), isd(GATSTAF)], ["checklist_partial"]),
    ("R12 per-name policy: different DFCs may differ", True, v.POLICY_PER_NAME, [isd(DELVER), isd(DELVER)], []),
    ("R12 per-name policy: copies of one DFC alike", True, v.POLICY_PER_NAME, [isd(DELVER)], ["checklist_partial"]),
    # One finding per card: the partly represented DFC gets the R12 finding (which also says
    # the sleeves are not opaque), the other, wholly bare DFC the R9 one.
    (
        "R12 partial without sleeves also leaves DFCs bare",
        False,
        v.POLICY_PER_NAME,
        [isd(DELVER)],
        ["checklist_partial", "dfc_needs_sleeves_or_checklist"],
    ),
    (
        "mismatch: more checklist cards than copies",
        True,
        v.POLICY_DECK,
        [isd(DELVER), isd(DELVER), isd(DELVER), isd(GATSTAF)],
        ["checklist_mismatch"],
    ),
    (
        "mismatch: checklist card for a DFC not in the deck",
        True,
        v.POLICY_DECK,
        [isd(DELVER), isd(DELVER), isd(GATSTAF), isd(SCHOLAR)],
        ["checklist_mismatch"],
    ),
]


@pytest.mark.parametrize("label,sleeves,policy,checklists,expected", DFC_CASES, ids=[c[0] for c in DFC_CASES])
def test_dfc_representation(label, sleeves, policy, checklists, expected):
    assert codes(deck(BASE, sleeves=sleeves, policy=policy, checklists=checklists)) == expected


def test_r12_deck_policy_covers_the_sideboard():
    data = deck([line(DELVER, 2), fill(58)], [line(GATSTAF, 1)], sleeves=True, checklists=[isd(DELVER), isd(DELVER)])
    report = v.validate(data)
    assert report.codes == ["checklist_partial"]
    assert "Gatstaf Shepherd // Gatstaf Howler" in report.errors[0]["cards"]


def test_r9_sideboard_dfcs_need_representation_too():
    data = deck([fill(60)], [line(GATSTAF, 2)])
    assert codes(data) == ["dfc_needs_sleeves_or_checklist"]


@pytest.mark.parametrize(
    "card,is_dfc", [(DELVER, True), (EMERIA, True), (AKKI, False)], ids=["transform", "modal DFC", "flip card"]
)
def test_only_double_faced_cards_need_sleeves_or_checklists(card, is_dfc):
    data = deck([line(card, 1), fill(59)])
    assert codes(data) == (["dfc_needs_sleeves_or_checklist"] if is_dfc else [])
    assert v.validate(data).summary["dfcs"] == (1 if is_dfc else 0)


def test_r11_substitute_card_by_shared_name_uses_an_equivalent_card():
    """The nine SZNR substitute cards share a name; any of them stands for a ZNR DFC."""
    use = ChecklistUse("Double-Faced Substitute Card", SZNR + (SKHM,), (Mark("Emeria's Call", EMERIA),))
    assert codes(deck([line(EMERIA, 1), line(PLAINS, 59)], checklists=[use])) == []


def test_r11_mtr_3_5_a_substitute_card_stands_for_a_dfc_of_any_set():
    """MTR 3.5: write-in substitute cards (ZNR onward) stand for whichever DFC is written on
    them, from any set (a Kaldheim substitute for a Zendikar Rising DFC)."""
    use = ChecklistUse("Double-Faced Substitute Card (SKHM 1)", (SKHM,), (Mark("Emeria's Call", EMERIA),))
    assert codes(deck([line(EMERIA, 1), line(PLAINS, 59)], checklists=[use])) == []
    # An Innistrad DFC too: no substitute of that set lists it.
    use = ChecklistUse("Double-Faced Substitute Card (SKHM 1)", (SKHM,), (Mark("Delver of Secrets", DELVER),))
    assert codes(deck([line(DELVER, 1), fill(59)], checklists=[use])) == []


def test_r11_mtr_3_5_a_substitute_card_still_stands_only_for_a_dfc():
    for mark in (Mark("Think Twice", THINK), Mark("Akki Lavarunner", AKKI), Mark("Not A Card", None)):
        use = ChecklistUse("Double-Faced Substitute Card (SKHM 1)", (SKHM,), (mark,))
        report = v.validate(deck([line(EMERIA, 1), line(PLAINS, 59)], sleeves=True, checklists=[use]))
        assert report.codes[0] == "checklist_not_listed"
        assert "MTR 3.5" in report.errors[0]["message"]


def test_r11_mtr_3_5_an_older_checklist_card_lists_only_its_printed_cards():
    data = deck([line(EMERIA, 1), line(PLAINS, 59)], sleeves=True, checklists=[isd(EMERIA)])
    assert codes(data) == ["checklist_not_listed"]


def test_r10_substitute_card_must_say_which_dfc():
    use = ChecklistUse("Double-Faced Substitute Card", SZNR, ())
    assert codes(deck([line(EMERIA, 1), line(PLAINS, 59)], sleeves=True, checklists=[use])) == ["checklist_no_mark"]


def test_a_faulty_checklist_card_is_reported_once_at_its_cause():
    """An unmarked checklist card is the problem; the DFC is then also unrepresented (R9)."""
    data = deck([line(DELVER, 1), fill(59)], checklists=[isd()])
    assert codes(data) == ["checklist_no_mark", "dfc_needs_sleeves_or_checklist"]
    # A card marked twice still stands for one of the DFCs it names: no second error.
    data = deck([line(DELVER, 1), fill(59)], checklists=[isd(DELVER, GATSTAF)])
    assert codes(data) == ["checklist_multiple_marks"]


def test_summary():
    report = v.validate(
        deck(BASE, [line(NEGATE, 3)], sleeves=True, checklists=[isd(DELVER), isd(DELVER), isd(GATSTAF)])
    )
    assert report.summary == {"main": 60, "sideboard": 3, "commander": 0, "dfcs": 3, "checklist_cards": 3}
    assert report.as_dict()["valid"] is True


# --- R13: what the deck box holds ------------------------------------------------------------


def test_r13_checklist_cards_replace_represented_dfcs_in_the_deck():
    data = deck(
        [line(DELVER, 2), line(GATSTAF, 1), fill(57)],
        sleeves=True,
        checklists=[isd(DELVER), isd(DELVER)],
        policy=v.POLICY_PER_NAME,
    )
    physical = v.physical_deck(data)
    assert ("Delver of Secrets // Insectile Aberration", 2) in physical["set_aside"]
    assert all(name != "Delver of Secrets // Insectile Aberration" for name, _ in physical["main"])
    assert ("Gatstaf Shepherd // Gatstaf Howler", 1) in physical["main"]  # sleeved, stays in the deck
    assert physical["checklist_cards"] == [("Innistrad Checklist (TISD 13)", "Delver of Secrets")] * 2
    assert sum(c for _, c in physical["main"]) + len(physical["checklist_cards"]) == 60


# --- the core stays plain Python ---------------------------------------------------------------


def test_core_imports_no_django():
    code = (
        "import sys; import decks.validation, decks.parsers; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework')]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=str(Path(__file__).resolve().parents[3]))


# --- every problem says which zone it is in (issue 27) -------------------------------------

ZONE_CASES = [
    # (label, deck, code, zones, message start)
    (
        "R9 sideboard DFC",
        deck([fill(60)], [line(GATSTAF, 2)]),
        "dfc_needs_sleeves_or_checklist",
        ["sideboard"],
        "Sideboard: ",
    ),
    (
        "R12 partial over both zones",
        deck([line(DELVER, 2), fill(58)], [line(DELVER, 1)], checklists=[isd(DELVER), isd(DELVER)]),
        "checklist_partial",
        ["main", "sideboard"],
        "Main deck and sideboard: ",
    ),
    ("main deck too small", deck([fill(59)]), "deck_too_small", ["main"], "Main deck: "),
    (
        "sideboard too large",
        deck([fill(60)], [line(THINK, 4), fill(12)]),
        "sideboard_too_large",
        ["sideboard"],
        "Sideboard: ",
    ),
    (
        "copies over both zones",
        deck([line(THINK, 4), fill(56)], [line(THINK, 1)]),
        "too_many_copies",
        ["main", "sideboard"],
        "Main deck and sideboard: ",
    ),
    ("unknown name", deck([fill(60)], [Line("Nonesuch", 1, None)]), "unknown_card", ["sideboard"], "Sideboard: "),
    (
        "R11 checklist card for a sideboard DFC",
        deck([fill(60)], [line(EMERIA, 1)], checklists=[isd(EMERIA)]),
        "checklist_not_listed",
        ["sideboard"],
        "Sideboard: ",
    ),
    (
        "checklist card for a card not in the deck",
        deck([fill(60)], checklists=[isd(DELVER)]),
        "checklist_mismatch",
        ["checklist_cards"],
        "Checklist cards: ",
    ),
]


@pytest.mark.parametrize("label,data,code,zones,start", ZONE_CASES, ids=[c[0] for c in ZONE_CASES])
def test_every_deck_problem_names_its_zone(label, data, code, zones, start):
    """R9, R12: a problem says where it is (main deck, sideboard), so a player knows where to look."""
    error = next(e for e in v.validate(data).errors if e["code"] == code)
    assert error["zones"] == zones
    assert error["message"].startswith(start), error["message"]


def test_r12_a_problem_counts_the_copies_in_each_zone():
    data = deck([line(DELVER, 2), fill(58)], [line(DELVER, 1)])
    error = v.validate(data).errors[0]
    assert error["by_zone"] == {"main": 2, "sideboard": 1}


def test_r9_r12_dfc_copies_are_what_the_check_counts():
    """The helper fills in exactly the copies the check counts: both zones, not a Commander sideboard."""
    data = deck([line(DELVER, 2), fill(58)], [line(DELVER, 1), line(GATSTAF, 2), line(THINK, 1)])
    assert v.dfc_copies(data) == {1: (DELVER, {"main": 2, "sideboard": 1}), 2: (GATSTAF, {"sideboard": 2})}
    commander = deck([line(DELVER, 1), fill(98)], [line(GATSTAF, 1)], fmt=v.COMMANDER, commander=[line(ALANDRA, 1)])
    assert v.dfc_copies(commander) == {1: (DELVER, {"main": 1})}
