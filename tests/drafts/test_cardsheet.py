"""The card sheet of an event (drafts/cardsheet.py) and its views (drafts/views/cardsheet.py).

A page loads its event's sheet once, from an immutable URL, and looks the cards of pushed card
rows up in it. The sheet holds what a draft of the event *can* contain, never what its packs
do contain (R16: that would tell a player which single-faced cards other seats hold).
"""

from __future__ import annotations

import gzip
import json

import orjson
import pytest
from django.core.cache import cache

from cards.images import site_uris
from cards.models import Card, LocalizedName, Printing
from cards.services import BUNDLED_DATA_DIR, import_card_file
from drafts import cardinfo, cardsheet, services
from drafts.models import DraftCard, Pack, Seat
from events import services as event_services
from events.access import SYSTEM
from tests.drafts.conftest import T0, make_pod

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_sheets():
    """Each test starts with no built sheet, stamp or card payload (rows change per test)."""
    cardsheet.clear()
    cache.delete(cardsheet._STAMP_KEY)
    cardinfo.clear()
    yield
    cardsheet.clear()
    cardinfo.clear()


def isd_event(name="Innistrad night"):
    return services.create_event(name=name, date=T0.date(), set_codes=["ISD", "ISD", "ISD"], pick_timer=False)


def start_isd_pod(event, seed=4):
    regs = [event_services.register_player(event_id=event.pk, name=f"P{i}", actor=SYSTEM) for i in range(8)]
    (pod,) = services.seat_players(event_id=event.pk, seed=seed, pods=[[r.pk for r in regs]], actor=SYSTEM)
    services.start_pod(pod_id=pod.pk, now=T0, actor=SYSTEM)
    return pod


def pick_round(pod):
    """Every seat picks the top card of its first pack once."""
    for seat in Seat.objects.filter(pod=pod).order_by("position"):
        pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
        if pack is not None:
            card = DraftCard.objects.in_pack(pack).first()
            services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, now=T0, actor=SYSTEM)


def fetch(client, url, **headers):
    response = client.get(url, **headers)
    assert response.status_code == 200, response.content[:300]
    return response


# --- what a sheet holds ------------------------------------------------------------------------


def test_a_booster_sheet_has_every_card_of_the_set_and_nothing_else(client):
    event = isd_event()
    isd_cards = set(Printing.objects.filter(card_set__code="ISD", in_boosters=True).values_list("card_id", flat=True))
    other = Card.objects.get(name="Sejiri Shelter // Sejiri Glacier")  # ZNR, not ISD

    assert len(isd_cards) > 250
    assert cardsheet.sheet_card_ids(event) == isd_cards
    sheet = fetch(client, cardsheet.sheet_url(event, "en")).json()

    assert {int(k) for k in sheet["cards"]} == isd_cards
    assert str(other.pk) not in sheet["cards"]
    isd_printings = set(Printing.objects.filter(card_set__code="ISD", in_boosters=True).values_list("pk", flat=True))
    assert {int(k) for k in sheet["printings"]} == isd_printings
    # Every card's default printing is one of the sheet's.
    assert all(str(c["printing"]) in sheet["printings"] for c in sheet["cards"].values())

    delver = Card.objects.get(name="Delver of Secrets // Insectile Aberration")
    entry = sheet["cards"][str(delver.pk)]
    assert entry["is_dfc"] is True and entry["layout"] == "transform"
    assert entry["color_identity"] == ["U"]
    assert [f["name"] for f in entry["faces"]] == ["Delver of Secrets", "Insectile Aberration"]
    assert entry["faces"][0]["mana_cost"] == "{U}"
    assert entry["faces"][0]["type_line"].startswith("Creature")
    assert entry["faces"][1]["colors"] == ["U"]
    assert set(entry["faces"][0]) == {
        "name",
        "local_name",
        "mana_cost",
        "type_line",
        "oracle_text",
        "power",
        "toughness",
        "loyalty",
        "colors",
    }
    assert entry["local_name"] == "" and entry["faces"][0]["local_name"] == ""  # English: no printed name
    printing = Printing.objects.filter(card=delver, card_set__code="ISD").first()
    # the site's own copies of the images (cards/images.py), never the image host's links
    site = site_uris(printing.pk, printing.image_uris)
    assert sheet["printings"][str(printing.pk)]["front"] == site.get("front", "")
    assert sheet["printings"][str(printing.pk)]["back"] == site.get("back", "")


def test_the_sheet_covers_every_card_the_packs_open(client):
    event = isd_event()
    pod = start_isd_pod(event)
    sheet = fetch(client, cardsheet.sheet_url(event, "en")).json()
    opened = list(DraftCard.objects.filter(pod=pod).values_list("card_id", "printing_id"))
    assert len(opened) == 24 * 14
    assert {str(card_id) for card_id, _ in opened} <= set(sheet["cards"])
    assert {str(p) for _, p in opened if p} <= set(sheet["printings"])


