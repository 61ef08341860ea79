"""Stable error codes of the decks app (clients and tests compare these strings)."""

# --- what the deck check reports (200 with valid=false) -------------------------------
UNKNOWN_CARD = "unknown_card"
AMBIGUOUS_CARD_NAME = "ambiguous_card_name"  # a printed name several cards share
DECK_TOO_SMALL = "deck_too_small"
DECK_TOO_LARGE = "deck_too_large"
TOO_MANY_COPIES = "too_many_copies"
NOT_IN_POOL = "not_in_pool"
COLOR_IDENTITY = "color_identity"
SIDEBOARD_TOO_LARGE = "sideboard_too_large"
CHECKLIST_NO_MARK = "checklist_no_mark"
CHECKLIST_MULTIPLE_MARKS = "checklist_multiple_marks"
CHECKLIST_UNOFFICIAL = "checklist_unofficial"
CHECKLIST_NOT_LISTED = "checklist_not_listed"
CHECKLIST_PARTIAL = "checklist_partial"
CHECKLIST_MISMATCH = "checklist_mismatch"
DFC_NEEDS_SLEEVES_OR_CHECKLIST = "dfc_needs_sleeves_or_checklist"

CHECK_ERRORS = (
    UNKNOWN_CARD, DECK_TOO_SMALL, DECK_TOO_LARGE, TOO_MANY_COPIES, NOT_IN_POOL, COLOR_IDENTITY,
    SIDEBOARD_TOO_LARGE, CHECKLIST_NO_MARK, CHECKLIST_MULTIPLE_MARKS, CHECKLIST_UNOFFICIAL,
    CHECKLIST_NOT_LISTED, CHECKLIST_PARTIAL, CHECKLIST_MISMATCH, DFC_NEEDS_SLEEVES_OR_CHECKLIST,
)

# --- warnings (never make a deck invalid) ----------------------------------------------
NO_COMMANDER = "no_commander"
SECTION_IGNORED = "section_ignored"

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
NOT_EVENT_STAFF = "not_event_staff"
UNKNOWN_EVENT = "unknown_event"
UNKNOWN_DECK = "unknown_deck"
UNKNOWN_REGISTRATION = "unknown_registration"
UNKNOWN_SELECTION = "unknown_selection"
NO_POOL = "no_pool"
POOL_NOT_READY = "pool_not_ready"
WRONG_FORMAT = "wrong_format"
NO_DECK = "no_deck"
NO_CHANGE = "no_change"
INVALID_FINDING = "invalid_finding"
NOTHING_TO_CHECK = "nothing_to_check"
