"""Running actions by name: parameter checking, and results that never change on failure."""

import pytest

from cards.rules import ACTIONS, GameObject, InvalidAction, apply, run
from cards.rules.actions import check_params
from tests.cards.rules.seed_cards import EXPERIMENT_TWELVE, SEJIRI


@pytest.mark.parametrize(
    "action,params",
    [
        ("dance", {}),
        ("cast", {"colour": "blue"}),
        ("cast", {"face_down": "manifest"}),
        ("cast", {"face": "left"}),
        ("move", {}),
        ("move", {"to": "sideboard"}),
        ("put_onto_battlefield", {"transformed": "yes"}),
        ("turn_face_up", {"via": "magic"}),
        ("resolve", {"face": "front"}),
    ],
)
def test_invalid_actions_are_rejected(action, params):
    with pytest.raises(InvalidAction):
        apply(GameObject(card=SEJIRI), action, **params)


def test_none_means_not_given():
    assert check_params("cast", {"face": None}) == {}


def test_every_action_has_a_summary():
    assert all(spec.summary for spec in ACTIONS.values())


def test_run_applies_each_step_to_the_previous_state():
    start = GameObject(card=EXPERIMENT_TWELVE, zone="hand")
    results = run(
        start,
        [
            ("cast", {"face_down": "disguise"}),
            ("turn_face_up", {"via": "disguise"}),  # R19: illegal on the stack
            ("resolve", {}),
            ("turn_face_up", {"via": "disguise"}),
        ],
    )
    assert [r.outcome for r in results] == ["ok", "illegal", "ok", "ok"]
    assert results[1].state == results[0].state
    assert results[3].state.zone == "battlefield" and not results[3].state.face_down


def test_game_object_validates_its_fields():
    with pytest.raises(ValueError):
        GameObject(card=SEJIRI, zone="sideboard")
    with pytest.raises(ValueError):
        GameObject(card=EXPERIMENT_TWELVE, face_up="back")
