"""POST /api/rules/simulate with the meld action: Bruna, the Fading Light and Gisela, the Broken
Blade become Brisela, Voice of Nightmares (CR 701.42, 712.4), and every way a meld is refused."""

import pytest

pytestmark = pytest.mark.django_db

URL = "/api/rules/simulate"
BRUNA = "Bruna, the Fading Light // Brisela, Voice of Nightmares"
GISELA = "Gisela, the Broken Blade // Brisela, Voice of Nightmares"


def simulate(client, card, actions, zone="battlefield"):
    return client.post(URL, {"card": card, "zone": zone, "actions": actions}, format="json")


def steps_of(response):
    assert response.status_code == 200, response.content
    return response.json()["steps"]


def test_bruna_and_gisela_meld_into_brisela_with_the_fronts_mana_values_added(api_client, meld_catalogue):
    steps = steps_of(
        simulate(api_client, "Bruna, the Fading Light", [{"action": "meld", "partner": "Gisela, the Broken Blade"}])
    )
    meld = steps[1]
    assert meld["action"] == "meld" and meld["outcome"] == "ok" and meld["reason"] is None
    assert meld["params"] == {"partner": GISELA}  # the card it found, by a name that finds it again
    assert {"melded", "exiled:Bruna, the Fading Light", "exiled:Gisela, the Broken Blade"} <= set(meld["events"])
    state = meld["state"]
    assert state["zone"] == "battlefield" and state["face_up"] == "back"
    assert state["melded_with"] == GISELA
    chars = state["characteristics"]
    assert chars["name"] == "Brisela, Voice of Nightmares"
    assert chars["mana_value"] == 11  # CR 712.4: 7 (Bruna) + 4 (Gisela)
    assert chars["mana_cost"] is None
    assert (chars["power"], chars["toughness"]) == ("9", "10")
    assert chars["source"] == "melded"
    assert "melded with: none → " + GISELA in meld["changes"]
    assert meld["also"] == []


def test_the_partner_by_full_name_by_id_and_gisela_melding_bruna(api_client, meld_catalogue):
    gisela = meld_catalogue["Gisela, the Broken Blade"]
    for partner in (GISELA, gisela.pk, str(gisela.pk), "  gisela, the broken blade  "):
        steps = steps_of(simulate(api_client, "Bruna, the Fading Light", [{"action": "meld", "partner": partner}]))
        assert steps[1]["state"]["characteristics"]["mana_value"] == 11, partner
    steps = steps_of(
        simulate(
            api_client,
            "Gisela, the Broken Blade",
            [{"action": "cast"}, {"action": "resolve"}, {"action": "meld", "partner": "Bruna, the Fading Light"}],
            zone="hand",
        )
    )
    assert steps[3]["state"]["characteristics"]["name"] == "Brisela, Voice of Nightmares"
    assert steps[3]["state"]["melded_with"] == BRUNA


@pytest.mark.parametrize("zone", ["graveyard", "exile", "hand", "library"])
def test_when_brisela_leaves_the_battlefield_both_cards_go_to_that_zone(api_client, meld_catalogue, zone):
    steps = steps_of(
        simulate(
            api_client,
            "Bruna, the Fading Light",
            [{"action": "meld", "partner": "Gisela, the Broken Blade"}, {"action": "move", "to": zone}],
        )
    )
    gone = steps[2]
    assert gone["outcome"] == "ok"
    assert gone["state"]["zone"] == zone and gone["state"]["melded_with"] is None
    assert gone["state"]["characteristics"]["name"] == "Bruna, the Fading Light"  # R2: its front
    assert gone["state"]["characteristics"]["mana_value"] == 7
    (partner,) = gone["also"]
    assert partner["name"] == GISELA and partner["zone"] == zone
    assert partner["characteristics"]["name"] == "Gisela, the Broken Blade"
    assert partner["characteristics"]["mana_value"] == 4
    assert f"also_moved_to_{zone}:Gisela, the Broken Blade" in gone["events"]


@pytest.mark.parametrize(
    "card, zone, action, outcome, reason",
    [
        # The meld card without its partner on the battlefield.
        (
            "Bruna, the Fading Light",
            "battlefield",
            {"action": "meld", "partner": "Gisela, the Broken Blade", "partner_zone": "graveyard"},
            "illegal",
            "CR 701.42: both cards must be on the battlefield to meld",
        ),
        (
            "Bruna, the Fading Light",
            "hand",
            {"action": "meld", "partner": "Gisela, the Broken Blade"},
            "illegal",
            "CR 701.42: both cards must be on the battlefield to meld",
        ),
        # Two cards that do not meld together.
        (
            "Bruna, the Fading Light",
            "battlefield",
            {"action": "meld", "partner": "Midnight Scavengers"},
            "no_effect",
            "CR 701.42: Bruna, the Fading Light and Midnight Scavengers do not meld together",
        ),
        (
            "Bruna, the Fading Light",
            "battlefield",
            {"action": "meld", "partner": "Bruna, the Fading Light"},
            "no_effect",
            "CR 701.42: a meld pair is two different cards",
        ),
        (
            "Bruna, the Fading Light",
            "battlefield",
            {"action": "meld", "partner": "Experiment Twelve"},
            "no_effect",
            "CR 701.42: Experiment Twelve is not a meld card",
        ),
        (
            "Experiment Twelve",
            "battlefield",
            {"action": "meld", "partner": "Gisela, the Broken Blade"},
            "no_effect",
            "CR 701.42: Experiment Twelve is not a meld card",
        ),
    ],
)
def test_a_meld_that_cannot_happen_is_refused_with_the_rule(
    api_client, meld_catalogue, seed_catalogue, card, zone, action, outcome, reason
):
    steps = steps_of(simulate(api_client, card, [action], zone=zone))
    refused = steps[1]
    assert refused["outcome"] == outcome
    assert refused["reason"].startswith(reason), refused["reason"]
    assert refused["state"] == steps[0]["state"]  # nothing melded
    assert refused["state"]["melded_with"] is None and refused["events"] == []


