"""Whether pages offer a "Sign up" link (only when anyone may sign up, settings.SIGNUP_MODE)."""

from accounts.services.profiles import signup_allowed


def accounts(request):
    return {"signup_link": signup_allowed(None)}
