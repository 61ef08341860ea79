"""The rules desk page: a sequence in the URL, rendered on the server."""

from urllib.parse import parse_qs, urlparse

import pytest

pytestmark = pytest.mark.django_db

URL = "/rules/"


def test_empty_desk(client):
    response = client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Rules desk" in html
    assert 'for="rules-card"' in html and 'for="rules-zone"' in html
    assert 'list="rules-card-names"' in html


def test_renders_a_sequence_from_the_url(client, seed_catalogue):
    response = client.get(
        URL,
        {
            "card": "Experiment Twelve",
            "zone": "hand",
            "a": ["cast:face_down=disguise", "resolve", "turn_face_up:via=disguise"],
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Experiment Twelve" in html
    assert "Its controller sees (R20)" in html  # the face-down steps show both views
    assert "Opponents see" in html
    assert "(no name)" in html
    assert "face down (Disguise)" in html
    assert "Turn face up" in html and "paid {4}{G}" in html
    steps = response.context["steps"]
    assert [s["action"] for s in steps] == ["start", "cast", "resolve", "turn_face_up"]
    assert steps[-1]["state"]["characteristics"]["name"] == "Experiment Twelve"


def test_shows_the_cited_rule(client, seed_catalogue):
    response = client.get(URL, {"card": "Sejiri Shelter", "zone": "hand", "a": ["play_land:face=back", "transform"]})
    html = response.content.decode()
    assert "R35: modal double-faced cards can&#x27;t transform" in html
    assert "Nothing happens" in html


def test_same_result_as_the_api(client, api_client, seed_catalogue):
    page = client.get(URL, {"card": "Akki Lavarunner", "a": ["cast", "resolve", "flip"]})
    api = api_client.post(
        "/api/rules/simulate",
        {
            "card": "Akki Lavarunner",
            "zone": "hand",
            "actions": [{"action": "cast"}, {"action": "resolve"}, {"action": "flip"}],
        },
        format="json",
    )
    page_states = [s["state"] for s in page.context["steps"]]
    assert page_states == [s["state"] for s in api.json()["steps"]]


def test_add_a_step_redirects_to_the_shareable_url(client, seed_catalogue):
    response = client.get(
        URL,
        {
            "card": "Gatstaf Shepherd",
            "zone": "graveyard",
            "a": ["put_onto_battlefield"],
            "add": "move",
            "to": "exile",
            "via": "disguise",
            "transformed": "true",
        },
    )
    assert response.status_code == 302
    query = parse_qs(urlparse(response["Location"]).query)
    assert query["a"] == ["put_onto_battlefield", "move:to=exile"]
    assert query["card"] == ["Gatstaf Shepherd"] and query["zone"] == ["graveyard"]
    response = client.get(
        URL, {"card": "Gatstaf Shepherd", "add": "put_onto_battlefield", "transformed": "true", "face": ""}
    )
    query = parse_qs(urlparse(response["Location"]).query)
    assert query["a"] == ["put_onto_battlefield:transformed=true"]


def test_transformed_flag_from_the_url(client, seed_catalogue):
    response = client.get(URL, {"card": "Gatstaf Shepherd", "a": ["put_onto_battlefield:transformed=true"]})
    assert response.context["steps"][-1]["state"]["characteristics"]["name"] == "Gatstaf Howler"


def test_unknown_card_suggests_names(client, seed_catalogue):
    response = client.get(URL, {"card": "Gatstaf Sheperd"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "No card is called" in html and "Gatstaf Shepherd" in html
    assert 'role="alert"' in html


def test_invalid_action_in_the_url(client, seed_catalogue):
    response = client.get(URL, {"card": "Experiment Twelve", "a": ["dance"]})
    assert response.status_code == 400
    assert "unknown action" in response.content.decode()


def test_phone_friendly_markup(client, seed_catalogue):
    html = client.get(URL, {"card": "Experiment Twelve", "a": ["cast"]}).content.decode()
    assert 'name="viewport"' in html
    assert "rules-table-wrap" in html  # tables scroll inside their box at 375 px
    assert '<caption class="visually-hidden">' in html


def test_the_desk_shows_words_for_every_code(client, seed_catalogue):
    """Issue 27: no "Turn face up via: mana_cost", "zone: hand → stack", "cast_face_down" or
    layout "normal" on the page; the same words in the reader's language."""
    query = {"card": "Experiment Twelve", "zone": "hand", "a": ["cast:face_down=disguise", "resolve", "turn_face_up"]}
    html = client.get(URL, query).content.decode()
    options = html[html.index('id="param-via"') : html.index("</select>", html.index('id="param-via"'))]
    assert '<option value="mana_cost">Paying its mana cost (a manifested or cloaked creature card)</option>' in options
    assert ">mana_cost<" not in html and ">disguise<" not in html
    assert '<option value="hand" selected>Hand</option>' in html
    assert "(Cast face down with: Disguise)" in html
    assert "Zone: Hand → Stack" in html and "zone: hand" not in html
    assert "Turned face down by: none → Disguise" in html
    assert '<span class="tag">cast face down</span>' in html and "cast_face_down" not in html
    assert '<span class="tag">Normal</span>' in html

    html = client.get(URL, query, HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert '<option value="hand" selected>Mão</option>' in html
    assert "Zona: Mão → Pilha" in html
    assert "conjurada com a face para baixo" in html
