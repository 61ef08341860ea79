"""CSV exports of pairings, results and standings (public information; the API and the
pages share them)."""

from __future__ import annotations

import csv
import io

from django.http import HttpResponse
from django.utils.translation import gettext as _

from draftsite.spreadsheets import safe_cell
from events.models import Event
from matches import selectors


def _rounds(event: Event, pod_id, round_id):
    rounds = selectors.event_rounds(event, pod_id)
    if round_id is not None:
        rounds = rounds.filter(pk=round_id)
    return rounds


def pairings_rows(event: Event, pod_id=None, round_id=None):
    yield [_("Pod"), _("Round"), _("Table"), _("Player"), _("Opponent")]
    for round_obj in _rounds(event, pod_id, round_id):
        for match in selectors.round_matches(round_obj):
            pod = round_obj.pod.number if round_obj.pod_id else ""
            b = match.player_b.name if match.player_b_id else _("BYE")
            yield [pod, round_obj.number, match.table or "", match.player_a.name, b]


def results_rows(event: Event, pod_id=None, round_id=None):
    yield [
        _("Pod"),
        _("Round"),
        _("Kind"),
        _("Table"),
        _("Player A"),
        _("Player B"),
        _("A wins"),
        _("B wins"),
        _("Draws"),
        _("Status"),
        _("Penalty applied"),
    ]
    for round_obj in _rounds(event, pod_id, round_id):
        matches = selectors.round_matches(round_obj)
        penalties = selectors.penalties_by_match(m.pk for m in matches)
        for match in matches:
            score = selectors.effective_score(match, penalties.get(match.pk, []))
            yield [
                round_obj.pod.number if round_obj.pod_id else "",
                round_obj.number,
                round_obj.kind,
                match.table or "",
                match.player_a.name,
                match.player_b.name if match.player_b_id else _("BYE"),
                "" if score is None else score.a_wins,
                "" if score is None else score.b_wins,
                "" if score is None else score.draws,
                match.status,
                "yes" if score is not None and score.penalised else "",
            ]


def standings_rows(event: Event, pod_id=None, round_id=None):
    yield [
        _("Pod"),
        _("Rank"),
        _("Player"),
        _("Points"),
        _("Record"),
        _("OMW%"),
        _("GW%"),
        _("OGW%"),
        _("Dropped after round"),
    ]
    pods = dict(event.pods.values_list("pk", "number"))
    for row in selectors.event_standings(event, pod_id):
        yield [
            pods.get(row.pod, ""),
            row.rank,
            row.registration.name,
            row.match_points,
            row.record,
            f"{row.omw:.4f}",
            f"{row.gw:.4f}",
            f"{row.ogw:.4f}",
            row.dropped_after if row.dropped_after is not None else "",
        ]


EXPORTS = {"pairings": pairings_rows, "results": results_rows, "standings": standings_rows}


def csv_text(event: Event, kind: str, *, pod_id=None, round_id=None) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for row in EXPORTS[kind](event, pod_id, round_id):
        # Names are typed by people: never let one start a spreadsheet formula.
        writer.writerow([safe_cell(v) for v in row])
    return buffer.getvalue()


def csv_response(event: Event, kind: str, *, pod_id=None, round_id=None) -> HttpResponse:
    response = HttpResponse(
        csv_text(event, kind, pod_id=pod_id, round_id=round_id), content_type="text/csv; charset=utf-8"
    )
    suffix = f"-pod{pod_id}" if pod_id else ""
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}{suffix}-{kind}.csv"'
    return response
