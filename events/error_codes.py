"""Stable error codes of the events API and the one access layer (clients switch on these)."""

# Events and registration
UNKNOWN_EVENT = "unknown_event"
INVALID_NAME = "invalid_name"
ALREADY_REGISTERED = "already_registered"

# Access (events.access: every app's refusals, a pod's and a seat's too)
NOT_EVENT_STAFF = "not_event_staff"  # not the event's organiser, or not its staff (organisers and judges)
NOT_HEAD_JUDGE = "not_head_judge"  # not the event's head judge
NOT_IN_POD = "not_in_pod"
NOT_YOUR_SEAT = "not_your_seat"
NOT_AUTHENTICATED = "not_authenticated"

# Staff and event settings
UNKNOWN_USER = "unknown_user"
INVALID_ROLE = "invalid_role"
ALREADY_STAFF = "already_staff"
STAFF_IS_PLAYER = "staff_is_player"  # a warning, not a refusal: the judge is seated as a player
LAST_ORGANISER = "last_organiser"
UNKNOWN_STAFF = "unknown_staff"
INVALID_INVITATION = "invalid_invitation"
INVITATION_USED = "invitation_used"
INVITATION_EXPIRED = "invitation_expired"
INVALID_FIELD = "invalid_field"
INVALID_CHOICE = "invalid_choice"
INVALID_MINUTES = "invalid_minutes"
