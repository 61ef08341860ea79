"""POST /api/rules/simulate: every seed card through the API, errors, and the contract."""

import pytest

pytestmark = pytest.mark.django_db

URL = "/api/rules/simulate"
STATE_KEYS = {"zone", "face_down", "face_down_by", "face_up", "flipped", "tapped", "characteristics"}
CHAR_KEYS = {
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
}


def simulate(client, card, actions, zone="hand", **extra):
    body = {"card": card, "zone": zone, "actions": actions, **extra}
    return client.post(URL, body, format="json")


def steps_of(response):
    assert response.status_code == 200, response.content
    return response.json()["steps"]


def test_disguise_round_trip(api_client, seed_catalogue):
    response = simulate(
        api_client,
        "Experiment Twelve",
        [
            {"action": "cast", "face_down": "disguise"},
            {"action": "resolve"},
            {"action": "turn_face_up", "via": "disguise"},
        ],
    )
    data = response.json()
    steps = steps_of(response)
    assert data["card"]["name"] == "Experiment Twelve"
    assert {"id", "name", "layout", "faces"} <= set(data["card"])
    start = steps[0]
    assert start["action"] == "start" and start["outcome"] == "ok"
    assert start["reason"] is None and start["events"] == []
    for step in steps:
        assert STATE_KEYS <= set(step["state"])
        assert CHAR_KEYS <= set(step["state"]["characteristics"])
    cast = steps[1]["state"]
    assert cast["zone"] == "stack" and cast["face_down"] and cast["face_down_by"] == "disguise"
    assert cast["characteristics"]["name"] is None
    assert cast["characteristics"]["mana_value"] == 0
    assert cast["characteristics"]["ward"] == "{2}"
    assert cast["characteristics"]["colors"] == []
    assert cast["controller_sees"]["name"] == "Experiment Twelve"  # R20
    assert steps[2]["state"]["zone"] == "battlefield"
    assert "enters_battlefield" in steps[2]["events"]
    up = steps[3]
    assert up["outcome"] == "ok" and "turned_face_up" in up["events"]
    assert "enters_battlefield" not in up["events"]  # R22
    assert up["state"]["characteristics"]["name"] == "Experiment Twelve"
    assert up["state"]["characteristics"]["colors"] == ["G"]
    assert up["state"]["controller_sees"] is None


def test_trailing_slash_is_accepted(api_client, seed_catalogue):
    response = api_client.post(URL + "/", {"card": "Experiment Twelve", "actions": []}, format="json")
    assert response.status_code == 200
    assert response.json()["steps"][0]["state"]["zone"] == "hand"


def test_gatstaf_transforms_and_keeps_its_front_mana_value(api_client, seed_catalogue):
    steps = steps_of(
        simulate(
            api_client,
            "Gatstaf Howler",
            [{"action": "put_onto_battlefield"}, {"action": "transform"}, {"action": "move", "to": "graveyard"}],
        )
    )
    howler = steps[2]["state"]
    assert howler["face_up"] == "back"
    assert howler["characteristics"]["name"] == "Gatstaf Howler"
    assert howler["characteristics"]["mana_value"] == 2  # R3
    assert howler["characteristics"]["mana_cost"] is None
    assert steps[3]["state"]["characteristics"]["name"] == "Gatstaf Shepherd"  # R2
    assert steps[3]["state"]["face_up"] == "front"


def test_sejiri_glacier_is_played_and_cannot_transform(api_client, seed_catalogue):
    steps = steps_of(
        simulate(
            api_client,
            "sejiri glacier",
            [
                {"action": "cast", "face": "back"},
                {"action": "play_land", "face": "back"},
                {"action": "transform"},
                {"action": "move", "to": "graveyard"},
            ],
        )
    )
    assert steps[1]["outcome"] == "illegal" and steps[1]["reason"].startswith("R32")
    assert steps[2]["outcome"] == "ok"
    assert steps[2]["state"]["characteristics"]["card_types"] == ["Land"]
    assert steps[2]["state"]["characteristics"]["mana_value"] == 0
    assert steps[3]["outcome"] == "no_effect"
    assert steps[3]["reason"] == "R35: modal double-faced cards can't transform"
    graveyard = steps[4]["state"]["characteristics"]
    assert graveyard["name"] == "Sejiri Shelter" and graveyard["mana_value"] == 2  # R34, R36