def test_a_melded_permanent_does_not_meld_again(api_client, meld_catalogue):
    meld = {"action": "meld", "partner": "Gisela, the Broken Blade"}
    steps = steps_of(simulate(api_client, "Bruna, the Fading Light", [meld, meld]))
    assert steps[2]["outcome"] == "no_effect"
    assert steps[2]["reason"] == "CR 701.42: a melded permanent can't meld again"


def test_the_refusal_is_in_the_readers_language(api_client, meld_catalogue):
    body = {
        "card": "Bruna, the Fading Light",
        "zone": "hand",
        "actions": [{"action": "meld", "partner": "Gisela, the Broken Blade"}],
    }
    response = api_client.post(URL, body, format="json", HTTP_ACCEPT_LANGUAGE="pt-br")
    reason = steps_of(response)[1]["reason"]
    assert reason.startswith("CR 701.42: as duas cartas precisam estar no campo de batalha")
    assert reason.endswith("Bruna, the Fading Light está na mão")


@pytest.mark.parametrize(
    "action, code, field",
    [
        ({"action": "meld"}, "invalid_action", "actions[0].partner"),
        ({"action": "meld", "partner": None}, "invalid_action", "actions[0].partner"),
        ({"action": "meld", "partner": ""}, "invalid_action", "actions[0].partner"),
        ({"action": "meld", "partner": "   "}, "invalid_action", "actions[0].partner"),
        ({"action": "meld", "partner": True}, "invalid_action", "actions[0].partner"),
        ({"action": "meld", "partner": ["Gisela"]}, "invalid_action", "actions[0].partner"),
        ({"action": "meld", "partner": {"name": "Gisela"}}, "invalid_action", "actions[0].partner"),
        ({"action": "meld", "partner": 4.5}, "invalid_action", "actions[0].partner"),
        (
            {"action": "meld", "partner": "Nobody", "partner_zone": "sideboard"},
            "invalid_action",
            "actions[0].partner_zone",
        ),
        ({"action": "meld", "partner": "Nobody", "to": "graveyard"}, "invalid_action", "actions[0].to"),
        ({"action": "cast", "partner": "Gisela, the Broken Blade"}, "invalid_action", "actions[0].partner"),
        ({"action": "meld", "partner": "Gisela, the Broken Bladd"}, "unknown_card", "actions[0].partner"),
        ({"action": "meld", "partner": "x" * 201}, "unknown_card", "actions[0].partner"),
        ({"action": "meld", "partner": 10**30}, "unknown_card", "actions[0].partner"),
        ({"action": "meld", "partner": str(2**63)}, "unknown_card", "actions[0].partner"),
        ({"action": "meld", "partner": "²"}, "unknown_card", "actions[0].partner"),
        ({"action": "meld", "partner": 999_999_999}, "unknown_card", "actions[0].partner"),
    ],
)
def test_bad_partner_input_is_a_400_with_a_code(api_client, meld_catalogue, action, code, field):
    response = simulate(api_client, "Bruna, the Fading Light", [action])
    assert response.status_code == 400, response.content
    error = response.json()["errors"][0]
    assert error["code"] == code and error["field"] == field
    assert error["index"] == 0
    assert error["message"]


def test_an_unknown_partner_gets_suggestions(api_client, meld_catalogue):
    response = simulate(
        api_client, "Bruna, the Fading Light", [{"action": "meld", "partner": "Gisela, the Broken Bladd"}]
    )
    error = response.json()["errors"][0]
    assert "Gisela, the Broken Blade // Brisela, Voice of Nightmares" in error["suggestions"] or any(
        "Gisela" in name for name in error["suggestions"]
    )


def test_a_bad_partner_in_a_later_step_names_that_step(api_client, meld_catalogue):
    response = simulate(
        api_client, "Bruna, the Fading Light", [{"action": "tap"}, {"action": "meld", "partner": "Nobody at all"}]
    )
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == "actions[1].partner" and error["index"] == 1


def test_the_meld_action_is_in_the_openapi_schema(api_client):
    schema = api_client.get("/api/schema/", {"format": "json"}).json()
    components = schema["components"]["schemas"]
    assert "meld" in components["ActionEnum"]["enum"]
    assert {"partner", "partner_zone"} <= set(components["ActionRequest"]["properties"])
    step = components["Step"]["properties"]
    assert "also" in step
    state = components["State"]["properties"]
    assert "melded_with" in state
