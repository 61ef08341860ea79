"""Stable error codes of push notifications (clients switch on these)."""

PUSH_OFF = "push_off"
INVALID_SUBSCRIPTION = "invalid_subscription"
UNKNOWN_TRIGGER = "unknown_trigger"
INVALID_ANNOUNCEMENT = "invalid_announcement"
