"""Match pages: the organiser's dashboard, pairings (by table and by name), result slips,
standings, the projector clock, and the player's own page. Every form posts to the same
services as the API; a refusal comes back as a message on the page (PRG)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from draftsite import whole_numbers
from draftsite.forms import back_to, posted
from draftsite.pages import on_page, run
from events import permissions
from events.access import Permission, access_event, authorize
from events.models import Event
from matches import exports, forms, selectors, services
from matches.models import Match, PairingMode, Round, RoundState

PARTIAL_HEADER = "HTTP_X_LIVE_PANEL"


def _event(event_id: int) -> Event:
    return on_page(access_event, event_id, not_found=_("No such event"))


def _round(round_id: int) -> Round:
    round_obj = selectors.round_by_id(round_id)
    if round_obj is None:
        raise Http404(_("No such round"))
    return round_obj


def _match(match_id: int) -> Match:
    match = selectors.match_by_id(match_id)
    if match is None:
        raise Http404(_("No such match"))
    return match


def _run(request, service, *, success: str, back: str, **kwargs):
    """A control: the service's refusal or its success is a message on ``back``."""
    return run(request, service, success=success, back=back, **kwargs)[0]


def _no_store(response):
    response["Cache-Control"] = "no-store"
    return response


def _socket(event_id: int) -> str:
    return f"/ws/matches/events/{event_id}/"


# --- organiser's dashboard ------------------------------------------------------------


def _scope_rows(event: Event, now):
    settings_row = selectors.match_settings(event.pk)
    rows = []
    for pod in selectors.scopes(event, settings_row):
        pod_id = pod.pk if pod else None
        rounds = list(selectors.rounds_of(event.pk, pod_id))
        current = rounds[-1] if rounds else None
        progress = selectors.round_progress(current, now) if current else None
        matches = selectors.round_matches(current) if current else []
        penalties = selectors.penalties_by_match(m.pk for m in matches)
        tables = []
        for m in matches:
            score = selectors.effective_score(m, penalties.get(m.pk, []))
            tables.append(
                {
                    "match": m,
                    "score": score,
                    "deadline": selectors.table_deadline(current, m),
                    "over": progress is not None and m in progress.over_time,
                    "reports": list(m.reports.all()),
                    "penalties": penalties.get(m.pk, []),
                }
            )
        players = selectors.scope_players(event, pod_id)
        planned = services.rounds.swiss_round_count(settings_row, len(players)) if settings_row else 0
        rows.append(
            {
                "pod": pod,
                "rounds": rounds,
                "current": current,
                "progress": progress,
                "tables": tables,
                "players": len(players),
                "swiss_rounds": planned,
                "can_pair": (current is None or current.state == RoundState.FINISHED)
                and settings_row is not None
                and selectors.has_next_round(rounds, planned, settings_row.playoff_size),
                "all_played": current is not None
                and current.state == RoundState.FINISHED
                and settings_row is not None
                and not selectors.has_next_round(rounds, planned, settings_row.playoff_size),
                "round_one_warning": selectors.round_one_warning(event, pod_id) if current is None else None,
            }
        )
    return settings_row, rows


def _dashboard_context(request, event):
    now = timezone.now()
    settings_row, scopes = _scope_rows(event, now)
    return {
        "event": event,
        "settings": settings_row,
        "scopes": scopes,
        "now": now,
        "is_organiser": permissions.is_organiser(request.user, event.pk),
        "modes": PairingMode.choices,
        "log": list(event.match_log.select_related("actor").order_by("-at", "-pk")[:30]),
    }


@login_required
def dashboard(request, event_id: int):
    event = _event(event_id)
    on_page(authorize, request.user, event.pk, Permission.STAFF, message=services.STAFF_ONLY)
    context = _dashboard_context(request, event)
    context.update(
        title=_("Matches · %(event)s") % {"event": event.name},
        socket=_socket(event.pk),
        panel_url=reverse("matches:dashboard-panel", args=[event.pk]),
    )
    return _no_store(render(request, "matches/dashboard.html", context))


@login_required
def dashboard_panel(request, event_id: int):
    event = _event(event_id)
    on_page(authorize, request.user, event.pk, Permission.STAFF, message=services.STAFF_ONLY)
    return _no_store(render(request, "matches/_dashboard_panel.html", _dashboard_context(request, event)))


