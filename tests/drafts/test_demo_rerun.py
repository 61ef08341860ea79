"""``make demo`` run again puts the demo back in the state the README describes (issue 46): the
digital Innistrad draft in round 1 with players 2-8 one pick in and player 1 to pick, its matches
set up; the paper draft's two pods paused on pick 1; the accounts' passwords as printed. The
command runs twice here, with the demo played in between."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from drafts import services
from drafts.demo import DEMO_EVENT_NAME, RETIRED_SUFFIX
from drafts.models import DraftCard, Pack, Pick, PodState, Seat
from events.models import Event
from matches import selectors as match_selectors
from matches.models import Round
from paper.demo import DEMO_PAPER_EVENT_NAME
from penalties import services as penalty_services

pytestmark = pytest.mark.django_db


def load_demo() -> str:
    out = io.StringIO()
    call_command("load_demo", "--keep-catalogue", stdout=out)
    return out.getvalue()


def assert_the_readme_state():
    (event,) = Event.objects.filter(name=DEMO_EVENT_NAME)
    (pod,) = event.pods.all()
    assert pod.state == PodState.DRAFTING and pod.round == 1
    picks = {seat.position: Pick.objects.filter(seat=seat).count() for seat in Seat.objects.filter(pod=pod)}
    assert picks == {0: 0, **{position: 1 for position in range(1, 8)}}
    assert match_selectors.match_settings(event.pk) is not None
    assert not Round.objects.filter(event=event).exists()
    (paper,) = Event.objects.filter(name=DEMO_PAPER_EVENT_NAME)
    assert sorted(p.state for p in paper.pods.all()) == [PodState.PAUSED, PodState.PAUSED]
    return event, paper


def test_running_the_demo_again_restores_the_described_state():
    User = get_user_model()
    load_demo()
    event, paper = assert_the_readme_state()
    # Play with it: player 1 picks, a judge issues a penalty (a record the site never deletes),
    # the organiser starts the matches, player 1 changes their password.
    seat = Seat.objects.get(pod__event=event, position=0)
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    card = DraftCard.objects.in_pack(pack).first()
    player1 = User.objects.get(username="player1")
    services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, actor=player1)
    penalty_services.issue_penalty(
        event_id=event.pk,
        registration_id=seat.registration_id,
        infraction_code="slow_play",
        actor=User.objects.get(username="judge"),
        description="Took too long.",
    )
    player1.set_password("something-else-1")
    player1.save()

    output = load_demo()
    fresh, fresh_paper = assert_the_readme_state()
    assert fresh.pk != event.pk and fresh_paper.pk != paper.pk
    # The old paper event is gone; the old draft keeps its penalty, renamed out of the way.
    assert not Event.objects.filter(pk=paper.pk).exists()
    assert Event.objects.get(pk=event.pk).name == DEMO_EVENT_NAME + RETIRED_SUFFIX
    assert User.objects.get(username="player1").check_password("demo-player1")
    assert f"/events/{fresh.pk}/" in output
