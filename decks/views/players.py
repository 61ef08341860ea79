"""The players' deck pages: register a deck (paste, upload, or build from a limited pool), the
deck page and its printable registration sheet. Thin: the same services and selectors as the
API do the work."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from decks import adapter, error_codes, exporting, parsers, selectors, services
from decks.builder import builder_data
from decks.forms import BASICS, DeckForm, PageActionForm, PoolBuilderForm
from decks.views.common import STAFF_PAGE_ONLY, _event, visible_deck_page
from draftsite import whole_numbers
from draftsite.errors import DomainError
from draftsite.pages import for_form, on_page, run
from events.access import Permission, authorize
from events.models import DeckFormat


def index(request):
    registered, staffed = [], []
    if request.user.is_authenticated:
        registered = selectors.player_decks(request.user)
        staffed = selectors.staffed_events(request.user)
    return render(
        request, "decks/index.html", {"title": gettext("Decks"), "registered": registered, "staffed": staffed}
    )


def _registration_shown(request, event):
    """(the registration the page is for, the caller's own): staff may open another player's
    with ``?registration=<id>``."""
    own = selectors.own_registration(request.user, event)
    registration_id = whole_numbers.from_request(request.GET, "registration")
    if registration_id is not None and (own is None or own.pk != registration_id):
        on_page(authorize, request.user, event, Permission.STAFF, message=STAFF_PAGE_ONLY)
        registration = selectors.registration_in_event(event, registration_id)
        if registration is None:
            raise Http404(gettext("No such registration"))
        return registration, own
    return own, own


def _pool_builder(event, registration) -> tuple[bool, list[dict] | None, str | None]:
    """(built from a pool?, the pool's rows, why there is no pool yet). A paper draft's players
    paste their list instead: the site does not know their pool."""
    limited = event.deck_format == DeckFormat.LIMITED and selectors.pool_checked(event)
    if not limited:
        return False, None, None
    try:
        pool = selectors.pool_for(registration)
    except DomainError as exc:
        return True, None, exc.message
    if pool is None:
        return (
            True,
            None,
            gettext("There is no pool to build from yet: your draft seat, or the sealed pool the organiser enters."),
        )
    return True, selectors.with_faces(selectors.pool_view(pool[1])), None


def _stored_counts(deck) -> tuple[dict, dict]:
    """(pool card id -> count, basic -> count) of the registered main deck."""
    main_counts, basic_counts = {}, {}
    for row in deck.main if deck is not None else ():
        if row["card_id"] is not None and row["name"] not in BASICS:
            main_counts[row["card_id"]] = row["count"]
        elif row["name"] in BASICS:
            basic_counts[row["name"]] = row["count"]
    return main_counts, basic_counts


def _initial(deck) -> dict:
    if deck is None:
        return {}
    return {
        "decklist": parsers.format_decklist(deck.main, deck.sideboard, deck.commander),
        "opaque_sleeves": deck.opaque_sleeves,
        "checklist_lines": parsers.format_checklist_lines(deck.checklist_cards),
    }


@login_required
def my_deck(request, event_id: int):
    event = _event(event_id)
    registration, own = _registration_shown(request, event)
    if registration is None:
        return render(
            request, "decks/not_registered.html", {"title": gettext("Not registered"), "event": event}, status=403
        )
    deck = getattr(registration, "deck", None)
    locked = selectors.is_locked(event)
    limited, pool_rows, pool_error = _pool_builder(event, registration)
    main_counts, basic_counts = _stored_counts(deck)
    error, status = None, 200
    form = DeckForm(initial=_initial(deck))
    if request.method == "POST" and not locked:
        form = DeckForm(request.POST, request.FILES)
        if form.is_valid():
            result, error, status = for_form(lambda: _save_from_form(request, event, registration, form, pool_rows))
            if error is None and result == "suggested":
                status = 200
            elif error is None:
                messages.success(request, gettext("Deck saved and checked."))
                return redirect(
                    f"{request.path}?registration={registration.pk}" if registration != own else request.path
                )
        else:
            status = 400
        if pool_rows is not None:
            main_counts, basic_counts = PoolBuilderForm(request.POST, pool_rows).counts_as_sent()
    elif request.method == "POST":
        error, status = (
            DomainError(
                error_codes.DECKLIST_LOCKED,
                gettext("Decklists are locked since the decklist deadline; ask a judge for a correction."),
            ),
            409,
        )
    if pool_rows is not None:
        for row in pool_rows:
            row["main"] = main_counts.get(row["card_id"], 0)
    builder = builder_data(event, pool_rows, basic_counts) if pool_rows and not locked else None
    return render(
        request,
        "decks/my_deck.html",
        {
            "title": gettext("Deck for %(name)s") % {"name": event.name},
            "event": event,
            "registration": registration,
            "deck": deck,
            "form": form,
            "error": error,
            "locked": locked,
            "limited": limited,
            "pool_rows": pool_rows,
            "pool_error": pool_error,
            "basics": [(b, basic_counts.get(b, 0)) for b in BASICS],
            "for_other": registration != own,
            "pool_export": reverse("decks:export-pool", args=[event.pk])
            + (f"?registration={registration.pk}" if registration != own else ""),
            "pool_export_sep": "&" if registration != own else "?",
            "pool_dek_missing": exporting.pool_dek_missing(registration) if pool_rows else [],
            "builder": builder,
            # A count sent back unchecked (a bad form) counts as none.
            "main_total": sum(whole_numbers.parse(n) or 0 for n in [*main_counts.values(), *basic_counts.values()]),
        },
        status=status,
    )


def _save_from_form(request, event, registration, form, pool_rows):
    data = form.cleaned_data
    if pool_rows is not None:
        main = PoolBuilderForm(request.POST, pool_rows).main_entries()
        sections = {"main": main, "sideboard": None, "commander": []}
        source = "builder"
    else:
        parsed = services.read_decklist(form.decklist_text())
        sections = services.decklist_entries(parsed)
        sections["sideboard"] = sections["sideboard"] or ([] if event.deck_format != DeckFormat.LIMITED else None)
        source = parsed.format
    checklist_cards = services.read_checklist_lines(data.get("checklist_lines") or "")
    if PageActionForm(request.POST).pressed("suggest"):
        _suggest_checklist_cards(request, event, registration, form, sections)
        return "suggested"
    deck, _ = services.register_deck(
        event_id=event.pk,
        actor=request.user,
        main=sections["main"],
        sideboard=sections["sideboard"],
        commander=sections["commander"],
        opaque_sleeves=data["opaque_sleeves"],
        checklist_cards=checklist_cards,
        source_format=source,
        registration_id=registration.pk,
    )
    read_in = selectors.printed_languages(deck)
    if read_in:  # say which language the card names were read in
        messages.info(
            request,
            gettext(
                "Card names read in: %(languages)s. The list shows each card's "
                "English name with the name you wrote beside it."
            )
            % {"languages": ", ".join(read_in)},
        )
    return "saved"


def _suggest_checklist_cards(request, event, registration, form, sections) -> None:
    """Fill the form's checklist lines with one official card per DFC copy, sideboard included."""
    suggested = services.suggest_checklist_cards(
        event_id=event.pk,
        actor=request.user,
        main=sections["main"],
        sideboard=sections["sideboard"],
        commander=sections["commander"],
        registration_id=registration.pk,
    )
    form.data = form.data.copy()
    form.data["checklist_lines"] = parsers.format_checklist_lines(suggested["checklist_cards"])
    if suggested["uncovered"]:
        messages.warning(
            request,
            gettext(
                "No official checklist or substitute card can stand for %(cards)s. Checklist cards stand for "
                "all of a deck's double-faced cards or none (R12), so none were filled in: use fully opaque "
                "sleeves (R9)."
            )
            % {
                "cards": ", ".join(
                    f"{row['name']} ({adapter.zones_text(row['zones']).lower()})" for row in suggested["uncovered"]
                )
            },
        )
    elif not suggested["checklist_cards"]:
        messages.info(request, gettext("This list has no double-faced card: it needs no checklist card."))


def deck_detail(request, pk: int):
    deck = visible_deck_page(request, pk)
    staff = selectors.is_staff(request.user, deck.event_id)
    owner = selectors.owns(request.user, deck)
    if request.method == "POST" and PageActionForm(request.POST).pressed("revalidate") and (staff or owner):
        return run(
            request,
            services.revalidate_deck,
            success=gettext("Deck checked again."),
            back=reverse("decks:detail", kwargs={"pk": deck.pk}),
            deck_id=deck.pk,
            actor=request.user,
        )[0]
    checks = selectors.checks(deck) if staff else []
    return render(
        request,
        "decks/detail.html",
        {
            "title": gettext("Deck of %(name)s") % {"name": deck.registration.name},
            "deck": deck,
            "view": selectors.deck_view(deck),
            "status": selectors.deck_status(deck, deck.event),
            "staff": staff,
            "owner": owner,
            "corrections": [(c, selectors.correction_penalty_link(c)) for c in selectors.corrections(deck)]
            if (staff or owner)
            else [],
            "checks": [(c, selectors.check_penalty_links(c)) for c in checks],
            "dek_missing": exporting.dek_missing(exporting.deck_list(deck)),
        },
    )


def print_deck(request, pk: int):
    deck = visible_deck_page(request, pk)
    view = selectors.deck_view(deck)
    return render(
        request,
        "decks/print.html",
        {
            "title": gettext("Decklist · %(name)s") % {"name": deck.registration.name},
            "deck": deck,
            "view": view,
            "printed_at": timezone.now(),
        },
    )
