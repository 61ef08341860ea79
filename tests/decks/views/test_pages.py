"""Deck pages: register by paste or upload, build from a limited pool, suggested checklist
cards, the printable registration sheet, corrections, sealed pools and the index."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from decks.models import Deck, DeckCorrection, SealedPool
from tests.decks.api.test_registration import POOL, draft_pile
from tests.decks.conftest import make_event, read_fixture

pytestmark = pytest.mark.django_db


def login(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def event(catalogue, users):
    return make_event(users, deck_format="constructed")


def test_register_by_pasting(event, users):
    ev, regs = event
    client = login(users["alice"])
    page = client.get(f"/decks/events/{ev.pk}/")
    html = page.content.decode()
    assert page.status_code == 200 and 'for="id_decklist"' in html and 'for="id_opaque_sleeves"' in html
    response = client.post(f"/decks/events/{ev.pk}/", {"decklist": read_fixture("delver_isd.txt"), "action": "save"})
    assert response.status_code == 302
    deck = Deck.objects.get(registration=regs["alice"])
    assert not deck.valid  # no sleeves, no checklist cards (R9)
    html = client.get(f"/decks/events/{ev.pk}/").content.decode()
    assert 'data-code="dfc_needs_sleeves_or_checklist"' in html and "Delver of Secrets" in html
    # The code is for tools; the reader sees words only (issue 27: no raw code before a problem).
    assert ">dfc_needs_sleeves_or_checklist" not in html and "deck-code" not in html


def test_suggest_checklist_cards_then_save(event, users):
    ev, regs = event
    client = login(users["alice"])
    response = client.post(f"/decks/events/{ev.pk}/", {"decklist": read_fixture("delver_isd.txt"), "action": "suggest"})
    assert response.status_code == 200
    assert not Deck.objects.exists()  # suggesting stores nothing
    assert "4 Innistrad Checklist (TISD 13): Delver of Secrets" in response.content.decode()
    response = client.post(
        f"/decks/events/{ev.pk}/",
        {
            "decklist": read_fixture("delver_isd.txt"),
            "action": "save",
            "checklist_lines": "4 Innistrad Checklist (TISD 13): Delver of Secrets",
        },
    )
    assert response.status_code == 302
    assert Deck.objects.get(registration=regs["alice"]).valid


def test_upload_on_the_page_and_bad_files(event, users):
    ev, regs = event
    client = login(users["bob"])
    ok = client.post(
        f"/decks/events/{ev.pk}/",
        {
            "file": SimpleUploadedFile("wolves.dek", read_fixture("werewolves_isd.dek").encode()),
            "opaque_sleeves": "on",
            "action": "save",
        },
    )
    assert ok.status_code == 302
    assert Deck.objects.get(registration=regs["bob"]).source_format == "mtgo_dek"
    bad = client.post(
        f"/decks/events/{ev.pk}/", {"file": SimpleUploadedFile("x.txt", b"\x00\xffGIF89a"), "action": "save"}
    )
    assert bad.status_code == 400 and "unreadable_file" in bad.content.decode()
    assert Deck.objects.get(registration=regs["bob"]).version == 1


def test_locked_page(event, users):
    ev, regs = event
    ev.decklist_deadline = timezone.now() - dt.timedelta(hours=1)
    ev.save()
    client = login(users["alice"])
    assert "Locked." in client.get(f"/decks/events/{ev.pk}/").content.decode()
    response = client.post(f"/decks/events/{ev.pk}/", {"decklist": "60 Island", "action": "save"})
    assert response.status_code == 409 and not Deck.objects.exists()


def test_not_registered_page(event, users):
    ev, _ = event
    response = login(users["outsider"]).get(f"/decks/events/{ev.pk}/")
    assert response.status_code == 403 and "not registered" in response.content.decode()


def test_limited_builder(catalogue, users):
    ev, regs = make_event(users, deck_format="limited")
    pod = draft_pile(ev, regs["alice"])
    client = login(users["alice"])
    page = client.get(f"/decks/events/{ev.pk}/")
    html = page.content.decode()
    assert page.status_code == 200 and 'name="basic-Island"' in html and "Delver of Secrets" in html
    from drafts.models import DraftCard

    ids = {dc.card.name.split(" // ")[0]: dc.card_id for dc in DraftCard.objects.filter(pod=pod).select_related("card")}
    post = {f"main-{ids[name]}": str(n) for name, n in POOL.items()}  # the whole pool, 26 cards
    post.update({"basic-Island": "8", "basic-Forest": "6", "opaque_sleeves": "on", "action": "save"})
    assert client.post(f"/decks/events/{ev.pk}/", post).status_code == 302
    deck = Deck.objects.get(registration=regs["alice"])
    assert deck.valid and deck.main_count == 40 and deck.sideboard == [] and deck.source_format == "builder"
    post["basic-Island"] = "seven"
    response = client.post(f"/decks/events/{ev.pk}/", post)
    assert response.status_code == 400 and Deck.objects.get(pk=deck.pk).version == 1


def test_sealed_pool_page(catalogue, users):
    ev, regs = make_event(users, deck_format="limited")
    client = login(users["org"])
    assert client.get(f"/decks/events/{ev.pk}/sealed/").status_code == 200
    text = "".join(f"{n} {name}\n" for name, n in POOL.items())
    response = client.post(f"/decks/events/{ev.pk}/sealed/", {"registration": regs["carol"].pk, "pool": text})
    assert response.status_code == 302
    assert SealedPool.objects.get(registration=regs["carol"]).size == sum(POOL.values())
    assert login(users["judge"]).get(f"/decks/events/{ev.pk}/sealed/").status_code == 403


def test_printable_decklist(event, users):
    ev, regs = event
    client = login(users["alice"])
    client.post(
        f"/decks/events/{ev.pk}/",
        {
            "decklist": read_fixture("delver_isd.txt"),
            "action": "save",
            "checklist_lines": "4 Innistrad Checklist: Delver of Secrets",
        },
    )
    deck = Deck.objects.get(registration=regs["alice"])
    html = client.get(f"/decks/{deck.pk}/print/").content.decode()
    for text in (
        "Deck registration sheet",
        "alice",
        ev.name,
        str(ev.date.year),
        "Main deck",
        "Sideboard",
        "Total main deck",
        "4 × Innistrad Checklist (TISD 13), marked “Delver of Secrets // Insectile Aberration”",
        "Snapcaster Mage",
        "Negate",
        "not opaque",
    ):
        assert text in html, text
    css = (settings.BASE_DIR / "static" / "site.css").read_text()
    assert "@media print" in css and ".decklist-sheet" in css


def test_judge_correction_page(event, users):
    ev, regs = event
    login(users["alice"]).post(f"/decks/events/{ev.pk}/", {"decklist": "60 Island", "action": "save"})
    deck = Deck.objects.get(registration=regs["alice"])
    judge = login(users["judge"])
    form = judge.get(f"/decks/{deck.pk}/correct/")
    assert form.status_code == 200 and "60 Island" in form.content.decode()
    missing_reason = judge.post(f"/decks/{deck.pk}/correct/", {"decklist": "61 Island"})
    assert missing_reason.status_code == 400 and not DeckCorrection.objects.exists()
    response = judge.post(f"/decks/{deck.pk}/correct/", {"decklist": "61 Island", "reason": "Miscounted"})
    assert response.status_code == 302
    detail = judge.get(f"/decks/{deck.pk}/").content.decode()
    assert "Miscounted" in detail and "infraction=decklist_problem" in detail
    assert login(users["alice"]).get(f"/decks/{deck.pk}/correct/").status_code == 403


def test_index(event, users):
    ev, _ = event
    assert "Log in" in Client().get("/decks/").content.decode()
    assert ev.name in login(users["alice"]).get("/decks/").content.decode()
    html = login(users["judge"]).get("/decks/").content.decode()
    assert f"/decks/events/{ev.pk}/judge/" in html


def test_an_oversized_paste_shows_the_form_again_with_the_error_and_the_text(event, users):
    """Over the decklist limit but under the body limit: refused before parsing, form kept."""
    from decks import parsers

    ev, regs = event
    client = login(users["alice"])
    text = "4 Island\n" * (parsers.MAX_BYTES // 9 + 10)
    response = client.post(f"/decks/events/{ev.pk}/", {"decklist": text, "action": "save"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "decklists are limited to 256 KB" in html
    assert html.index('role="alert"') < html.index('id="id_decklist"')  # the error is on top
    assert text[:2000] in html and html.count("4 Island") > parsers.MAX_BYTES // 9
    assert not Deck.objects.filter(registration=regs["alice"]).exists()


def test_the_paste_box_is_checked_in_the_browser_before_sending(event, users):
    """The page's script refuses an oversized list before it is sent (2 MB took 8 s to refuse)."""
    from decks import parsers

    ev, _ = event
    html = login(users["alice"]).get(f"/decks/events/{ev.pk}/").content.decode()
    assert f'data-max-bytes="{parsers.MAX_BYTES}"' in html
    script = html.split("js/size_limit.js")[0].rsplit('src="', 1)[1] + "js/size_limit.js"
    response = login(users["alice"]).get(script)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert response.status_code == 200 and b"preventDefault" in body and b"data-max-bytes" in body


