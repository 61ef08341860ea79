"""The installable app (its manifest and service worker, served by the site from the root
scope) and the notifications page of an event (turn push on, choose triggers, announce)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from draftsite.pages import on_page, run
from events import permissions
from events.access import Permission, access_event
from push import config, selectors, services
from push.models import Trigger

SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "sw.js"
THEME = "#1f3a5f"


@require_GET
@cache_control(private=True, max_age=0, no_cache=True)
def manifest(request):
    """The web app manifest; its start URL is the signed-in player's current event."""
    event_id = selectors.current_event_id(request.user)
    start = reverse("matches:me", args=[event_id]) if event_id else reverse("home")
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
        {"src": static("icons/icon-maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
    ]
    body = {
        "id": "/",
        "name": gettext("Draft site"),
        "short_name": gettext("Draft site"),
        "description": gettext("Your pairings, table, draft and deck at the event."),
        "lang": request.LANGUAGE_CODE,
        "start_url": start,
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME,
        "icons": icons,
    }
    return JsonResponse(body, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


@functools.cache
def _service_worker_source(mtime: float) -> bytes:
    return SERVICE_WORKER.read_bytes()


@require_GET
def service_worker(request):
    """The service worker at /sw.js, so its scope is the whole site; never cached by HTTP
    (browsers check it for updates on each navigation anyway)."""
    source = _service_worker_source(SERVICE_WORKER.stat().st_mtime)
    response = HttpResponse(source, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@login_required
def event_notifications(request, event_id: int):
    event = on_page(access_event, event_id, request.user, permission=Permission.MEMBER)
    back = reverse("push:event", args=[event.pk])
    if request.method == "POST":
        if request.POST.get("action") == "announce":
            response, _ = run(
                request,
                services.announce,
                success=gettext("Announcement sent to the checked-in players who turned notifications on."),
                back=back,
                event_id=event.pk,
                actor=request.user,
                text=request.POST.get("text", ""),
            )
            return response
        on = request.POST.get("on") == "1"
        response, _ = run(
            request,
            services.set_event_push,
            success=gettext("Your notification choices are saved."),
            back=back,
            event_id=event.pk,
            actor=request.user,
            on=on,
            triggers=[t for t in request.POST.getlist("trigger") if t in Trigger.values] if on else None,
            now=timezone.now(),
        )
        return response
    choice = selectors.event_push(event.pk, request.user)
    chosen = set(choice.triggers()) if choice else set(Trigger.values)
    return render(
        request,
        "push/event.html",
        {
            "title": gettext("Notifications"),
            "event": event,
            "push_on": config.enabled(),
            "why_off": config.why_off(),
            "public_key": settings.VAPID_PUBLIC_KEY,
            "choice": choice,
            "triggers": [(value, label, value in chosen) for value, label in Trigger.choices],
            "is_organiser": permissions.is_organiser(request.user, event),
            "settings_json": json.dumps({"publicKey": settings.VAPID_PUBLIC_KEY, "api": reverse("push-subscriptions")}),
        },
    )
