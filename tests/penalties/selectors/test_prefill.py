"""Prefilling the issue form from a timer pick or a deck check, and the list of automatic picks
not yet handled."""

from __future__ import annotations

import datetime as dt

import pytest

from drafts import services as draft_services
from drafts.models import Pick, PickKind
from draftsite.errors import ConflictError, DomainError
from events.models import StaffRole
from penalties import selectors, services
from penalties.models import Penalty
from tests.factories import EventStaffFactory, UserFactory
from tests.penalties.conftest import T0, codes, make_pod

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(world, cube_names):
    """An 8-seat pod of its own event (the world's judges staff it) whose first picks timed out."""
    drafters = [world.player, world.other_player] + [UserFactory(username=f"drafter{i}") for i in range(6)]
    pod = make_pod(world.organiser, drafters, cube_names, now=T0)
    for user, role in ((world.judge, StaffRole.JUDGE), (world.head_judge, StaffRole.HEAD_JUDGE)):
        EventStaffFactory(event=pod.event, user=user, role=role)
    draft_services.enforce_deadlines(pod_id=pod.pk, now=T0 + dt.timedelta(seconds=41))
    timeouts = Pick.objects.filter(seat__pod=pod, kind=PickKind.TIMEOUT)
    assert timeouts.count() == 8
    pick = timeouts.get(seat__registration__user=world.player)
    return pod, pick


def test_prefill_from_a_timeout_pick(world, draft, client):
    pod, pick = draft
    client.force_login(world.judge)
    response = client.get(f"/penalties/new/?event={pod.event_id}&source=pick:{pick.pk}")
    assert response.status_code == 200
    form = response.context["form"]
    assert form.initial["registration"] == pick.seat.registration_id
    assert form.initial["infraction"] == "limited_procedure_violation"
    assert (form.initial["pod"], form.initial["draft_round"], form.initial["pick_number"]) == (pod.pk, 1, 1)
    assert form.initial["source"] == f"pick:{pick.pk}"
    assert "timer ran out" in form.initial["description"]
    html = response.content.decode()
    assert f'value="pick:{pick.pk}"' in html and 'value="limited_procedure_violation" selected' in html


def test_prefill_takes_the_query_parameters(world, client):
    client.force_login(world.judge)
    response = client.get(
        f"/penalties/new/?event={world.event.pk}&registration={world.reg.pk}"
        f"&infraction=deck_problem&description=Found+a+Forest+too+many&source=deck_check:7"
    )
    initial = response.context["form"].initial
    assert initial == {
        "registration": world.reg.pk,
        "infraction": "deck_problem",
        "description": "Found a Forest too many",
        "source": "deck_check:7",
    }


def test_prefill_ignores_what_does_not_belong_to_the_event(world, client):
    client.force_login(world.judge)
    response = client.get(
        f"/penalties/new/?event={world.event.pk}&registration={world.elsewhere_reg.pk}"
        f"&infraction=nope&source=pick:123456"
    )
    assert response.status_code == 200 and response.context["form"].initial == {}


def test_issuing_from_a_pick_fills_pod_round_and_pick(world, draft):
    pod, pick = draft
    penalty = services.issue_penalty(
        event_id=pod.event_id,
        registration_id=pick.seat.registration_id,
        infraction_code="limited_procedure_violation",
        actor=world.judge,
        description="Timer ran out.",
        source=f"pick:{pick.pk}",
        now=T0,
    )
    assert (penalty.pod_id, penalty.draft_round, penalty.pick_number) == (pod.pk, 1, 1)
    assert penalty.source == f"pick:{pick.pk}" and penalty.penalty == "warning"


def test_a_pick_is_handled_once(world, draft):
    pod, pick = draft
    kwargs = dict(
        event_id=pod.event_id,
        registration_id=pick.seat.registration_id,
        infraction_code="limited_procedure_violation",
        actor=world.judge,
        description="Timer.",
        source=f"pick:{pick.pk}",
    )
    services.issue_penalty(**kwargs)
    with pytest.raises(ConflictError) as refused:
        services.issue_penalty(**kwargs)
    assert refused.value.code == "already_handled"


