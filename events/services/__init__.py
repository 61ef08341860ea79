"""Every write of the events app: plain arguments in, one transaction each."""

from events.services.registrations import (  # noqa: F401
    create_account_registration,
    register_player,
)
from events.services.staff import (  # noqa: F401
    accept_staff_invitation,
    add_event_staff,
    add_event_staff_by_username,
    change_staff_role,
    invite_staff,
    log_event,
    remove_event_staff,
    revoke_staff_invitation,
    update_event,
)
