"""The judges' and organisers' deck pages: every deck of the event, deck checks (picking decks
and recording what was found), corrections, and the organiser's sealed pools. Thin: the same
services and selectors as the API do the work."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext

from decks import findings, history, parsers, selectors, services
from decks.forms import CorrectionForm, DeckCheckForm, DeckCheckSelectionForm, SealedPoolForm, SelectionRefForm
from decks.models import SelectionMethod
from decks.views.common import STAFF_PAGE_ONLY, event_for, visible_deck_page
from draftsite import whole_numbers
from draftsite.pages import for_form, on_page
from events import permissions
from events.access import Permission, authorize

DECK_STATES = ("valid", "invalid", "missing")
MAX_QUERY = 100  # characters of a player name searched for
MAX_ERROR_CODE = 40


@login_required
def event_decks(request, event_id: int):
    event = event_for(request, event_id, Permission.STAFF, STAFF_PAGE_ONLY)
    state = request.GET.get("status", "")
    state = state if state in DECK_STATES else ""
    late = {"yes": True, "no": False}.get(request.GET.get("late", ""))
    query, error = request.GET.get("q", "")[:MAX_QUERY], request.GET.get("error", "")[:MAX_ERROR_CODE]
    rows = selectors.event_decks(event, status=state, query=query, error=error, late=late)
    return render(
        request,
        "decks/event_decks.html",
        {
            "title": gettext("Decks · %(name)s") % {"name": event.name},
            "event": event,
            "rows": rows,
            "status": state,
            "q": query,
            "error": error,
            "late": request.GET.get("late", ""),
            "error_codes": selectors.event_error_codes(event),
            "locked": selectors.is_locked(event),
            # Only organisers enter sealed pools; judges would follow the link to a 403.
            "organiser": permissions.is_organiser(request.user, event),
            "pods": history.event_pods(event),
        },
    )


@login_required
def deck_checks(request, event_id: int):
    event = event_for(request, event_id, Permission.STAFF, STAFF_PAGE_ONLY)
    error, status = None, 200
    if request.method == "POST":
        form = DeckCheckSelectionForm(request.POST)
        result, error, status = for_form(
            lambda: services.select_for_deck_check(event_id=event.pk, actor=request.user, **form.selection())
        )
        if error is None:
            messages.success(
                request, gettext("%(count)s deck(s) picked for a deck check.") % {"count": len(result.registration_ids)}
            )
            return redirect("decks:deck-checks", event_id=event.pk)
    rows = [row for row in selectors.event_decks(event) if row["deck"] is not None]
    by_registration = {row["registration"].pk: row for row in rows}
    selections = [
        {"selection": sel, "rows": [by_registration[r] for r in sel.registration_ids if r in by_registration]}
        for sel in selectors.recent_selections(event)
    ]
    checks = [(c, selectors.check_penalty_links(c)) for c in selectors.recent_event_checks(event)]
    return render(
        request,
        "decks/deck_checks.html",
        {
            "title": gettext("Deck checks · %(name)s") % {"name": event.name},
            "event": event,
            "rows": rows,
            "selections": selections,
            "checks": checks,
            "error": error,
            "methods": SelectionMethod.choices,
        },
        status=status,
    )


def _suggested_findings(deck) -> set[str]:
    """The findings the stored check points at (an illegal list at least)."""
    suggested = {
        findings.FINDING_FOR_CHECK_ERROR[e["code"]]
        for e in deck.check_errors
        if e["code"] in findings.FINDING_FOR_CHECK_ERROR
    }
    if not deck.valid and not suggested:
        suggested.add(findings.DECKLIST_ILLEGAL)
    return suggested


@login_required
def record_check(request, pk: int):
    deck = visible_deck_page(request, pk)
    on_page(authorize, request.user, deck.event_id, Permission.STAFF, message=STAFF_PAGE_ONLY)
    kinds = list(findings.FINDING_KINDS.items())
    checked = _suggested_findings(deck)
    error, status = None, 200
    selection_raw = SelectionRefForm(request.GET).raw() or SelectionRefForm(request.POST).raw()
    if request.method == "POST":
        form = DeckCheckForm(request.POST, kinds)
        checked = form.ticked()

        def record():
            found, notes = form.outcome()
            return services.record_deck_check(
                deck_id=deck.pk,
                actor=request.user,
                found=found,
                notes=notes,
                selection_id=whole_numbers.parse(selection_raw),
            )

        check, error, status = for_form(record)
        if error is None:
            messages.success(request, gettext("Deck check recorded."))
            return redirect(reverse("decks:detail", args=[deck.pk]) + f"#check-{check.pk}")
    return render(
        request,
        "decks/record_check.html",
        {
            "title": gettext("Deck check · %(name)s") % {"name": deck.registration.name},
            "deck": deck,
            "view": selectors.deck_view(deck),
            "kinds": kinds,
            "infractions": findings.INFRACTIONS,
            "error": error,
            "checked": checked,
            "selection": selection_raw if whole_numbers.parse(selection_raw) is not None else "",
            "post": request.POST,
        },
        status=status,
    )


@login_required
def correct(request, pk: int):
    deck = visible_deck_page(request, pk)
    on_page(authorize, request.user, deck.event_id, Permission.STAFF, message=STAFF_PAGE_ONLY)
    error, status = None, 200
    if request.method == "POST":
        form = CorrectionForm(request.POST, request.FILES)
        if form.is_valid():
            data = form.cleaned_data

            def run():
                sections = services.decklist_entries(services.read_decklist(form.decklist_text()))
                return services.correct_deck(
                    deck_id=deck.pk,
                    actor=request.user,
                    reason=data["reason"],
                    main=sections["main"],
                    sideboard=sections["sideboard"],
                    commander=sections["commander"],
                    opaque_sleeves=data["opaque_sleeves"],
                    checklist_cards=services.read_checklist_lines(data.get("checklist_lines") or ""),
                )

            correction, error, status = for_form(run)
            if error is None:
                messages.success(request, gettext("Correction recorded."))
                return redirect(reverse("decks:detail", args=[deck.pk]) + f"#correction-{correction.pk}")
        else:
            status = 400
    else:
        form = CorrectionForm(
            initial={
                "decklist": parsers.format_decklist(deck.main, deck.sideboard, deck.commander),
                "opaque_sleeves": deck.opaque_sleeves,
                "checklist_lines": parsers.format_checklist_lines(deck.checklist_cards),
            }
        )
    return render(
        request,
        "decks/correct.html",
        {
            "title": gettext("Correct the list · %(name)s") % {"name": deck.registration.name},
            "deck": deck,
            "form": form,
            "error": error,
        },
        status=status,
    )


@login_required
def sealed_pools(request, event_id: int):
    event = event_for(
        request, event_id, Permission.ORGANISER, gettext("Only an organiser of this event may enter sealed pools.")
    )
    error, status = None, 200
    if request.method == "POST":
        form = SealedPoolForm(request.POST)

        def run():
            registration_id = form.registration_id()
            sections = services.decklist_entries(services.read_decklist(form.pool_text()))
            return services.set_sealed_pool(
                registration_id=registration_id, actor=request.user, cards=sections["main"] + sections["sideboard"]
            )

        pool, error, status = for_form(run)
        if error is None:
            messages.success(request, gettext("Pool saved (%(size)s cards).") % {"size": pool.size})
            return redirect("decks:sealed-pools", event_id=event.pk)
    return render(
        request,
        "decks/sealed_pools.html",
        {
            "title": gettext("Sealed pools · %(name)s") % {"name": event.name},
            "event": event,
            "error": error,
            "rows": selectors.sealed_pool_rows(event),
            "post": request.POST,
        },
        status=status,
    )
