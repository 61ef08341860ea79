"""Every write of the draft engine: plain arguments in, one transaction each."""

from drafts.services.control import (  # noqa: F401
    extend_clocks,
    regenerate_spectator_token,
    set_deck_building_clock,
    start_deck_building,
)
from drafts.services.events import (  # noqa: F401
    create_event,
    move_player,
    register_player,
    seat_players,
)
from drafts.services.picks import (  # noqa: F401
    advance_round,
    enforce_deadlines,
    hand_seat,
    make_pick,
    mark_ready,
    move_pile_card,
    pause_all_pods,
    pause_pod,
    replace_with_automatic,
    resume_all_pods,
    resume_pod,
    set_pile_cover,
    settle_event_pods_for_reading,
    settle_pod_for_reading,
    start_pod,
)
from drafts.services.staff import (  # noqa: F401
    accept_staff_invitation,
    add_event_staff,
    add_event_staff_by_username,
    change_staff_role,
    invite_staff,
    remove_event_staff,
    revoke_staff_invitation,
    update_event,
)
