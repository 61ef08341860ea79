"""Stable error codes of the card catalogue's API."""

UNKNOWN_CARD = "unknown_card"
QUERY_TOO_LONG = "query_too_long"
INVALID_FILTER = "invalid_filter"
# A set given by code or name that the catalogue does not have (event creation, the set filter).
UNKNOWN_SET = "unknown_set"
