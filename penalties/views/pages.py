"""Penalty pages: issue form, event list, detail with history, head judge's queue and decisions,
the player's own penalties and appeals, reports. Every view checks who asks, per object."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from draftsite import whole_numbers
from draftsite.errors import DomainError
from draftsite.pages import for_form, on_page, run, show_on_form
from events.access import Permission, authorize
from events.models import Event
from penalties import notices, permissions, selectors, services
from penalties.forms import DecisionForm, DismissForm, DismissManyForm, FilterForm, IssueForm, StatementForm
from penalties.models import AppealStatus, PenaltyKind, PenaltyStatus
from penalties.reports import csv_response
from penalties.sources import describe_source


def _event_or_404(event_id) -> Event:
    number = whole_numbers.parse(event_id)
    event = Event.objects.filter(pk=number).first() if number is not None else None
    if event is None:
        raise Http404(gettext("No such event"))
    return event


def _event_page(request, event_id, permission: Permission) -> Event:
    """The event, for a caller with ``permission`` in it: else the 404 or the bare 403 page."""
    event = _event_or_404(event_id)
    on_page(authorize, request.user, event, permission, forbidden="")
    return event


def _penalty_or_404(request, pk: int):
    penalty = selectors.penalty_with_history(pk)
    if penalty is None:
        raise Http404(gettext("No such penalty"))
    if not permissions.can_view_penalty(request.user, penalty):
        raise PermissionDenied
    return penalty


# --- player ----------------------------------------------------------------------------


@login_required
def my_penalties(request):
    user = request.user
    penalties = list(selectors.player_penalties(user))
    return render(
        request,
        "penalties/mine.html",
        {
            "title": gettext("My penalties"),
            "penalties": penalties,
            "judged_events": list(selectors.events_judged(user).order_by("-date")[:50]),
            "queue_count": selectors.review_queue(user).count() + selectors.pending_appeals(user).count(),
            "is_head_judge": selectors.events_head_judged(user).exists(),
            "is_staff": permissions.is_site_staff(user),
        },
    )


def _statement_post(request, pk: int, action, success: str, form_name: str, gate):
    """A player's or staff statement form: validate, call the service, or re-show with errors."""
    penalty = _penalty_or_404(request, pk)
    on_page(gate, penalty, request.user)  # the role before the body: 403, not a form error
    form = StatementForm(request.POST)
    if form.is_valid():
        _, error, _ = for_form(
            lambda: action(penalty_id=penalty.pk, actor=request.user, statement=form.cleaned_data["statement"]),
            forbidden_page=True,
        )
        if error is not None:
            show_on_form(form, error)
        else:
            messages.success(request, success)
            return redirect("penalties:detail", pk=penalty.pk)
    return _render_detail(request, penalty, status=400, **{form_name: form})


@login_required
@require_POST
def appeal(request, pk: int):
    return _statement_post(
        request,
        pk,
        services.appeal_penalty,
        gettext("Your appeal has gone to the head judge."),
        "appeal_form",
        services.require_appellant,
    )


@login_required
@require_POST
def statement(request, pk: int):
    return _statement_post(
        request,
        pk,
        services.add_statement,
        gettext("Statement saved."),
        "statement_form",
        services.require_statement_writer,
    )


# --- judges ----------------------------------------------------------------------------