def test_a_body_over_the_site_limit_shows_a_signed_in_413_that_sends_the_player_back(event, users, settings):
    ev, regs = event
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100_000
    client = login(users["alice"])
    response = client.post(f"/decks/events/{ev.pk}/", {"decklist": "4 Island\n" * 50_000, "action": "save"})
    assert response.status_code == 413
    html = response.content.decode()
    assert users["alice"].username in html and "Log out" in html  # still signed in
    assert "history.back()" in html and "Nothing was saved" in html
    assert not Deck.objects.filter(registration=regs["alice"]).exists()


def test_the_last_saved_time_is_not_followed_by_a_second_period(event, users):
    import re

    ev, regs = event
    client = login(users["alice"])
    client.post(f"/decks/events/{ev.pk}/", {"decklist": read_fixture("delver_isd.txt"), "action": "save"})
    Deck.objects.filter(registration=regs["alice"]).update(updated_at=dt.datetime(2026, 11, 29, 14, 46, tzinfo=dt.UTC))
    html = client.get(f"/decks/events/{ev.pk}/").content.decode()
    assert "2:46 p.m." in html
    assert not re.search(r"[ap]\.m\.\.", html)


def test_suggested_checklist_cards_cover_the_sideboard_and_save_valid(event, users):
    """R9: all DFCs or none, over the whole deck and sideboard; the helper's list must validate."""
    ev, regs = event
    client = login(users["alice"])
    decklist = read_fixture("delver_isd.txt") + "2 Civilized Scholar\n"  # a DFC in the sideboard only
    response = client.post(f"/decks/events/{ev.pk}/", {"decklist": decklist, "action": "suggest"})
    assert response.status_code == 200
    lines = response.context["form"].data["checklist_lines"]
    assert "Delver of Secrets" in lines and "Civilized Scholar" in lines
    assert sum(int(line.split()[0]) for line in lines.splitlines() if line.strip()) == 6
    saved = client.post(
        f"/decks/events/{ev.pk}/", {"decklist": decklist, "action": "save", "checklist_lines": lines}, follow=True
    )
    assert saved.status_code == 200
    deck = Deck.objects.get(registration=regs["alice"])
    assert deck.valid, (deck.check_errors, lines)


