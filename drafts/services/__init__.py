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
