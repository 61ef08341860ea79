"""The rules desk page melds Bruna, the Fading Light with Gisela, the Broken Blade: the partner
field, the result, the shareable URL (followed), the refusals and the example link."""

from html import unescape
from urllib.parse import parse_qs, urlparse

import pytest

pytestmark = pytest.mark.django_db

URL = "/rules/"
MELD = "meld:partner=Gisela, the Broken Blade"
GISELA = "Gisela, the Broken Blade // Brisela, Voice of Nightmares"


def page(client, **query):
    response = client.get(URL, query)
    return response, unescape(response.content.decode())


def test_the_desk_offers_the_meld_action_with_a_partner_field(client, meld_catalogue):
    response, html = page(client, card="Bruna, the Fading Light", zone="battlefield")
    assert response.status_code == 200
    assert '<button type="submit" class="button" name="add" value="meld">Meld with the partner</button>' in html
    assert '<label for="param-partner">Meld partner (a card name)</label>' in html
    assert 'id="param-partner" name="partner" list="rules-card-names"' in html
    assert '<select id="param-partner_zone" name="partner_zone">' in html


def test_the_page_shows_brisela_and_both_cards_leaving(client, meld_catalogue):
    response, html = page(client, card="Bruna, the Fading Light", zone="battlefield", a=[MELD, "move:to=graveyard"])
    assert response.status_code == 200
    steps = response.context["steps"]
    melded, gone = steps[1], steps[2]
    assert melded["outcome"] == "ok"
    assert melded["state"]["characteristics"]["name"] == "Brisela, Voice of Nightmares"
    assert ("Mana value", "11", None) in melded["rows"]  # CR 712.4: 7 + 4
    assert ("Name", "Brisela, Voice of Nightmares", None) in melded["rows"]
    assert f"melded with {GISELA}: one permanent, two cards" in melded["status"]
    assert f"Now on the battlefield, back face up, melded with {GISELA}: one permanent, two cards." in html
    assert gone["also_text"] == [f"{GISELA} went too: it is in the graveyard."]
    assert f"{GISELA} went too: it is in the graveyard." in html
    assert ("Name", "Bruna, the Fading Light", None) in gone["rows"]
    assert "Meld partner (a card name): " + GISELA in html  # the step's parameter, as the card found


def test_adding_a_meld_step_round_trips_through_the_shareable_url(client, meld_catalogue):
    response = client.get(
        URL,
        {
            "card": "Bruna, the Fading Light",
            "zone": "battlefield",
            "add": "meld",
            "partner": "  Gisela, the Broken Blade ",
            "partner_zone": "",
            "to": "graveyard",  # another action's control: not part of the meld
        },
    )
    assert response.status_code == 302
    location = response["Location"]
    assert parse_qs(urlparse(location).query)["a"] == [MELD]
    followed = client.get(location)
    assert followed.status_code == 200
    steps = followed.context["steps"]
    assert steps[-1]["state"]["melded_with"] == GISELA
    # The page's own link to the sequence gives the same steps again.
    share = followed.context["share_url"]
    assert parse_qs(urlparse(share).query)["a"] == [MELD]
    again = client.get(share)
    assert [s["state"] for s in again.context["steps"]] == [s["state"] for s in steps]
    # A further step keeps the meld (and its comma-holding card name) intact.
    more = client.get(location + "&add=move&to=exile")
    query = parse_qs(urlparse(more["Location"]).query)
    assert query["a"] == [MELD, "move:to=exile"]
    final = client.get(more["Location"]).context["steps"][-1]
    assert final["state"]["zone"] == "exile" and final["also"][0]["zone"] == "exile"


