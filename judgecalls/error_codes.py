"""Stable error codes of the judge calls app (clients match on these, never on messages)."""

UNKNOWN_CALL = "unknown_call"
UNKNOWN_MATCH = "unknown_match"
UNKNOWN_SEAT = "unknown_seat"
UNKNOWN_EVENT = "unknown_event"
NOT_YOUR_TABLE = "not_your_table"  # only the match's players call from a match
NOT_YOUR_SEAT = "not_your_seat"  # only the seat's player calls from a draft
NOT_EVENT_STAFF = "not_event_staff"  # only the event's judges take calls (events.access)
NOT_HEAD_JUDGE = "not_head_judge"  # an escalated call is the head judge's
ALREADY_CALLING = "already_calling"  # one open call per player
ALREADY_CLAIMED = "already_claimed"  # another judge has the call
NOT_CLAIMANT = "not_claimant"  # only the judge who has the call (or the head judge) acts on it
CALL_RESOLVED = "call_resolved"  # a resolved call takes no further step
ALREADY_ESCALATED = "already_escalated"
INVALID_OUTCOME = "invalid_outcome"  # not ruling / penalty / no_action
PENALTY_REQUIRED = "penalty_required"  # outcome "penalty" names the penalty issued
PENALTY_MISMATCH = "penalty_mismatch"  # the penalty is not for a player of this call
NOT_A_MATCH_CALL = "not_a_match_call"  # time extensions are for calls from a table
INVALID = "invalid"  # a field of the wrong type
TOO_LONG = "too_long"  # a reason or note past MAX_REASON characters (refused, never cut)
PROPOSAL_HANDLED = "proposal_handled"  # issued or dismissed already, or no longer proposed
INVALID_SOURCE = "invalid_source"  # a proposal's source is "<kind>:<id>" (penalties.sources)
TOO_MANY_SOURCES = "too_many_sources"  # one request handles at most MAX_SOURCES proposals
