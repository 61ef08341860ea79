"""Draft history: a player's drafts, the pick-by-pick log (only what that seat saw, R16), its
MTGO text, the organiser making a pod's logs public after publication, and the time taken."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils.html import escape

from decks import picks, services
from drafts import services as draft_services
from drafts.models import DraftCard, Pack, Pick, Seat
from draftsite.errors import ForbiddenError
from events.access import SYSTEM
from events.models import Registration
from tests.decks.conftest import login
from tests.drafts.conftest import cube_names, make_pod, organiser, players  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db
T0 = dt.datetime(2026, 11, 29, 15, 0, tzinfo=dt.UTC)


def pick_names(seat):
    return [p.draft_card.card.name for p in Pick.objects.filter(seat=seat).select_related("draft_card__card")]


def test_the_player_lists_their_drafts_and_opens_the_log(drafted, users):
    event, seats = drafted
    client = login(users["alice"])
    html = client.get("/decks/drafts/").content.decode()
    href = f"/decks/drafts/{seats[0].pk}/"
    total = Pick.objects.filter(seat=seats[0]).count()
    assert total == 3 * 14  # ISD packs hold 14 cards in the draft (the checklist card is not drafted)
    assert f'href="{href}"' in html and event.name in html and f"{total} picks" in html
    page = client.get(href)
    assert page.status_code == 200
    text = page.content.decode()
    assert text.count('id="pick-') == total
    for name in set(pick_names(seats[0])):
        assert escape(name) in text
    assert f"Pool at the end ({total} cards)" in text


def test_before_publication_the_log_hides_the_cards_passed(drafted, users):
    event, seats = drafted
    mine = set(pick_names(seats[0]))
    first = Pick.objects.get(seat=seats[0], round=1, pick_number=1)
    passed = set(DraftCard.objects.filter(pk__in=first.pack_contents).values_list("card__name", flat=True)) - mine
    assert passed  # some card of her first pack went to another seat
    html = login(users["alice"]).get(f"/decks/drafts/{seats[0].pk}/").content.decode()
    assert not [name for name in passed if escape(name) in html]
    text = login(users["alice"]).get(f"/decks/drafts/{seats[0].pk}/mtgo.txt").content.decode()
    assert not [name for name in passed if name in text.replace(" // ", "\n")]


def test_after_publication_each_pick_shows_the_pack_as_that_seat_saw_it(drafted, users):
    """R16: the log's packs are the packs this seat held at each pick, never another seat's."""
    event, seats = drafted
    event.decklists_published = True
    event.save()
    rows = picks.picks_of([seats[0]], include_packs=True)[seats[0].pk]
    stored = list(Pick.objects.filter(seat=seats[0]).order_by("round", "pick_number"))
    assert len(rows) == len(stored) == 42
    for row, pick in zip(rows, stored):
        held = list(DraftCard.objects.filter(pk__in=pick.pack_contents).values_list("card_id", flat=True))
        assert sorted(row.pack) == sorted(held) and row.card_id in row.pack
        assert len(row.pack) == pick.pack.initial_size - (row.pick - 1)  # one fewer at each pick
    # Pick 1 of each round is this seat's own pack.
    own = {p.pk for p in Pack.objects.filter(opener=seats[0])}
    assert {p.pack_id for p in stored if p.pick_number == 1} <= own
    text = login(users["alice"]).get(f"/decks/drafts/{seats[0].pk}/mtgo.txt").content.decode()
    assert text.count("Pack 1 pick 1:") == 1 and text.count("\n--> ") == 43  # 42 picks and her name
    assert "------ ISD ------" in text and "--> alice" in text


def test_the_mtgo_log_names_a_dfc_by_its_front(drafted, users):
    event, seats = drafted
    dfc_pick = Pick.objects.filter(seat__pod=seats[0].pod, draft_card__is_dfc=True).select_related("seat").first()
    assert dfc_pick is not None
    seat = dfc_pick.seat
    Registration.objects.filter(pk=seat.registration_id).update(user=users["carol"])
    text = login(users["carol"]).get(f"/decks/drafts/{seat.pk}/mtgo.txt").content.decode()
    front = dfc_pick.draft_card.card.faces.get(position=0).name
    assert f"--> {front}\r\n" in text and dfc_pick.draft_card.card.name not in text


def test_only_the_player_and_staff_read_a_log_until_the_organiser_makes_it_public(drafted, users):
    event, seats = drafted
    url = f"/decks/drafts/{seats[0].pk}/"
    assert login(users["bob"]).get(url).status_code == 403
    assert login(None).get(url).status_code == 403
    assert login(users["org"]).get(url).status_code == 200
    switch = f"/decks/pods/{seats[0].pod_id}/logs-public/"
    # Not before publication (the logs show hidden picks), and never by a player.
    response = login(users["org"]).post(switch, {"public": "1"}, follow=True)
    assert "once the event&#x27;s decklists are published" in response.content.decode()
    assert login(users["bob"]).get(url).status_code == 403
    event.decklists_published = True
    event.save()
    assert login(users["bob"]).post(switch, {"public": "1"}).status_code == 403
    html = login(users["org"]).get(f"/decks/events/{event.pk}/judge/").content.decode()
    assert f'action="{switch}"' in html
    assert login(users["org"]).post(switch, {"public": "1"}).status_code == 302
    public = login(None).get(url)
    assert public.status_code == 200 and 'class="taken"' in public.content.decode()
    assert login(users["bob"]).get(f"/decks/drafts/{seats[0].pk}/mtgo.txt").status_code == 200
    login(users["org"]).post(switch, {"public": "0"})
    assert login(users["bob"]).get(url).status_code == 403


def test_an_unknown_seat_is_a_404(drafted, users):
    assert login(users["alice"]).get("/decks/drafts/999999/").status_code == 404
    assert login(users["org"]).post("/decks/pods/999999/logs-public/", {"public": "1"}).status_code == 404


def test_time_taken_runs_from_when_the_seat_could_look_at_the_pack(organiser, players, cube_names):  # noqa: F811
    pod = make_pod(organiser, players, cube_names, now=T0)
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))

    def first_card(seat):
        pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
        return pack, DraftCard.objects.in_pack(pack).first()

    passed, card = first_card(seats[1])
    draft_services.make_pick(seat_id=seats[1].pk, draft_card_id=card.pk, now=T0 + dt.timedelta(seconds=3), actor=SYSTEM)
    passed.refresh_from_db()
    neighbour = passed.holder
    _own, card = first_card(neighbour)
    draft_services.make_pick(
        seat_id=neighbour.pk, draft_card_id=card.pk, now=T0 + dt.timedelta(seconds=5), actor=SYSTEM
    )
    pack, card = first_card(neighbour)
    assert pack.pk == passed.pk
    draft_services.make_pick(
        seat_id=neighbour.pk, draft_card_id=card.pk, now=T0 + dt.timedelta(seconds=12), actor=SYSTEM
    )
    rows = picks.picks_of([neighbour, seats[1]], include_packs=False)
    # Own pack from the start (5 s); the passed pack from its own previous pick, not from its
    # arrival at 3 s (7 s).
    assert [r.seconds for r in rows[neighbour.pk]] == [5.0, 7.0]
    assert [r.seconds for r in rows[seats[1].pk]] == [3.0]


def test_the_pick_data_opt_in_is_the_players_own(drafted, users):
    event, seats = drafted
    client = login(users["alice"])
    response = client.post(f"/decks/events/{event.pk}/pick-data-sharing/", {"share": "1"})
    assert response.status_code == 302
    assert Registration.objects.get(pk=seats[0].registration_id).share_pick_data is True
    assert "picks shared, anonymised" in client.get("/decks/drafts/").content.decode()
    client.post(f"/decks/events/{event.pk}/pick-data-sharing/", {"share": "0"})
    assert Registration.objects.get(pk=seats[0].registration_id).share_pick_data is False
    # Someone not registered cannot opt anyone in.
    assert (
        login(users["outsider"]).post(f"/decks/events/{event.pk}/pick-data-sharing/", {"share": "1"}).status_code == 403
    )
    with pytest.raises(ForbiddenError):
        services.set_pick_data_sharing(event_id=event.pk, actor=users["outsider"], share=True)


def test_joining_an_event_can_opt_in(catalogue, users):
    event = draft_services.create_event(
        name="Open", date=T0.date(), created_by=users["org"], draft_format="cube", cube_list=["Island"]
    )
    client = login(users["carol"])
    html = client.get(f"/events/{event.pk}/").content.decode()
    assert 'name="share_pick_data"' in html
    client.post(f"/events/{event.pk}/join/", {"share_pick_data": "on"})
    assert Registration.objects.get(event=event, user=users["carol"]).share_pick_data is True
    login(users["bob"]).post(f"/events/{event.pk}/join/", {})
    assert Registration.objects.get(event=event, user=users["bob"]).share_pick_data is False
