"""Every export of a finished ISD, ZNR and MID draft, read by parsers other people wrote: the
counts they read are the counts the site shows.

Parsers (pinned test dependencies in requirements.txt): ``mtg_parser`` reads the MTG Arena
text, ``mtgdeck`` reads Cockatrice's .cod and MTGO's text list, ``spells-mtg`` reads 17lands
draft files. No parser of MTGO's .dek or draft log is published on PyPI: those are checked
against files MTGO wrote (tests/decks/test_real_formats.py) and here for their counts and ids.

The drafts are real: simulate_draft opens each set's MTGJSON boosters and automatic drafters
pick every card; the event stores ``set_codes`` as real events do (one code per round), with
the other two sets loaded in the catalogue, so reprints (Delver of Secrets in ISD and MID, the
basic lands everywhere) have printings the Arena export must not prefer.
"""

from __future__ import annotations

import gzip
import json
import re
import xml.etree.ElementTree as ET
from collections import Counter

import mtg_parser
import mtgdeck
import pytest
from django.core.management import call_command
from django.db import transaction

from cards.models import CardSet, Printing
from decks import exporting, selectors, services
from drafts.models import Pick, Seat
from drafts.simulation import simulate_draft
from events.models import Registration, StaffRole
from tests.decks.conftest import DATA, T0, login
from tests.decks.test_real_formats import attribute_names, lines, real
from tests.factories import EventStaffFactory

pytestmark = pytest.mark.django_db

SETS = ["ISD", "ZNR", "MID"]
BASICS = {"ISD": ("Island", "Swamp"), "ZNR": ("Mountain", "Forest"), "MID": ("Plains", "Island")}


