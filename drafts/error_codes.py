"""Stable error codes of the draft engine's API (clients switch on these)."""

# Events, registration, seating
UNKNOWN_EVENT = "unknown_event"
UNKNOWN_POD = "unknown_pod"
UNKNOWN_SET = "unknown_set"
UNKNOWN_CARD = "unknown_card"
INVALID_CUBE = "invalid_cube"
INVALID_SETS = "invalid_sets"
NOT_REGISTERED = "not_registered"
TOO_FEW_PLAYERS = "too_few_players"
POD_TOO_LARGE = "pod_too_large"
SEATING_LOCKED = "seating_locked"
INVALID_SEATING = "invalid_seating"
NOT_ENOUGH_CARDS = "not_enough_cards"
UNKNOWN_BOOSTER_KIND = "unknown_booster_kind"  # a booster kind the set does not offer
INVALID_BOOSTER_KINDS = "invalid_booster_kinds"  # not one kind per round (or one for all)

# Pod control
POD_NOT_STARTED = "pod_not_started"
POD_ALREADY_STARTED = "pod_already_started"
POD_PAUSED = "pod_paused"
POD_NOT_PAUSED = "pod_not_paused"
NO_RUNNING_POD = "no_running_pod"  # "pause all" with nothing to pause
NO_PAUSED_POD = "no_paused_pod"
PAPER_PODS_ARE_CALLED = "paper_pods_are_called"  # paper pods pause through their calls
POD_NOT_DRAFTING = "pod_not_drafting"
POD_NOT_REVIEWING = "pod_not_reviewing"
POD_FINISHED = "pod_finished"
SEAT_TAKEN = "seat_taken"
INVALID_TIMER = "invalid_timer"
NO_RUNNING_CLOCK = "no_running_clock"
DRAFT_NOT_OVER = "draft_not_over"
INVALID_REPLACEMENT = "invalid_replacement"
GUEST_ONLINE_SEAT = "guest_online_seat"  # a guest (no account) cannot hold an online seat
PAPER_POD = "paper_pod"  # a paper draft's pod is called (paper app), never run by this engine

# Picks and piles
NO_PACK = "no_pack"
WRONG_PACK = "wrong_pack"
CARD_NOT_IN_PACK = "card_not_in_pack"
ALREADY_PICKED = "already_picked"
CARD_NOT_IN_PILE = "card_not_in_pile"
INVALID_POSITION = "invalid_position"
INVALID_PICK = "invalid_pick"
INVALID_PILE_COVER = "invalid_pile_cover"

# Access
NOT_YOUR_SEAT = "not_your_seat"
UNKNOWN_SEAT = "unknown_seat"

# Live sockets
UNKNOWN_MESSAGE = "unknown_message"

# Card sheets and look-ups (drafts.views.cardsheet)
UNSUPPORTED_LANGUAGE = "unsupported_language"
NO_CARD_IDS = "no_card_ids"
INVALID_CARD_IDS = "invalid_card_ids"
TOO_MANY_CARD_IDS = "too_many_card_ids"
