"""Stable error codes of the matches app (clients match on these, never on messages)."""

INVALID_HISTORY = "invalid_history"  # POST /api/standings/compute got an impossible history

UNKNOWN_EVENT = "unknown_event"
UNKNOWN_POD = "unknown_pod"
UNKNOWN_ROUND = "unknown_round"
UNKNOWN_MATCH = "unknown_match"
NOT_REGISTERED = "not_registered"  # the player is not in this event (or this pod)

NOT_EVENT_STAFF = "not_event_staff"  # not an organiser (pairing, rounds, settings) or staff (results, extensions, drops): drafts.access
NOT_YOUR_MATCH = "not_your_match"  # reporting or confirming someone else's match

MATCHES_NOT_STARTED = "matches_not_started"  # the event has no match settings yet
INVALID_SETTINGS = "invalid_settings"
SETTINGS_LOCKED = "settings_locked"  # the mode cannot change once rounds exist
POD_REQUIRED = "pod_required"  # per-pod mode pairs one pod at a time
POD_NOT_ALLOWED = "pod_not_allowed"  # across-the-event mode pairs the whole event
TOO_FEW_PLAYERS = "too_few_players"
ROUND_IN_PROGRESS = "round_in_progress"  # the previous round is not finished
ALL_ROUNDS_PLAYED = "all_rounds_played"
ROUND_NOT_STARTED = "round_not_started"
ROUND_ALREADY_STARTED = "round_already_started"  # pairings are repaired before the round starts
ROUND_CLOSED = "round_closed"  # a player's report after the round was closed
RESULTS_OUTSTANDING = "results_outstanding"  # closing a round with matches unreported
INVALID_REPAIR = "invalid_repair"
PLAYER_DROPPED = "player_dropped"  # pairing a dropped player
ALREADY_DROPPED = "already_dropped"

IMPOSSIBLE_SCORE = "impossible_score"  # e.g. 3-0 in a best-of-three
INVALID_IDEMPOTENCY_KEY = "invalid_idempotency_key"  # a report's key: 8-64 letters, digits, - or _
BYE_HAS_NO_RESULT = "bye_has_no_result"
RESULT_CONFIRMED = "result_confirmed"  # players can't change a confirmed result (staff can)
NOTHING_TO_CONFIRM = "nothing_to_confirm"
CANNOT_CONFIRM_OWN_REPORT = "cannot_confirm_own_report"
INVALID_EXTENSION = "invalid_extension"
REASON_REQUIRED = "reason_required"
