"""Naming, playable faces, color identity, shared names and manifest dread (R21, R29, R33,
R38-R40, R46), table-driven; each row names its rule."""

import pytest

from cards.rules import (
    GameObject,
    apply,
    characteristics,
    color_identity,
    manifest_dread,
    named_face,
    names_for_naming,
    playable_faces,
    share_name,
)
from tests.cards.rules.seed_cards import (
    AKKI,
    ALRUND,
    BRUNA,
    DELVER,
    EXPERIMENT_TWELVE,
    FOREST,
    GATSTAF,
    HAUNTWOODS,
    KAZANDU,
    MURDER,
    SEJIRI,
    SHOCK,
    WALKING_CORPSE,
)

NAMING = [
    ("R38", GATSTAF, ("Gatstaf Shepherd", "Gatstaf Howler")),
    ("R38", SEJIRI, ("Sejiri Shelter", "Sejiri Glacier")),
    ("R46", AKKI, ("Akki Lavarunner", "Tok-Tok, Volcano Born")),
    ("R40", BRUNA, ("Bruna, the Fading Light", "Brisela, Voice of Nightmares")),
    ("R38", WALKING_CORPSE, ("Walking Corpse",)),
]


@pytest.mark.parametrize("rule,card,names", NAMING, ids=[f"{r}-{c.name}" for r, c, _ in NAMING])
def test_names_for_naming(rule, card, names):
    assert names_for_naming(card) == names


PLAYABLE = [
    ("R33", SEJIRI, "play lands from graveyard", None, ("Sejiri Glacier",)),
    ("R33", SEJIRI, "cast", None, ("Sejiri Shelter",)),
    ("R33", SEJIRI, "play", None, ("Sejiri Shelter", "Sejiri Glacier")),
    ("R33", SEJIRI, "play_lands_and_cast_spells", None, ("Sejiri Shelter", "Sejiri Glacier")),
    ("R32", KAZANDU, "play_lands", None, ("Kazandu Valley",)),
    ("R33", ALRUND, "cast", None, ("Alrund, God of the Cosmos", "Hakka, Whispering Raven")),
    ("R2", GATSTAF, "cast", None, ("Gatstaf Shepherd",)),
    ("R2", GATSTAF, "play_lands", None, ()),
    ("R43", AKKI, "cast", None, ("Akki Lavarunner",)),
    ("R33", FOREST, "cast", None, ()),
    ("R33", FOREST, "play lands", None, ("Forest",)),
    ("R38", SEJIRI, "play", "Sejiri Glacier", ("Sejiri Glacier",)),
    ("R38", SEJIRI, "cast", "Sejiri Glacier", ()),
    ("R38", SEJIRI, "cast", "sejiri shelter", ("Sejiri Shelter",)),
]


@pytest.mark.parametrize(
    "rule,card,permission,named,faces", PLAYABLE, ids=[f"{p[0]}-{p[1].name}-{p[2]}-{p[3]}" for p in PLAYABLE]
)
def test_playable_faces(rule, card, permission, named, faces):
    assert playable_faces(card, permission, named=named) == faces


def test_unknown_permission_is_an_error():
    with pytest.raises(ValueError):
        playable_faces(SEJIRI, "borrow")


def test_named_face_r38():
    assert named_face(SEJIRI, "Sejiri Glacier") == "back"
    assert named_face(SEJIRI, "Sejiri Shelter") == "front"
    assert named_face(SEJIRI, "Sejiri Refuge") is None


IDENTITY = [
    ("R39", SEJIRI, "W"),  # {W} in Sejiri Glacier's rules text
    ("R39", GATSTAF, "G"),
    ("R39", DELVER, "U"),  # mana cost and the back face's color indicator
    ("R39", FOREST, "G"),  # basic land type (its mana ability is reminder text)
    ("R40", EXPERIMENT_TWELVE, "G"),  # reminder text ({3}, ward {2}) adds nothing
    ("R39", AKKI, "R"),
    ("R39", WALKING_CORPSE, "B"),
]


@pytest.mark.parametrize("rule,card,identity", IDENTITY, ids=[f"{r}-{c.name}" for r, c, _ in IDENTITY])
def test_color_identity(rule, card, identity):
    assert color_identity(card) == identity


def test_r40_reminder_text_about_the_other_face_changes_nothing():
    # Bruna's "(Melds with Gisela, the Broken Blade.)" doesn't make Gisela a name of Bruna.
    assert "Gisela, the Broken Blade" not in names_for_naming(BRUNA)
    assert color_identity(BRUNA) == "W"


def test_r21_face_down_creatures_never_share_a_name():
    a = apply(GameObject(card=EXPERIMENT_TWELVE, zone="library"), "manifest").state
    b = apply(GameObject(card=EXPERIMENT_TWELVE, zone="library"), "cloak").state
    assert characteristics(a).name is None
    assert not share_name(a, b)
    assert not share_name(a, a)
    face_up = GameObject(card=EXPERIMENT_TWELVE, zone="battlefield")
    assert share_name(face_up, GameObject(card=EXPERIMENT_TWELVE, zone="hand"))
    assert not share_name(a, face_up)


DREAD = [
    (
        "R29",
        "two cards: manifest one, the other to the graveyard",
        [HAUNTWOODS, MURDER, SHOCK],
        0,
        "Hauntwoods Shrieker",
        ("Murder",),
        ("Shock",),
    ),
    ("R29", "choose the second card", [HAUNTWOODS, MURDER, SHOCK], 1, "Murder", ("Hauntwoods Shrieker",), ("Shock",)),
    ("R29", "one card: manifest it, no choice", [MURDER], 1, "Murder", (), ()),
    ("R29", "no card: nothing happens", [], 0, None, (), ()),
]


@pytest.mark.parametrize(
    "rule,title,library,choose,manifested,graveyard,rest", DREAD, ids=[f"{d[0]}-{d[1]}" for d in DREAD]
)
def test_manifest_dread(rule, title, library, choose, manifested, graveyard, rest):
    result = manifest_dread(library, choose=choose)
    # "Whenever you manifest dread" triggers even if some or all of it couldn't be done.
    assert "manifested_dread" in result.events
    if manifested is None:
        assert result.manifested is None
    else:
        obj = result.manifested
        assert obj.card.name == manifested
        assert obj.zone == "battlefield" and obj.face_down and obj.face_down_by == "manifest"
        assert characteristics(obj).name is None and characteristics(obj).ward is None
    assert tuple(o.card.name for o in result.to_graveyard) == graveyard
    assert all(o.zone == "graveyard" and not o.face_down for o in result.to_graveyard)
    assert tuple(c.name for c in result.library) == rest
    assert len(result.looked_at) == min(2, len(library))


def test_r29_the_manifested_card_can_be_turned_up_if_its_a_creature_card():
    result = manifest_dread([HAUNTWOODS, MURDER])
    up = apply(result.manifested, "turn_face_up", via="mana_cost")
    assert up.outcome == "ok"
    assert characteristics(up.state).name == "Hauntwoods Shrieker"


RULES = {row[0] for table in (NAMING, PLAYABLE, IDENTITY, DREAD) for row in table} | {"R21"}