def test_r9_r11_the_helper_offers_a_substitute_card_where_no_checklist_card_lists_the_dfc(event, users):
    """MTR 3.5: a write-in substitute card stands for a DFC of any set; the helper uses one for a
    DFC no card lists (here a Zendikar Rising DFC in the sideboard), and the list saves valid."""
    from cards.models import ChecklistEntry

    ChecklistEntry.objects.filter(card__name__startswith="Emeria's Call").delete()  # no card lists it
    ev, regs = event
    client = login(users["alice"])
    decklist = read_fixture("delver_isd.txt") + "1 Emeria's Call\n"
    response = client.post(f"/decks/events/{ev.pk}/", {"decklist": decklist, "action": "suggest"})
    lines = response.context["form"].data["checklist_lines"]
    assert "Innistrad Checklist (TISD 13): Delver of Secrets" in lines
    assert "Substitute Card" in lines and ": Emeria's Call" in lines
    client.post(f"/decks/events/{ev.pk}/", {"decklist": decklist, "action": "save", "checklist_lines": lines})
    deck = Deck.objects.get(registration=regs["alice"])
    assert deck.valid, (deck.check_errors, lines)


def test_r9_the_helper_covers_a_limited_decks_sideboard_from_the_pool(catalogue, users):
    """A limited deck's sideboard is the rest of its pool: the helper covers its DFCs too."""
    from drafts.models import DraftCard

    ev, regs = make_event(users, deck_format="limited")
    pod = draft_pile(ev, regs["alice"])
    client = login(users["alice"])
    ids = {dc.card.name.split(" // ")[0]: dc.card_id for dc in DraftCard.objects.filter(pod=pod).select_related("card")}
    post = {f"main-{ids[name]}": str(n) for name, n in POOL.items() if name != "Gatstaf Shepherd"}
    post.update({"basic-Island": "9", "basic-Forest": "6", "action": "suggest"})
    lines = client.post(f"/decks/events/{ev.pk}/", post).context["form"].data["checklist_lines"]
    assert "Delver of Secrets" in lines and "Gatstaf Shepherd" in lines  # Gatstaf: in the sideboard
    post.update({"action": "save", "checklist_lines": lines})
    assert client.post(f"/decks/events/{ev.pk}/", post).status_code == 302
    deck = Deck.objects.get(registration=regs["alice"])
    assert deck.valid, (deck.check_errors, lines)
    assert any("Gatstaf" in row["name"] for row in deck.sideboard)


