"""A sealed pool is its player's until decklists are published, through every page and API
route: player 0 asks every GET route of the URL resolver (the route table of
tests/test_authorization_matrix.py) with the ids of a generated sealed event and of a paper
sealed event (theirs and other players': events, registrations, pools), plus
``?registration=`` on each; no body may name a card that only other players' pools hold.
The set catalogue's routes (the paper registration page, its card list) list the boosters'
cards by design and are left out. After publication the same requests show another pool
(the check can fail). No sealed write sends anything over a socket (sealed has no consumer;
the event socket a player may open carries version numbers, tests/test_hidden_information.py).
"""

from __future__ import annotations

import pytest
from django.test import Client

from decks.models import SealedPool
from events.models import Event
from sealed import selectors, services
from sealed.models import PaperPool
from tests.sealed.conftest import NOW, leaks, make_event
from tests.sealed.test_services import by_group
from tests.test_authorization_matrix import ENDPOINTS, _converter, project_routes

pytestmark = pytest.mark.django_db

# They list the boosters' cards (the set's catalogue), the same for every player.
CATALOGUE_ROUTES = {
    "drafts:card-sheet",
    "drafts:card-batch",
    "sealed:register-pool",
    "sealed-catalogue",
}
IDS = ("event_id", "registration_id", "pool_id", "pk")
BASICS = {"Plains", "Island", "Swamp", "Mountain", "Forest", "Wastes"}


def names(rows) -> set[str]:
    return {r["name"] for r in selectors.pool_cards(rows)}


def requests_for(ids: dict[str, list[int]]) -> list[str]:
    urls = []
    for name, route, params in project_routes():
        if not any(method == "GET" for method, *_ in ENDPOINTS[name]) or name in CATALOGUE_ROUTES:
            continue
        if name.endswith(("api-schema", "api-docs", "api-redoc")) or not set(params) <= set(IDS):
            continue
        candidates: list[dict[str, int]] = [{}]
        for key in params:
            candidates = [{**c, key: value} for c in candidates for value in ids[key]]
        for kwargs in candidates:
            url = "/" + route
            for key, value in kwargs.items():
                url = url.replace(f"<{_converter(route, key)}{key}>", str(value))
            urls += [url] + [f"{url}?registration={r}" for r in ids["registration_id"]]
    return urls


def fetch(user, urls) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    bodies = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code < 500, f"GET {url}: {response.status_code}"
        bodies[url] = b"".join(response).decode() if response.streaming else response.content.decode()
    return bodies


def test_no_page_or_api_route_shows_another_players_pool(organiser, players):
    generated, regs = make_event(organiser, players[:3])
    services.open_pools(event_id=generated.pk, actor=organiser, now=NOW)
    paper, paper_regs = make_event(organiser, players[:3], paper=True, seed=5)
    paper.name = "Paper prerelease"
    paper.save(update_fields=["name"])
    cards = by_group()
    for index, player in enumerate(players[:3]):  # three different pools
        chosen = cards["common"][index * 20 : index * 20 + 20] + cards["uncommon"][index * 5 : index * 5 + 5]
        services.register_paper_pool(
            event_id=paper.pk, actor=player, cards=[{"card_id": c["card_id"], "count": 1} for c in chosen], now=NOW
        )
    services.swap_pools(event_id=paper.pk, actor=organiser, seed=3, now=NOW)

    mine = names(SealedPool.objects.get(registration=regs[0]).cards)
    theirs = set().union(*(names(SealedPool.objects.get(registration=r).cards) for r in regs[1:]))
    # In a paper event player 0 sees the pool they registered and the one they received.
    paper_mine = names(PaperPool.objects.get(registered_by=paper_regs[0]).cards) | names(
        PaperPool.objects.get(builder=paper_regs[0]).cards
    )
    paper_theirs = names(
        PaperPool.objects.exclude(registered_by=paper_regs[0]).exclude(builder=paper_regs[0]).get().cards
    )
    # Basic lands are every player's in limited (the deck builder offers them to all).
    secret = (theirs | paper_theirs) - mine - paper_mine - BASICS
    assert len(secret) > 20

    ids = {
        "event_id": [generated.pk, paper.pk],
        "pk": [generated.pk, paper.pk],
        "registration_id": [r.pk for r in [*regs, *paper_regs]],
        "pool_id": list(PaperPool.objects.values_list("pk", flat=True)),
    }
    urls = requests_for(ids)
    assert len(urls) > 100 and any("/sealed/" in u for u in urls)
    bodies = fetch(players[0], urls)
    seen = mine | paper_mine | BASICS
    found = leaks(bodies, secret, seen)
    # What a stranger to both events sees on the same routes is public, not a pool: the card
    # catalogue's first page (/api/cards/) lists whatever cards this worker's database holds.
    public = leaks(fetch(players[3], list(found)), secret)
    assert {url: hits for url, hits in found.items() if set(hits) - set(public.get(url, ()))} == {}, sorted(found)
    assert any(n in body for body in bodies.values() for n in mine)  # their own pool does show

    Event.objects.filter(pk__in=[generated.pk, paper.pk]).update(decklists_published=True)
    assert leaks(fetch(players[0], urls), secret, seen)  # published: another pool shows (the check can fail)
