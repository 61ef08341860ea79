"""Deck pages: register a deck (paste, upload, or build from a limited pool), the deck page and
its printable registration sheet, and the judges' pages (every deck, corrections, deck checks,
sealed pools). Thin: the same services and selectors as the API do the work."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from django.utils.translation import gettext, gettext_lazy

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from decks import checking, findings, parsers, selectors, services
from decks.models import DeckCheckSelection, SealedPool, SelectionMethod
from draftsite.errors import DomainError, ForbiddenError, NotFoundError
from drafts import permissions
from drafts.models import DeckFormat, Event, EventStaff, Registration

BASICS = list(checking.BASIC_LANDS)


_SIZE_ATTRS = {
    "data-max-bytes": parsers.MAX_BYTES,
    "data-max-bytes-message": gettext_lazy("The decklist is %(size)s KB; decklists are limited to "
                                           "%(max)s KB. Nothing was sent: shorten it and save again."),
}


class DeckForm(forms.Form):
    decklist = forms.CharField(label=gettext_lazy('Decklist'), required=False,
                               widget=forms.Textarea(attrs={"rows": 14, **_SIZE_ATTRS}),
                               help_text=gettext_lazy('“4 Card Name” lines with a Sideboard section, an Arena export, an MTGO .dek or a CSV.'))
    file = forms.FileField(label=gettext_lazy('…or upload a file'), required=False,
                           widget=forms.ClearableFileInput(attrs=_SIZE_ATTRS))

    def clean_decklist(self):
        # Refused before any parsing, with the text kept in the form for the player to shorten.
        text = self.cleaned_data.get("decklist") or ""
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > parsers.MAX_BYTES:
            raise forms.ValidationError(
                gettext("The decklist is %(size)d KB; decklists are limited to %(max)d KB.")
                % {"size": size // 1024, "max": parsers.MAX_BYTES // 1024}, code="file_too_large")
        return text
    opaque_sleeves = forms.BooleanField(label=gettext_lazy('My deck is in fully opaque sleeves'), required=False)
    checklist_lines = forms.CharField(
        label=gettext_lazy('Checklist and substitute cards'), required=False, widget=forms.Textarea(attrs={"rows": 5}),
        help_text=gettext_lazy("One line per card, with the name marked on it: “2 Innistrad Checklist: Delver of Secrets” or “Double-Faced Substitute Card: Emeria's Call”."))


class CorrectionForm(DeckForm):
    reason = forms.CharField(label=gettext_lazy('Why is the list corrected?'), widget=forms.Textarea(attrs={"rows": 3}),
                             max_length=2000)


def _handle(request, fn):
    """Run a service; domain errors become a message for the form (and a 4xx status)."""
    try:
        return fn(), None, 200
    except DomainError as exc:
        return None, exc, exc.status_code


def _staff_or_403(user, event) -> None:
    if not selectors.is_staff(user, event):
        raise PermissionDenied(gettext("Only the event's judges and organisers may see this page."))


def _event(event_id: int) -> Event:
    try:
        return selectors.event_or_404(event_id)
    except NotFoundError:
        raise Http404(gettext('No such event')) from None


def index(request):
    registered, staffed = [], []
    if request.user.is_authenticated:
        for registration in Registration.objects.filter(user=request.user).select_related("event"):
            deck = getattr(registration, "deck", None)
            registered.append({"event": registration.event, "deck": deck,
                               "status": selectors.deck_status(deck, registration.event)})
        event_ids = EventStaff.objects.filter(user=request.user).values_list("event_id", flat=True)
        staffed = [{"event": e, "organiser": permissions.is_organiser(request.user, e)}
                   for e in Event.objects.filter(pk__in=event_ids)]
    return render(request, "decks/index.html", {"title": gettext('Decks'), "registered": registered,
                                                "staffed": staffed})


def _lines_from_post(post, pool_rows) -> tuple[list[dict], list[str]]:
    """The limited builder's inputs: main-<card id> per pool card, basic-<name> per basic."""
    main, problems = [], []
    for row in pool_rows:
        raw = (post.get(f"main-{row['card_id']}") or "0").strip()
        if not raw.isdigit():
            problems.append(f"{row['name']}: “{raw}” is not a whole number.")
            continue
        if int(raw):
            main.append({"card_id": row["card_id"], "count": int(raw)})
    for basic in BASICS:
        raw = (post.get(f"basic-{basic}") or "0").strip()
        if not raw.isdigit() or int(raw) > 100:
            problems.append(f"{basic}: “{raw}” is not a number of lands between 0 and 100.")
            continue
        if int(raw):
            main.append({"name": basic, "count": int(raw)})
    return main, problems


