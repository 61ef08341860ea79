"""Live draft pages: websockets that tell a page when its pod changed, and carry the player's picks.

Protocol (JSON text frames):

server -> client
  {"type": "hello", "role": "player"|"staff"|"member"|"spectator"}   once, after the handshake
  {"type": "changed", "pod": <id>, "version": <n>}   on connect (current version) and once per
                                                     committed version of the pod after that
  {"type": "queue", "seat": <id>, "version": <n>, "queue": [...]}   seat sockets: a pack reached
                                                     the front of the seat's queue (its cards)
  {"type": "picked", "ref": ..., "pick": {...}, "pod": {...}, "queue": [...]}   answer to a pick,
                                                     sent once it is committed (the HTTP 201 body)
  {"type": "pick_refused", "ref": ..., "status": 400|403|404|409|503, "detail": "...", "errors": [...]}
  {"type": "heartbeat", "server_time": "<iso>"}       answer to a heartbeat
  {"type": "error", "code": "unknown_message"}
client -> server
  {"type": "heartbeat"}   every ~20 s (keeps the seat's connection status fresh)
  {"type": "pick", "card": <draft card id>, "pack": <pack id>?, "position": <n>?, "ref": ...?}
                          seat sockets of the seat's player only (drafts.services.make_pick)

Card data travels only to the seat's own sockets (its queue, its picks); a pod's other pages
hear versions and fetch what their viewer may see. Who may connect is checked before the handshake is accepted
(a refused socket never opens): a player only their own seat, staff (organisers, judges)
any seat or pod of their event, pod members the pod's open board, anyone holding the pod's
current spectator token its open board. A handed-over seat, or a regenerated spectator
token, closes the socket with code 4403 at the next heartbeat or at once respectively.
"""

from __future__ import annotations

import logging

import orjson
from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import InterfaceError, OperationalError, close_old_connections, connection
from django.utils import timezone
from django.utils.translation import gettext as _

from drafts import error_codes, live, permissions, presence, services
from drafts.models import Event, Pod, Seat
from drafts.services import fastpath
from drafts.tasks import event_group
from draftsite.errors import DomainError
from draftsite.middleware import SERVICE_UNAVAILABLE

logger = logging.getLogger(__name__)

CLOSE_FORBIDDEN = 4403
MAX_PILE_POSITION = 1000


def _pick_in_thread(**kwargs) -> dict:
    """make_pick and its answer, on an executor thread whose connection goes back to the
    process's pool afterwards (a broken one is dropped, never reused)."""
    try:
        return services.make_pick(**kwargs).answer()
    finally:
        close_old_connections()


def _whole_number(value, *, low: int, required: bool):
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 2**31 - 1:
        raise ValueError
    return value


