"""The codes of the problems the deck validation reports. The decks app's error codes
(``decks.error_codes``) import these: they are defined here, once, so the core imports nothing."""

# --- errors (the deck is invalid) --------------------------------------------------------
UNKNOWN_CARD = "unknown_card"
# A name printed on several different cards in some language: the player must say which.
AMBIGUOUS_CARD_NAME = "ambiguous_card_name"
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

# --- warnings (never make a deck invalid) ---------------------------------------------------
NO_COMMANDER = "no_commander"
SECTION_IGNORED = "section_ignored"
