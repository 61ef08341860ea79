"""Live draft pages: websockets that say "something changed", never what.

Protocol (JSON text frames):

server -> client
  {"type": "hello", "role": "player"|"staff"|"member"|"spectator"}   once, after the handshake
  {"type": "changed", "pod": <id>, "version": <n>}   on connect (current version) and after every
                                                     committed change of the pod
  {"type": "heartbeat", "server_time": "<iso>"}       answer to a heartbeat
  {"type": "error", "code": "unknown_message"}
client -> server
  {"type": "heartbeat"}   every ~20 s (keeps the seat's connection status fresh)

On "changed" the page fetches what its viewer may see (the panel endpoints): no card data
ever travels on a socket. Who may connect is checked before the handshake is accepted
(a refused socket never opens): a player only their own seat, staff (organisers, judges)
any seat or pod of their event, pod members the pod's open board, anyone holding the pod's
current spectator token its open board. A handed-over seat, or a regenerated spectator
token, closes the socket with code 4403 at the next heartbeat or at once respectively.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import timezone

from drafts import permissions, presence
from drafts.models import Event, Pod, Seat
from drafts.tasks import event_group, pod_group

CLOSE_FORBIDDEN = 4403


class _PodSocket(AsyncJsonWebsocketConsumer):
    """Joins the pod groups the viewer may follow; forwards versions only."""

    role = ""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.pod_ids: list[int] = []
        self.presence_seat: int | None = None

    # Subclasses: return (pod ids, seat id to count as present or None), or None to refuse.
    def authorise(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def still_allowed(self) -> bool:
        return True

    @property
    def user(self):
        return self.scope.get("user")

    async def connect(self):
        decision = await database_sync_to_async(self.authorise)()
        if decision is None:
            await self.close()
            return
        self.pod_ids, self.presence_seat = decision
        for pod_id in self.pod_ids:
            await self.channel_layer.group_add(pod_group(pod_id), self.channel_name)
        await self.accept()
        if self.presence_seat is not None:
            await sync_to_async(presence.touch)(self.presence_seat, self.channel_name)
        await self.send_json({"type": "hello", "role": self.role})
        versions = await database_sync_to_async(
            lambda: dict(Pod.objects.filter(pk__in=self.pod_ids).values_list("pk", "version")))()
        for pod_id in self.pod_ids:
            await self.send_json({"type": "changed", "pod": pod_id, "version": versions.get(pod_id, 0)})

    async def disconnect(self, code):
        for pod_id in self.pod_ids:
            await self.channel_layer.group_discard(pod_group(pod_id), self.channel_name)
        if self.presence_seat is not None:
            await sync_to_async(presence.leave)(self.presence_seat, self.channel_name)

    async def receive_json(self, content, **kwargs):
        if isinstance(content, dict) and content.get("type") == "heartbeat":
            if not await database_sync_to_async(self.still_allowed)():
                await self.close(code=CLOSE_FORBIDDEN)
                return
            if self.presence_seat is not None:
                await sync_to_async(presence.touch)(self.presence_seat, self.channel_name)
            await self.send_json({"type": "heartbeat", "server_time": timezone.now().isoformat()})
        else:
            await self.send_json({"type": "error", "code": "unknown_message"})

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if text_data is None:
            await self.send_json({"type": "error", "code": "unknown_message"})
            return
        await super().receive(text_data=text_data, **kwargs)

    async def decode_json(self, text_data):
        try:
            return await super().decode_json(text_data)
        except ValueError:
            return None

    # --- group messages ----------------------------------------------------------------

    async def pod_changed(self, event):
        """drafts.tasks.notify_pod: forward the pod and its version, nothing else.

        The group message names no pod; a socket that follows one pod names it, the event
        dashboard's socket (many pods) sends ``"pod": null`` and its page refreshes them all.
        """
        pod_id = event.get("pod") or (self.pod_ids[0] if len(self.pod_ids) == 1 else None)
        await self.send_json({"type": "changed", "pod": pod_id, "version": event.get("version")})

    async def pod_spectators_revoked(self, event):
        """Only spectator sockets care (their token was replaced)."""


class SeatSocket(_PodSocket):
    """ws/seats/<seat_id>/: the seat's player, or staff of the event (read-only viewers)."""

    def authorise(self):
        seat = Seat.objects.select_related("registration", "pod").filter(
            pk=self.scope["url_route"]["kwargs"]["seat_id"]).first()
        if seat is None:
            return None
        if permissions.owns_seat(self.user, seat):
            self.role = "player"
            return [seat.pod_id], seat.pk
        if permissions.sees_everything(self.user, seat.pod.event_id):
            self.role = "staff"
            return [seat.pod_id], None
        return None

    def still_allowed(self) -> bool:
        if self.role != "player":
            return True
        seat = Seat.objects.select_related("registration").filter(pk=self.presence_seat).first()
        return seat is not None and permissions.owns_seat(self.user, seat)