@pytest.fixture(scope="module")
def three_sets(catalogue, django_db_blocker):
    """ISD and ZNR are in the seed; MID is imported for this module inside a transaction that
    its tests run within (each in its own savepoint) and that is rolled back after them: MID's
    import also updates the cards it reprints, and other modules must find them as they were."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        if not CardSet.objects.filter(code="MID").exists():
            call_command("import_cards", str(DATA / "mtgjson" / "MID.json.gz"), "--quiet")
        assert CardSet.objects.filter(code__in=SETS).count() == 3
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture(params=SETS)
def finished(request, three_sets, users):
    """A finished 8-seat draft of one set; Alice (seat 1) registered a 40-card deck from her
    pool with the rest as sideboard; decklists published; Alice and Bob share their picks."""
    code = request.param
    report = simulate_draft(set_code=code, players=8, seed=11, now=T0)
    seats = list(Seat.objects.filter(pod_id=report.pod_id).select_related("pod__event").order_by("position"))
    event = seats[0].pod.event
    event.set_codes = [code, code, code]  # what a real event stores
    event.save()
    for seat, who in zip(seats, ("alice", "bob")):
        Registration.objects.filter(pk=seat.registration_id).update(user=users[who], name=who, share_pick_data=True)
    EventStaffFactory(event=event, user=users["org"], role=StaffRole.ORGANISER)
    alice = Registration.objects.get(pk=seats[0].registration_id)
    pool = selectors.pool_view(selectors.pool_for(alice)[1])
    copies = [row["name"] for row in pool for _ in range(row["count"])]
    main = Counter(copies[:23])
    side = Counter(copies[23:])
    first, second = BASICS[code]
    deck, _report = services.register_deck(
        event_id=event.pk,
        actor=users["alice"],
        main=[{"name": n, "count": c} for n, c in main.items()]
        + [{"name": first, "count": 9}, {"name": second, "count": 8}],
        sideboard=[{"name": n, "count": c} for n, c in side.items()],
        opaque_sleeves=True,
    )
    event.decklists_published = True
    event.save()
    return code, event, seats, deck


def shown(rows: list[dict], naming) -> Counter:
    """What the site lists for a section, by the name a client uses."""
    names = naming({row["card_id"] for row in rows})
    counts: Counter = Counter()
    for row in rows:
        counts[names[row["card_id"]]] += row["count"]
    return counts


def download(user, url, fmt):
    response = login(user).get(url, {"format": fmt})
    assert response.status_code == 200, response.content[:300]
    return response.content.decode("utf-8")


def test_mtg_parser_reads_the_arena_deck_and_pool_with_the_events_own_printings(finished, users):
    code, event, seats, deck = finished
    text = download(users["alice"], f"/decks/{deck.pk}/export/", "arena")
    cards = list(mtg_parser.parse_deck(text))
    read: Counter = Counter()
    for card in cards:
        read[card.name] += card.quantity
    # mtg_parser reads "Deck" and "Sideboard" as headers, not cards: every card line, once.
    assert read == shown(deck.main, exporting.client_names) + shown(deck.sideboard, exporting.client_names)
    assert sum(read.values()) == 40 + sum(r["count"] for r in deck.sideboard)
    # The event's own printing, though ISD, ZNR and MID all print the basics (and MID Delver).
    assert {card.extension for card in cards} == {code}
    for card in cards:
        assert Printing.objects.filter(
            card__faces__position=0, card__faces__name=card.name, card_set__code=code, collector_number=card.number
        ).exists(), card

    pool_text = download(users["alice"], f"/decks/events/{event.pk}/pool/export/", "arena")
    pool = list(mtg_parser.parse_deck(pool_text))
    assert sum(c.quantity for c in pool) == Pick.objects.filter(seat=seats[0]).count() == 42
    assert {c.extension for c in pool} == {code}


def test_mtgdeck_reads_the_cockatrice_file_and_the_mtgo_text_list(finished, users):
    code, event, seats, deck = finished
    cod = mtgdeck.loads(download(users["alice"], f"/decks/{deck.pk}/export/", "cod"), cls=mtgdeck.CockatriceDecoder)
    zones: dict[str, Counter] = {"main": Counter(), "side": Counter()}
    for name, attrs in cod:
        zones[attrs["section"]][name] += attrs["count"]
    assert zones["main"] == shown(deck.main, exporting.client_names)
    assert zones["side"] == shown(deck.sideboard, exporting.client_names)

    mtgo = mtgdeck.loads(download(users["alice"], f"/decks/{deck.pk}/export/", "mtgo"), cls=mtgdeck.MagicOnlineDecoder)
    sections: dict[str, Counter] = {"main": Counter(), "Sideboard": Counter()}
    for name, attrs in mtgo:
        sections[attrs.get("section", "main")][name] += attrs["count"]
    assert sections["main"] == shown(deck.main, exporting.mtgo_names) and sum(sections["main"].values()) == 40
    assert sections["Sideboard"] == shown(deck.sideboard, exporting.mtgo_names)


def test_the_dek_names_each_cards_mtgo_catid_in_mtgos_layout(finished, users):
    code, event, seats, deck = finished
    text = download(users["alice"], f"/decks/{deck.pk}/export/", "dek")
    ours, sample = lines(text), lines(real("mtgo_pauper_2017.dek"))
    assert ours[:4] == sample[:4] and text.endswith("</Deck>\r\n")
    root = ET.fromstring(text)
    sides: dict[str, Counter] = {"false": Counter(), "true": Counter()}
    for line, element in zip([line for line in ours if "<Cards" in line], root.iter("Cards")):
        assert attribute_names(line) == ["CatID", "Quantity", "Sideboard", "Name", "Annotation"]
        sides[element.get("Sideboard")][element.get("Name")] += int(element.get("Quantity"))
        # The CatID is MTGO's id of the card's printing in the event's set (MTGJSON's mtgoId).
        ids = set(
            Printing.objects.filter(
                card__faces__position=0, card__faces__name=element.get("Name"), card_set__code=code
            ).values_list("mtgo_id", flat=True)
        )
        assert int(element.get("CatID")) in ids, element.attrib
    assert sides["false"] == shown(deck.main, exporting.mtgo_names)
    assert sides["true"] == shown(deck.sideboard, exporting.mtgo_names)


TIME = re.compile(r"^Time:    ([1-9]\d?)/([1-9]\d?)/(\d{4}) ([1-9]\d?):(\d\d):(\d\d) (AM|PM)$")


def test_the_draft_log_has_mtgos_layout_and_every_pick_the_site_shows(finished, users):
    code, event, seats, deck = finished
    response = login(users["alice"]).get(f"/decks/drafts/{seats[0].pk}/mtgo.txt")
    raw = response.content.decode("utf-8")
    assert raw.count("\r\n") == raw.count("\n")  # CRLF line ends throughout
    text = lines(raw)
    assert text[0].startswith("Event #: ") and TIME.match(text[1]) and text[2] == "Players:"
    players = text[3:11]
    assert [p[:4] for p in players] == ["--> "] + ["    "] * 7 and players[0] == "--> alice"
    assert text[11] == ""
    assert [line for line in text if line.startswith("------")] == [f"------ {code} ------ "] * 3
    stored = list(Pick.objects.filter(seat=seats[0]).order_by("round", "pick_number"))
    heads = [i for i, line in enumerate(text) if re.match(r"^Pack \d pick \d+:$", line)]
    assert len(heads) == len(stored) == 42
    for i, pick in zip(heads, stored):
        assert text[i] == f"Pack {pick.round} pick {pick.pick_number}:"
        block = text[i + 1 : text.index("", i)]
        assert len(block) == len(pick.pack_contents)  # the whole pack as the seat saw it
        assert sum(line.startswith("--> ") for line in block) == 1
        assert all(line[:4] in ("--> ", "    ") for line in block)


def test_spells_reads_the_17lands_csv_with_every_pick(finished, users, tmp_path, monkeypatch):
    """spells-mtg's own reader: the CSV goes through its CSV-to-parquet step and its draft view.
    Its card file is built by its own code from MTGJSON; offline, the set's MTGJSON file comes
    from cards/data (the 2022 MTGJSON release predates the booster ``sourceSetCodes`` spells
    reads, so the set's own cards are given, without the booster section)."""
    from spells import cache, cards, external
    from spells.draft_model import draft_from_public_data
    from spells.enums import View

    code, event, seats, deck = finished
    response = login(users["org"]).get(f"/decks/events/{event.pk}/pick-data.csv")
    assert response.status_code == 200
    text = response.content.decode("utf-8")

    monkeypatch.setenv("SPELLS_DATA_HOME", str(tmp_path))
    bundled = json.loads(gzip.decompress((DATA / "mtgjson" / f"{code}.json.gz").read_bytes()))
    bundled["data"].pop("booster", None)
    monkeypatch.setattr(cards, "_fetch_mtg_json", lambda set_code: bundled)
    target = cache.data_file_path(code, View.DRAFT)
    (tmp_path / "external" / code).mkdir(parents=True)
    archive = tmp_path / "external" / code / "draft_data_public.csv.gz"
    archive.write_bytes(gzip.compress(text.encode("utf-8")))
    external._process_zipped_file(str(archive), target)
    assert cards.write_card_file(code) == 0

    draft_ids = sorted({row.split(",")[2] for row in text.splitlines()[1:]})
    assert len(draft_ids) == 2  # Alice and Bob shared their picks
    read = [draft_from_public_data(code, draft_id, card_data=False) for draft_id in draft_ids]
    shared = [seats[0], seats[1]]
    assert sorted(len(d.picks) for d in read) == sorted(Pick.objects.filter(seat=s).count() for s in shared)
    sizes = sorted(sorted(len(p.pack_contents) for p in Pick.objects.filter(seat=s)) for s in shared)
    assert sorted(sorted(len(state.pack_cards) for state in d.picks) for d in read) == sizes
    for d in read:
        assert d.expansion == code and d.event_type == "TournamentDraft"
        assert d.user_n_games_bucket is None and d.user_game_win_rate_bucket is None  # read, and empty
        assert len(d.picks[-1].pool) == len(d.picks) - 1  # the pool before the last pick


def test_a_deck_with_a_card_mtgo_lacks_is_offered_as_mtgo_text_not_dek(catalogue, users):
    """Duskmourn's Bottomless Pool // Locker Room came from a Cockatrice file (no MTGO ids)."""
    from tests.decks.conftest import make_event

    event, regs = make_event(users, deck_format="constructed")
    deck, _ = services.register_deck(
        event_id=event.pk,
        actor=users["alice"],
        main=[{"name": "Bottomless Pool // Locker Room", "count": 4}, {"name": "Island", "count": 56}],
    )
    client = login(users["alice"])
    html = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "format=dek" not in html and "Bottomless Pool" in html and "No MTGO .dek file" in html
    href = re.search(r'href="([^"]*format=mtgo)"', html).group(1).replace("&amp;", "&")
    listed = mtgdeck.loads(client.get(href).content.decode(), cls=mtgdeck.MagicOnlineDecoder)
    assert dict((name, attrs["count"]) for name, attrs in listed) == {"Bottomless Pool/Locker Room": 4, "Island": 56}
    response = client.get(f"/decks/{deck.pk}/export/", {"format": "dek"})
    assert response.status_code == 400 and response["X-Error-Code"] == "no_mtgo_id"
    body = response.json()
    assert body["errors"][0]["cards"] == ["Bottomless Pool/Locker Room"]
    assert body["errors"][0]["alternative"] == "mtgo"


@pytest.mark.parametrize("language", ["pt-br", "es", "it", "ru"])
def test_the_no_dek_note_and_error_are_in_the_readers_language(catalogue, users, language):
    from django.utils import translation

    from tests.decks.conftest import make_event

    event, regs = make_event(users, deck_format="constructed")
    deck, _ = services.register_deck(
        event_id=event.pk, actor=users["alice"], main=[{"name": "Bottomless Pool // Locker Room", "count": 60}]
    )
    client = login(users["alice"])
    html = client.get(f"/decks/{deck.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    body = client.get(f"/decks/{deck.pk}/export/", {"format": "dek"}, HTTP_ACCEPT_LANGUAGE=language).json()
    with translation.override(language):
        note = translation.gettext(
            "No MTGO .dek file for this list: MTGO has no card id for %(cards)s. "
            "Download “MTGO (text)” instead: MTGO imports that list too."
        )
        link = translation.gettext("MTGO (text)")
    assert "No MTGO .dek file" not in html and "MTGO has no card id" not in body["detail"]
    assert link != "MTGO (text)" and link in html
    assert note.split("%(cards)s")[0] in html


def test_a_card_drafted_as_a_foil_has_its_foil_catid_in_the_pool_dek(drafted, users):
    from drafts.models import DraftCard

    event, seats = drafted
    pile = list(DraftCard.objects.filter(pk__in=seats[0].pile_ids).select_related("card"))
    foil = pile[0]
    DraftCard.objects.filter(pk=foil.pk).update(foil=True)
    text = download(users["alice"], f"/decks/events/{event.pk}/pool/export/", "dek")
    lines_of_card = [
        c.attrib
        for c in ET.fromstring(text).iter("Cards")
        if c.get("Name") == exporting.mtgo_names([foil.card_id])[foil.card_id]
    ]
    printing = Printing.objects.get(card_id=foil.card_id, card_set__code="ISD")
    copies = sum(1 for c in pile if c.card_id == foil.card_id)
    expected = {(str(printing.mtgo_foil_id), "1")}
    if copies > 1:
        expected.add((str(printing.mtgo_id), str(copies - 1)))
    assert {(c["CatID"], c["Quantity"]) for c in lines_of_card} == expected
    assert printing.mtgo_foil_id != printing.mtgo_id
