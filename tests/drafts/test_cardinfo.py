"""The card payload cache (drafts/cardinfo.py) forgets the catalogue when cards are imported."""

import gzip
import json

import pytest

from cards.models import Card
from cards.services import BUNDLED_DATA_DIR, import_card_file
from drafts import cardinfo

pytestmark = pytest.mark.django_db


def test_an_import_drops_the_cached_card_payloads(tmp_path):
    record = json.load(gzip.open(BUNDLED_DATA_DIR / "scryfall/isd.json.gz"))[0]
    path = tmp_path / "one.json"
    path.write_text(json.dumps([record]))
    card = Card.objects.exclude(name=record["name"]).order_by("pk").first()
    before = cardinfo.card_info({card.pk})[card.pk]["name"]
    Card.objects.filter(pk=card.pk).update(name="Renamed in the catalogue")
    assert cardinfo.card_info({card.pk})[card.pk]["name"] == before  # served from the cache

    import_card_file(path)

    assert cardinfo.card_info({card.pk})[card.pk]["name"] == "Renamed in the catalogue"
