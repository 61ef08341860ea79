"""Stable error codes of the decks app (clients and tests compare these strings)."""

# --- what the deck validation reports (200 with valid=false): the pure core's own codes ---
from decks.validation.codes import *  # noqa: F401,F403  (defined once, in the core)

# --- request problems (400/403/404/409) ------------------------------------------------
FILE_TOO_LARGE = "file_too_large"
UNREADABLE_FILE = "unreadable_file"
EMPTY_DECKLIST = "empty_decklist"
INVALID_DECKLIST = "invalid_decklist"
INVALID_COUNT = "invalid_count"
TOO_MANY_ENTRIES = "too_many_entries"
INVALID_CHECKLIST_LINE = "invalid_checklist_line"
DECKLIST_LOCKED = "decklist_locked"
NOT_REGISTERED = "not_registered"
NOT_YOUR_DECK = "not_your_deck"
UNKNOWN_EVENT = "unknown_event"
UNKNOWN_DECK = "unknown_deck"
UNKNOWN_REGISTRATION = "unknown_registration"
UNKNOWN_SELECTION = "unknown_selection"
NO_POOL = "no_pool"
POOL_NOT_READY = "pool_not_ready"
NO_DECK = "no_deck"
NO_CHANGE = "no_change"
INVALID_FINDING = "invalid_finding"
TOO_LONG = "too_long"  # a deck check's description, card list or notes past its limit (refused, never cut)
NOTHING_TO_CHECK = "nothing_to_check"
INVALID_FILTER = "invalid_filter"
INVALID_POLICY = "invalid_policy"
INVALID_PERCENT = "invalid_percent"
INVALID_METHOD = "invalid_method"
REASON_REQUIRED = "reason_required"
NULL_CHARACTERS_NOT_ALLOWED = "null_characters_not_allowed"
INVALID = "invalid"  # a field or a combination of fields that is not allowed
REQUIRED = "required"  # something that must be given is missing
UNKNOWN_EXPORT_FORMAT = "unknown_export_format"
UNKNOWN_POD = "unknown_pod"
UNKNOWN_SEAT = "unknown_seat"
LOG_NOT_PUBLIC = "log_not_public"
DECKLISTS_NOT_PUBLISHED = "decklists_not_published"
NO_MTGO_ID = "no_mtgo_id"  # a .dek asked for a list with a card MTGO has no id for
