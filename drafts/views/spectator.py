"""The spectator view: a revocable link that shows only open information (R15).

Everything on it comes from ``selectors.open_board`` (DFCs with both faces, seats, pack
sizes, progress): never a single-faced card, and no piles once the draft is over (until
decklists are published). Regenerating the pod's token revokes the old link at once.
"""

from __future__ import annotations

import json

from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext

from drafts import live, selectors, services
from drafts.models import Pod
from drafts.views.common import cards_url, drafting_round, present_board


def _revoked(request):
    return render(
        request,
        "error.html",
        {
            "title": gettext("Spectator link not valid"),
            "status": 404,
            "message": gettext(
                "This spectator link does not work (any more): the organiser may have replaced it. Ask them for the current link."
            ),
        },
        status=404,
    )


def _context(pod: Pod) -> dict:
    pod = services.settle_pod_for_reading(pod.pk)
    board = present_board(selectors.open_board(pod), pod_round=drafting_round(pod.state, pod.paused_from, pod.round))
    return {
        "pod": pod,
        "event": pod.event,
        "summary": selectors.pod_summary(pod),
        "board": board,
        "versions": json.dumps({str(pod.pk): pod.version}),
        "spectator": True,
    }


def spectate(request, token: str):
    pod = selectors.spectated_pod(token)
    if pod is None:
        return _revoked(request)
    context = _context(pod)
    context.update(
        title=gettext("Watching pod %(number)s · %(name)s") % {"number": pod.number, "name": pod.event.name},
        socket=live.spectator_socket(token, pod.pk),
        panel_url=reverse("drafts:spectate-panel", args=[token]),
        cards_url=cards_url(pod.event),
    )
    return render(request, "drafts/spectate.html", context)


def spectate_panel(request, token: str):
    pod = selectors.spectated_pod(token)
    if pod is None:
        return _revoked(request)
    response = render(request, "drafts/_board_panel.html", _context(pod))
    response["Cache-Control"] = "no-store"
    return response
