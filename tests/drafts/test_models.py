"""Model-level rules of the draft engine."""

from drafts.models import PodAction, PodState, effective_state


def test_a_paused_pod_is_in_the_state_it_resumes_to():
    assert effective_state(PodState.PAUSED, PodState.REVIEWING) == PodState.REVIEWING
    assert effective_state(PodState.DRAFTING, "") == PodState.DRAFTING


def test_every_pod_action_has_a_log_text():
    from drafts.dashboards import LOG_TEXT

    for action in PodAction:
        assert action in LOG_TEXT, action
