"""The rules desk names a card's kind once (issue 46: "Transforming double-faced" and
"double-faced" side by side): the layout's badge, plus "double-faced" only where the
layout's name does not say it (a meld card)."""

import re

import pytest

pytestmark = pytest.mark.django_db


def badges(client, card: str) -> list[str]:
    html = client.get("/rules/", {"card": card, "zone": "hand"}).content.decode()
    title = re.search(r'<h2 id="rules-card-title">(.*?)</h2>', html, re.S).group(1)
    return re.findall(r'<span class="tag">([^<]+)</span>', title)


@pytest.mark.parametrize(
    "card, expected",
    [
        ("Delver of Secrets", ["Transforming double-faced"]),
        ("Sejiri Shelter", ["Modal double-faced"]),
        ("Akki Lavarunner", ["Flip"]),
    ],
)
def test_one_badge_names_a_double_faced_card(client, seed_catalogue, card, expected):
    assert badges(client, card) == expected


def test_a_meld_card_is_named_meld_and_double_faced(client, meld_catalogue):
    assert badges(client, "Bruna, the Fading Light") == ["Meld", "double-faced"]