@login_required
@require_POST
def settings_form(request, event_id: int):
    event = _event(event_id)
    on_page(authorize, request.user, event.pk, Permission.ORGANISER, message=services.ORGANISERS_ONLY)
    back = reverse("matches:dashboard", args=[event.pk])
    return _run(
        request,
        services.configure_matches,
        success=_("Match settings saved."),
        back=back,
        event_id=event.pk,
        actor=request.user,
        **posted(forms.SettingsForm, request.POST),
    )


def _round_one_warnings(event: Event, pod_ids: list[str]) -> list[tuple]:
    """(pod or None, warning) for each scope about to get its round 1 with decks missing or
    deck building still going."""
    scopes = [forms.number(pod_id) for pod_id in pod_ids] or [None]
    pods = {pod.pk: pod for pod in event.pods.all()}
    found = []
    for pod_id in scopes:
        warning = selectors.round_one_warning(event, pod_id if pod_id in pods else None)
        if warning:
            found.append((pods.get(pod_id), warning))
    return found


@login_required
@require_POST
def pair(request, event_id: int):
    event = _event(event_id)
    on_page(authorize, request.user, event.pk, Permission.ORGANISER, message=services.ORGANISERS_ONLY)
    back = reverse("matches:dashboard", args=[event.pk])
    data = posted(forms.PairForm, request.POST)
    pod_ids = data["pod"]
    if data["all_pods"]:
        pod_ids = [str(p.pk) for p in event.pods.all()]
    if request.POST.get("confirmed") != "yes":
        warnings = _round_one_warnings(event, pod_ids)
        if warnings:  # pairing anyway is a choice the organiser makes on the next page
            return render(
                request,
                "matches/pair_confirm.html",
                {
                    "title": _("Pair round 1 now?"),
                    "event": event,
                    "warnings": warnings,
                    "fields": [(k, v) for k, vs in request.POST.lists() if k != "csrfmiddlewaretoken" for v in vs],
                    "back": back,
                },
            )
    if not pod_ids:
        return _run(
            request,
            services.pair_next_round,
            success=_("Round paired."),
            back=back,
            event_id=event.pk,
            actor=request.user,
        )
    for pod_id in pod_ids:  # one message per pod: paired, or why not
        run(
            request,
            services.pair_next_round,
            success=_("Round paired."),
            back=back,
            event_id=event.pk,
            actor=request.user,
            pod_id=forms.number(pod_id),
        )
    return redirect(back)


@login_required
@require_POST
def round_control(request, round_id: int, action: str):
    round_obj = _round(round_id)
    on_page(authorize, request.user, round_obj.event_id, Permission.ORGANISER, message=services.ORGANISERS_ONLY)
    back = back_to(request.POST, reverse("matches:dashboard", args=[round_obj.event_id]))
    service = {"start": services.start_round, "finish": services.finish_round}.get(action)
    if service is None:
        raise Http404(_("No such control"))
    success = _("Round started: the clock is running.") if action == "start" else _("Round closed.")
    return _run(request, service, success=success, back=back, round_id=round_obj.pk, actor=request.user)


@login_required
def repair(request, round_id: int):
    """Swap two players (or a player and the bye) before the round starts."""
    round_obj = _round(round_id)
    on_page(authorize, request.user, round_obj.event_id, Permission.ORGANISER, message=services.ORGANISERS_ONLY)
    matches = selectors.round_matches(round_obj)
    players = sorted(
        [m.player_a for m in matches] + [m.player_b for m in matches if m.player_b_id], key=lambda r: r.name.lower()
    )
    if request.method == "POST":
        data = posted(forms.RepairForm, request.POST)
        first, second = data["first"], data["second"]
        swap = {first: second, second: first}
        tables = [
            [swap.get(m.player_a_id, m.player_a_id), swap.get(m.player_b_id, m.player_b_id)]
            for m in matches
            if m.player_b_id
        ]
        bye = next(([swap.get(m.player_a_id, m.player_a_id)] for m in matches if not m.player_b_id), [None])[0]
        return _run(
            request,
            services.repair_pairings,
            success=_("Pairings repaired (logged)."),
            back=reverse("matches:repair", args=[round_obj.pk]),
            round_id=round_obj.pk,
            actor=request.user,
            tables=tables,
            bye=bye,
            reason=data["reason"],
        )
    return render(
        request,
        "matches/repair.html",
        {"round": round_obj, "matches": matches, "players": players, "title": _("Repair pairings")},
    )