class _PodSocket(AsyncJsonWebsocketConsumer):
    """Joins the pod groups the viewer may follow; forwards versions only."""

    role = ""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.pod_ids: list[int] = []
        self.presence_seat: int | None = None
        self.event_id: int | None = None  # staff: the event whose staff they must still be
        self.hub: live.Hub | None = None
        self.sent: dict[str, set[int]] = {}  # topic -> the versions this socket sent

    def topics(self) -> list[str]:
        return [live.pod_topic(pod_id) for pod_id in self.pod_ids]

    # Subclasses: return (pod ids, seat id to count as present or None), or None to refuse.
    def authorise(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def still_allowed(self) -> bool:
        """Checked at every heartbeat: staff removed from the event (or demoted to a role that
        does not see every card) stop following at once, since seat pages carry packs."""
        if self.role == "staff":
            return permissions.sees_everything(self.user, self.event_id)
        return True

    @property
    def user(self):
        return self.scope.get("user")

    async def dispatch(self, message):
        """Channels' dispatch without its thread hop per frame to close stale database
        connections: these handlers reach the database only through ``database_sync_to_async``
        (which closes them on its own thread) or the async pick pool, and at 1,000 pages the
        hop cost more CPU than the pick itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        decision = await database_sync_to_async(self.authorise)()
        if decision is None:
            await self.close()
            return
        self.pod_ids, self.presence_seat = decision
        # Follow the topics before reading the versions: a change committed in between is
        # then heard, and the version check drops whichever copy comes second.
        self.hub = await live.hub()
        for topic in self.topics():
            self.hub.join(topic, self)
        await self.accept()
        await self.send_json({"type": "hello", "role": self.role})
        versions = await database_sync_to_async(self.arrived)()
        for pod_id in self.pod_ids:
            version = versions.get(pod_id, 0)
            await self.deliver(
                live.pod_topic(pod_id),
                version,
                orjson.dumps({"type": "changed", "pod": pod_id, "version": version}).decode(),
            )

    async def send(self, text_data=None, bytes_data=None, close=False):
        """Text frames straight to the server (draftsite.websockets: ``frame_send``)."""
        frame_send = self.scope.get("frame_send")
        if text_data is not None and bytes_data is None and not close and frame_send is not None:
            await frame_send({"type": "websocket.send", "text": text_data})
            return
        await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def deliver(self, topic: str, version: int, text: str) -> None:
        """drafts.live: send a published message unless this socket already sent that version.

        Every version once, even out of order (two processes may publish out of commit order);
        a seat's queue only forward (a newer queue replaces an older one).
        """
        sent = self.sent.setdefault(topic, set())
        if version in sent or (topic.startswith("seat:") and sent and version < max(sent)):
            return
        sent.add(version)
        if len(sent) > 256:  # bounded: versions this old no longer arrive
            sent.difference_update(sorted(sent)[:128])
        await self.send(text_data=text)

    async def disconnect(self, code):
        if self.hub is not None:
            for topic in self.topics():
                self.hub.leave(topic, self)
        if self.presence_seat is not None:
            await sync_to_async(presence.leave)(self.presence_seat, self.channel_name)

    async def receive_json(self, content, **kwargs):
        if isinstance(content, dict) and content.get("type") == "pick" and hasattr(self, "pick"):
            await self.pick(content)
        elif isinstance(content, dict) and content.get("type") == "heartbeat":
            try:
                allowed = await self.heartbeat()
            except (OperationalError, InterfaceError) as error:  # checked again at the next heartbeat
                # One line, no traceback: under overload every page's heartbeat may land here.
                logger.warning("Heartbeat of a live page without the database: %s", error)
                allowed = True
            if not allowed:
                await self.close(code=CLOSE_FORBIDDEN)
                return
            await self.send_json({"type": "heartbeat", "server_time": timezone.now().isoformat()})
        else:
            await self.send_json({"type": "error", "code": error_codes.UNKNOWN_MESSAGE})

    def arrived(self) -> dict[int, int]:
        """Mark the seat present and read the followed pods' versions (one thread trip)."""
        if self.presence_seat is not None:
            presence.touch(self.presence_seat, self.channel_name)
        return dict(Pod.objects.filter(pk__in=self.pod_ids).values_list("pk", "version"))

    async def heartbeat(self) -> bool:
        """Whether the viewer may still follow this page, and if so mark the seat present."""
        if not await self.astill_allowed():
            return False
        if self.presence_seat is not None:
            try:
                await presence.atouch(self.presence_seat, self.channel_name)
            except Exception:  # presence only informs staff: the page keeps its socket
                logger.warning("Could not mark seat %s present", self.presence_seat, exc_info=True)
        return True

    async def astill_allowed(self) -> bool:
        return await database_sync_to_async(self.still_allowed)()

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        self.received_at = timezone.now()  # a pick counts from here (the timer rule)
        if text_data is None:
            await self.send_json({"type": "error", "code": error_codes.UNKNOWN_MESSAGE})
            return
        await super().receive(text_data=text_data, **kwargs)

    @classmethod
    async def encode_json(cls, content):
        return orjson.dumps(content).decode()  # pick answers carry whole packs: a fast encoder

    @classmethod
    async def decode_json(cls, text_data):
        try:
            return orjson.loads(text_data)
        except ValueError:  # orjson's errors are ValueErrors
            return None


class SeatSocket(_PodSocket):
    """ws/seats/<seat_id>/: the seat's player, or staff of the event (read-only viewers)."""

    def topics(self) -> list[str]:
        return [*super().topics(), live.seat_topic(self.seat_id)]

    @property
    def seat_id(self) -> int:
        return int(self.scope["url_route"]["kwargs"]["seat_id"])

    async def pick(self, content: dict) -> None:
        """The player picks over the socket: the same service and guarantees as over HTTP;
        the answer is sent once the pick is committed."""
        received_at = getattr(self, "received_at", None) or timezone.now()
        ref = content.get("ref")
        if not (ref is None or isinstance(ref, (str, int)) and not isinstance(ref, bool)) or (
            isinstance(ref, str) and len(ref) > 100
        ):
            ref = None
        if self.role != "player":
            await self.refuse(ref, 403, error_codes.NOT_YOUR_SEAT, _("Only the seat's player may pick."))
            return
        try:
            card = _whole_number(content.get("card"), low=1, required=True)
            pack = _whole_number(content.get("pack"), low=1, required=False)
            position = _whole_number(content.get("position"), low=0, required=False)
            if position is not None and position > MAX_PILE_POSITION:
                raise ValueError
        except ValueError:
            await self.refuse(
                ref,
                400,
                error_codes.INVALID_PICK,
                _(
                    "A pick names a card (a whole number), and optionally the pack and "
                    "a pile position from 0 to %(max)s."
                )
                % {"max": MAX_PILE_POSITION},
            )
            return
        try:
            if fastpath.async_enabled():
                answer = await services.amake_pick(
                    pod_id=self.pod_ids[0],
                    seat_id=self.seat_id,
                    draft_card_id=card,
                    pack_id=pack,
                    position=position,
                    actor_id=self.user.pk,
                    owner_id=self.user.pk,
                    received_at=received_at,
                )
            else:
                answer = await sync_to_async(_pick_in_thread, thread_sensitive=False)(
                    seat_id=self.seat_id,
                    draft_card_id=card,
                    pack_id=pack,
                    position=position,
                    actor=self.user,
                    owner=self.user,
                    received_at=received_at,
                )
        except DomainError as error:
            await self.refuse(ref, error.status_code, error.code, error.message, error.as_error())
            return
        except (OperationalError, InterfaceError) as error:
            # The database is out of reach, or its pool stayed busy past its timeout (overload).
            # The pick itself may have committed before the answer's card details were read, so
            # the page is told to look, and it reloads where the draft is; the socket stays.
            logger.warning("Socket pick without the database: %s", error)  # one line: overload logs many
            await self.refuse(
                ref, 503, SERVICE_UNAVAILABLE, _("The server is busy. The page now shows whether your pick was made.")
            )
            return
        await self.send_json({"type": "picked", "ref": ref, **answer})

    async def refuse(self, ref, status: int, code: str, message: str, error: dict | None = None) -> None:
        await self.send_json(
            {
                "type": "pick_refused",
                "ref": ref,
                "status": status,
                "detail": str(message),
                "errors": [error or {"code": code, "message": str(message)}],
            }
        )

    def authorise(self):
        seat = (
            Seat.objects.select_related("registration", "pod")
            .filter(pk=self.scope["url_route"]["kwargs"]["seat_id"])
            .first()
        )
        if seat is None:
            return None
        if permissions.owns_seat(self.user, seat):
            self.role = "player"
            return [seat.pod_id], seat.pk
        if permissions.sees_everything(self.user, seat.pod.event_id):
            self.role, self.event_id = "staff", seat.pod.event_id
            return [seat.pod_id], None
        return None

    async def astill_allowed(self) -> bool:
        # 1,000 pages send 50 heartbeats a second: the player's check is one prepared
        # statement on the event loop's pool where there is one, not a thread and the ORM.
        if self.role == "player" and fastpath.async_enabled():
            return self._holds_seat(await fastpath.aseat_holder(self.seat_id))
        return await super().astill_allowed()

    def still_allowed(self) -> bool:
        if self.role != "player":
            return super().still_allowed()
        with connection.cursor() as cursor:
            cursor.execute(fastpath.SEAT_HOLDER_SQL, [self.seat_id])
            holder = cursor.fetchone()
        return self._holds_seat(holder[0] if holder else None)

    def _holds_seat(self, holder: int | None) -> bool:
        return self.user.pk is not None and holder is not None and holder == self.user.pk


class PodSocket(_PodSocket):
    """ws/pods/<pod_id>/: staff of the event, or a player seated in the pod (open board)."""

    def authorise(self):
        pod = Pod.objects.filter(pk=self.scope["url_route"]["kwargs"]["pod_id"]).first()
        if pod is None:
            return None
        if permissions.sees_everything(self.user, pod.event_id):
            self.role, self.event_id = "staff", pod.event_id
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
            lambda: list(Pod.objects.filter(event_id=self.event_id).values_list("pk", flat=True))
        )()
        if self.hub is not None:
            for pod_id in set(current) - set(self.pod_ids):
                self.hub.join(live.pod_topic(pod_id), self)
            for pod_id in set(self.pod_ids) - set(current):
                self.hub.leave(live.pod_topic(pod_id), self)
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

    def topics(self) -> list[str]:
        return [*super().topics(), live.spectators_topic(self.pod_ids[0])]

    async def deliver(self, topic: str, version: int, text: str) -> None:
        if topic.startswith("spectators:"):  # the link was regenerated: this one is dead
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await super().deliver(topic, version, text)
