"""Stable error codes of the rules desk (clients and tests compare these strings)."""

UNKNOWN_CARD = "unknown_card"  # the same code as the catalogue's (cards.error_codes)
INVALID_ACTION = "invalid_action"
TOO_MANY_ACTIONS = "too_many_actions"
