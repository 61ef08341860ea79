import pytest

from decks.models import Deck
from tests.decks.conftest import login, make_event, read_fixture

pytestmark = pytest.mark.django_db


def test_repro(catalogue, users):
    ev, regs = make_event(users, deck_format="constructed")
    client = login(users["alice"])
    r = client.post(
        f"/decks/events/{ev.pk}/",
        {"decklist": read_fixture("delver_isd.txt"), "action": "save"},
        HTTP_ACCEPT_LANGUAGE="pt-br",
    )
    print(r.status_code)
    html = client.get(f"/decks/events/{ev.pk}/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    i = html.find("dfc_needs")
    print(html[i - 300 : i + 800])
    print(Deck.objects.get().check_errors)
    j = login(users["judge"]).get(f"/decks/events/{ev.pk}/judge/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    i = j.find("dfc_needs")
    print(j[i - 500 : i + 300])
