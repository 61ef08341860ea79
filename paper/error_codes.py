"""Stable error codes of the called paper draft (clients switch on these)."""

UNKNOWN_EVENT = "unknown_event"  # no such event, or not a paper draft event
UNKNOWN_PAPER_POD = "unknown_paper_pod"  # no such pod, or not a pod of a paper draft event
UNKNOWN_FLIGHT = "unknown_flight"
UNKNOWN_CONTROL = "unknown_control"  # not one of the pod and flight controls
NOT_EVENT_STAFF = (
    "not_event_staff"  # not the event's organiser (start, flights, links) or staff (controls): events.access
)
NOT_YOUR_SEAT = "not_your_seat"
FOLLOWING_NOT_ALLOWED = "following_not_allowed"

CALL_ALREADY_STARTED = "call_already_started"
CALL_NOT_STARTED = "call_not_started"
CALL_FINISHED = "call_finished"
CALL_PAUSED = "call_paused"
CALL_NOT_PAUSED = "call_not_paused"
NOT_PICKING = "not_picking"  # repeat a pick / skip to the review: only while a pick is called
TOO_FEW_PLAYERS = "too_few_players"
INVALID_DELAY = "invalid_delay"
REASON_REQUIRED = "reason_required"
INVALID_REASON = "invalid_reason"
EMPTY_FLIGHT = "empty_flight"

NOT_A_DFC = "not_a_dfc"  # R16: only double-faced cards are open information
UNKNOWN_CARD = "unknown_card"
INVALID_COUNT = "invalid_count"
NOT_POSTED = "not_posted"
