"""The call's context page: both players, their decks' DFCs with rules-desk links (followed),
their penalties with what the next would become (IPG: Warnings counted per day), the clock
with its extension, and the prefilled penalty form (followed). Staff only."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from decks import services as deck_services
from drafts import services as draft_services
from drafts.models import Seat
from drafts.selectors import queue
from events.access import SYSTEM
from judgecalls import services
from judgecalls.context import draft_place
from penalties import services as penalty_services
from tests.decks.conftest import catalogue  # noqa: F401  (fixture: the real DFCs)
from tests.drafts.conftest import cube_names, make_pod  # noqa: F401  (fixture and helper)
from tests.factories import EventStaffFactory, UserFactory
from tests.judgecalls.conftest import T0, Floor

DELVER = "Delver of Secrets // Insectile Aberration"
pytestmark = pytest.mark.django_db


def browser(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def table(catalogue):  # noqa: F811
    floor = Floor()
    floor.event.deck_format = "constructed"  # a registered list without a drafted pool
    floor.event.save(update_fields=["deck_format"])
    deck_services.register_deck(
        event_id=floor.event.pk,
        actor=floor.player_a(),
        main=[{"name": DELVER, "count": 2}, {"name": "Island", "count": 38}],
        now=T0,
    )
    call = services.call_from_match(match_id=floor.match.pk, actor=floor.player_b(), reason="Transform?", now=T0)
    services.claim_call(call_id=call.pk, actor=floor.judge, now=T0)
    services.extend_time(call_id=call.pk, actor=floor.judge, minutes=5, now=T0)
    return floor, call


def warn(floor, registration_id, when):
    return penalty_services.issue_penalty(
        event_id=floor.event.pk,
        registration_id=registration_id,
        infraction_code="slow_play",
        actor=floor.judge,
        description="Slow",
        now=when,
    )


def test_the_context_shows_both_players_the_dfc_and_the_rules_desk_link_works(table):
    floor, call = table
    page = browser(floor.judge).get(reverse("judgecalls:context", args=[call.pk])).content.decode()
    a, b = floor.match.player_a, floor.match.player_b
    assert a.name in page and b.name in page
    assert "+5 min extension" in page
    link = f"{reverse('rules:desk')}?card=Delver+of+Secrets+%2F%2F+Insectile+Aberration&amp;zone=hand"
    assert link in page  # R9: the DFC of the registered deck, one tap from the rules desk
    desk = browser(floor.judge).get(link.replace("&amp;", "&"))
    assert desk.status_code == 200 and "Insectile Aberration" in desk.content.decode()


def test_the_next_penalty_counts_todays_warnings_only(table):
    floor, call = table
    now = timezone.now()
    a, b = floor.match.player_a, floor.match.player_b
    warn(floor, a.pk, now - dt.timedelta(days=1))  # yesterday: the count has reset (IPG 3)
    warn(floor, b.pk, now)  # today: the next Slow Play is the second Warning -> Game Loss
    page = browser(floor.judge).get(reverse("judgecalls:context", args=[call.pk])).content.decode()
    section_a = page.split(f'data-registration="{a.pk}"')[1].split("</section>")[0]
    section_b = page.split(f'data-registration="{b.pk}"')[1].split("</section>")[0]
    assert "0 earlier Warning(s) count today" in section_a and "the default penalty" in section_a
    assert "1 earlier Warning(s) count today" in section_b and "Game Loss (repeat upgrade)" in section_b


def test_one_tap_opens_the_penalty_form_prefilled_for_this_table_and_round(table):
    floor, call = table
    page = browser(floor.judge).get(reverse("judgecalls:context", args=[call.pk])).content.decode()
    b = floor.match.player_b
    section_b = page.split(f'data-registration="{b.pk}"')[1]
    href = section_b.split('class="button primary issue-penalty" href="')[1].split('"')[0].replace("&amp;", "&")
    form = browser(floor.judge).get(href)
    assert form.status_code == 200
    initial = form.context["form"].initial
    assert initial["registration"] == b.pk and initial["match_round"] == 1
    assert initial["description"] == f"Judge call #{call.pk}, round 1, table 1: Transform?"


def test_a_player_never_reaches_the_context(table):
    floor, call = table
    for user in (floor.player_a(), floor.player_b(), floor.outsider):
        answer = browser(user).get(reverse("judgecalls:context", args=[call.pk]))
        assert answer.status_code == 403 and b"Delver" not in answer.content


def test_checklist_marks_and_the_decks_problems_are_shown_translated(table):
    """Issue 46 item 3: a checklist line printed a Python list, and a list with problems looked
    legal. The marked names read as names; the problems come with their count, translated."""
    floor, call = table
    deck_services.register_deck(
        event_id=floor.event.pk,
        actor=floor.player_b(),
        main=[{"name": DELVER, "count": 1}, {"name": "Island", "count": 20}],
        checklist_cards=[{"checklist": "Innistrad Checklist", "marked": ["Delver of Secrets"]}],
        now=T0,
    )
    b = floor.match.player_b
    deck = b.deck
    assert deck.check_errors, "the fixture's list must have problems"
    url = reverse("judgecalls:context", args=[call.pk])
    page = browser(floor.judge).get(url).content.decode()
    section = page.split(f'data-registration="{b.pk}"')[1].split("</section>")[0]
    assert "['" not in section and "Innistrad Checklist" in section
    assert "— marked: Delver of Secrets" in section
    count = len(deck.check_errors)
    assert f"{count} problem{'s' if count > 1 else ''} with this list" in section
    for error in deck.localized_errors:
        assert f'data-code="{error["code"]}"' in section
    a_section = page.split(f'data-registration="{floor.match.player_a.pk}"')[1].split("</section>")[0]
    assert ("The registered list passes every check." in a_section) == floor.match.player_a.deck.valid
    portuguese = browser(floor.judge).get(url, HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    section = portuguese.split(f'data-registration="{b.pk}"')[1].split("</section>")[0]
    assert "with this list" not in section and "marked:" not in section


def test_a_call_from_a_draft_seat_shows_the_pack_pick_and_neighbours(cube_names):  # noqa: F811
    """Issue 46 item 3: the seat's pack and pick number and its neighbours; the pack's cards
    for the event's staff only (R16), never for anyone else."""
    organiser, judge = UserFactory(username="org"), UserFactory(username="judge")
    drafters = [UserFactory(username=f"drafter{i}") for i in range(8)]
    pod = make_pod(organiser, drafters, cube_names, pick_timer=False, now=T0)
    EventStaffFactory(event=pod.event, user=judge, role="judge")
    seats = list(Seat.objects.filter(pod=pod).order_by("position").select_related("registration"))
    front = queue(seats[2])[0]
    draft_services.make_pick(
        seat_id=seats[2].pk, draft_card_id=front["cards"][0]["id"], pack_id=front["pack_id"], actor=SYSTEM
    )
    call = services.call_from_seat(seat_id=seats[3].pk, actor=drafters[3], reason="Misdeal?", now=T0)
    page = browser(judge).get(reverse("judgecalls:context", args=[call.pk])).content.decode()
    draft = page.split('id="call-draft"')[1].split("</section>")[0]
    assert '<dd class="call-pack-number">1</dd>' in draft
    assert '<dd class="call-pick-number">1 · 1 more pack waiting</dd>' in draft
    assert f'<dd class="call-left">{seats[4].registration.name}</dd>' in draft  # a pack passed left goes there
    assert f'<dd class="call-right">{seats[2].registration.name}</dd>' in draft
    its_pack = queue(seats[3], full=True)[0]["cards"]
    assert len(its_pack) == 15 and all(card["name"] in draft for card in its_pack)
    # The pack is hidden information: whoever may not see a seat's cards gets none of it.
    for viewer in (drafters[3], drafters[4], None):
        place = draft_place(call, viewer)
        assert place is not None and place.pack is None and place.pick_number == 1
    assert browser(drafters[3]).get(reverse("judgecalls:context", args=[call.pk])).status_code in (403, 404)


DRAFT_WORDS = ("The draft", "Neighbour on the left", "Neighbour on the right", "Passing direction", "The pack in front")


@pytest.mark.parametrize("accept", ["pt-br", "es", "it", "ru"])
def test_the_draft_call_context_is_in_the_readers_language(cube_names, accept):  # noqa: F811
    organiser, judge = UserFactory(username="org"), UserFactory(username="judge")
    drafters = [UserFactory(username=f"drafter{i}") for i in range(8)]
    pod = make_pod(organiser, drafters, cube_names, pick_timer=False, now=T0)
    EventStaffFactory(event=pod.event, user=judge, role="judge")
    seat = Seat.objects.get(pod=pod, position=3)
    call = services.call_from_seat(seat_id=seat.pk, actor=drafters[3], now=T0)
    page = browser(judge).get(reverse("judgecalls:context", args=[call.pk]), HTTP_ACCEPT_LANGUAGE=accept)
    text = page.content.decode()
    assert 'id="call-draft"' in text and 'id="call-resolve"' in text
    for word in (*DRAFT_WORDS, "Hidden information", "No penalty linked", "Penalty issued for this call"):
        assert word not in text, (accept, word)
