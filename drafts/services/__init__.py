"""Every write of the draft engine: plain arguments in, one transaction each."""

from drafts.services.events import (  # noqa: F401
    add_event_staff,
    create_event,
    move_player,
    register_player,
    seat_players,
)
from drafts.services.picks import (  # noqa: F401
    advance_round,
    amake_pick,
    enforce_deadlines,
    hand_seat,
    make_pick,
    mark_ready,
    move_pile_card,
    pause_pod,
    replace_with_automatic,
    resume_pod,
    set_pile_cover,
    start_pod,
)
from drafts.services.control import (  # noqa: F401
    extend_clocks,
    regenerate_spectator_token,
    set_deck_building_clock,
    start_deck_building,
)
