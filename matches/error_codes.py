"""Stable error codes of the matches app (clients match on these, never on messages)."""

INVALID_HISTORY = "invalid_history"          # POST /api/standings/compute got an impossible history
