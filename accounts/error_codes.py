"""Stable error codes of accounts and joining events (clients switch on these)."""

SIGNUP_CLOSED = "signup_closed"
UNKNOWN_JOIN_LINK = "unknown_join_link"
REGISTRATION_CLOSED = "registration_closed"
REGISTRATION_FULL = "registration_full"
ALREADY_WAITLISTED = "already_waitlisted"
ALREADY_REGISTERED = "already_registered"
ALREADY_SEATED = "already_seated"
NOT_REGISTERED = "not_registered"
INVALID_CAPACITY = "invalid_capacity"
GUEST_ONLINE_SEAT = "guest_online_seat"
INVALID_CSV = "invalid_csv"
INVALID_LANGUAGE = "invalid_language"
USERNAME_TAKEN = "username_taken"
CHECK_IN_CLOSED = "check_in_closed"
UNKNOWN_REGISTRATION = "unknown_registration"
INVISIBLE_NAME = "invisible_name"  # a display name with no visible character (only U+202E, U+200B, ...)
NAME_TOO_LONG = "name_too_long"  # refused, never cut
