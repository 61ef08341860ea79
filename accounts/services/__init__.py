"""Writes of accounts: sign-up and profiles (profiles.py), mail in the reader's language
(mail.py), joining events by link, the waitlist and drops (joining.py)."""

from accounts.services.checkin import check_in, set_check_in_open, staff_check_in
from accounts.services.joining import (
    JoinResult,
    close_registration,
    drop_registration,
    join_event,
    leave_waitlist,
    open_registration,
    self_register,
)
from accounts.services.mail import send_user_mail
from accounts.services.profiles import sign_up, signup_allowed, update_profile

__all__ = [
    "JoinResult",
    "check_in",
    "set_check_in_open",
    "staff_check_in",
    "close_registration",
    "drop_registration",
    "leave_waitlist",
    "join_event",
    "open_registration",
    "self_register",
    "send_user_mail",
    "sign_up",
    "signup_allowed",
    "update_profile",
]