@login_required
def issue(request):
    event_id = whole_numbers.from_request(request.GET, "event")
    if event_id is None:
        event_id = whole_numbers.from_request(request.POST, "event")
    if event_id is None:
        return render(
            request,
            "penalties/choose_event.html",
            {
                "title": gettext("Issue a penalty"),
                "events": list(selectors.events_judged(request.user).order_by("-date")[:100]),
            },
        )
    event = _event_page(request, event_id, Permission.STAFF)
    back = _return_path(request, request.POST.get("next") or request.GET.get("next"))
    status = 200
    if request.method == "POST":
        form = IssueForm(request.POST, event=event)
        penalty = _issue_from(form, request, event) if form.is_valid() else None
        if penalty is not None:
            if penalty.status == PenaltyStatus.PENDING_REVIEW:
                messages.info(
                    request, gettext("Penalty recorded. It goes to the head judge for review before it is final.")
                )
            elif penalty.reviewed_at is not None and penalty.reviewed_by_id == penalty.issued_by_id:
                messages.success(request, gettext("Penalty recorded; it is final: you issued it as the head judge."))
            else:
                messages.success(
                    request, gettext("Penalty recorded; it is final (the head judge may still review it).")
                )
            if back:  # where the form was opened from (a judge call), with the penalty to link
                return redirect(f"{back}?{urlencode({'penalty': penalty.pk})}")
            return redirect("penalties:detail", pk=penalty.pk)
        status = 400
    else:
        form = IssueForm(initial=selectors.prefill(event=event, params=request.GET), event=event)
    return render(
        request,
        "penalties/issue.html",
        {
            "title": gettext("Issue a penalty · %(name)s") % {"name": event.name},
            "event": event,
            "form": form,
            "infractions": selectors.infractions(),
            "next": back,
        },
        status=status,
    )


def _return_path(request, target: str | None) -> str:
    """A path on this site, without a query, that a form returns to; "" for anything else."""
    if not target or not target.startswith("/") or "?" in target:
        return ""
    return target if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}) else ""


def _issue_from(form: IssueForm, request, event: Event):
    """The penalty the valid form asks for, or None with the service's refusal on the form."""
    data = form.cleaned_data
    penalty, error, _ = for_form(
        lambda: services.issue_penalty(
            event_id=event.pk,
            registration_id=data["registration"],
            infraction_code=data["infraction"],
            actor=request.user,
            description=data["description"],
            fix=data["fix"],
            penalty=data["penalty"] or None,
            deviation_reason=data["deviation_reason"],
            match_round=data["match_round"],
            pod_id=data["pod"],
            draft_round=data["draft_round"],
            pick_number=data["pick_number"],
            source=data["source"],
            judge_statement=data["judge_statement"],
        )
    )
    if error is not None:
        show_on_form(form, error)
    return penalty


@login_required
def event_penalties(request, event_id: int):
    event = _event_page(request, event_id, Permission.PENALTY_READER)
    filters = FilterForm(request.GET or None)
    values = filters.cleaned_data if filters.is_valid() else {}
    penalties = selectors.event_penalties(
        event,
        status=values.get("status", ""),
        infraction=values.get("infraction", ""),
        penalty=values.get("penalty", ""),
        q=values.get("q", ""),
    )
    judge = permissions.judges_event(request.user, event)
    return render(
        request,
        "penalties/event.html",
        {
            "title": gettext("Penalties · %(name)s") % {"name": event.name},
            "event": event,
            "filters": filters,
            "penalties": list(penalties[:500]),
            "filtered": any(values.values()) if values else False,
            "is_judge": judge,
            "timeout_picks": selectors.unhandled_timeout_picks(event) if judge else [],
            "summary": selectors.event_summary(event),
        },
    )


def _dismissal(request, event_id: int, form_class, service, *, missing: str, success, field: str):
    """Automatic picks (one, or the ticked ones) dismissed with one reason by the event's judge:
    a form without its reason is refused with ``missing``, back on the event's penalties."""
    event = _event_page(request, event_id, Permission.STAFF)
    form = form_class(request.POST)
    if not form.is_valid():
        messages.error(request, missing)
        return redirect("penalties:event", event_id=event.pk)
    return run(
        request,
        service,
        success=success,
        back=reverse("penalties:event", kwargs={"event_id": event.pk}),
        event_id=event.pk,
        actor=request.user,
        reason=form.cleaned_data["reason"],
        **{field: form.cleaned_data["source"]},
    )[0]


@login_required
@require_POST
def dismiss(request, event_id: int):
    return _dismissal(
        request,
        event_id,
        DismissForm,
        services.dismiss_source,
        missing=gettext("Give a reason to dismiss an automatic pick."),
        success=gettext("Automatic pick dismissed: no infraction."),
        field="source",
    )


