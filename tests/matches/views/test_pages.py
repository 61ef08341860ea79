"""The pages, through the Django test client, and the demo: the organiser runs three rounds
for the demo pod in the browser's forms and prints the standings."""

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from drafts.demo import create_demo_accounts, create_demo_event
from matches import selectors, services
from matches.demo import set_up_demo_matches
from matches.models import Match, Round, RoundState
from tests.matches.conftest import T0


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_organiser_runs_three_demo_rounds_in_the_browser_and_prints_standings():
    create_demo_accounts()
    event = create_demo_event()
    set_up_demo_matches(event)
    set_up_demo_matches(event)  # idempotent
    organiser = logged_in(event.staff.get(role="organiser").user)
    event_page = organiser.get(f"/events/{event.pk}/").content.decode()
    dashboard_url = f"/matches/events/{event.pk}/"
    assert f'href="{dashboard_url}"' in event_page  # the event page links to the matches
    pod = event.pods.get()
    for number in (1, 2, 3):
        page = organiser.get(dashboard_url).content.decode()
        assert "Pair next round" in page
        if number == 1:  # nobody registered a deck: the organiser is warned and pairs anyway
            assert "8 players have no legal deck" in page
            warned = organiser.post(f"/matches/events/{event.pk}/pair/", {"pod": pod.pk}).content.decode()
            assert "Pair anyway" in warned and not Round.objects.filter(pod=pod).exists()
        response = organiser.post(f"/matches/events/{event.pk}/pair/", {"pod": pod.pk, "confirmed": "yes"}, follow=True)
        assert "Round paired." in response.content.decode()
        round_obj = Round.objects.get(pod=pod, number=number)
        pairings = organiser.get(f"/matches/rounds/{round_obj.pk}/").content.decode()
        assert pairings.count("<tr>") == 5  # header + four tables
        by_name = organiser.get(f"/matches/rounds/{round_obj.pk}/?by=name").content.decode()
        assert by_name.count("<tr>") == 9
        assert organiser.get(f"/matches/rounds/{round_obj.pk}/slips/").content.decode().count('class="panel slip"') == 4
        organiser.post(f"/matches/rounds/{round_obj.pk}/control/start/")
        assert Round.objects.get(pk=round_obj.pk).state == RoundState.RUNNING
        assert "time left" in organiser.get(dashboard_url).content.decode()
        for match in Match.objects.filter(round=round_obj):
            organiser.post(f"/matches/matches/{match.pk}/result/", {"a_wins": 2, "b_wins": 1, "draws": 0})
        response = organiser.post(f"/matches/rounds/{round_obj.pk}/control/finish/", follow=True)
        assert "Round closed." in response.content.decode()
    standings = organiser.get(f"/matches/events/{event.pk}/standings/").content.decode()
    assert "3-0-0" in standings and "javascript:print()" in standings
    out = StringIO()
    call_command("print_standings", event.pk, stdout=out)
    lines = out.getvalue().splitlines()
    assert "Pod 1" in lines and re.match(r"\s+1\s+player\d\s+9\s+3-0-0", lines[4])


@pytest.mark.django_db
def test_the_players_page_reports_confirms_and_drops(world):
    world.configure()
    round_obj = world.pair()
    services.start_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    match = round_obj.matches.get(table=1)
    a = logged_in(world.user_of[match.player_a_id])
    b = logged_in(world.user_of[match.player_b_id])
    page = a.get(f"/matches/events/{world.event.pk}/me/").content.decode()
    assert "Table 1" in page and match.player_b.name in page and "report-result" in page
    response = a.post(f"/matches/matches/{match.pk}/report/", {"won": 3, "lost": 0, "drawn": 0}, follow=True)
    assert "Impossible score" in response.content.decode()
    a.post(f"/matches/matches/{match.pk}/report/", {"won": 2, "lost": 1, "drawn": 0})
    page = b.get(f"/matches/events/{world.event.pk}/me/").content.decode()
    assert "Your opponent reported 1-2-0 for you." in page
    b.post(f"/matches/matches/{match.pk}/confirm/")
    panel = a.get(f"/matches/events/{world.event.pk}/me/panel/").content.decode()
    assert "2-1-0" in panel and "Confirmed" in panel
    response = b.post(f"/matches/events/{world.event.pk}/drop/", follow=True)
    assert "Dropped" in response.content.decode()
    assert world.event.registrations.get(pk=match.player_b_id).match_drop.after_round == 1


