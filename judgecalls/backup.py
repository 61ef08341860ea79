"""What an event backup (draftsite/backup.py) holds of the judge calls: every call of the event
with its steps (who claimed, escalated and resolved it, when), its outcome and note, the
penalty issued for it, and a sealed pool dispute's attached pools. Added in format version 4:
older files import with no calls.

A call from a match table is left out: the matches are not in the format yet (matches/backup.py),
so there is no table for it to name."""

from __future__ import annotations

from django.db.models import Q

from draftsite.backup import EVENT, USER, Section
from judgecalls.models import JudgeCall

SECTIONS = [
    Section(
        "judge_calls",
        JudgeCall,
        "event",
        {
            "event": EVENT,
            "caller": "registrations",
            "seat": "seats",
            "claimed_by": USER,
            "escalated_by": USER,
            "resolved_by": USER,
            "penalty": "penalties",
        },
        # A pool dispute's attachments name the paper pools (sealed), declared below.
        later_json_links={"attachments": {"pool": "paper_pools"}},
        since=4,
        left_out=(Q(match__isnull=False), "calls from a match table: matches are not backed up yet"),
    ),
]
