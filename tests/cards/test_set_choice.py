"""Sets chosen from the catalogue (issue 27: "Innistrad" was refused with no hint): the event
form's selects, the API's set_codes by code in any case or by name, unknown sets refused with
the near matches, and the card catalogue filtered by set."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from cards import selectors
from draftsite.errors import DomainError
from events import roles
from events.models import Event
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    account = UserFactory(username="setorg")
    account.groups.add(Group.objects.get_or_create(name=roles.ORGANISER)[0])
    client = Client()
    client.force_login(account)
    return client


def form_post(**fields):
    data = {
        "name": "Friday",
        "date": "2026-12-04",
        "enforcement_level": "regular",
        "draft_format": "booster",
        "pack_size": "15",
        "deck_building_minutes": "25",
        "pick_timer": "on",
    }
    data.update(fields)
    return data


def test_a_set_is_found_by_its_code_in_any_case_or_by_its_name():
    assert selectors.find_set("isd").code == "ISD"
    assert selectors.find_set("Innistrad").code == "ISD"
    assert selectors.find_set("  zendikar rising ").code == "ZNR"
    assert selectors.find_set("Innistrad Block") is None
    assert "ISD" in [s.code for s in selectors.near_sets("Inistrad")]
    with pytest.raises(DomainError) as refused:
        selectors.resolve_set("Inistrad", field="set_codes")
    assert refused.value.code == "unknown_set" and "Innistrad (ISD)" in refused.value.message
    assert {"code": "ISD", "name": "Innistrad"} in refused.value.extra["suggestions"]


def test_the_event_form_offers_the_catalogues_sets_by_name_and_code(organiser):
    page = organiser.get(reverse("drafts:event-create")).content.decode()
    select = re.search(r'<select name="set_codes"[^>]*>(.*?)</select>', page, re.S)
    assert select, "the set is a select"
    options = dict(re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select.group(1)))
    assert options["ISD"] == "Innistrad (ISD)" and options["ZNR"] == "Zendikar Rising (ZNR)"
    assert options[""] == "Choose a set"
    assert 'name="set_round_2"' in page and "Same as round 1" in page
    # Only sets that have booster cards: the substitute cards' set is not offered.
    assert "SZNR" not in options


def test_the_event_form_creates_a_draft_from_the_chosen_sets(organiser):
    response = organiser.post(reverse("drafts:event-create"), form_post(set_codes="ISD", set_round_3="ZNR"))
    assert response.status_code == 302
    assert Event.objects.get().set_codes == ["ISD", "ISD", "ZNR"]
    # A typed name (no-script, an old bookmark) works too.
    organiser.post(reverse("drafts:event-create"), form_post(name="By name", set_codes="Innistrad"))
    assert Event.objects.get(name="By name").set_codes == ["ISD"] * 3


def test_the_event_form_refuses_an_unknown_set_with_the_near_matches(organiser):
    response = organiser.post(reverse("drafts:event-create"), form_post(set_codes="Inistrad"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "No set in the catalogue has the code or name “Inistrad”. Did you mean Innistrad (ISD)?" in page
    response = organiser.post(reverse("drafts:event-create"), form_post(set_codes=""))
    assert "Choose the set of the boosters." in response.content.decode()
    assert not Event.objects.exists()


def test_the_api_takes_a_set_code_in_any_case_or_its_name(organiser):
    response = organiser.post(
        "/api/events/",
        {"name": "x", "date": "2026-12-04", "set_codes": ["innistrad"]},
        content_type="application/json",
    )
    assert response.status_code == 201 and response.json()["set_codes"] == ["ISD"] * 3
    response = organiser.post(
        "/api/events/",
        {"name": "y", "date": "2026-12-04", "set_codes": ["isd", "Innistrad", "znr"]},
        content_type="application/json",
    )
    assert response.status_code == 201 and response.json()["set_codes"] == ["ISD", "ISD", "ZNR"]


def test_the_api_refuses_an_unknown_set_with_400_and_the_near_matches(organiser):
    response = organiser.post(
        "/api/events/", {"name": "x", "date": "2026-12-04", "set_codes": ["Inistrad"]}, content_type="application/json"
    )
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["code"], error["field"], error["set"]) == ("unknown_set", "set_codes", "Inistrad")
    assert {"code": "ISD", "name": "Innistrad"} in error["suggestions"]
    assert not Event.objects.filter(name="x").exists()


def test_the_card_catalogue_filters_by_set_with_a_select(client):
    page = client.get(reverse("cards:search")).content.decode()
    select = re.search(r'<select id="set" name="set"[^>]*>(.*?)</select>', page, re.S)
    assert select and '<option value="CHK">Champions of Kamigawa (CHK)</option>' in select.group(1)

    # Delver of Secrets is an Innistrad card; Akki Lavarunner a Champions of Kamigawa one.
    def search(**params):
        return client.get(reverse("cards:search"), params).content.decode()

    def results(page):
        return re.findall(r'<li><a href="/cards/\d+/">([^<]+)</a>', page)

    assert results(search(set="ISD", q="Delver")) == ["Delver of Secrets // Insectile Aberration"]
    assert results(search(set="CHK", q="Delver")) == []
    chk = search(set="chk", q="Akki")
    assert "Akki Lavarunner // Tok-Tok, Volcano Born" in results(chk) and '<option value="CHK" selected>' in chk
    assert results(search(set="ISD", q="Akki")) == []

    def count(page):
        return int(re.search(r"(\d+) cards?</p>", page).group(1))

    isd, everything = search(set="ISD"), search()
    assert count(isd) < count(everything)
    # The pager keeps the set.
    assert "&set=ISD&page=2" in isd.replace("&amp;", "&")
    # An unknown set is no filter (the select shows "Any set").
    assert count(search(set="NOPE")) == count(everything)