@pytest.mark.django_db
def test_the_projector_shows_the_clock_extensions_and_the_end_of_round_procedure(world, settings):
    world.configure(round_minutes=1)
    round_obj = world.pair()
    client = Client()
    assert "find your table" in client.get(f"/matches/events/{world.event.pk}/clock/").content.decode()
    services.start_round(round_id=round_obj.pk, actor=world.organiser)  # now: the real clock
    match = round_obj.matches.get(table=3)
    services.grant_extension(match_id=match.pk, actor=world.judge, minutes=5)
    page = client.get(f"/matches/events/{world.event.pk}/clock/").content.decode()
    assert 'class="countdown"' in page and "Table 3: +5 minutes" in page
    Round.objects.filter(pk=round_obj.pk).update(ends_at=T0)  # time was called long ago
    panel = client.get(f"/matches/events/{world.event.pk}/clock/panel/").content.decode()
    assert "five" in panel.lower() or "5 more turns" in panel
    assert "turn 0" in panel


@pytest.mark.django_db
def test_pairing_round_1_with_decks_missing_or_deck_building_warns_and_pairs_only_when_confirmed():
    """Round 1 before everyone has a legal deck, or while the deck-building clock runs: the
    organiser sees who has no legal deck and pairs only on purpose."""
    import datetime as dt

    from decks.models import Deck
    from drafts.models import PodState
    from tests.matches.conftest import Tournament

    t = Tournament()
    t.configure()
    Pod = type(t.pod)
    Pod.objects.filter(pk=t.pod.pk).update(
        state=PodState.DECK_BUILDING, deck_building_deadline=T0 + dt.timedelta(minutes=25)
    )
    for reg in t.regs[:6]:
        Deck.objects.create(
            event=t.event, registration=reg, format="limited", valid=True, submitted_at=T0, updated_at=T0
        )
    Deck.objects.create(
        event=t.event, registration=t.regs[6], format="limited", valid=False, submitted_at=T0, updated_at=T0
    )
    organiser = logged_in(t.organiser)
    dashboard = organiser.get(f"/matches/events/{t.event.pk}/").content.decode()
    assert "2 players have no legal deck" in dashboard and "Deck building is still going on" in dashboard
    warned = organiser.post(f"/matches/events/{t.event.pk}/pair/", {"pod": t.pod.pk})
    html = warned.content.decode()
    assert warned.status_code == 200 and not Round.objects.exists()
    assert "Player 7" in html and "Player 8" in html and "Player 1:" not in html
    assert "Deck building is still going on" in html and "Pair anyway" in html
    deck_link = re.search(r'href="(/decks/[^"]+)"', html).group(1)  # the illegal deck, followed
    assert organiser.get(deck_link).status_code == 200
    paired = organiser.post(f"/matches/events/{t.event.pk}/pair/", {"pod": t.pod.pk, "confirmed": "yes"}, follow=True)
    assert "Round paired." in paired.content.decode() and Round.objects.filter(number=1).exists()
    # round 2 is paired without a question
    assert selectors.round_one_warning(t.event, t.pod.pk) is None


@pytest.mark.django_db
def test_pairing_round_1_with_every_deck_legal_asks_nothing():
    from decks.models import Deck
    from tests.matches.conftest import Tournament

    t = Tournament()
    t.configure()
    for reg in t.regs:
        Deck.objects.create(
            event=t.event, registration=reg, format="limited", valid=True, submitted_at=T0, updated_at=T0
        )
    organiser = logged_in(t.organiser)
    assert "no legal deck" not in organiser.get(f"/matches/events/{t.event.pk}/").content.decode()
    paired = organiser.post(f"/matches/events/{t.event.pk}/pair/", {"pod": t.pod.pk}, follow=True)
    assert "Round paired." in paired.content.decode()


@pytest.mark.django_db
def test_the_staff_table_says_who_reported_and_whose_score_is_whose(world):
    """Issue 27: not "player4: 2-1-0" (player B's report of player A's score)."""
    world.configure()
    round_obj = world.pair()
    services.start_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    match = round_obj.matches.get(table=1)
    b = logged_in(world.user_of[match.player_b_id])
    b.post(f"/matches/matches/{match.pk}/report/", {"won": 1, "lost": 2, "drawn": 0})
    page = logged_in(world.organiser).get(f"/matches/events/{world.event.pk}/").content.decode()
    a_name, b_name = match.player_a.name, match.player_b.name
    assert f"{b_name} reports: {a_name} 2 – 1 {b_name}, draws 0" in page
    assert f"{b_name}: 2-1-0" not in page
    assert "· Result reported" in page  # the log names the action too


@pytest.mark.django_db
def test_every_date_of_the_matches_log_has_one_format_in_pt_br(world):
    """Issue 27: the log's times were "H:i:s" in every language."""
    from tests.date_formats import PT_BR_DATE, other_date_forms, times

    world.configure()
    round_obj = world.pair()
    services.start_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    client = Client(HTTP_ACCEPT_LANGUAGE="pt-br")
    client.force_login(world.organiser)
    html = client.get(f"/matches/events/{world.event.pk}/").content.decode()
    log = html[html.index('data-region="log"') :]
    assert len(times(log)) >= 2  # paired, started
    assert [t for t in times(html) if not PT_BR_DATE.match(t)] == []
    assert other_date_forms(html) == []
