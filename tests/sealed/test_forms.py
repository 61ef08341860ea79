"""The sealed event form: a booster kind per booster (a kit entry may name its own), each
refusal under the field that chose it (nothing created), and the list of which boosters and
collation each set uses."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from events.models import Event

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Kit sealed",
    "date": "2026-12-06",
    "enforcement_level": "regular",
    "set_code": "DSK",
    "kind": "",
    "booster_count": 6,
    "kit": "",
}


def field_errors(html: str, field: str) -> str:
    """The text of the errors shown under one field of the form ("" if none)."""
    match = re.search(rf'id="field-{field}".*?(?=<div class="form-field|<details|<p><button)', html, re.S)
    assert match, field
    errors = re.search(r'class="form-errors"[^>]*>(.*)', match.group(0), re.S)
    return errors.group(1) if errors else ""


def test_the_form_says_which_collation_each_set_uses(client, organiser):
    client.force_login(organiser)
    page = client.get(reverse("sealed:new")).content.decode()
    assert 'data-set="DSK" data-kind="play"' in page  # published Play Booster rates
    assert "the slots and rates Wizards of the Coast published" in page
    assert 'data-set="ZNR" data-kind="arena"' in page and "the set&#x27;s MTGJSON booster sheets" in page
    assert 'data-set="CHK" data-kind="draft"' in page and "plain rarity collation" in page
    assert '<option value="play">Play Booster</option>' in page  # the kind is chosen, not typed


def test_a_kit_names_a_kind_per_booster(client, organiser):
    client.force_login(organiser)
    made = client.post(reverse("sealed:new"), {**FORM, "kit": "DSK, dsk, ZNR arena, ZNR draft, ISD"})
    assert made.status_code == 302, made.content.decode()
    event = Event.objects.get(name="Kit sealed")
    assert event.sealed.boosters == [
        {"set_code": "DSK", "kind": "play"},
        {"set_code": "DSK", "kind": "play"},
        {"set_code": "ZNR", "kind": "arena"},
        {"set_code": "ZNR", "kind": "default"},
        {"set_code": "ISD", "kind": "default"},
    ]


def test_one_set_takes_the_kind_chosen(client, organiser):
    client.force_login(organiser)
    assert client.post(reverse("sealed:new"), {**FORM, "set_code": "ZNR", "kind": "arena"}).status_code == 302
    assert Event.objects.get(name="Kit sealed").sealed.boosters == [{"set_code": "ZNR", "kind": "arena"}] * 6


@pytest.mark.parametrize(
    ("changes", "field", "text"),
    [
        ({"kind": "collector"}, "kind", "DSK has no collector boosters"),
        ({"set_code": "NOPE"}, "set_code", "No set in the catalogue has the code or name “NOPE”"),
        ({"kit": "DSK, ZNR collector"}, "kit", "ZNR has no collector boosters"),
        ({"kit": "DSK, NOPE"}, "kit", "No set in the catalogue has the code or name “NOPE”"),
        ({"kit": "DSK play extra"}, "kit", "“DSK play extra”: a set code and perhaps a booster kind."),
        # The kind chosen above applies to the kit's boosters that name none: its refusal sits there.
        ({"kind": "arena", "kit": "ZNR, DSK"}, "kind", "DSK has no arena boosters"),
    ],
)
def test_an_invalid_choice_is_refused_under_its_field_and_nothing_is_created(client, organiser, changes, field, text):
    client.force_login(organiser)
    refused = client.post(reverse("sealed:new"), {**FORM, **changes})
    html = refused.content.decode()
    assert refused.status_code == 200
    assert text in field_errors(html, field), field_errors(html, field)
    others = [f for f in ("set_code", "kind", "kit") if f != field]
    assert all(field_errors(html, f) == "" for f in others)
    assert not Event.objects.filter(name="Kit sealed").exists()