def test_r12_with_no_card_for_some_dfc_the_helper_fills_in_none_and_names_the_zone(event, users):
    """All or none (R12): without any substitute card, a DFC no checklist card lists cannot be
    represented, so the helper fills in nothing (a partial list would fail) and says where it is."""
    from cards.models import ChecklistCard

    ChecklistCard.objects.filter(kind="substitute").delete()
    ChecklistCard.objects.filter(entries__card__name__startswith="Emeria's Call").delete()
    ev, _regs = event
    client = login(users["alice"])
    decklist = read_fixture("delver_isd.txt") + "1 Emeria's Call\n"
    response = client.post(f"/decks/events/{ev.pk}/", {"decklist": decklist, "action": "suggest"})
    assert response.context["form"].data["checklist_lines"] == ""
    import html as html_module

    html = html_module.unescape(response.content.decode())
    assert "Emeria's Call // Emeria, Shattered Skyclave (sideboard)" in html and "opaque" in html


def test_deck_problems_name_their_zone_in_the_readers_language(event, users):
    ev, regs = event
    client = login(users["alice"])
    client.post(
        f"/decks/events/{ev.pk}/",
        {"decklist": read_fixture("delver_isd.txt") + "2 Civilized Scholar\n", "action": "save"},
    )
    deck = Deck.objects.get(registration=regs["alice"])
    scholar = next(e for e in deck.check_errors if "Civilized Scholar" in e["message"])
    assert scholar["zones"] == ["sideboard"] and scholar["message"].startswith("Sideboard: ")
    from django.utils import translation

    with translation.override("es"):
        localized = next(e for e in deck.localized_errors if "Civilized Scholar" in e["message"])
    assert localized["message"].startswith("Banquillo: "), localized["message"]


def test_every_date_of_the_printed_sheet_has_one_format_in_pt_br(event, users):
    """Issue 27: the sheet had the event's date in the language's format and two ISO times."""
    from tests.date_formats import PT_BR_DATE, other_date_forms, times

    ev, regs = event
    login(users["alice"]).post(
        f"/decks/events/{ev.pk}/", {"decklist": read_fixture("delver_isd.txt"), "action": "save"}
    )
    deck = Deck.objects.get(registration=regs["alice"])
    client = Client(HTTP_ACCEPT_LANGUAGE="pt-br")
    client.force_login(users["alice"])
    html = client.get(f"/decks/{deck.pk}/print/").content.decode()
    assert len(times(html)) >= 1  # the list's version
    assert [t for t in times(html) if not PT_BR_DATE.match(t)] == []
    dates = re.findall(r"\d{1,2} de [A-Za-zç]+ de \d{4}(?: às \d{2}:\d{2})?", html)
    assert len(dates) >= 3  # the event's date, the version's time, the printing's time
    assert other_date_forms(html) == []


def test_the_printable_decklist_writes_every_date_one_way_in_pt_br(event, users):
    """Issue 27: one date format per language on a page (the event's date, the list's version,
    when it was printed)."""
    ev, regs = event
    client = login(users["alice"])
    client.post(f"/decks/events/{ev.pk}/", {"decklist": read_fixture("delver_isd.txt"), "action": "save"})
    deck = Deck.objects.get(registration=regs["alice"])
    html = client.get(f"/decks/{deck.pk}/print/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert '<html lang="pt-br"' in html
    long_dates = re.findall(r"\b\d{1,2} de [A-Za-zçÇ]+ de \d{4}", html)
    assert len(long_dates) >= 3, long_dates
    assert not re.search(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b[A-Z][a-z]{2}\.? \d{1,2}, \d{4}\b", html)
