"""The POST /api/standings/compute contract."""

import pytest

URL = "/api/standings/compute"
EXAMPLE = {
    "players": ["Ana", "Bo", "Cy", "Di"],
    "matches": [
        {"round": 1, "a": "Ana", "b": "Bo", "a_wins": 2, "b_wins": 1, "draws": 0},
        {"round": 1, "a": "Cy", "bye": True},
    ],
    "dropped": {"Di": 1},
}


@pytest.mark.django_db
def test_compute_standings_without_an_account(api_client):
    response = api_client.post(URL, EXAMPLE, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["standings"][0] == {
        "rank": 1,
        "player": "Ana",
        "match_points": 3,
        "record": "1-0-0",
        "omw": 0.33,
        "gw": 0.6667,
        "ogw": 0.3333,
    }
    assert [row["player"] for row in body["standings"]] == ["Ana", "Cy", "Bo", "Di"]  # Di keeps a place
    assert set(body["standings"][3]) == {"rank", "player", "match_points", "record", "omw", "gw", "ogw"}


@pytest.mark.django_db
def test_trailing_slash_works_too(api_client):
    assert api_client.post(URL + "/", EXAMPLE, format="json").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    "bad_match",
    [
        {"round": 1, "a": "Ana", "b": "Nobody", "a_wins": 2, "b_wins": 0, "draws": 0},
        {"round": 1, "a": "Ana", "b": "Bo", "a_wins": 3, "b_wins": 0, "draws": 0},
        {"round": 1, "a": "Ana", "b": "Bo", "a_wins": 2, "b_wins": -1, "draws": 0},
        {"round": 1, "a": "Bo", "b": "Di", "a_wins": 2, "b_wins": 0, "draws": 0},  # Bo twice in round 1
    ],
)
def test_invalid_history_is_a_400_naming_the_match(api_client, bad_match):
    body = {**EXAMPLE, "matches": [*EXAMPLE["matches"], bad_match]}
    response = api_client.post(URL, body, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["code"] == "invalid_history"
    assert error["match"] == bad_match and error["index"] == 2
    assert response.json()["match"] == bad_match


@pytest.mark.django_db
@pytest.mark.parametrize(
    "payload",
    [
        "not json",
        [],
        {"players": "Ana"},
        {"players": ["A", "A"]},
        # Numbers and booleans where lists belong, lists and objects where names belong (found by fuzzing).
        {"players": 7, "matches": []},
        {"players": True, "matches": []},
        {"players": ["Ana", "Bo"], "matches": 7},
        {"players": ["Ana", "Bo"], "matches": False},
        {"players": ["Ana", "Bo"], "matches": [{"round": 1, "a": ["Ana"], "b": "Bo"}]},
        {"players": ["Ana", "Bo"], "matches": [{"round": 1, "a": "Ana", "b": {"name": "Bo"}}]},
        {"players": ["Ana", "Bo"], "matches": [{"round": 1, "a": {}, "bye": True}]},
        {"players": ["Ana", "Bo"], "matches": [{"round": 10**30, "a": "Ana", "b": ["Bo"]}]},
    ],
)
def test_malformed_bodies_are_invalid_history_never_500(api_client, payload):
    if payload == "not json":
        response = api_client.post(URL, "{oops", content_type="application/json")
    else:
        response = api_client.post(URL, payload, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid_history"


@pytest.mark.django_db
def test_the_contract_is_typed_in_the_openapi_schema(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/standings/compute"]["post"]
    assert "200" in operation["responses"] and "400" in operation["responses"]
    ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
    assert "standings" in schema["components"]["schemas"][ref]["properties"]