def test_a_pick_of_another_player_is_refused(world, draft):
    pod, pick = draft
    other = Pick.objects.get(seat__pod=pod, kind=PickKind.TIMEOUT, seat__registration__user=world.other_player)
    with pytest.raises(DomainError) as refused:
        services.issue_penalty(
            event_id=pod.event_id,
            registration_id=pick.seat.registration_id,
            infraction_code="limited_procedure_violation",
            actor=world.judge,
            description="Timer.",
            source=f"pick:{other.pk}",
        )
    assert refused.value.code == "source_mismatch"
    assert not Penalty.objects.exists()


def test_a_manual_pick_is_no_source(world, draft, cube_names):
    pod, pick = draft
    seat = pick.seat
    from drafts.models import DraftCard, Pack

    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    card = DraftCard.objects.in_pack(pack).first()
    manual = draft_services.make_pick(
        seat_id=seat.pk, draft_card_id=card.pk, actor=world.player, now=T0 + dt.timedelta(seconds=45)
    )
    with pytest.raises(DomainError) as refused:
        services.issue_penalty(
            event_id=pod.event_id,
            registration_id=seat.registration_id,
            infraction_code="limited_procedure_violation",
            actor=world.judge,
            description="x",
            source=f"pick:{manual.pk}",
        )
    assert refused.value.code == "invalid_source"


def test_event_page_lists_unhandled_timeout_picks_with_an_issue_link(world, draft, client):
    pod, pick = draft
    client.force_login(world.judge)
    html = client.get(f"/penalties/events/{pod.event_id}/").content.decode()
    link = (
        f"/penalties/new/?event={pod.event_id}&amp;registration={pick.seat.registration_id}"
        f"&amp;infraction=limited_procedure_violation&amp;source=pick:{pick.pk}"
    )
    assert link in html and "Issue penalty" in html
    assert len(selectors.unhandled_timeout_picks(pod.event)) == 8
    services.issue_penalty(
        event_id=pod.event_id,
        registration_id=pick.seat.registration_id,
        infraction_code="limited_procedure_violation",
        actor=world.judge,
        description="Timer.",
        source=f"pick:{pick.pk}",
    )
    remaining = selectors.unhandled_timeout_picks(pod.event)
    assert len(remaining) == 7 and pick not in remaining


def test_timeout_picks_api_and_dismissal(world, draft):
    pod, pick = draft
    judge = world.client(world.judge)
    listed = judge.get(f"/api/events/{pod.event_id}/timeout-picks/").json()
    assert len(listed) == 8 and {"source", "player", "pod_number", "round", "pick_number"} <= set(listed[0])
    no_reason = judge.post(f"/api/events/{pod.event_id}/timeout-picks/", {"source": f"pick:{pick.pk}"}, format="json")
    assert no_reason.status_code == 400 and codes(no_reason) == ["reason_required"]
    ok = judge.post(
        f"/api/events/{pod.event_id}/timeout-picks/",
        {"source": f"pick:{pick.pk}", "reason": "The venue's wifi dropped."},
        format="json",
    )
    assert ok.status_code == 201
    assert len(judge.get(f"/api/events/{pod.event_id}/timeout-picks/").json()) == 7
    again = judge.post(
        f"/api/events/{pod.event_id}/timeout-picks/", {"source": f"pick:{pick.pk}", "reason": "again"}, format="json"
    )
    assert again.status_code == 409 and codes(again) == ["already_handled"]
    player = world.client(world.player).get(f"/api/events/{pod.event_id}/timeout-picks/")
    assert player.status_code == 403


def test_deck_check_source_is_stored_as_text(world):
    penalty = world.issue("deck_problem", source="deck_check:42")
    assert penalty.source == "deck_check:42"


def test_a_judge_dismisses_many_automatic_picks_at_once_on_the_page(world, draft, client):
    """The penalties page: tick several automatic picks, give one reason, one submit."""
    pod, pick = draft
    client.force_login(world.judge)
    html = client.get(f"/penalties/events/{pod.event_id}/").content.decode()
    assert 'form="dismiss-many"' in html and 'id="dismiss-many"' in html
    chosen = [p.pk for p in Pick.objects.filter(seat__pod=pod, kind=PickKind.TIMEOUT).order_by("pk")[:5]]
    response = client.post(
        f"/penalties/events/{pod.event_id}/dismiss-many/",
        {"source": [f"pick:{pk}" for pk in chosen], "reason": "The venue's wifi dropped."},
        follow=True,
    )
    assert "5 automatic picks dismissed: no infraction." in response.content.decode()
    remaining = selectors.unhandled_timeout_picks(pod.event)
    assert len(remaining) == 3 and not {p.pk for p in remaining} & set(chosen)
    nothing = client.post(f"/penalties/events/{pod.event_id}/dismiss-many/", {"reason": "x"}, follow=True)
    assert "Choose at least one automatic pick" in nothing.content.decode()
    assert len(selectors.unhandled_timeout_picks(pod.event)) == 3


