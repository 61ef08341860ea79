"""Stable error codes of the penalties app (clients match on these, never on messages)."""

UNKNOWN_EVENT = "unknown_event"
UNKNOWN_PENALTY = "unknown_penalty"
UNKNOWN_INFRACTION = "unknown_infraction"
UNKNOWN_POD = "unknown_pod"
UNKNOWN_PICK = "unknown_pick"
UNKNOWN_USER = "unknown_user"
NOT_REGISTERED = "not_registered"  # the registration is not in this event
INVALID_SOURCE = "invalid_source"  # source is not "deck_check:<id>" or "pick:<id>"
SOURCE_MISMATCH = "source_mismatch"  # the pick belongs to another player or event
ALREADY_HANDLED = "already_handled"  # that source already has a penalty or was dismissed
NO_SOURCES = "no_sources"  # a dismissal of many chose none
TOO_MANY_SOURCES = "too_many_sources"  # more than MAX_DISMISSED at once

NOT_STAFF = "not_staff"  # only site staff (superuser / is_staff)
NOT_YOUR_PENALTY = "not_your_penalty"  # players see and appeal only their own penalties

REASON_REQUIRED = "reason_required"
PENALTY_REQUIRED = "penalty_required"  # upgrade/downgrade without the new penalty
INVALID_TRANSITION = "invalid_transition"  # e.g. "upgrade" to a lighter penalty
PENALTY_WITHDRAWN = "penalty_withdrawn"  # a withdrawn penalty takes no further decisions
CANNOT_REVIEW_OWN_PENALTY = "cannot_review_own_penalty"
# MTR 2.9: the only head judge issued it; their ruling is final, nobody hears an appeal
HEAD_JUDGE_RULING_FINAL = "head_judge_ruling_final"
APPEAL_DECIDED = "appeal_decided"  # the head judge's appeal decision is final
ALREADY_APPEALED = "already_appealed"  # one appeal per penalty
NO_APPEAL = "no_appeal"  # deciding an appeal that was never made
STATEMENT_REQUIRED = "statement_required"

AUDIT_IMMUTABLE = "audit_immutable"  # audit records are append-only
DESCRIPTION_REQUIRED = "description_required"
INVALID_PENALTY = "invalid_penalty"  # not one of the penalty kinds
INVALID_DECISION = "invalid_decision"  # not uphold/upgrade/downgrade/withdraw
INVALID = "invalid"  # a field that is not text (the fix, a statement)
TOO_LONG = "too_long"  # text longer than MAX_TEXT
ALREADY_REVIEWED = "already_reviewed"