def test_a_sheet_in_another_language_carries_the_printed_names(client):
    event = isd_event()
    row = LocalizedName.objects.filter(language="pt-br", card__printings__card_set__code="ISD", position=0).first()
    assert row is not None
    sheet = fetch(client, cardsheet.sheet_url(event, "pt-br")).json()
    entry = sheet["cards"][str(row.card_id)]
    assert entry["faces"][0]["local_name"] == row.name
    assert entry["local_name"].split(" // ")[0] == row.name
    assert cardsheet.sheet_url(event, "pt-br") != cardsheet.sheet_url(event, "en")


def test_the_sheet_does_not_depend_on_the_packs_opened_or_picked(client):
    """R16: nothing about the packs reaches the sheet, before or after they open."""
    event = isd_event()
    url = cardsheet.sheet_url(event, "en")
    before = fetch(client, url).content

    pod = start_isd_pod(event, seed=4)
    pick_round(pod)
    pick_round(pod)
    cardsheet._sheets.clear()  # build again from the database, not from the bytes kept

    assert cardsheet.sheet_url(event, "en") == url
    assert fetch(client, url).content == before
    # Another event of the same sets, with other packs, has the very same sheet.
    other = isd_event("Another night")
    start_isd_pod(other, seed=99)
    cardsheet._sheets.clear()
    assert cardsheet.sheet_digest(other, "en") == cardsheet.sheet_digest(event, "en")
    assert fetch(client, cardsheet.sheet_url(other, "en")).content == before


def test_a_cube_sheet_is_the_cube_list_whatever_was_dealt(client, organiser, players, cube_names):
    pod = make_pod(organiser, players[:4], cube_names)  # 4 seats x 45 cards: half the cube dealt
    event = pod.event
    dealt = set(DraftCard.objects.filter(pod=pod).values_list("card_id", flat=True))
    assert len(dealt) == 180

    sheet = fetch(client, cardsheet.sheet_url(event, "en")).json()
    assert {int(k) for k in sheet["cards"]} == set(event.cube_card_ids)
    assert len(sheet["cards"]) == 360
    first = sheet["cards"][str(event.cube_card_ids[0])]
    assert first["faces"][0]["type_line"] == "Creature — Test"
    assert first["printing"] is None  # made-up cards have no printing
    pick_round(pod)
    cardsheet._sheets.clear()
    assert fetch(client, cardsheet.sheet_url(event, "en")).json() == sheet


# --- the sheet's URL and HTTP caching ----------------------------------------------------------


def test_the_sheet_is_immutable_with_an_etag_and_answers_304(client):
    event = isd_event()
    url = cardsheet.sheet_url(event, "en")
    digest = cardsheet.sheet_digest(event, "en")
    assert url == f"/events/{event.pk}/cards/{digest}.en.json"

    response = fetch(client, url)  # anonymous: the catalogue is public
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response["ETag"] == f'"{digest}"'
    assert "Accept-Encoding" in response["Vary"]
    assert "Content-Encoding" not in response

    again = client.get(url, HTTP_IF_NONE_MATCH=f'"{digest}"')
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == f'"{digest}"' and again["Cache-Control"] == response["Cache-Control"]
    assert client.get(url, HTTP_IF_NONE_MATCH='"someotherdigest"').status_code == 200


