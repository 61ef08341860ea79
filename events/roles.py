"""Site-wide roles, held as Django auth groups.

Per-event staff assignments arrive with events; these groups say what a user may do on the
site as a whole (an organiser may create events, a head judge reviews penalties, and so on).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser, AnonymousUser
from django.utils.translation import gettext_lazy

ORGANISER = "organiser"
JUDGE = "judge"
HEAD_JUDGE = "head judge"
PLAYER = "player"

ALL_ROLES = (ORGANISER, HEAD_JUDGE, JUDGE, PLAYER)
# What the navigation bar calls each role, in the reader's language.
ROLE_LABELS = {
    ORGANISER: gettext_lazy("Organiser"),
    HEAD_JUDGE: gettext_lazy("Head judge"),
    JUDGE: gettext_lazy("Judge"),
    PLAYER: gettext_lazy("Player"),
}


def user_roles(user: AbstractUser | AnonymousUser) -> list[str]:
    """The user's roles, most senior first. Staff users hold every role."""
    if not user.is_authenticated:
        return []
    if user.is_superuser:
        return list(ALL_ROLES)
    names = set(user.groups.values_list("name", flat=True))
    return [role for role in ALL_ROLES if role in names]


def has_role(user, role: str) -> bool:
    return role in user_roles(user)
