"""Template filters of the event pages: the event log's actions and staff roles as words."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy

from events.models import StaffRole

register = template.Library()

# The event log's action codes (events.services.staff.log_event and the apps that log to it)
# as words; tests/drafts/views/test_words.py checks every code a service writes is here.
LOG_ACTIONS = {
    "staff_added": gettext_lazy("Added to the staff"),
    "staff_removed": gettext_lazy("Removed from the staff"),
    "staff_role_changed": gettext_lazy("Staff role changed"),
    "staff_invited": gettext_lazy("Staff invitation created"),
    "staff_invitation_revoked": gettext_lazy("Staff invitation withdrawn"),
    "staff_invitation_accepted": gettext_lazy("Staff invitation accepted"),
    "event_updated": gettext_lazy("Event settings changed"),
    "registration_opened": gettext_lazy("Registration opened"),
    "registration_closed": gettext_lazy("Registration closed"),
    "player_dropped": gettext_lazy("Player dropped"),
    "waitlist_left": gettext_lazy("Left the waitlist"),
    "check_in_opened": gettext_lazy("Check-in opened"),
    "check_in_closed": gettext_lazy("Check-in closed"),
    "judge_call.called": gettext_lazy("Judge called"),
    "judge_call.claimed": gettext_lazy("Judge call taken"),
    "judge_call.escalated": gettext_lazy("Judge call sent to the head judge"),
    "judge_call.extension": gettext_lazy("Time extension given"),
    "judge_call.resolved": gettext_lazy("Judge call resolved"),
    "proposals.issued": gettext_lazy("Proposed penalties issued"),
    "proposals.dismissed": gettext_lazy("Proposed penalties dismissed"),
    "sealed_pools_opened": gettext_lazy("Sealed pools opened"),
    "sealed_pool_swap": gettext_lazy("Sealed pools swapped"),
    "sealed_pool_assigned": gettext_lazy("Sealed pool handed to a player"),
    "sealed_pool_answered": gettext_lazy("Received pool confirmed or disputed"),
    "sealed_pool_released": gettext_lazy("Pool back with the organiser: its builder dropped"),
}


@register.filter
def log_action(value) -> str:
    """An event log entry's action code as words; a code from a newer version reads as itself."""
    return str(LOG_ACTIONS.get(value, value))


@register.filter
def staff_role(value) -> str:
    """A staff role code ("head_judge") as the reader says it ("Juiz principal")."""
    return str(StaffRole(value).label) if value in StaffRole.values else (value or "—")