@login_required
@require_POST
def dismiss_many(request, event_id: int):
    """Dismiss the ticked automatic picks, one reason for all."""
    return _dismissal(
        request,
        event_id,
        DismissManyForm,
        services.dismiss_sources,
        missing=gettext("Give a reason to dismiss the chosen automatic picks."),
        success=lambda dismissed: (
            ngettext(
                "%(count)s automatic pick dismissed: no infraction.",
                "%(count)s automatic picks dismissed: no infraction.",
                len(dismissed),
            )
            % {"count": len(dismissed)}
        ),
        field="sources",
    )


def _render_detail(
    request,
    penalty,
    *,
    decision_form=None,
    appeal_decision_form=None,
    appeal_form=None,
    statement_form=None,
    status=200,
):
    user = request.user
    appeal_obj = getattr(penalty, "appeal", None)
    can_review = permissions.is_head_judge(user, penalty.event_id) and penalty.issued_by_id != user.pk
    role = services.statement_role(penalty, user)
    return render(
        request,
        "penalties/detail.html",
        {
            "title": gettext("Penalty #%(pk)s") % {"pk": penalty.pk},
            "p": penalty,
            "appeal": appeal_obj,
            "history": list(penalty.history.all()),
            "is_owner": permissions.owns_penalty(user, penalty),
            "is_event_viewer": permissions.sees_event_penalties(user, penalty.event_id),
            "can_review": can_review
            and penalty.status != PenaltyStatus.WITHDRAWN
            and penalty.reviewed_at is None
            and not (appeal_obj and appeal_obj.status == AppealStatus.DECIDED),
            "can_decide_appeal": can_review
            and appeal_obj is not None
            and appeal_obj.status == AppealStatus.PENDING
            and penalty.status != PenaltyStatus.WITHDRAWN,
            "own_penalty_note": permissions.is_head_judge(user, penalty.event_id) and penalty.issued_by_id == user.pk,
            "can_appeal": permissions.owns_penalty(user, penalty)
            and appeal_obj is None
            and penalty.status != PenaltyStatus.WITHDRAWN
            and services.appeal_can_be_heard(penalty),
            # MTR 2.9: the head judge's own ruling, final as issued
            "by_head_judge": penalty.reviewed_at is not None and penalty.reviewed_by_id == penalty.issued_by_id,
            "appeal_heard": services.appeal_can_be_heard(penalty),
            "statement_role": role,
            "decision_form": decision_form or DecisionForm(),
            "appeal_decision_form": appeal_decision_form or DecisionForm(),
            "appeal_form": appeal_form or StatementForm(),
            "statement_form": statement_form or StatementForm(),
            "is_dq": penalty.penalty == PenaltyKind.DISQUALIFICATION,
            "source_text": describe_source(penalty.event, penalty.source) if penalty.source else "",
        },
        status=status,
    )


@login_required
def detail(request, pk: int):
    return _render_detail(request, _penalty_or_404(request, pk))


@login_required
def notice(request, pk: int):
    """The player's printable penalty slip, in the player's language (penalties.notices)."""
    penalty = _penalty_or_404(request, pk)
    return _render_notice(request, penalty, notices.notice_language(request, penalty.registration.user), record=False)


@login_required
def notice_record(request, pk: int):
    """The head judge's copy: the language of record and the infraction code (staff only)."""
    penalty = _penalty_or_404(request, pk)
    if not permissions.sees_event_penalties(request.user, penalty.event_id):
        raise PermissionDenied
    return _render_notice(request, penalty, notices.record_language(), record=True)


def _render_notice(request, penalty, language: str, *, record: bool):
    with translation.override(language):
        response = render(
            request,
            "penalties/notice.html",
            {
                "penalty": penalty,
                "record": record,
                "notice_language": language,
                "title": gettext("Penalty notice #%(id)s") % {"id": penalty.pk},
            },
        )
    response["Content-Language"] = language
    response["Cache-Control"] = "no-store"
    return response


# --- head judge ------------------------------------------------------------------------


