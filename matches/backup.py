"""What an event backup (draftsite/backup.py) holds of the matches: nothing yet.

Format version 1 predates the matches app; carrying rounds and results means new sections, and
files written before them must still import (see the issue on event export)."""

from matches.models import (
    Drop,
    EventMatchSettings,
    Match,
    MatchLogEntry,
    MatchPenalty,
    MatchPlayer,
    ReportKey,
    ResultReport,
    Round,
)

_NOT_YET = "not in format version 1: matches are not backed up yet"

LEFT_OUT = {
    model: _NOT_YET
    for model in (EventMatchSettings, Round, Match, MatchPlayer, ResultReport, Drop, MatchPenalty, MatchLogEntry)
}
LEFT_OUT[ReportKey] = "a report's idempotency key only matters while the phone that sent it may send it again"
