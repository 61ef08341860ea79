"""The player's draft page: the pack in front of them, their pile, the open board, clocks.

The page and its live panel show ``selectors.seat_view`` and nothing else, so a player
only ever receives their own cards and the pod's open information (R15-R16). Scripts pick
through the API (``pack`` sent, so a stale double click is a 409); the forms below are
the same actions without script, with a confirm step for the pick.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from drafts import access, live, permissions, pick_input, selectors, services
from drafts.forms import PickForm, PileCoverForm, PileMoveForm
from drafts.models import PodState, effective_state
from drafts.views.common import cards_url, clock_for, drafting_round, get_seat, present_board, present_card
from draftsite.pages import run
from events.access import Permission
from events.views.common import confirm_page, confirmed, posted

PILE_COVER_LABELS = {
    "": gettext_lazy("nothing (DFCs show on top)"),
    "basic_land": gettext_lazy("a basic land"),
    "checklist": gettext_lazy("a checklist card"),
}


def deck_registration_url(event_id: int) -> str:
    return reverse("decks:my-deck", args=[event_id])


def seat_context(seat, *, is_player: bool, now=None) -> dict:
    now = now or timezone.now()
    view = selectors.seat_view(seat, now, pod=services.settle_pod_for_reading(seat.pod_id, now))
    summary = view["pod"]
    queue = view["queue"]
    head = queue[0] if queue else None
    pile = [present_card(c) for c in view["pile"]]
    state = summary["state"]
    effective = effective_state(state, summary["paused_from"])
    # Staff reading a seat are not its player: no "you" badge on the board for them.
    board = present_board(
        view["board"],
        my_position=seat.position if is_player else None,
        pod_round=drafting_round(state, summary["paused_from"], summary["round"]),
    )
    waiting_ready = 0
    if effective == PodState.REVIEWING:
        waiting_ready = seat.pod.seats.filter(ready=False, is_automatic=False).count()
    return {
        "seat": seat,
        "seat_info": view["seat"],
        "pod": seat.pod,
        "event": seat.pod.event,
        "summary": summary,
        "state": state,
        "effective_state": effective,
        "paused": state == PodState.PAUSED,
        "head": head and {**head, "cards": [present_card(c) for c in head["cards"]]},
        "queue_waiting": max(0, len(queue) - 1),
        "queue": queue,
        "pile": pile,
        "pile_cover_label": PILE_COVER_LABELS.get(view["seat"]["pile_cover"], ""),
        "pile_covers": PILE_COVER_LABELS.items(),
        "board": board,
        "clock": clock_for(summary, head),
        "is_player": is_player,
        # The organiser gave the seat to an automatic drafter: it picks, the player only watches.
        "automatic": is_player and view["seat"]["is_automatic"],
        "can_pick": is_player and not view["seat"]["is_automatic"] and state == PodState.DRAFTING and head is not None,
        "waiting_ready": waiting_ready,
        "deck_url": (
            deck_registration_url(seat.pod.event_id)
            if is_player
            else reverse("decks:event-decks", args=[seat.pod.event_id])
        ),
        "now": now,
        "server_time": view["server_time"],
        "versions": json.dumps({str(seat.pod_id): summary["version"]}),
    }


@login_required
def seat_page(request, seat_id: int):
    seat = get_seat(seat_id, request.user, Permission.SEAT_READER)
    is_player = permissions.owns_seat(request.user, seat)
    context = seat_context(seat, is_player=is_player)
    context.update(
        title=gettext("Draft · pod %(number)s, seat %(position_1)s")
        % {"number": seat.pod.number, "position_1": seat.position + 1},
        socket=live.seat_socket(seat.pk, seat.pod_id),
        panel_url=reverse("drafts:seat-panel", args=[seat.pk]),
        cards_url=cards_url(seat.pod.event),
        # The packs this seat opened, slot by slot: hidden until decklists are published (R16).
        opened_packs=selectors.opened_packs(seat.pod, opener=seat)
        if access.sees_log_packs(request.user, seat.pod.event)
        else None,
    )
    return render(request, "drafts/seat.html", context)


@login_required
def seat_panel(request, seat_id: int):
    """The live part of the draft page (the script swaps in whatever region changed)."""
    seat = get_seat(seat_id, request.user, Permission.SEAT_READER)
    is_player = permissions.owns_seat(request.user, seat)
    response = render(request, "drafts/_seat_panel.html", seat_context(seat, is_player=is_player))
    response["Cache-Control"] = "no-store"
    return response


def _back(seat) -> str:
    return reverse("drafts:seat", args=[seat.pk])


def _on_seat(request, seat, service, *, success: str = "", anchor: str = "", **fields):
    """A control of the seat's player: ``service`` on the seat, by the caller; its refusal (or
    ``success``) is a message back on the seat's page, at ``anchor``."""
    return run(
        request, service, success=success, back=_back(seat) + anchor, seat_id=seat.pk, actor=request.user, **fields
    )[0]


