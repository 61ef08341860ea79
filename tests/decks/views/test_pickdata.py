"""The organiser's pick data export: 17lands' layout, one row per pick of the players who opted
in, anonymised, and nothing before decklists are published."""

from __future__ import annotations

import csv
import io
import random
import re

import pytest

from cards.models import Printing
from decks import pickdata
from drafts.models import Pick
from events.models import Registration
from tests.decks.conftest import login

pytestmark = pytest.mark.django_db


def share(seat, yes=True):
    Registration.objects.filter(pk=seat.registration_id).update(share_pick_data=yes)


def test_nothing_before_publication_and_only_for_organisers(drafted, users):
    event, seats = drafted
    share(seats[0])
    url = f"/decks/events/{event.pk}/pick-data.csv"
    response = login(users["org"]).get(url)
    assert response.status_code == 409 and response["X-Error-Code"] == "decklists_not_published"
    event.decklists_published = True
    event.save()
    assert login(users["judge"]).get(url).status_code == 403
    assert login(users["alice"]).get(url).status_code == 403
    html = login(users["org"]).get(f"/decks/events/{event.pk}/judge/").content.decode()
    assert f'href="{url}"' in html
    assert login(users["org"]).get(url).status_code == 200


def test_one_row_per_pick_of_each_player_who_opted_in_with_the_sets_columns(drafted, users):
    event, seats = drafted
    share(seats[0])
    share(seats[2])
    event.decklists_published = True
    event.save()
    response = login(users["org"]).get(f"/decks/events/{event.pk}/pick-data.csv")
    assert response["Content-Type"].startswith("text/csv")
    text = response.content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    picks = {s.pk: Pick.objects.filter(seat=s).count() for s in seats}
    assert len(rows) == picks[seats[0].pk] + picks[seats[2].pk]  # Bob and the others did not opt in
    assert len({r["draft_id"] for r in rows}) == 2
    header = text.splitlines()[0].split(",")
    set_cards = set(
        Printing.objects.filter(card_set__code="ISD", in_boosters=True).values_list("card__faces__name", flat=True)
    )
    pack_columns = {h.removeprefix("pack_card_") for h in header if h.startswith("pack_card_")}
    pool_columns = {h.removeprefix("pool_") for h in header if h.startswith("pool_")}
    assert pack_columns == pool_columns
    assert "Delver of Secrets" in pack_columns and "Insectile Aberration" not in pack_columns
    assert pack_columns <= set_cards  # a front name per card of the set
    for row in rows:
        assert row["expansion"] == "ISD" and row["event_type"] == "TournamentDraft"
        assert sum(int(row[f"pack_card_{c}"]) for c in pack_columns) == 14 - int(row["pick_number"])
        assert int(row[f"pack_card_{row['pick']}"]) >= 1
        assert sum(int(row[f"pool_{c}"]) for c in pool_columns) == int(row["pack_number"]) * 14 + int(
            row["pick_number"]
        )


def test_no_username_seat_or_registration_leaks(drafted, users):
    event, seats = drafted
    share(seats[0])
    event.decklists_published = True
    event.save()
    text = pickdata.event_pick_data(event, rng=random.Random(1))
    assert text == pickdata.event_pick_data(event, rng=random.Random(1))
    assert text != pickdata.event_pick_data(event, rng=random.Random(2))  # ids are random
    for secret in ("alice", "Drafter", "seat", "Simulated"):
        assert secret not in text
    ids = {row["draft_id"] for row in csv.DictReader(io.StringIO(text))}
    assert len(ids) == 1 and all(re.fullmatch(r"[0-9a-f]{32}", i) for i in ids)
    assert "alice" not in login(users["org"]).get(f"/decks/events/{event.pk}/pick-data.csv").content.decode()


def test_nobody_opted_in_is_a_header_only(drafted, users):
    event, seats = drafted
    event.decklists_published = True
    event.save()
    text = pickdata.event_pick_data(event)
    assert len(text.splitlines()) == 1 and text.startswith("expansion,event_type,draft_id")
