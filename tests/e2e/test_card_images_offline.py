"""Card images when the venue's internet is gone (issue 49): the catalogue's image host takes
connections and never answers, as an unreachable host does; the deck page points only at the
site's own copies, so it finishes loading at once and shows every card by name."""

from __future__ import annotations

import socket
import threading

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from cards.models import Card, Printing
from tests.decks.api.test_registration import POOL, draft_pile
from tests.decks.conftest import make_event
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


class SilentHost:
    """A host that accepts connections (counted) and never says a word."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(200)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.connections: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                self.connections.append(self.listener.accept()[0])
            except OSError:
                return

    def close(self):
        self.listener.close()
        for connection in self.connections:
            connection.close()


@pytest.fixture
def silent_host():
    host = SilentHost()
    yield host
    host.close()


def test_deck_page_loads_at_once_with_card_names_when_the_image_host_is_unreachable(
    browsers, login, server_url, silent_host
):
    users = {n: UserFactory(username=f"img-{n}") for n in ("org", "judge", "alice", "bob", "carol")}
    event, regs = make_event(users, deck_format="limited", name="ISD draft offline images")
    draft_pile(event, regs["alice"])
    for printing in Printing.objects.filter(card__faces__name__in=list(POOL)).distinct():
        printing.image_uris = {"front": f"{silent_host.url}/{printing.pk}.jpg"}
        printing.save(update_fields=["image_uris"])
    driver = login(browsers.get(), users["alice"])
    driver.get(f"{server_url}/decks/events/{event.pk}/")  # returns after the load event
    WebDriverWait(driver, 10).until(lambda d: d.find_elements("css selector", ".db-card"))
    load_ms = driver.execute_script(
        "const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime;"
    )
    # The browser never asked the image host (a page that did waited minutes on it), and the
    # page finished loading: under 10 s even on a busy machine (about 1 s on an idle one).
    assert silent_host.connections == []
    slowest = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => [e.name, Math.round(e.duration)])"
        ".sort((a, b) => b[1] - a[1]).slice(0, 3)"
    )
    assert 0 < load_ms < 10000, f"the deck page took {load_ms:.0f} ms to load; slowest: {slowest}"
    # (an image without a copy answers 404 at once and the builder drops it: the text stays)
    sources = driver.execute_script(
        "return performance.getEntriesByType('resource').filter(e => e.initiatorType === 'img').map(e => e.name)"
    )
    assert sources and all(s.startswith(server_url + "/card-images/") for s in sources), sources[:3]
    text = driver.find_element("css selector", ".deck-builder").text
    names = {c.faces.get(position=0).name for c in Card.objects.filter(faces__name__in=list(POOL)).distinct()}
    assert names and all(name in text for name in names), sorted(n for n in names if n not in text)
