"""The events API: an event's staff and their invitation links (under /api/)."""