@login_required
def my_deck(request, event_id: int):
    event = _event(event_id)
    own = selectors.own_registration(request.user, event)
    registration = own
    raw_id = request.GET.get("registration", "")
    if raw_id.isdigit() and (own is None or own.pk != int(raw_id)):
        _staff_or_403(request.user, event)
        registration = Registration.objects.filter(event=event, pk=int(raw_id)).first()
        if registration is None:
            raise Http404(gettext('No such registration'))
    if registration is None:
        return render(request, "decks/not_registered.html", {"title": gettext('Not registered'), "event": event},
                      status=403)
    deck = getattr(registration, "deck", None)
    locked = selectors.is_locked(event)
    # Built from the pool the site knows; a paper draft's players paste their list instead.
    limited = event.deck_format == DeckFormat.LIMITED and selectors.pool_checked(event)
    pool_rows, pool_error = None, None
    if limited:
        try:
            pool = selectors.pool_for(registration)
        except DomainError as exc:
            pool, pool_error = None, exc.message
        if pool is not None:
            pool_rows = selectors.pool_view(pool[1])
        elif pool_error is None:
            pool_error = gettext("There is no pool to build from yet: your draft seat, or the sealed pool the organiser enters.")
    initial = {}
    main_counts, basic_counts = {}, {}
    if deck is not None:
        initial = {"decklist": parsers.format_decklist(deck.main, deck.sideboard, deck.commander),
                   "opaque_sleeves": deck.opaque_sleeves,
                   "checklist_lines": parsers.format_checklist_lines(deck.checklist_cards)}
        for row in deck.main:
            if row["card_id"] is not None and row["name"] not in BASICS:
                main_counts[row["card_id"]] = row["count"]
            elif row["name"] in BASICS:
                basic_counts[row["name"]] = row["count"]
    error, status = None, 200
    form = DeckForm(initial=initial)
    if request.method == "POST" and not locked:
        form = DeckForm(request.POST, request.FILES)
        if form.is_valid():
            result, error, status = _handle(request, lambda: _save_from_form(request, event, registration,
                                                                              form, pool_rows))
            if error is None and result == "suggested":
                status = 200
            elif error is None:
                messages.success(request, gettext('Deck saved and checked.'))
                return redirect(f"{request.path}?registration={registration.pk}" if registration != own
                                else request.path)
        else:
            status = 400
        if pool_rows is not None:
            main_counts = {row["card_id"]: request.POST.get(f"main-{row['card_id']}", "0") for row in pool_rows}
            basic_counts = {b: request.POST.get(f"basic-{b}", "0") for b in BASICS}
    elif request.method == "POST":
        error, status = DomainError("decklist_locked", gettext('Decklists are locked since the decklist deadline; ask a judge for a correction.')), 409
    if pool_rows is not None:
        for row in pool_rows:
            row["main"] = main_counts.get(row["card_id"], 0)
    return render(request, "decks/my_deck.html", {
        "title": gettext('Deck for %(name)s') % {'name': event.name}, "event": event, "registration": registration, "deck": deck,
        "form": form, "error": error, "locked": locked, "limited": limited, "pool_rows": pool_rows,
        "pool_error": pool_error, "basics": [(b, basic_counts.get(b, 0)) for b in BASICS],
        "for_other": registration != own,
    }, status=status)


