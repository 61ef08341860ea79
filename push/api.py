"""The push API: whether push is on (and the key browsers subscribe with), a browser's
subscription, a player's choices per event, an organiser's announcement. Thin: one service each."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from draftsite.api import body_object as _body
from events.access import Permission, access_event
from push import config, selectors, services
from push.models import Trigger

ERRORS = OpenApiResponse(description="Error body: {detail, errors: [{code, message, field?}]}")
OBJECT = OpenApiResponse(OpenApiTypes.OBJECT)


class PushStatusView(APIView):
    """``enabled``, the VAPID public key (``applicationServerKey``), and why push is off."""

    permission_classes: list = []

    @extend_schema(responses={200: OBJECT}, operation_id="push_status")
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

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OBJECT, 400: ERRORS}, operation_id="push_subscribe")
    def post(self, request):
        body = _body(request)
        keys = body.get("keys") if isinstance(body.get("keys"), dict) else {}
        subscription = services.subscribe(
            actor=request.user, endpoint=body.get("endpoint"), p256dh=keys.get("p256dh"), auth=keys.get("auth")
        )
        return Response({"id": subscription.pk, "endpoint": subscription.endpoint}, status=status.HTTP_201_CREATED)

    @extend_schema(request=OpenApiTypes.OBJECT, responses={204: None, 400: ERRORS}, operation_id="push_unsubscribe")
    def delete(self, request):
        services.unsubscribe(actor=request.user, endpoint=_body(request).get("endpoint"))
        return Response(status=status.HTTP_204_NO_CONTENT)


def _choice(choice) -> dict:
    return {"on": choice is not None, "triggers": choice.triggers() if choice is not None else []}


class EventPushView(APIView):
    """GET or PUT ``{"on": bool, "triggers": [...]}``: the caller's notifications for the event."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OBJECT, 403: ERRORS, 404: ERRORS}, operation_id="push_event_choices")
    def get(self, request, event_id: int):
        access_event(event_id, request.user, permission=Permission.MEMBER)
        return Response(_choice(selectors.event_push(event_id, request.user)))

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={200: OBJECT, 400: ERRORS, 403: ERRORS, 404: ERRORS},
        operation_id="push_set_event_choices",
    )
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

    @extend_schema(
        request=OpenApiTypes.OBJECT, responses={201: OBJECT, 400: ERRORS, 403: ERRORS}, operation_id="push_announce"
    )
    def post(self, request, event_id: int):
        announcement = services.announce(event_id=event_id, actor=request.user, text=_body(request).get("text"))
        return Response({"id": announcement.pk, "text": announcement.text}, status=status.HTTP_201_CREATED)