def test_the_sheet_is_gzipped_when_the_client_accepts_it(client):
    event = isd_event()
    url = cardsheet.sheet_url(event, "en")
    plain = fetch(client, url)

    zipped = fetch(client, url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert zipped["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.content) == plain.content
    assert len(zipped.content) * 3 < len(plain.content)
    assert int(zipped["Content-Length"]) == len(zipped.content)
    digest = cardsheet.sheet_digest(event, "en")
    # The compressed copy's ETag still answers 304.
    assert client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=zipped["ETag"]).status_code == 304
    assert zipped["ETag"].startswith(f'"{digest}')

    refused = fetch(client, url, HTTP_ACCEPT_ENCODING="gzip;q=0, identity")
    assert "Content-Encoding" not in refused and refused.content == plain.content


def test_the_sheet_is_built_once_per_process(client, django_assert_max_num_queries):
    event = isd_event()
    url = cardsheet.sheet_url(event, "en")
    fetch(client, url)
    # Afterwards a load costs the event look-up only (the stamp is kept a few seconds).
    with django_assert_max_num_queries(1):
        fetch(client, url)


def test_a_stale_digest_redirects_to_the_current_sheet(client):
    event = isd_event()
    current = cardsheet.sheet_url(event, "it")
    response = client.get(f"/events/{event.pk}/cards/0123456789abcdef.it.json")
    assert response.status_code == 302
    assert response["Location"] == current
    assert "immutable" not in response.get("Cache-Control", "") and "no-store" in response["Cache-Control"]

    followed = client.get(f"/events/{event.pk}/cards/0123456789abcdef.it.json", follow=True)
    assert followed.status_code == 200
    assert followed.redirect_chain == [(current, 302)]
    assert set(followed.json()) == {"cards", "printings"}


def test_unknown_events_and_languages_are_404s(client):
    event = isd_event()
    digest = cardsheet.sheet_digest(event, "en")
    for url, code in (
        (f"/events/{event.pk + 1000}/cards/{digest}.en.json", "unknown_event"),
        (f"/events/{10**30}/cards/{digest}.en.json", "unknown_event"),
        (f"/events/{event.pk}/cards/{digest}.de.json", "unsupported_language"),
        (f"/events/{event.pk}/cards/{digest}.xx.json", "unsupported_language"),
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert [e["code"] for e in response.json()["errors"]] == [code]


def test_a_catalogue_import_changes_the_url(client, tmp_path):
    event = isd_event()
    old = cardsheet.sheet_url(event, "en")
    record = json.load(gzip.open(BUNDLED_DATA_DIR / "scryfall/isd.json.gz"))[0]
    card = Card.objects.filter(printings__card_set__code="ISD").exclude(name=record["name"]).order_by("pk").first()
    fetch(client, old)
    Card.objects.filter(pk=card.pk).update(name="Renamed in the catalogue")
    assert cardsheet.sheet_url(event, "en") == old  # no import yet: the same sheet

    path = tmp_path / "one.json"
    path.write_text(json.dumps([record]))
    import_card_file(path)

    new = cardsheet.sheet_url(event, "en")
    assert new != old
    redirected = client.get(old)
    assert redirected.status_code == 302 and redirected["Location"] == new
    assert fetch(client, new).json()["cards"][str(card.pk)]["name"] == "Renamed in the catalogue"


def test_another_process_import_reaches_this_one_through_the_shared_stamp(client):
    event = isd_event()
    old = cardsheet.sheet_url(event, "en")
    cache.set(cardsheet._STAMP_KEY, "set-by-another-process", timeout=None)
    cardsheet._stamp = None  # this process's few seconds are up
    assert cardsheet.sheet_url(event, "en") != old


# --- the batch look-up ---------------------------------------------------------------------------


def test_the_batch_look_up_answers_the_sheet_shape(client):
    delver = Card.objects.get(name="Delver of Secrets // Insectile Aberration")
    shelter = Card.objects.get(name="Sejiri Shelter // Sejiri Glacier")
    response = client.get(f"/events/cards/?ids={delver.pk},{shelter.pk},999999999")
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, max-age=300"
    body = response.json()
    assert set(body["cards"]) == {str(delver.pk), str(shelter.pk)}  # the unknown id is absent
    assert body["cards"][str(shelter.pk)]["layout"] == "modal_dfc"
    for entry in body["cards"].values():
        assert str(entry["printing"]) in body["printings"]


def test_the_batch_look_up_takes_printings_and_the_language(client):
    row = LocalizedName.objects.filter(language="ru", position=0, card__printings__card_set__code="ZNR").first()
    printing = Printing.objects.filter(card_id=row.card_id, card_set__code="ZNR").exclude(image_uris={}).first()
    response = client.get(f"/events/cards/?printings={printing.pk}", HTTP_ACCEPT_LANGUAGE="ru")
    body = response.json()
    assert body["printings"][str(printing.pk)]["front"] == site_uris(printing.pk, printing.image_uris)["front"]
    assert str(printing.card_id) in body["cards"]
    assert body["cards"][str(printing.card_id)]["faces"][0]["local_name"] == row.name
    assert response["Content-Language"] == "ru"


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("ids=abc", "invalid_card_ids"),
        (f"ids={10**30}", "invalid_card_ids"),
        ("ids=1,-2", "invalid_card_ids"),
        ("ids=0", "invalid_card_ids"),
        ("ids=1.5", "invalid_card_ids"),
        ("ids=%EF%BC%91", "invalid_card_ids"),  # a full-width digit is not an id
        ("printings=x", "invalid_card_ids"),
        ("ids=" + ",".join(str(i) for i in range(1, 502)), "too_many_card_ids"),
        (
            "ids=" + ",".join(map(str, range(1, 301))) + "&printings=" + ",".join(map(str, range(1, 202))),
            "too_many_card_ids",
        ),
        ("ids=", "no_card_ids"),
        ("ids=,,", "no_card_ids"),
        ("", "no_card_ids"),
    ],
)
def test_bad_batch_input_is_a_400_with_a_code(client, query, code):
    response = client.get(f"/events/cards/?{query}")
    assert response.status_code == 400
    body = orjson.loads(response.content)
    codes = [e["code"] for e in body["errors"]]
    assert codes == [code]
    assert body["detail"] == body["errors"][0]["message"]


def test_500_ids_are_fine(client):
    response = client.get("/events/cards/?ids=" + ",".join(str(i) for i in range(1, 501)))
    assert response.status_code == 200