def test_akki_flips_once(api_client, seed_catalogue):
    steps = steps_of(
        simulate(
            api_client,
            "Akki Lavarunner",
            [
                {"action": "cast"},
                {"action": "resolve"},
                {"action": "flip"},
                {"action": "flip"},
                {"action": "move", "to": "hand"},
            ],
        )
    )
    flipped = steps[3]["state"]
    assert flipped["flipped"] is True
    assert flipped["characteristics"]["name"] == "Tok-Tok, Volcano Born"
    assert flipped["characteristics"]["supertypes"] == ["Legendary"]
    assert flipped["characteristics"]["mana_cost"] == "{3}{R}"  # R42
    assert steps[4]["outcome"] == "no_effect" and steps[4]["reason"].startswith("R44")
    assert steps[5]["state"]["flipped"] is False  # R44: forgotten
    assert steps[5]["state"]["characteristics"]["name"] == "Akki Lavarunner"


def test_manifest_dread_card_manifested_and_turned_up(api_client, seed_catalogue):
    steps = steps_of(
        simulate(
            api_client,
            "Hauntwoods Shrieker",
            [{"action": "manifest"}, {"action": "turn_face_up", "via": "mana_cost"}],
            zone="library",
        )
    )
    manifested = steps[1]["state"]
    assert manifested["face_down_by"] == "manifest"
    assert manifested["characteristics"]["ward"] is None
    assert manifested["characteristics"]["power"] == "2"
    assert "paid:{1}{G}{G}" in steps[2]["events"]
    assert steps[2]["state"]["characteristics"]["name"] == "Hauntwoods Shrieker"


def test_card_by_id(api_client, seed_catalogue):
    card = seed_catalogue["Experiment Twelve"]
    response = simulate(api_client, str(card.pk), [])
    assert response.json()["card"]["id"] == card.pk


def test_illegal_step_then_next_action_applies_to_unchanged_state(api_client, seed_catalogue):
    steps = steps_of(
        simulate(
            api_client,
            "Experiment Twelve",
            [
                {"action": "cast", "face_down": "disguise"},
                {"action": "turn_face_up", "via": "disguise"},  # R19: a face-down spell
                {"action": "resolve"},
            ],
        )
    )
    assert steps[2]["outcome"] == "illegal" and steps[2]["reason"].startswith("R19")
    assert steps[2]["state"] == steps[1]["state"]
    assert steps[3]["outcome"] == "ok"
    assert steps[3]["state"]["zone"] == "battlefield" and steps[3]["state"]["face_down"]


def test_unknown_card_has_suggestions(api_client, seed_catalogue):
    response = simulate(api_client, "Gatstaf Sheperd", [])
    assert response.status_code == 400
    body = response.json()
    assert body["errors"][0]["code"] == "unknown_card"
    assert "Gatstaf Shepherd" in body["errors"][0]["suggestions"]
    assert body["detail"]


@pytest.mark.parametrize(
    "actions",
    [
        [{"action": "dance"}],
        [{"action": "cast", "colour": "blue"}],
        [{"action": "cast", "face_down": "manifest"}],
        [{"action": "move"}],
        [{"action": "move", "to": "sideboard"}],
        [{"action": "put_onto_battlefield", "transformed": "yes"}],
        ["cast"],
        {"action": "cast"},
    ],
)
def test_invalid_action(api_client, seed_catalogue, actions):
    response = simulate(api_client, "Experiment Twelve", actions)
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid_action"


def test_invalid_zone_and_unknown_field(api_client, seed_catalogue):
    response = simulate(api_client, "Experiment Twelve", [], zone="sideboard")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid_action"
    response = simulate(api_client, "Experiment Twelve", [], player="me")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid_action"


def test_too_many_actions(api_client, seed_catalogue):
    response = simulate(api_client, "Experiment Twelve", [{"action": "tap"}] * 51)
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["code"] == "too_many_actions" and error["limit"] == 50
    assert simulate(api_client, "Experiment Twelve", [{"action": "tap"}] * 50).status_code == 200


def test_malformed_json_is_a_400(api_client, seed_catalogue):
    response = api_client.post(URL, "{not json", content_type="application/json")
    assert response.status_code == 400


def test_in_the_openapi_schema(api_client):
    response = api_client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = response.json()
    operation = schema["paths"]["/api/rules/simulate"]["post"]
    assert "requestBody" in operation and "200" in operation["responses"]
