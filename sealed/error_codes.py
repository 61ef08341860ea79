"""Stable error codes of the sealed app (clients and tests compare these strings)."""

NOT_SEALED = "not_sealed"  # the event is not a sealed event (or not the kind asked)
UNKNOWN_SET = "unknown_set"
UNKNOWN_BOOSTER_KIND = "unknown_booster_kind"
INVALID_BOOSTERS = "invalid_boosters"
NO_PLAYERS = "no_players"
NOT_REGISTERED = "not_registered"
NO_POOL = "no_pool"
POOL_HIDDEN = "pool_hidden"
EMPTY_POOL = "empty_pool"
UNKNOWN_CARD = "unknown_card"
CARD_NOT_IN_SET = "card_not_in_set"
POOL_TOO_BIG = "pool_too_big"  # more cards, or more of a rarity, than the boosters hold
INVALID_COUNT = "invalid_count"
SWAP_DONE = "swap_done"
SWAP_NOT_DONE = "swap_not_done"
SWAP_NEEDS_TWO = "swap_needs_two"
UNKNOWN_POOL = "unknown_pool"
ALREADY_BUILDING = "already_building"  # the player already builds from a pool
OWN_POOL = "own_pool"  # MTR 7.5: nobody builds from the pool they registered
ALREADY_ANSWERED = "already_answered"
DECK_REGISTERED = "deck_registered"
PLAYER_DROPPED = "player_dropped"  # a player who dropped neither registers nor receives a pool
