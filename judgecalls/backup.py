"""What an event's backup (draftsite.backup) leaves out of the judge-call app, and why."""

from __future__ import annotations

from judgecalls.models import JudgeCall

# Calls are the floor's live work; what came of them is kept in the event log and, for a
# penalty, in the penalty's audit trail.
LEFT_OUT = {JudgeCall: "not in format version 1: calls live on in the event log and the penalties' audit trail"}
