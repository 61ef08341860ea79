"""The clock a pod's line shows: one rule for the server's panel (``drafts.dashboards``) and
the live digest (``drafts.state``), which the dashboard's script draws."""

from __future__ import annotations

from drafts.models import PodState, effective_state


def shown_clock(
    *,
    state: str,
    paused_from: str | None,
    review_deadline,
    deck_building_deadline,
    paused_remaining_ms: int | None,
    soonest_pick=None,
    soonest_paused_ms: int | None = None,
) -> tuple[str | None, object, int | None]:
    """(kind, deadline, frozen ms) of the clock a pod's line shows: review, deck building, or
    the first pick timer to run out. A running clock has a deadline; a paused pod's clock has
    only the time it had left. Deadlines pass through as given (datetimes, or the live
    document's ISO text). The one rule of the server's panel and the live digest."""
    effective = effective_state(state, paused_from)
    kind, deadline, frozen = None, None, None
    if effective == PodState.REVIEWING:
        kind, deadline = "review", review_deadline
    elif effective == PodState.DECK_BUILDING:
        kind, deadline = "deck_building", deck_building_deadline
    elif effective == PodState.DRAFTING and (soonest_pick is not None or soonest_paused_ms is not None):
        kind, deadline, frozen = "pick", soonest_pick, soonest_paused_ms
    if state == PodState.PAUSED:
        if effective in (PodState.REVIEWING, PodState.DECK_BUILDING):
            frozen = paused_remaining_ms
        deadline = None
    return kind, deadline, frozen
