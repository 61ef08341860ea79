"""Stable error codes of the card catalogue's API."""

UNKNOWN_CARD = "unknown_card"
QUERY_TOO_LONG = "query_too_long"
INVALID_FILTER = "invalid_filter"