def _save_from_form(request, event, registration, form, pool_rows):
    data = form.cleaned_data
    if pool_rows is not None:
        main, problems = _lines_from_post(request.POST, pool_rows)
        if problems:
            raise DomainError("invalid_count", " ".join(problems))
        sections = {"main": main, "sideboard": None, "commander": []}
        source = "builder"
    else:
        text = services.decode_or_400(data["file"].read(parsers.MAX_BYTES + 1)) if data.get("file") \
            else data.get("decklist") or ""
        parsed = services.parse_or_400(text)
        sections = services.entries_from_parsed(parsed)
        sections["sideboard"] = sections["sideboard"] or ([] if event.deck_format != DeckFormat.LIMITED else None)
        source = parsed.format
    checklist_cards = services.checklist_lines_or_400(data.get("checklist_lines") or "")
    if request.POST.get("action") == "suggest":
        resolved = checking.resolve(format=event.deck_format, main=sections["main"],
                                    sideboard=sections["sideboard"] or [])
        suggested = checking.suggest_checklist_cards(list(resolved.deck.main) + list(resolved.deck.sideboard))
        form.data = form.data.copy()
        form.data["checklist_lines"] = parsers.format_checklist_lines(suggested)
        if not suggested:
            messages.info(request, gettext('No double-faced card in this list has an official checklist card.'))
        return "suggested"
    deck, _ = services.register_deck(event_id=event.pk, actor=request.user, main=sections["main"],
                                  sideboard=sections["sideboard"], commander=sections["commander"],
                                  opaque_sleeves=data["opaque_sleeves"], checklist_cards=checklist_cards,
                                  source_format=source, registration_id=registration.pk)
    read_in = selectors.printed_languages(deck)
    if read_in:  # say which language the card names were read in
        messages.info(request, gettext("Card names read in: %(languages)s. The list shows each card's "
                                       "English name with the name you wrote beside it.")
                      % {"languages": ", ".join(read_in)})
    return "saved"


def _visible_deck_or_error(request, pk: int):
    try:
        return selectors.visible_deck(request.user, pk)
    except NotFoundError:
        raise Http404(gettext('No such deck')) from None
    except ForbiddenError:
        raise PermissionDenied(gettext('Decks are private to their player until decklists are published.')) from None


def deck_detail(request, pk: int):
    deck = _visible_deck_or_error(request, pk)
    staff = selectors.is_staff(request.user, deck.event_id)
    owner = selectors.owns(request.user, deck)
    if request.method == "POST" and request.POST.get("action") == "revalidate" and (staff or owner):
        _, error, _ = _handle(request, lambda: services.revalidate_deck(deck_id=deck.pk, actor=request.user))
        if error is None:
            messages.success(request, gettext('Deck checked again.'))
        else:
            messages.error(request, error.message)
        return redirect("decks:detail", pk=deck.pk)
    checks = selectors.checks(deck) if staff else []
    return render(request, "decks/detail.html", {
        "title": gettext('Deck of %(name)s') % {'name': deck.registration.name}, "deck": deck, "view": selectors.deck_view(deck),
        "status": selectors.deck_status(deck, deck.event), "staff": staff, "owner": owner,
        "corrections": [(c, selectors.correction_penalty_link(c)) for c in selectors.corrections(deck)]
        if (staff or owner) else [],
        "checks": [(c, selectors.check_penalty_links(c)) for c in checks],
    })


def print_deck(request, pk: int):
    deck = _visible_deck_or_error(request, pk)
    view = selectors.deck_view(deck)
    return render(request, "decks/print.html", {
        "title": gettext('Decklist · %(name)s') % {'name': deck.registration.name}, "deck": deck, "view": view,
        "printed_at": timezone.now(),
    })


