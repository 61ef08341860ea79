"""The sealed pages: create an event, the event's sealed page (the organiser's list and
controls; a player's pool pack by pack, their paper pool and the pool received), and the
paper pool registration page. Thin: forms in, services and selectors, ``draftsite.pages``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_POST

from cards import selectors as card_selectors
from decks import services as deck_services
from drafts.services import packs
from draftsite.pages import for_form, on_page, run, show_on_form
from events import permissions
from events.access import require_event_creator
from sealed import selectors, services
from sealed.forms import AnswerForm, AssignForm, PoolForm, SealedEventForm
from sealed.models import PoolStatus


def _language() -> str:
    return (get_language() or "en").lower()


@login_required
def new_event(request):
    on_page(require_event_creator, request.user)
    form = SealedEventForm(request.POST or None, set_choices=card_selectors.set_choices())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        event, error, _ = for_form(
            lambda: services.create_sealed_event(
                actor=request.user,
                name=data["name"],
                date=data["date"],
                enforcement_level=data["enforcement_level"],
                paper=data["paper"],
                boosters=form.boosters(),
                booster_count=data["booster_count"],
            )
        )
        if error is not None:
            show_on_form(form, error)
        elif event is not None:
            messages.success(
                request, gettext("Sealed event “%(name)s” created. Register the players.") % {"name": event.name}
            )
            return redirect("drafts:event-detail", event.pk)
    context = {
        "title": gettext("Create a sealed event"),
        "form": form,
        "set_boosters": packs.catalogue_booster_kinds(),
    }
    return render(request, "sealed/new.html", context)


@login_required
def event(request, event_id: int):
    event, sealed = on_page(selectors.access_sealed, event_id, request.user)
    staff = selectors.is_staff(request.user, event)
    own = selectors.own_registration(request.user, event)
    context = {
        "title": gettext("Sealed · %(name)s") % {"name": event.name},
        "event": event,
        "sealed": sealed,
        "staff": staff,
        "organiser": permissions.is_organiser(request.user, event),
        "mine": selectors.player_pool(own, _language()) if own else None,
        "swap": selectors.swap_of(event),
        "statuses": PoolStatus,
    }
    if staff:
        context["rows"] = selectors.player_rows(event)
        context["unassigned"] = selectors.unassigned_pools(event)
    return render(request, "sealed/event.html", context)


@login_required
def register_pool(request, event_id: int):
    event, sealed = on_page(selectors.access_sealed, event_id, request.user)
    if request.method == "POST":
        on_page(selectors.access_registrant, request.user, event)
    own = selectors.own_registration(request.user, event)
    registered = selectors.player_pool(own, _language())["registered_pool"] if own else None
    initial = (
        "\n".join(f"{r['count']} {r['printed_name'] or r['name']}" for r in registered["cards"]) if registered else ""
    )
    form = PoolForm(request.POST or None, initial={"pool": initial})
    status = 200
    if request.method == "POST" and form.is_valid():

        def register():
            sections = deck_services.decklist_entries(deck_services.read_decklist(form.cleaned_data["pool"]))
            return services.register_paper_pool(
                event_id=event.pk, actor=request.user, cards=sections["main"] + sections["sideboard"]
            )

        pool, error, status = for_form(register)
        if pool is not None:
            messages.success(request, gettext("Pool registered (%(size)s cards).") % {"size": pool.size})
            return redirect("sealed:event", event.pk)
        if error is not None:
            show_on_form(form, error)
    codes = sorted({b["set_code"] for b in sealed.boosters})
    catalogue = selectors.set_catalogue(codes, _language())
    return render(
        request,
        "sealed/register_pool.html",
        {
            "title": gettext("Register your pool · %(name)s") % {"name": event.name},
            "event": event,
            "sealed": sealed,
            "form": form,
            "catalogue": catalogue,
            # The page's script: names (printed, English) and rarity group, and what the boosters hold.
            "script_data": {
                "cards": [[c["printed_name"] or c["name"], c["name"], c["group"]] for c in catalogue],
                "limits": services.pool_limits(sealed),
                "groups": {k: str(v) for k, v in selectors.GROUP_NAMES.items()},
            },
        },
        status=status,
    )


def _back(event_id: int) -> str:
    return reverse("sealed:event", args=[event_id])


def _control(request, event_id: int, service, /, *, success, **fields):
    """A control on the sealed event's page, run by the caller: "no such thing" and "not yours"
    are the 404 and 403 pages, any other refusal (or ``success``) a message back on the page."""
    return run(
        request, service, success=success, back=_back(event_id), refusals_as_pages=True, actor=request.user, **fields
    )[0]


@login_required
@require_POST
def open_pools(request, event_id: int):
    return _control(
        request,
        event_id,
        services.open_pools,
        success=lambda n: gettext("Pools opened for %(count)s players.") % {"count": n},
        event_id=event_id,
    )


@login_required
@require_POST
def swap(request, event_id: int):
    return _control(
        request,
        event_id,
        services.swap_pools,
        success=gettext("Pools swapped: each player builds from another player's pool."),
        event_id=event_id,
    )


@login_required
@require_POST
def answer(request, event_id: int):
    form = AnswerForm(request.POST)
    form.is_valid()
    confirm = bool(form.cleaned_data.get("confirm"))
    return _control(
        request,
        event_id,
        services.answer_pool,
        success=gettext("Thank you: the pool is confirmed.") if confirm else gettext("A judge is on the way."),
        event_id=event_id,
        confirm=confirm,
        reason=form.cleaned_data.get("reason") or "",
    )


@login_required
@require_POST
def assign(request, event_id: int, pool_id: int):
    form = AssignForm(request.POST)
    form.is_valid()
    return _control(
        request,
        event_id,
        services.assign_pool,
        success=gettext("The pool is handed out."),
        pool_id=pool_id,
        registration_id=form.cleaned_data.get("registration"),
    )
