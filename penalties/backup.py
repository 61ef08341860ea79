"""What an event backup (draftsite/backup.py) holds of the penalties: penalties with their
appeals, dismissed sources and the append-only audit trail."""

from draftsite.backup import EVENT, INFRACTION, USER, NaturalKey, Section
from penalties.models import Appeal, DismissedSource, Infraction, Penalty, PenaltyAudit

# The catalogue of infractions is the site's, not the event's: a penalty names one by its code.
NATURAL_KEYS = {INFRACTION: NaturalKey(Infraction, "code", "infraction code")}

# A penalty's source names the pick or deck check it came from (penalties.sources).
SOURCES = {"source": {"pick": "picks", "deck_check": "deck_checks"}}

SECTIONS = [
    Section(
        "penalties",
        Penalty,
        "event",
        {
            "event": EVENT,
            "registration": "registrations",
            "infraction": INFRACTION,
            "pod": "pods",
            "issued_by": USER,
            "reviewed_by": USER,
        },
        sources=SOURCES,
    ),
    Section("appeals", Appeal, "penalty__event", {"penalty": "penalties", "submitted_by": USER, "decided_by": USER}),
    Section("dismissed_sources", DismissedSource, "event", {"event": EVENT, "dismissed_by": USER}, sources=SOURCES),
    Section("penalty_audit", PenaltyAudit, "penalty__event", {"penalty": "penalties", "actor": USER}),
]