@login_required
def event_decks(request, event_id: int):
    event = _event(event_id)
    _staff_or_403(request.user, event)
    state = request.GET.get("status", "")
    state = state if state in ("valid", "invalid", "missing") else ""
    late = {"yes": True, "no": False}.get(request.GET.get("late", ""))
    rows = selectors.event_decks(event, status=state, query=request.GET.get("q", "")[:100],
                                 error=request.GET.get("error", "")[:40], late=late)
    return render(request, "decks/event_decks.html", {
        "title": gettext('Decks · %(name)s') % {'name': event.name}, "event": event, "rows": rows, "status": state,
        "q": request.GET.get("q", "")[:100], "error": request.GET.get("error", "")[:40],
        "late": request.GET.get("late", ""), "error_codes": sorted(set(
            code for row in selectors.event_decks(event) for code in row["status"]["error_codes"])),
        "locked": selectors.is_locked(event),
        # Only organisers enter sealed pools; judges would follow the link to a 403.
        "organiser": permissions.is_organiser(request.user, event),
    })


@login_required
def deck_checks(request, event_id: int):
    event = _event(event_id)
    _staff_or_403(request.user, event)
    error, status = None, 200
    if request.method == "POST":
        method = request.POST.get("method", "")
        chosen = [int(v) for v in request.POST.getlist("registrations") if v.isdigit()]
        percent = request.POST.get("percent", "10").strip()
        seed = request.POST.get("seed", "").strip()
        if not percent.isdigit() or (seed and not seed.isdigit()):
            error, status = DomainError("invalid", gettext('Percent and seed are whole numbers.')), 400
        else:
            result, error, status = _handle(request, lambda: services.select_for_deck_check(
                event_id=event.pk, judge=request.user, method=method, percent=int(percent),
                seed=int(seed) if seed else None, registration_ids=chosen))
            if error is None:
                messages.success(request, gettext('%(count)s deck(s) picked for a deck check.') % {'count': len(result.registration_ids)})
                return redirect("decks:deck-checks", event_id=event.pk)
    rows = [row for row in selectors.event_decks(event) if row["deck"] is not None]
    by_registration = {row["registration"].pk: row for row in rows}
    selections = [{"selection": sel, "rows": [by_registration[r] for r in sel.registration_ids if r in by_registration]}
                  for sel in DeckCheckSelection.objects.filter(event=event)[:10]]
    checks = [(c, selectors.check_penalty_links(c)) for c in
              event.deck_checks.select_related("deck__registration", "judge")[:50]]
    return render(request, "decks/deck_checks.html", {
        "title": gettext('Deck checks · %(name)s') % {'name': event.name}, "event": event, "rows": rows, "selections": selections,
        "checks": checks, "error": error, "methods": SelectionMethod.choices,
    }, status=status)


@login_required
def record_check(request, pk: int):
    deck = _visible_deck_or_error(request, pk)
    _staff_or_403(request.user, deck.event_id)
    kinds = list(findings.FINDING_KINDS.items())
    suggested = {findings.FINDING_FOR_CHECK_ERROR[e["code"]] for e in deck.check_errors
                 if e["code"] in findings.FINDING_FOR_CHECK_ERROR}
    if not deck.valid and not suggested:
        suggested.add("decklist_illegal")
    error, status = None, 200
    selection_raw = request.GET.get("selection") or request.POST.get("selection") or ""
    if request.method == "POST":
        found = []
        for kind, _ in kinds:
            if request.POST.get(f"finding-{kind}"):
                cards = [c.strip() for c in request.POST.get(f"cards-{kind}", "").split(";") if c.strip()]
                infraction = request.POST.get(f"infraction-{kind}")
                found.append({"kind": kind, "description": request.POST.get(f"description-{kind}", "")[:2000],
                              "cards": cards[:100],
                              **({"infraction": infraction} if infraction is not None else {})})
        if request.POST.get("matches") and found:
            error, status = DomainError("invalid", gettext('A deck that matches has no findings.')), 400
        elif not request.POST.get("matches") and not found:
            error, status = DomainError("required", gettext('Tick “the deck matches the list”, or record what differs.')), 400
        else:
            check, error, status = _handle(request, lambda: services.record_deck_check(
                deck_id=deck.pk, judge=request.user, found=found, notes=request.POST.get("notes", "")[:4000],
                selection_id=int(selection_raw) if selection_raw.isdigit() else None))
            if error is None:
                messages.success(request, gettext('Deck check recorded.'))
                return redirect(reverse("decks:detail", args=[deck.pk]) + f"#check-{check.pk}")
    return render(request, "decks/record_check.html", {
        "title": gettext('Deck check · %(name)s') % {'name': deck.registration.name}, "deck": deck, "view": selectors.deck_view(deck),
        "kinds": kinds, "infractions": findings.INFRACTIONS, "error": error,
        "checked": ({kind for kind, _ in kinds if request.POST.get(f"finding-{kind}")}
                    if request.method == "POST" else suggested),
        "selection": selection_raw if selection_raw.isdigit() else "", "post": request.POST,
    }, status=status)


