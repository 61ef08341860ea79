"""Downloading a registered deck, a pool and the organiser's zip: the files their clients read,
what our own importers read back, and who may download what (hidden information)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile
from io import BytesIO

import pytest

from decks import services
from drafts.models import Pod
from tests.decks.api.test_registration import BUILD, draft_pile
from tests.decks.conftest import login, make_event

pytestmark = pytest.mark.django_db

CHECKLISTS = "Innistrad Checklist: Delver of Secrets\nInnistrad Checklist: Gatstaf Shepherd\n"


@pytest.fixture
def built(catalogue, users):
    """Alice's ISD pile and a 40-card deck registered from it with checklist cards (R9)."""
    event, regs = make_event(users, deck_format="limited", name="ISD draft")
    event.set_codes = ["ISD"]
    event.save()
    pod = draft_pile(event, regs["alice"])
    deck, _ = services.register_deck(
        event_id=event.pk,
        actor=users["alice"],
        main=BUILD,
        checklist_cards=services.read_checklist_lines(CHECKLISTS),
    )
    return event, regs, pod, deck


def download(client, url, **query):
    response = client.get(url, query)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Disposition"].startswith("attachment; filename=")
    return response.content.decode()


def test_arena_export_names_the_dfc_front_with_set_and_number(built, users):
    event, regs, pod, deck = built
    text = download(login(users["alice"]), f"/decks/{deck.pk}/export/", format="arena")
    lines = text.splitlines()
    assert lines[0] == "Deck"
    assert "1 Delver of Secrets (ISD) 51" in lines and "1 Gatstaf Shepherd (ISD) 182" in lines
    assert "1 Moon Heron (ISD) 69" in lines
    assert "Insectile Aberration" not in text and "Checklist" not in text  # checklist cards stay physical
    assert "Sideboard" in lines and any(line.startswith("1 Naturalize (ISD) ") for line in lines)


def test_the_deck_page_links_to_the_downloads(built, users):
    event, regs, pod, deck = built
    client = login(users["alice"])
    html = client.get(f"/decks/{deck.pk}/").content.decode()
    href = f"/decks/{deck.pk}/export/?format=dek"
    assert f'href="{href}"' in html
    root = ET.fromstring(client.get(href).content)
    names = {c.get("Name"): c.get("Sideboard") for c in root.iter("Cards")}
    assert names["Delver of Secrets"] == "false" and names["Naturalize"] == "true"


@pytest.mark.parametrize("fmt", ["arena", "dek", "txt"])
def test_what_we_export_we_import_back_to_the_same_deck(built, users, fmt):
    event, regs, pod, deck = built
    text = download(login(users["alice"]), f"/decks/{deck.pk}/export/", format=fmt)
    sections = services.decklist_entries(services.read_decklist(text))
    again, report = services.register_deck(
        event_id=event.pk,
        actor=users["alice"],
        main=sections["main"],
        sideboard=sections["sideboard"],
        checklist_cards=deck.checklist_cards,
    )

    def counts(rows):
        return sorted((r["card_id"], r["name"], r["count"]) for r in rows)

    assert counts(again.main) == counts(deck.main) and counts(again.sideboard) == counts(deck.sideboard)
    assert again.valid == deck.valid


def test_cockatrice_file(built, users):
    event, regs, pod, deck = built
    root = ET.fromstring(download(login(users["alice"]), f"/decks/{deck.pk}/export/", format="cod"))
    main = {c.get("name"): int(c.get("number")) for c in root.find("zone[@name='main']")}
    assert sum(main.values()) == 40 and main["Delver of Secrets"] == 1 and main["Island"] == 12


def test_pool_export_is_the_whole_pile(built, users):
    event, regs, pod, deck = built
    client = login(users["alice"])
    html = client.get(f"/decks/events/{event.pk}/").content.decode()
    assert f'href="/decks/events/{event.pk}/pool/export/?format=txt"' in html
    text = download(client, f"/decks/events/{event.pk}/pool/export/", format="txt")
    parsed = services.read_decklist(text)
    assert sum(c for _, c in parsed.main) == pod.cards.count() and not parsed.sideboard
    assert "1 Delver of Secrets // Insectile Aberration" in text.splitlines()