# --- public pages ---------------------------------------------------------------------


def pairings(request, round_id: int):
    """Pairings as venues post them: by table, or alphabetically by name (``?by=name``)."""
    round_obj = _round(round_id)
    matches = selectors.round_matches(round_obj)
    by_name = request.GET.get("by") == "name"
    rows = []
    for m in matches:
        rows.append({"name": m.player_a.name, "table": m.table, "opponent": m.player_b.name if m.player_b_id else None})
        if m.player_b_id:
            rows.append({"name": m.player_b.name, "table": m.table, "opponent": m.player_a.name})
    rows.sort(key=lambda r: r["name"].lower())
    return render(
        request,
        "matches/pairings.html",
        {
            "round": round_obj,
            "matches": matches,
            "by_name": by_name,
            "rows": rows,
            "is_organiser": permissions.is_organiser(request.user, round_obj.event_id),
            "title": _("Pairings · round %(n)s") % {"n": round_obj.number},
        },
    )


def slips(request, round_id: int):
    round_obj = _round(round_id)
    matches = [m for m in selectors.round_matches(round_obj) if m.player_b_id]
    return render(
        request,
        "matches/slips.html",
        {"round": round_obj, "matches": matches, "title": _("Result slips · round %(n)s") % {"n": round_obj.number}},
    )


def standings(request, event_id: int):
    event = _event(event_id)
    settings_row = selectors.match_settings(event.pk)
    tables = []
    for pod in selectors.scopes(event, settings_row):
        tables.append({"pod": pod, "rows": selectors.standings(event, pod.pk if pod else None)})
    return render(
        request,
        "matches/standings.html",
        {"event": event, "tables": tables, "title": _("Standings · %(event)s") % {"event": event.name}},
    )


def _projector_context(event):
    now = timezone.now()
    settings_row = selectors.match_settings(event.pk)
    clocks = []
    for pod in selectors.scopes(event, settings_row):
        current = selectors.latest_round(event.pk, pod.pk if pod else None)
        if current is None:
            continue
        extended = [m for m in selectors.round_matches(current) if m.extension_minutes and not m.has_result]
        clocks.append(
            {
                "pod": pod,
                "round": current,
                "clock": selectors.clock(current, now),
                "deadline": selectors.table_deadline(current),
                "extended": [
                    {
                        "match": m,
                        "deadline": selectors.table_deadline(current, m),
                        "clock": selectors.clock(current, now, m),
                    }
                    for m in extended
                ],
            }
        )
    return {"event": event, "clocks": clocks, "now": now}


def projector(request, event_id: int):
    event = _event(event_id)
    context = _projector_context(event)
    context.update(
        socket=_socket(event.pk),
        panel_url=reverse("matches:clock-panel", args=[event.pk]),
        title=_("Round clock · %(event)s") % {"event": event.name},
    )
    return _no_store(render(request, "matches/projector.html", context))


def projector_panel(request, event_id: int):
    return _no_store(render(request, "matches/_projector_panel.html", _projector_context(_event(event_id))))


def csv_export(request, event_id: int, kind: str):
    event = _event(event_id)
    if kind not in exports.EXPORTS:
        raise Http404(_("No such export"))
    return exports.csv_response(
        event,
        kind,
        pod_id=whole_numbers.from_request(request.GET, "pod"),
        round_id=whole_numbers.from_request(request.GET, "round"),
    )


# --- the player's page ----------------------------------------------------------------