class PodSocket(_PodSocket):
    """ws/pods/<pod_id>/: staff of the event, or a player seated in the pod (open board)."""

    def authorise(self):
        pod = Pod.objects.filter(pk=self.scope["url_route"]["kwargs"]["pod_id"]).first()
        if pod is None:
            return None
        if permissions.sees_everything(self.user, pod.event_id):
            self.role = "staff"
            return [pod.pk], None
        seat = permissions.seat_in_pod(self.user, pod.pk)
        if seat is not None:
            self.role = "member"
            return [pod.pk], seat.pk
        return None


class EventSocket(_PodSocket):
    """ws/events/<event_id>/: the dashboard of every pod of an event (staff only).

    It also follows the event itself, so pods seated after it connected (and event settings
    changes) reach it at once: ``event_changed`` re-reads the pods and follows the new ones.
    """

    def authorise(self):
        event = Event.objects.filter(pk=self.scope["url_route"]["kwargs"]["event_id"]).first()
        if event is None or not permissions.sees_everything(self.user, event.pk):
            return None
        self.role = "staff"
        self.event_id = event.pk
        return list(event.pods.values_list("pk", flat=True)), None

    async def connect(self):
        await super().connect()
        if getattr(self, "event_id", None) is not None:
            await self.channel_layer.group_add(event_group(self.event_id), self.channel_name)

    async def disconnect(self, code):
        await super().disconnect(code)
        if getattr(self, "event_id", None) is not None:
            await self.channel_layer.group_discard(event_group(self.event_id), self.channel_name)

    async def event_changed(self, event):
        """drafts.tasks.notify_event: pods seated or removed, settings changed."""
        current = await database_sync_to_async(
            lambda: list(Pod.objects.filter(event_id=self.event_id).values_list("pk", flat=True)))()
        for pod_id in set(current) - set(self.pod_ids):
            await self.channel_layer.group_add(pod_group(pod_id), self.channel_name)
        for pod_id in set(self.pod_ids) - set(current):
            await self.channel_layer.group_discard(pod_group(pod_id), self.channel_name)
        self.pod_ids = current
        await self.send_json({"type": "changed", "pod": None, "version": None})


class SpectatorSocket(_PodSocket):
    """ws/watch/<token>/: anyone with the pod's current spectator link (open board only)."""

    role = "spectator"

    def authorise(self):
        token = self.scope["url_route"]["kwargs"]["token"]
        valid = token and "\x00" not in token  # PostgreSQL refuses NUL in a query
        pod = Pod.objects.filter(spectator_token=token).exclude(spectator_token="").first() if valid else None
        if pod is None:
            return None
        self.token = token
        return [pod.pk], None

    def still_allowed(self) -> bool:
        return Pod.objects.filter(pk=self.pod_ids[0], spectator_token=self.token).exists()

    async def pod_spectators_revoked(self, event):
        await self.close(code=CLOSE_FORBIDDEN)
