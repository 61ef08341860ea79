"""Issue 31: paper's reads never write, its services tell live pages through ``paper.live``
once they commit, and the one task is booked by a name it is registered under."""

from __future__ import annotations

import pytest

from drafts import dashboards
from drafts.models import Pod, PodLogEntry, PodState
from draftsite.celery import app as celery_app
from paper import live, schedule, selectors, services, tasks
from paper.models import CallAction
from tests.paper.conftest import T0, s

pytestmark = pytest.mark.django_db

MTR_15 = [40, 40, 35, 30, 25, 25, 20, 20, 15, 10, 10, 5, 5, 5]
DRAFT_SECONDS = 3 * sum(MTR_15) + 60 + 90  # the picks and reviews of three packs of 15, as in test_calls


def _started(paper, organiser):
    _, (pod, _) = paper
    services.start_call(pod_id=pod.pk, actor=organiser, now=T0)
    return Pod.objects.select_related("event").get(pk=pod.pk)


def test_reading_the_call_writes_nothing_settling_it_does(paper, organiser):
    pod = _started(paper, organiser)
    later = T0 + s(DRAFT_SECONDS + 1)  # time alone moved the call into deck building
    version = pod.version
    view = selectors.call_view(pod, staff=True, now=later)
    rows = selectors.event_rows(pod.event, later)
    assert view["call"]["phase"] == schedule.DECK_BUILDING
    assert next(r for r in rows if r["pod"].pk == pod.pk)["call"].phase == schedule.DECK_BUILDING
    stored = Pod.objects.get(pk=pod.pk)
    assert (stored.state, stored.version) == (PodState.DRAFTING, version)  # the reads left it alone

    settled = services.settle_if_due(pod=pod, now=later)
    assert settled.state == PodState.DECK_BUILDING and settled.version == version + 1
    assert services.settle_if_due(pod=settled, now=later) is settled  # nothing due: no write, no read


def test_settling_an_event_settles_every_called_pod(paper, organiser):
    pod = _started(paper, organiser)
    services.settle_event_if_due(event=pod.event, now=T0 + s(DRAFT_SECONDS + 25 * 60))
    assert Pod.objects.get(pk=pod.pk).state == PodState.DONE
    assert PodLogEntry.objects.filter(pod=pod, action=CallAction.OVER).count() == 1


def test_the_draft_apps_dashboard_reads_a_paper_event_as_its_service_settled_it(paper, organiser):
    pod = _started(paper, organiser)
    at = T0 + s(DRAFT_SECONDS + 1)
    services.settle_event_if_due(event=pod.event, now=at)
    rows = selectors.event_rows(pod.event, at)
    assert next(r for r in rows if r["pod"].pk == pod.pk)["pod"].state == PodState.DECK_BUILDING
    assert Pod.objects.get(pk=pod.pk).state == PodState.DECK_BUILDING


def test_services_tell_live_pages_through_paper_live_after_the_commit(
    paper, organiser, django_capture_on_commit_callbacks, monkeypatch
):
    _, (pod, _) = paper
    told, closed = [], []
    monkeypatch.setattr(live, "call_changed", lambda pod_id, version: told.append((pod_id, version)))
    monkeypatch.setattr(live, "close_followers", lambda pod_id: closed.append(pod_id))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.start_call(pod_id=pod.pk, actor=organiser, now=T0)
    assert told == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert told == [(pod.pk, Pod.objects.get(pk=pod.pk).version)]
    with django_capture_on_commit_callbacks(execute=True):
        services.regenerate_follow_link(pod_id=pod.pk, actor=organiser, now=T0 + s(5))
    assert closed == [pod.pk]


def test_the_settle_task_is_registered_under_the_name_it_is_booked_by():
    assert tasks.settle_call.name == live.SETTLE_CALL_TASK
    assert celery_app.tasks[live.SETTLE_CALL_TASK].name == live.SETTLE_CALL_TASK


def test_every_control_logs_an_action_the_call_log_names(paper, organiser):
    pod = _started(paper, organiser)
    for action, kwargs in [("pause", {"reason": "a fallen card"}), ("resume", {}), ("repeat-pick", {})]:
        services.control_pod(pod_id=pod.pk, action=action, actor=organiser, now=T0 + s(60), **kwargs)
    actions = set(PodLogEntry.objects.filter(pod=pod).values_list("action", flat=True))
    assert actions == {CallAction.START, CallAction.PAUSE, CallAction.RESUME, CallAction.REPEAT_PICK}
    assert actions <= set(selectors.CALL_ACTIONS)
    assert all(entry["text"] != entry["action"] for entry in selectors.call_log(pod))


def test_the_draft_engines_pod_log_shows_a_call_by_papers_label(paper, organiser):
    pod = _started(paper, organiser)
    entry = PodLogEntry.objects.get(pod=pod, action=CallAction.START)
    assert entry.get_action_display() == "Call started"  # PodLogEntry.action takes paper's actions
    assert [e["text"] for e in dashboards.log_entries(pod)] == ["Call started"]


def test_the_settle_task_calls_the_service_once_and_ignores_a_gone_pod(paper, organiser):
    pod = _started(paper, organiser)  # called days ago (T0): the draft is over by now
    assert tasks.settle_call(pod.pk) is True
    assert Pod.objects.get(pk=pod.pk).state == PodState.DONE
    assert tasks.settle_call(pod.pk) is False  # nothing due any more
    assert tasks.settle_call(pod.pk + 10_000) is False
