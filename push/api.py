"""The push API: whether push is on (and the key browsers subscribe with), a browser's
subscription, a player's choices per event, an organiser's announcement. Thin: one service each."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from push import config, selectors, services
from push.models import Trigger


def _body(request) -> dict:
    return request.data if isinstance(request.data, dict) else {}


class PushStatusView(APIView):
    """``enabled``, the VAPID public key (``applicationServerKey``), and why push is off."""

    permission_classes: list = []

    def get(self, request):
        return Response(
            {
                "enabled": config.enabled(),
                "public_key": settings.VAPID_PUBLIC_KEY if config.enabled() else None,
                "reason": config.why_off() or None,
                "triggers": Trigger.values,
            }
        )


class SubscriptionView(APIView):
    """POST the ``PushSubscription.toJSON()`` of this browser; DELETE it with its endpoint."""

    permission_classes = [IsAuthenticated]

    def post(self, request):
        body = _body(request)
        keys = body.get("keys") if isinstance(body.get("keys"), dict) else {}
        subscription = services.subscribe(
            actor=request.user, endpoint=body.get("endpoint"), p256dh=keys.get("p256dh"), auth=keys.get("auth")
        )
        return Response({"id": subscription.pk, "endpoint": subscription.endpoint}, status=status.HTTP_201_CREATED)

    def delete(self, request):
        services.unsubscribe(actor=request.user, endpoint=_body(request).get("endpoint"))
        return Response(status=status.HTTP_204_NO_CONTENT)


def _choice(choice) -> dict:
    return {"on": choice is not None, "triggers": choice.triggers() if choice is not None else []}


class EventPushView(APIView):
    """GET or PUT ``{"on": bool, "triggers": [...]}``: the caller's notifications for the event."""

    permission_classes = [IsAuthenticated]

    def get(self, request, event_id: int):
        from drafts.access import Permission, access_event

        access_event(event_id, request.user, permission=Permission.MEMBER)
        return Response(_choice(selectors.event_push(event_id, request.user)))

    def put(self, request, event_id: int):
        body = _body(request)
        choice = services.set_event_push(
            event_id=event_id,
            actor=request.user,
            on=body.get("on", True) is True,
            triggers=body.get("triggers"),
            now=timezone.now(),
        )
        return Response(_choice(choice))


class AnnouncementView(APIView):
    """POST ``{"text": ...}``: organisers tell every checked-in player who turned push on."""

    permission_classes = [IsAuthenticated]

    def post(self, request, event_id: int):
        announcement = services.announce(event_id=event_id, actor=request.user, text=_body(request).get("text"))
        return Response({"id": announcement.pk, "text": announcement.text}, status=status.HTTP_201_CREATED)