@login_required
def correct(request, pk: int):
    deck = _visible_deck_or_error(request, pk)
    _staff_or_403(request.user, deck.event_id)
    error, status = None, 200
    if request.method == "POST":
        form = CorrectionForm(request.POST, request.FILES)
        if form.is_valid():
            data = form.cleaned_data

            def run():
                text = services.decode_or_400(data["file"].read(parsers.MAX_BYTES + 1)) if data.get("file") \
                    else data.get("decklist") or ""
                sections = services.entries_from_parsed(services.parse_or_400(text))
                return services.correct_deck(
                    deck_id=deck.pk, judge=request.user, reason=data["reason"], main=sections["main"],
                    sideboard=sections["sideboard"], commander=sections["commander"],
                    opaque_sleeves=data["opaque_sleeves"],
                    checklist_cards=services.checklist_lines_or_400(data.get("checklist_lines") or ""))
            correction, error, status = _handle(request, run)
            if error is None:
                messages.success(request, gettext('Correction recorded.'))
                return redirect(reverse("decks:detail", args=[deck.pk]) + f"#correction-{correction.pk}")
        else:
            status = 400
    else:
        form = CorrectionForm(initial={
            "decklist": parsers.format_decklist(deck.main, deck.sideboard, deck.commander),
            "opaque_sleeves": deck.opaque_sleeves,
            "checklist_lines": parsers.format_checklist_lines(deck.checklist_cards)})
    return render(request, "decks/correct.html", {
        "title": gettext('Correct the list · %(name)s') % {'name': deck.registration.name}, "deck": deck, "form": form, "error": error,
    }, status=status)


@login_required
def sealed_pools(request, event_id: int):
    event = _event(event_id)
    if not permissions.is_organiser(request.user, event):
        raise PermissionDenied(gettext('Only an organiser of this event may enter sealed pools.'))
    error, status = None, 200
    registrations = list(Registration.objects.filter(event=event).order_by("name"))
    pools = {p.registration_id: p for p in SealedPool.objects.filter(registration__event=event)}
    if request.method == "POST":
        raw = request.POST.get("registration", "")
        text = request.POST.get("pool", "")

        def run():
            if not raw.isdigit():
                raise DomainError("required", gettext('Choose the player.'), field="registration")
            sections = services.entries_from_parsed(services.parse_or_400(text))
            return services.set_sealed_pool(registration_id=int(raw), actor=request.user,
                                            cards=sections["main"] + sections["sideboard"])
        pool, error, status = _handle(request, run)
        if error is None:
            messages.success(request, gettext('Pool saved (%(size)s cards).') % {'size': pool.size})
            return redirect("decks:sealed-pools", event_id=event.pk)
    return render(request, "decks/sealed_pools.html", {
        "title": gettext('Sealed pools · %(name)s') % {'name': event.name}, "event": event, "error": error,
        "rows": [(r, pools.get(r.pk)) for r in registrations], "post": request.POST,
    }, status=status)