def test_dismissing_many_is_all_or_nothing_and_has_an_api(world, draft):
    pod, pick = draft
    judge = world.client(world.judge)
    url = f"/api/events/{pod.event_id}/timeout-picks/dismiss/"
    sources = [listed["source"] for listed in judge.get(f"/api/events/{pod.event_id}/timeout-picks/").json()]
    services.dismiss_source(event_id=pod.event_id, source=sources[0], actor=world.head_judge, reason="Seen.")
    clash = judge.post(url, {"sources": sources[:4], "reason": "Wifi."}, format="json")
    assert clash.status_code == 409 and codes(clash) == ["already_handled"]
    assert clash.json()["errors"][0]["sources"] == sources[:1]
    assert len(selectors.unhandled_timeout_picks(pod.event)) == 7  # nothing of the four stored
    for body, code in (
        ({"sources": [], "reason": "x"}, "no_sources"),
        ({"sources": ["deck_check:1"], "reason": "x"}, "invalid_source"),
        ({"sources": sources[1:3]}, "reason_required"),
    ):
        refused = judge.post(url, body, format="json")
        assert refused.status_code == 400 and codes(refused) == [code], refused.json()
    ok = judge.post(url, {"sources": sources[1:], "reason": "Wifi."}, format="json")
    assert ok.status_code == 201 and ok.json()["dismissed"] == sources[1:]
    assert selectors.unhandled_timeout_picks(pod.event) == []
    assert world.client(world.player).post(url, {"sources": sources, "reason": "x"}, format="json").status_code == 403


def test_a_single_dismissal_racing_a_dismissal_of_many_leaves_nothing_half_done(world, draft, monkeypatch):
    """Race: another judge dismisses one of the picks between the check and the insert (the
    check is made to miss it); the unique constraint refuses the whole dismissal of many."""
    pod, pick = draft
    sources = [f"pick:{p.pk}" for p in Pick.objects.filter(seat__pod=pod, kind=PickKind.TIMEOUT).order_by("pk")[:3]]
    services.dismiss_source(event_id=pod.event_id, source=sources[1], actor=world.head_judge, reason="Seen.")
    monkeypatch.setattr(services, "_source_handled", lambda event, source: False)
    with pytest.raises(ConflictError) as refused:
        services.dismiss_sources(event_id=pod.event_id, sources=sources, actor=world.judge, reason="Wifi.")
    assert refused.value.code == "already_handled"
    from penalties.models import DismissedSource

    assert list(DismissedSource.objects.filter(event=pod.event).values_list("source", flat=True)) == [sources[1]]


def test_the_issue_page_offers_sources_in_words_and_the_penalty_shows_them(world, draft, client):
    """Issue 27: the page says "Timer pick: alice, pod 1, pack 1, pick 1", not "pick:<id>"."""
    pod, pick = draft
    client.force_login(world.judge)
    html = client.get(f"/penalties/new/?event={pod.event_id}&source=pick:{pick.pk}").content.decode()
    assert f'<option value="pick:{pick.pk}" selected>Timer pick: alice, pod 1, pack 1, pick 1</option>' in html
    assert "Nothing else (what the judge saw)" in html
    assert "deck_check:&lt;id&gt;" not in html and "pick:&lt;id&gt;" not in html and "deck_check:<id>" not in html
    form = client.get(f"/penalties/new/?event={pod.event_id}&source=pick:{pick.pk}").context["form"]
    data = {key: value for key, value in form.initial.items() if value is not None}
    response = client.post(f"/penalties/new/?event={pod.event_id}", {**data, "event": pod.event_id})
    assert response.status_code == 302, response.content.decode()[:2000]
    penalty = Penalty.objects.get(source=f"pick:{pick.pk}")
    detail = client.get(f"/penalties/{penalty.pk}/").content.decode()
    assert "Timer pick: alice, pod 1, pack 1, pick 1" in detail and f"pick:{pick.pk}<" not in detail