@login_required
@require_POST
def seat_pick(request, seat_id: int):
    """Pick without script: the first post asks to confirm, the second picks."""
    seat = get_seat(seat_id, request.user, Permission.SEAT_OWNER)
    form = PickForm(request.POST)
    if not form.is_valid():  # a pack or position that is no number in its range is refused, never ignored
        messages.error(request, pick_input.invalid_pick_message())
        return redirect(_back(seat))
    card_id, pack_id, position = (form.cleaned_data[name] for name in ("card", "pack", "position"))
    if card_id is None:
        messages.error(request, gettext("Choose a card to pick."))
        return redirect(_back(seat))
    if not confirmed(request):
        view = selectors.seat_view(seat, pod=services.settle_pod_for_reading(seat.pod_id))
        head = view["queue"][0] if view["queue"] else None
        card = next((c for c in (head["cards"] if head else []) if c["id"] == card_id), None)
        if card is None or (pack_id and head["pack_id"] != pack_id):
            messages.error(request, gettext("That pack has already moved on; pick from the pack now in front of you."))
            return redirect(_back(seat))
        return confirm_page(
            request,
            title=gettext("Confirm your pick"),
            question=gettext("Pick %(card)s?") % {"card": card["name"]},
            action=reverse("drafts:seat-pick", args=[seat.pk]),
            back=_back(seat),
            button=gettext("Pick it"),
            detail=gettext("The pack then passes to your neighbour."),
        )
    return _on_seat(
        request,
        seat,
        services.make_pick,
        draft_card_id=card_id,
        owner=request.user,  # checked again in the pod's lock: a seat handed over meanwhile picks no more
        position=position,
        pack_id=pack_id,
        received_at=getattr(request, "received_at", None),  # the timer rule (ReceivedAtMiddleware)
    )


@login_required
@require_POST
def seat_pile(request, seat_id: int):
    """Move a card within the pile (R17): up/down buttons without script."""
    seat = get_seat(seat_id, request.user, Permission.SEAT_OWNER)
    fields = posted(PileMoveForm, request)
    card_id, position = fields["card"], fields["position"]
    if card_id is None or position is None:
        messages.error(request, gettext("Choose a card and where it goes."))
        return redirect(_back(seat) + "#pile")
    return _on_seat(request, seat, services.move_pile_card, anchor="#pile", draft_card_id=card_id, position=position)


@login_required
@require_POST
def seat_pile_cover(request, seat_id: int):
    seat = get_seat(seat_id, request.user, Permission.SEAT_OWNER)
    return _on_seat(
        request, seat, services.set_pile_cover, anchor="#pile", cover=posted(PileCoverForm, request)["cover"]
    )


@login_required
@require_POST
def seat_ready(request, seat_id: int):
    seat = get_seat(seat_id, request.user, Permission.SEAT_OWNER)
    return _on_seat(
        request, seat, services.mark_ready, success=gettext("You are ready. The next pack opens when everyone is.")
    )


@login_required
def seat_log_text(request, seat_id: int):
    seat = get_seat(seat_id, request.user, Permission.SEAT_READER)
    text = selectors.mtgo_log_text(seat, include_packs=access.sees_log_packs(request.user, seat.pod.event))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="draft-pod{seat.pod.number}-seat{seat.position + 1}.txt"'
    return response


@login_required
def seat_log_json(request, seat_id: int):
    seat = get_seat(seat_id, request.user, Permission.SEAT_READER)
    sees_packs = access.sees_log_packs(request.user, seat.pod.event)
    data = {
        "event": seat.pod.event_id,
        "pod": seat.pod_id,
        "seat": seat.pk,
        "position": seat.position,
        "picks": selectors.draft_log(seat, include_packs=sees_packs),
    }
    if sees_packs:  # what this seat opened, slot by slot: after publication (R16)
        data["opened_packs"] = selectors.opened_packs(seat.pod, opener=seat)
    response = HttpResponse(
        json.dumps(data, indent=2, ensure_ascii=False), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="draft-pod{seat.pod.number}-seat{seat.position + 1}.json"'
    return response