def test_the_partner_zone_round_trips_and_a_partner_away_is_refused(client, meld_catalogue):
    response = client.get(
        URL,
        {
            "card": "Bruna, the Fading Light",
            "zone": "battlefield",
            "add": "meld",
            "partner": "Gisela, the Broken Blade",
            "partner_zone": "graveyard",
        },
    )
    action = parse_qs(urlparse(response["Location"]).query)["a"]
    assert action == ["meld:partner=Gisela, the Broken Blade,partner_zone=graveyard"]
    followed = client.get(response["Location"])
    html = unescape(followed.content.decode())
    step = followed.context["steps"][1]
    assert step["outcome"] == "illegal"
    assert step["reason"].startswith("CR 701.42: both cards must be on the battlefield to meld")
    assert "Not allowed" in html and "Gisela, the Broken Blade is in the graveyard" in html


def test_two_cards_that_do_not_meld_together_are_refused_on_the_page(client, meld_catalogue):
    response, html = page(
        client, card="Bruna, the Fading Light", zone="battlefield", a=["meld:partner=Midnight Scavengers"]
    )
    assert response.status_code == 200
    assert "CR 701.42: Bruna, the Fading Light and Midnight Scavengers do not meld together" in html
    assert "Nothing happens" in html
    assert response.context["steps"][1]["state"]["melded_with"] is None


def test_a_meld_without_a_partner_is_a_400_naming_it(client, meld_catalogue):
    response, html = page(client, card="Bruna, the Fading Light", zone="battlefield", a=["meld"])
    assert response.status_code == 400
    assert "meld needs 'partner'" in html


def test_an_unknown_partner_suggests_cards_for_that_step(client, meld_catalogue):
    response, html = page(
        client, card="Bruna, the Fading Light", zone="battlefield", a=["tap", "meld:partner=Gisela, the Broken Bladd"]
    )
    assert response.status_code == 200
    assert "No card is called “Gisela, the Broken Bladd”." in html
    suggestion = next(s for s in response.context["suggestions"] if "Gisela" in s["name"])
    query = parse_qs(urlparse(suggestion["url"]).query)
    assert query["card"] == ["Bruna, the Fading Light"]  # the card stays; the partner is fixed
    assert query["a"] == ["tap", f"meld:partner={suggestion['name']}"]
    followed = client.get(suggestion["url"])
    assert followed.context["steps"][-1]["state"]["characteristics"]["name"] == "Brisela, Voice of Nightmares"


def test_the_meld_example_link_works_on_the_bundled_data(client, empty_catalogue):
    """The empty desk's example, followed, on the Eldritch Moon file ``make demo`` imports."""
    from cards.services import BUNDLED_DATA_DIR, import_card_file

    import_card_file(BUNDLED_DATA_DIR / "mtgjson" / "EMN.json.gz")
    response, html = page(client)
    link = next(
        href
        for href in (part.split('"', 1)[0] for part in html.split('href="')[1:])
        if "Bruna" in href and "meld" in href
    )
    followed = client.get(link)
    assert followed.status_code == 200
    steps = followed.context["steps"]
    assert [s["action"] for s in steps] == ["start", "meld", "move"]
    assert steps[1]["state"]["characteristics"]["name"] == "Brisela, Voice of Nightmares"
    assert steps[1]["state"]["characteristics"]["mana_value"] == 11
    assert steps[2]["state"]["zone"] == "graveyard" and steps[2]["also"][0]["zone"] == "graveyard"


@pytest.mark.parametrize(
    "accept, melded, went",
    [
        ("pt-br", "fundida com", "foi junto: está no cemitério."),
        ("es", "fusionado con", "también se fue: está en el cementerio."),
        ("it", "fuso con", "è andata: è nel cimitero."),
        ("ru", "слит с", "тоже ушла: она на кладбище."),
    ],
)
def test_the_meld_words_are_translated(client, meld_catalogue, accept, melded, went):
    response = client.get(
        URL,
        {"card": "Bruna, the Fading Light", "zone": "battlefield", "a": [MELD, "move:to=graveyard"]},
        HTTP_ACCEPT_LANGUAGE=accept,
    )
    html = unescape(response.content.decode())
    assert melded in html and went in html
    assert "Meld with the partner" not in html and "Meld partner (a card name)" not in html