def _me_context(request, event):
    now = timezone.now()
    registration = selectors.player_registration(request.user, event.pk)
    if registration is None:
        raise PermissionDenied(_("You are not registered for this event."))
    match = selectors.current_match(registration)
    context = {
        "event": event,
        "registration": registration,
        "match": match,
        "now": now,
        "dropped": selectors.drops(event.pk).get(registration.pk),
    }
    if match is not None:
        penalties = selectors.penalties_by_match([match.pk]).get(match.pk, [])
        reports = {r.registration_id: r for r in match.reports.all()}
        mine = reports.get(registration.pk)
        opponent = match.player_b if match.player_a_id == registration.pk else match.player_a
        theirs = reports.get(opponent.pk) if opponent else None
        i_am_a = match.player_a_id == registration.pk

        def mine_view(report):  # a report as games I won, lost, drew
            if report is None:
                return None
            return (
                (report.a_wins, report.b_wins, report.draws) if i_am_a else (report.b_wins, report.a_wins, report.draws)
            )

        score = selectors.effective_score(match, penalties)
        context.update(
            opponent=opponent,
            clock=selectors.clock(match.round, now, match),
            deadline=selectors.table_deadline(match.round, match),
            my_report=mine_view(mine),
            their_report=mine_view(theirs),
            penalties=penalties,
            my_score=None
            if score is None
            else ((score.a_wins, score.b_wins, score.draws) if i_am_a else (score.b_wins, score.a_wins, score.draws)),
            can_report=match.round.state == RoundState.RUNNING and not match.has_result,
            history=_my_history(registration),
        )
    return context


def _my_history(registration):
    rows = []
    matches = list(selectors.matches_of(registration))
    penalties = selectors.penalties_by_match(m.pk for m in matches)
    for m in matches:
        score = selectors.effective_score(m, penalties.get(m.pk, []))
        i_am_a = m.player_a_id == registration.pk
        opponent = m.player_b if i_am_a else m.player_a
        games = None
        if score is not None:
            games = (score.a_wins, score.b_wins, score.draws) if i_am_a else (score.b_wins, score.a_wins, score.draws)
        rows.append({"match": m, "opponent": opponent, "games": games})
    return rows


@login_required
def my_match(request, event_id: int):
    event = _event(event_id)
    context = _me_context(request, event)
    context.update(
        socket=_socket(event.pk),
        panel_url=reverse("matches:me-panel", args=[event.pk]),
        title=_("My match · %(event)s") % {"event": event.name},
    )
    return _no_store(render(request, "matches/me.html", context))


@login_required
def my_match_panel(request, event_id: int):
    return _no_store(render(request, "matches/_me_panel.html", _me_context(request, _event(event_id))))


def _match_step(request, match_id: int, service, *, success: str, form=None, staff: bool = False):
    """A step on one match: a player's own (report, confirm; back to their page) or staff's
    (result, extension; back to the dashboard)."""
    match = _match(match_id)
    if staff:
        on_page(authorize, request.user, match.round.event_id, Permission.STAFF, message=services.STAFF_ONLY)
    else:
        on_page(services.require_match_player, request.user, match)
    back = back_to(request.POST, reverse("matches:dashboard" if staff else "matches:me", args=[match.round.event_id]))
    values = posted(form, request.POST) if form is not None else {}
    return _run(request, service, success=success, back=back, match_id=match.pk, actor=request.user, **values)


@login_required
@require_POST
def report(request, match_id: int):
    return _match_step(request, match_id, services.report_result, success=_("Result reported."), form=forms.ReportForm)


@login_required
@require_POST
def confirm(request, match_id: int):
    return _match_step(request, match_id, services.confirm_result, success=_("Result confirmed."))


@login_required
@require_POST
def staff_result(request, match_id: int):
    return _match_step(
        request,
        match_id,
        services.enter_result,
        success=_("Result entered (logged)."),
        form=forms.ResultForm,
        staff=True,
    )


@login_required
@require_POST
def extension(request, match_id: int):
    return _match_step(
        request,
        match_id,
        services.grant_extension,
        success=_("Time extension set."),
        form=forms.ExtensionForm,
        staff=True,
    )


@login_required
@require_POST
def drop(request, event_id: int):
    event = _event(event_id)
    data = posted(forms.DropForm, request.POST)
    target = data["registration"]
    own = selectors.player_registration(request.user, event.pk)
    if target is None and own is not None:
        target = own.pk
    if own is None or target != own.pk:
        on_page(authorize, request.user, event.pk, Permission.STAFF, message=services.STAFF_ONLY)
    fallback = (
        reverse("matches:me", args=[event.pk])
        if own is not None and target == own.pk
        else reverse("matches:dashboard", args=[event.pk])
    )
    return _run(
        request,
        services.drop_player,
        success=_("Dropped: no further rounds will be paired for this player."),
        back=back_to(request.POST, fallback),
        event_id=event.pk,
        registration_id=target,
        actor=request.user,
        reason=data["reason"],
    )