@login_required
def review_queue(request):
    if not selectors.events_head_judged(request.user).exists():
        raise PermissionDenied
    return render(
        request,
        "penalties/queue.html",
        {
            "title": gettext("Review queue"),
            "penalties": list(selectors.review_queue(request.user)[:500]),
            "appeals": list(selectors.pending_appeals(request.user)[:500]),
        },
    )


def _decide(request, pk: int, *, appeal: bool):
    penalty = _penalty_or_404(request, pk)
    on_page(authorize, request.user, penalty.event_id, Permission.HEAD_JUDGE, forbidden="")
    form = DecisionForm(request.POST)
    form_key = "appeal_decision_form" if appeal else "decision_form"
    if not form.is_valid():
        return _render_detail(request, penalty, status=400, **{form_key: form})
    data = form.cleaned_data
    new_kind = form.new_kind()
    try:
        outcome, outcome_status = services.check_decision(
            penalty=penalty,
            actor=request.user,
            decision=data["decision"],
            reason=data["reason"],
            new_kind=new_kind,
            appeal=appeal,
        )
        if not form.confirmed():
            return render(
                request,
                "penalties/confirm.html",
                {
                    "title": gettext("Confirm: %(data)s penalty #%(pk)s")
                    % {"data": data["decision"], "pk": penalty.pk},
                    "p": penalty,
                    "appeal": appeal,
                    "decision": data["decision"],
                    "new_kind": new_kind or "",
                    "reason": data["reason"],
                    "outcome": PenaltyKind(outcome).label,
                    "outcome_status": PenaltyStatus(outcome_status).label,
                    "action": reverse("penalties:appeal-decision" if appeal else "penalties:review", args=[penalty.pk]),
                },
            )
        services.decide(
            penalty_id=penalty.pk,
            actor=request.user,
            decision=data["decision"],
            reason=data["reason"],
            penalty=new_kind,
            appeal=appeal,
        )
    except DomainError as exc:
        show_on_form(form, exc)
        return _render_detail(request, penalty, status=exc.status_code, **{form_key: form})
    messages.success(request, gettext("Decision recorded."))
    return redirect("penalties:detail", pk=penalty.pk)


@login_required
@require_POST
def review(request, pk: int):
    return _decide(request, pk, appeal=False)


@login_required
@require_POST
def appeal_decision(request, pk: int):
    return _decide(request, pk, appeal=True)


# --- reports ---------------------------------------------------------------------------


@login_required
def event_report(request, event_id: int):
    event = _event_page(request, event_id, Permission.PENALTY_READER)
    return render(
        request,
        "penalties/report.html",
        {
            "title": gettext("Penalty report · %(name)s") % {"name": event.name},
            "event": event,
            "penalties": list(selectors.event_penalties(event).order_by("issued_at", "pk")),
            "summary": selectors.event_summary(event),
        },
    )


@login_required
def event_report_csv(request, event_id: int):
    event = _event_page(request, event_id, Permission.PENALTY_READER)
    return csv_response(event)


@login_required
def disqualification_report(request, pk: int):
    penalty = _penalty_or_404(request, pk)
    if penalty.penalty != PenaltyKind.DISQUALIFICATION:
        raise Http404(gettext("This penalty is not a disqualification"))
    return render(
        request,
        "penalties/disqualification.html",
        {
            "title": gettext("Disqualification report · %(name)s") % {"name": penalty.registration.name},
            "p": penalty,
            "history": list(penalty.history.all()),
            "appeal": getattr(penalty, "appeal", None),
        },
    )


@login_required
def players(request):
    if not permissions.is_site_staff(request.user):
        raise PermissionDenied
    q = request.GET.get("q", "").strip()[:100]
    groups = selectors.player_report(q=q, user_id=whole_numbers.from_request(request.GET, "user"))
    return render(
        request,
        "penalties/players.html",
        {
            "title": gettext("Penalties per player"),
            "q": q,
            "groups": groups,
            "kinds": PenaltyKind.choices,
        },
    )