def test_an_unknown_format_is_a_400_with_a_code(built, users):
    event, regs, pod, deck = built
    response = login(users["alice"]).get(f"/decks/{deck.pk}/export/", {"format": "xmage"})
    assert response.status_code == 400 and response["X-Error-Code"] == "unknown_export_format"
    response = login(users["alice"]).get(f"/decks/events/{event.pk}/pool/export/", {"format": "<x>"})
    assert response.status_code == 400 and b"unknown_export_format" in response.content


def test_no_export_shows_a_deck_or_pool_to_another_player_before_publication(built, users):
    event, regs, pod, deck = built
    bob = login(users["bob"])
    assert bob.get(f"/decks/{deck.pk}/export/", {"format": "txt"}).status_code == 403
    pool = f"/decks/events/{event.pk}/pool/export/"
    assert bob.get(pool, {"registration": regs["alice"].pk}).status_code == 403
    assert login(None).get(f"/decks/{deck.pk}/export/").status_code == 403
    # Bob has no pool of his own: nothing of Alice's comes back.
    response = bob.get(pool)
    assert response.status_code == 404 and b"Delver" not in response.content
    # The judge may, and once decklists are published anyone may see the deck (not the pool).
    assert login(users["judge"]).get(pool, {"registration": regs["alice"].pk}).status_code == 200
    event.decklists_published = True
    event.save()
    assert "Delver of Secrets" in download(bob, f"/decks/{deck.pk}/export/", format="txt")
    assert bob.get(pool, {"registration": regs["alice"].pk}).status_code == 403


def test_a_pool_is_not_exported_while_the_draft_runs(built, users):
    event, regs, pod, deck = built
    Pod.objects.filter(pk=pod.pk).update(state="drafting")
    response = login(users["alice"]).get(f"/decks/events/{event.pk}/pool/export/", {"format": "arena"})
    assert response.status_code == 409 and response["X-Error-Code"] == "pool_not_ready"
    assert b"Delver" not in response.content


def test_the_organiser_downloads_every_pool_and_deck_as_one_zip(built, users):
    event, regs, pod, deck = built
    html = login(users["org"]).get(f"/decks/events/{event.pk}/judge/").content.decode()
    assert f'href="/decks/events/{event.pk}/exports.zip"' in html
    response = login(users["org"]).get(f"/decks/events/{event.pk}/exports.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    with zipfile.ZipFile(BytesIO(response.content)) as archive:
        names = archive.namelist()
        folder = "pod-1/seat-1-alice"
        assert {
            f"{folder}/{stem}.{ext}"
            for stem in ("deck", "pool")
            for ext in ("arena.txt", "dek", "mtgo.txt", "cod", "txt")
        } == set(names)  # Bob and Carol have neither a seat nor a deck
        assert "1 Delver of Secrets (ISD) 51" in archive.read(f"{folder}/deck.arena.txt").decode()
    one_pod = login(users["org"]).get(f"/decks/events/{event.pk}/exports.zip", {"pod": pod.pk})
    assert one_pod.status_code == 200 and one_pod.content == response.content
    bad = login(users["org"]).get(f"/decks/events/{event.pk}/exports.zip", {"pod": "999999"})
    assert bad.status_code == 400 and bad["X-Error-Code"] == "unknown_pod"
    # Judges check decks but do not take every list home; players never.
    assert login(users["judge"]).get(f"/decks/events/{event.pk}/exports.zip").status_code == 403
    assert login(users["alice"]).get(f"/decks/events/{event.pk}/exports.zip").status_code == 403


def test_the_zip_leaves_out_the_pools_of_a_pod_still_drafting(built, users):
    event, regs, pod, deck = built
    Pod.objects.filter(pk=pod.pk).update(state="drafting")
    response = login(users["org"]).get(f"/decks/events/{event.pk}/exports.zip")
    with zipfile.ZipFile(BytesIO(response.content)) as archive:
        assert not [n for n in archive.namelist() if "/pool." in n]
