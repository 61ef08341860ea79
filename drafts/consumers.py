"""Live draft pages: websockets that carry each viewer's state of its pod, and the player's picks.

Every frame is a type in ``drafts.protocol``, which documents both dialects: ``versions`` (the
default: "pod N is at version V" and the seat's queue pushes, for API clients) and ``state``
(``?protocol=state``: a snapshot per viewer, then deltas, for the shipped pages).

In the state dialect a socket follows its pods' documents (``drafts.state``): each committed
change publishes the pod's document, and each socket turns the newest one into its viewer's
delta from what it sent last, at most once per event-loop turn (several versions then share one
delta). What a viewer may see is ``drafts.state``'s view, never the document itself. Who may
connect is checked before the handshake is accepted (a refused socket never opens): a player
only their own seat, staff (organisers, judges) any seat or pod of their event, pod members the
pod's open board, anyone holding the pod's current spectator token its open board. A handed-over
seat, or a regenerated spectator token, closes the socket with code 4403 at the next heartbeat
or at once respectively.
"""

from __future__ import annotations

import asyncio
import logging
from functools import cached_property
from urllib.parse import parse_qs

import orjson
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.db import InterfaceError, OperationalError, connection
from django.utils import timezone
from django.utils.translation import gettext as _

from drafts import aio, dashboards, error_codes, live, permissions, pick_input, presence, protocol, services, state
from drafts.models import Pod, Seat
from drafts.queue import queue_rows
from drafts.services import fastpath
from draftsite.errors import DomainError
from draftsite.middleware import SERVICE_UNAVAILABLE
from draftsite.sockets import CLOSE_FORBIDDEN, LiveSocket
from events import live as event_live
from events import permissions as event_permissions
from events.models import Event

logger = logging.getLogger(__name__)


def cards_url(event: Event, scope: dict) -> str:
    """The card sheet a page of this event loads once (``drafts.cardsheet``), in the language
    the page is in: the language cookie, else the browser's, else the site's."""
    from django.conf import settings
    from django.utils.translation import get_supported_language_variant
    from django.utils.translation.trans_real import parse_accept_lang_header

    from drafts import cardsheet

    headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}
    cookies = {}
    for part in headers.get("cookie", "").split(";"):
        name, _, value = part.strip().partition("=")
        cookies[name] = value
    wanted = [cookies.get(settings.LANGUAGE_COOKIE_NAME, "")]
    wanted += [code for code, _ in parse_accept_lang_header(headers.get("accept-language", ""))]
    language = settings.LANGUAGE_CODE
    for code in wanted:
        try:
            language = get_supported_language_variant(code)
            break
        except LookupError:
            continue
    return cardsheet.sheet_url(event, language)


class _PodSocket(LiveSocket):
    """What the draft engine's sockets share (seat, pod, spectator, dashboard): the viewer's
    pods followed on ``drafts.live``'s hub, in either dialect, and the frames a draft page
    sends (``drafts.protocol.parse_client_frame``)."""

    role = ""
    # A change that only moves other seats' counts on the board (a neighbour picked) reaches
    # the page at most this often; anything of the viewer's own (a pack, the pile, the pod's
    # state) goes at once and carries the board with it. At 1,000 players the board was 7 of
    # every pick's 10 frames to seat pages, each one its own socket write; at 2 s it was still
    # 3.3 of 5.3, at 4 s 1.5 of 3.5 (web CPU per pick 2.85 -> 2.46 ms, bench/results/README.md).
    # Every seat thinks for seconds between its picks: counts 4 s old still show who is behind.
    BOARD_EVERY = 4.0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.pod_ids: list[int] = []
        self.presence_seat: int | None = None
        self.event_id: int | None = None  # staff: the event whose staff they must still be
        self.hub: live.Hub | None = None
        self.sent: dict[str, set[int]] = {}  # topic -> the versions this socket sent
        self.dialect = protocol.PROTOCOL_VERSIONS
        self.viewer = state.Viewer()
        self.cards_url = ""
        # State dialect: what this socket sent its page (pieces and version), by pod, and the
        # newest document heard that the page has not been sent yet.
        self.shown: dict[int, dict[str, bytes]] = {}
        self.version: dict[int, int] = {}
        self.newest: dict[int, state.Document] = {}
        self.flushing = False
        self.delta_sent_at: dict[int, float] = {}  # pod -> loop time of its last delta frame
        self.board_due: asyncio.TimerHandle | None = None
        # The pod's version read after the viewer was authorised: a document newer than it
        # says whether the viewer may still follow (``may_follow``); an older one says nothing.
        self.authorised_at: dict[int, int] = {}
        self.forbidden = False

    @property
    def stateful(self) -> bool:
        return self.dialect == protocol.PROTOCOL_STATE

    def topics(self) -> list[str]:
        # Staff also hear their removal from the event's staff (events.live.notify_staff_changed).
        staff = [live.staff_topic(self.event_id)] if self.role == "staff" and self.event_id is not None else []
        if self.stateful:
            return [live.state_topic(pod_id) for pod_id in self.pod_ids] + staff
        return [live.pod_topic(pod_id) for pod_id in self.pod_ids] + staff

    # Subclasses: return (pod ids, seat id to count as present or None), or None to refuse.
    def authorise(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def still_allowed(self) -> bool:
        """Checked at every heartbeat: staff removed from the event (or demoted to a role that
        does not see every card) stop following at once, since seat pages carry packs."""
        if self.role == "staff":
            return event_permissions.sees_everything(self.user, self.event_id)
        return True

    # Seat, pod and spectator pages hear their pods through ``drafts.live``, never through the
    # channel layer; only the dashboard joins a group (the event's changes).
    uses_channel_layer = False

    async def connect(self):
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        if query.get("protocol", [""])[0] == protocol.PROTOCOL_STATE:
            self.dialect = protocol.PROTOCOL_STATE
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
        if self.stateful:
            await self.send_json({"type": "hello", "role": self.role, "protocol": self.dialect})
            await self.start_state()
            return
        await self.send_json({"type": "hello", "role": self.role})  # as API clients have always had it
        versions = await database_sync_to_async(self.arrived)()
        for pod_id in self.pod_ids:
            version = versions.get(pod_id, 0)
            self.authorised_at.setdefault(pod_id, version)
            await self.deliver(
                live.pod_topic(pod_id),
                version,
                orjson.dumps({"type": "changed", "pod": pod_id, "version": version}).decode(),
            )

    async def deliver(self, topic: str, version: int, text: str | dict | state.Document) -> None:
        """drafts.live: send a published message unless this socket already sent that version.

        Every version once, even out of order (two processes may publish out of commit order);
        a seat's queue only forward (a newer queue replaces an older one). State dialect: keep
        the newest document; the page gets its delta at the end of this event-loop turn.
        """
        if self.forbidden:
            return
        if topic.startswith(live.STAFF_PREFIX):  # closed before any later frame is made
            if live.staff_change_closes(text, getattr(self.user, "pk", None)):
                await self.forbid()
            return
        if topic.startswith(live.STATE_PREFIX):
            document = state.shared_document(topic, version, text)
            if document is None:  # a patch this process cannot apply: the hub reads the pod
                return
            if not self.may_follow(document):
                await self.forbid()
                return
            self.hear(document)
            return
        assert isinstance(text, str)  # only a document arrives parsed
        if text.startswith(live.ARRIVED_PREFIX):
            text = await self.queue_from_document(version)
            if text is None:
                return
        sent = self.sent.setdefault(topic, set())
        if version in sent or (topic.startswith("seat:") and sent and version < max(sent)):
            return
        sent.add(version)
        if len(sent) > 256:  # bounded: versions this old no longer arrive
            sent.difference_update(sorted(sent)[:128])
        await self.send(text_data=text)

    def may_follow(self, document: state.Document) -> bool:
        """Whether the viewer may still follow the pod, as far as this document says (a seat's
        player: the seat is still theirs). Checked on every document, before any frame of it
        is made: a seat handed over mid-draft shows the old player nothing of the new one's."""
        return True

    async def forbid(self) -> None:
        """The viewer may no longer follow: stop at once and close (as a heartbeat would)."""
        self.newest.clear()
        await super().forbid()

    async def disconnect(self, code):
        if self.board_due is not None:
            self.board_due.cancel()
        if self.hub is not None:
            for topic in self.topics():
                self.hub.leave(topic, self)
        if self.presence_seat is not None:
            await sync_to_async(presence.leave)(self.presence_seat, self.channel_name)

    async def receive_json(self, content, **kwargs):
        """A page's frame, read by ``drafts.protocol.parse_client_frame``; the socket says which
        of the protocol's frames it takes (a pick only on a seat socket, ``sync`` and ``ready``
        in the state dialect) and answers any other with ``unknown_message``."""
        try:
            frame = protocol.parse_client_frame(content)
        except protocol.FrameRefused as refused:
            await self.frame_refused(refused)
            return
        if frame["type"] == "pick" and hasattr(self, "pick"):
            await self.pick(frame)
        elif frame["type"] == "sync" and self.stateful:
            try:
                await self.start_state()
            except (OperationalError, InterfaceError) as error:  # the page asks again later
                logger.warning("Snapshot of a live page without the database: %s", error)
                await self.send_json({"type": "error", "code": SERVICE_UNAVAILABLE})
        elif frame["type"] == "ready" and self.stateful and hasattr(self, "ready"):
            await self.ready(frame)
        elif frame["type"] == "heartbeat":
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

    async def frame_refused(self, refused: protocol.FrameRefused) -> None:
        """A frame the parser refused: not a frame this socket takes (``unknown_message``)."""
        await self.send_json({"type": "error", "code": error_codes.UNKNOWN_MESSAGE})

    # --- the state dialect -----------------------------------------------------------------

    def viewer_for(self, pod_id: int) -> state.Viewer:
        return self.viewer

    async def start_state(self) -> None:
        """Send a snapshot of each followed pod (on connect, and when the page asks: ``sync``)."""
        documents = await self.read_documents()
        for pod_id in self.pod_ids:
            document = documents.get(pod_id)
            if document is None:
                continue
            newer = self.newest.pop(pod_id, None)
            if newer is not None and newer.version > document.version:
                document = newer  # a change heard while reading: it is newer still
            if not self.may_follow(document):
                await self.forbid()
                return
            shown = state.pieces(document, self.viewer_for(pod_id))
            self.shown[pod_id], self.version[pod_id] = shown, document.version
            self.authorised_at.setdefault(pod_id, document.version)
            await self.send(
                text_data=state.snapshot_frame(document, shown, cards_url=self.cards_url, now=timezone.now())
            )

    async def read_documents(self) -> dict[int, state.Document]:
        if self.presence_seat is not None:
            await database_sync_to_async(presence.touch)(self.presence_seat, self.channel_name)
        if aio.async_enabled():
            found = [await aio.aread_document(pod_id) for pod_id in self.pod_ids]
        else:
            found = await database_sync_to_async(lambda: [state.read(pod_id) for pod_id in self.pod_ids])()
        return {document.pod_id: document for document in found if document is not None}

    async def queue_from_document(self, version: int) -> str | None:  # pragma: no cover - seat sockets
        return None

    def hear(self, document: state.Document) -> None:
        """Keep the newest document of a pod; flush at the end of this loop turn."""
        if not self.stateful:  # a versions seat socket keeps it for its queue pushes
            self.document = document
            return
        pod_id = document.pod_id
        known = self.newest.get(pod_id)
        if known is not None and known.version >= document.version:
            return
        if pod_id in self.version and document.version <= self.version[pod_id]:
            return
        self.newest[pod_id] = document
        if (
            self.board_due is not None
            and pod_id in self.shown
            and not state.own_pieces_changed(document, self.viewer_for(pod_id), self.shown[pod_id])
        ):
            return  # only the board moved: it goes with the board's turn, already booked
        if not self.flushing and pod_id in self.version:
            self.flushing = True
            asyncio.get_running_loop().call_soon(self.flush_soon)

    def flush_at(self, when: float) -> None:
        """Flush what is kept back at the loop time ``when`` (one timer a socket)."""
        if self.board_due is not None and self.board_due.when() <= when:
            return
        if self.board_due is not None:
            self.board_due.cancel()
        self.board_due = asyncio.get_running_loop().call_at(when, self._board_is_due)

    def _board_is_due(self) -> None:
        self.board_due = None
        if self.newest and not self.flushing:
            self.flushing = True
            self.flush_soon()

    def flush_soon(self) -> None:
        task = asyncio.get_running_loop().create_task(self.flush())
        if self.hub is not None:
            self.hub.pending.add(task)
            task.add_done_callback(self.hub.pending.discard)

    async def flush(self) -> None:
        """One frame with each pod's delta from what the page has to the newest document."""
        self.flushing = False
        newest, self.newest = self.newest, {}
        for document in newest.values():
            change = self.delta_to(document, hold_board=True)
            if change is None:
                continue
            try:
                await self.send(text_data=change.frame)
            except Exception:  # a closed socket: its disconnect cleans up
                logger.debug("Could not send a delta", exc_info=True)
                return

    def delta_to(self, document: state.Document, *, hold_board: bool) -> state.ViewChange | None:
        """The viewer's change from what its page has to ``document``, counted as sent; None
        when there is nothing to send now. A change this viewer cannot see sends nothing (its
        version stays); with ``hold_board``, one that only moves the board waits for the board's
        turn. Every socket of the same view at the same version shares the change and its
        encoded frame (``state.view_change``)."""
        pod_id = document.pod_id
        if pod_id not in self.version or document.version <= self.version[pod_id]:
            return None
        change = state.view_change(document, self.viewer_for(pod_id), self.version[pod_id], self.shown[pod_id])
        if not change.changed:
            return None
        loop = asyncio.get_running_loop()
        due = self.delta_sent_at.get(pod_id, float("-inf")) + self.BOARD_EVERY
        if hold_board and loop.time() < due and change.board_only:
            self.newest.setdefault(pod_id, document)  # unless a newer one came meanwhile
            self.flush_at(due)
            return None
        self.version[pod_id], self.shown[pod_id] = document.version, change.after
        self.delta_sent_at[pod_id] = loop.time()
        return change

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
        await super().receive(text_data=text_data, bytes_data=bytes_data, **kwargs)  # draftsite.frames


class SeatSocket(_PodSocket):
    """ws/seats/<seat_id>/: the seat's player, or staff of the event (read-only viewers)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.registration_id: int | None = None  # the player's, when authorised
        self.holder_confirmed = False  # a document since the last heartbeat showed it theirs
        self.automatic = False  # the player's seat is drafted by an automatic drafter

    def topics(self) -> list[str]:
        if self.stateful:  # the pod's document holds the seat's queue too
            return super().topics()
        # The document too: a pack's arrival is pushed from it (``queue_from_document``).
        return [*super().topics(), live.seat_topic(self.seat_id), live.state_topic(self.pod_ids[0])]

    @cached_property  # read on every document the socket hears
    def seat_id(self) -> int:
        return int(self.scope["url_route"]["kwargs"]["seat_id"])

    async def frame_refused(self, refused: protocol.FrameRefused) -> None:
        """A pick whose card, pack or pile position is not a whole number in its range: refused
        as a pick (``pick_refused`` with the frame's ``ref``). Only the seat's player hears
        why (400 ``invalid_pick``); anyone else hears what any pick of theirs hears, 403
        ``not_your_seat``, before its fields are looked at."""
        if refused.code != error_codes.INVALID_PICK:
            await super().frame_refused(refused)
        elif self.role != "player":
            await self.not_the_players_pick(refused.ref)
        else:
            await self.refuse(refused.ref, 400, error_codes.INVALID_PICK, pick_input.invalid_pick_message())

    async def not_the_players_pick(self, ref: str | int | None) -> None:
        await self.refuse(ref, 403, error_codes.NOT_YOUR_SEAT, _("Only the seat's player may pick."))

    async def pick(self, frame: protocol.PickIn) -> None:
        """The player picks over the socket: the same service and guarantees as over HTTP;
        the answer is sent once the pick is committed."""
        received_at = getattr(self, "received_at", None) or timezone.now()
        ref = frame.get("ref")
        if self.role != "player":
            await self.not_the_players_pick(ref)
            return
        card, pack, position = frame["card"], frame.get("pack"), frame.get("position")
        try:
            document = None
            if aio.async_enabled():
                answer, document = await aio.amake_pick(
                    pod_id=self.pod_ids[0],
                    seat_id=self.seat_id,
                    draft_card_id=card,
                    pack_id=pack,
                    position=position,
                    actor_id=self.user.pk,
                    owner_id=self.user.pk,
                    received_at=received_at,
                    with_queue=not self.stateful,  # a state page's queue arrives in its delta
                )
            else:
                answer = await aio.off_the_loop(
                    lambda: services.make_pick(
                        seat_id=self.seat_id,
                        draft_card_id=card,
                        pack_id=pack,
                        position=position,
                        actor=self.user,
                        owner=self.user,
                        received_at=received_at,
                    ).answer(with_queue=not self.stateful)
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
        picked = {"type": "picked", "ref": ref, **answer}
        if self.stateful and document is not None and self.may_follow(document):
            # The picker's own change rides in the answer (``protocol.Picked``): one frame, not two.
            change = self.delta_to(document, hold_board=False)
            if change is not None:
                picked["deltas"] = [change.delta]
        await self.send_json(picked)

    async def queue_from_document(self, version: int) -> str | None:
        """The versions dialect's ``queue`` push, built from the document published with the
        arrival (its queue rows, as ``drafts.queue`` shows them to the seat's player)."""
        from drafts import cardinfo
        from drafts.queue import queue_payload

        document = getattr(self, "document", None)
        if document is None or document.version < version:  # no document heard: read the queue
            rows = await database_sync_to_async(queue_rows)(self.seat_id)
        else:
            rows = document.held.get(self.seat_id, [])
        cards = [card for pack in rows for card in pack["cards"]]
        if cardinfo.missing(cards):  # a card this process has not shown yet: read it off the loop
            await database_sync_to_async(cardinfo.payloads)(cards)
        return orjson.dumps(
            {"type": "queue", "seat": self.seat_id, "version": version, "queue": queue_payload(rows)}
        ).decode()

    async def ready(self, frame: protocol.ReadyIn) -> None:
        """State dialect: the player is ready for the next round (``services.mark_ready``)."""
        ref = frame.get("ref")
        if self.role != "player":
            await self.refuse(ref, 403, error_codes.NOT_YOUR_SEAT, _("That is not your seat."), kind="refused")
            return
        try:
            if aio.async_enabled():
                await aio.amark_ready(
                    pod_id=self.pod_ids[0], seat_id=self.seat_id, owner_id=self.user.pk, now=timezone.now()
                )
            else:
                await aio.off_the_loop(lambda: services.mark_ready(seat_id=self.seat_id, actor=self.user))
        except DomainError as error:
            await self.refuse(ref, error.status_code, error.code, error.message, error.as_error(), kind="refused")
            return
        except (OperationalError, InterfaceError) as error:
            logger.warning("Socket ready without the database: %s", error)
            await self.refuse(ref, 503, SERVICE_UNAVAILABLE, _("The server is busy. Try again."), kind="refused")
            return
        await self.send_json({"type": "readied", "ref": ref})

    async def refuse(
        self, ref, status: int, code: str, message: str, error: dict | None = None, *, kind: str = "pick_refused"
    ) -> None:
        await self.send_json(
            {
                "type": kind,
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
        self.cards_url = cards_url(seat.pod.event, self.scope)
        if permissions.owns_seat(self.user, seat):
            self.role, self.viewer = "player", state.Viewer(seat_ids=(seat.pk,))
            self.registration_id, self.automatic = seat.registration_id, seat.is_automatic
            return [seat.pod_id], seat.pk
        if event_permissions.sees_everything(self.user, seat.pod.event_id):
            self.role, self.event_id = "staff", seat.pod.event_id
            self.viewer = state.Viewer(seat_ids=(seat.pk,), full=True)
            return [seat.pod_id], None
        return None

    def may_follow(self, document: state.Document) -> bool:
        if self.role != "player":
            return True
        pod_id = document.pod_id
        if pod_id not in self.authorised_at or document.version <= self.authorised_at[pod_id]:
            return True  # from before the authorisation (processes publish out of order)
        seat = document.seats_by_id.get(self.seat_id)
        if seat is None or seat[3] != self.registration_id:
            return False
        self.holder_confirmed = True
        if seat[4] and not self.automatic:
            self.tell_automatic()
        self.automatic = bool(seat[4])
        return True

    def tell_automatic(self) -> None:
        """The organiser just gave the seat to an automatic drafter: the player hears it at
        once, in its own frame (before the delta that says it too)."""
        frame: protocol.Automatic = {"type": "automatic", "seat": self.seat_id}
        task = asyncio.get_running_loop().create_task(self.send_json(frame))
        if self.hub is not None:
            self.hub.pending.add(task)
            task.add_done_callback(self.hub.pending.discard)

    async def astill_allowed(self) -> bool:
        # A document heard since the last heartbeat already said the seat is the player's
        # (``may_follow``); only a page whose pod stood still asks the database.
        if self.role == "player" and self.holder_confirmed:
            self.holder_confirmed = False
            return True
        # 1,000 pages send 50 heartbeats a second: the player's check is one prepared
        # statement on the event loop's pool where there is one, not a thread and the ORM.
        if self.role == "player" and aio.async_enabled():
            return self._holds_seat(await aio.aseat_holder(self.seat_id))
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
        pod = Pod.objects.select_related("event").filter(pk=self.scope["url_route"]["kwargs"]["pod_id"]).first()
        if pod is None:
            return None
        self.cards_url = cards_url(pod.event, self.scope)
        if event_permissions.sees_everything(self.user, pod.event_id):
            self.role, self.event_id = "staff", pod.event_id
            self.viewer = state.Viewer(full=True, every_seat=True)
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

    uses_channel_layer = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats_by_pod: dict[int, list[tuple[int, bool]]] = {}  # (seat id, is automatic)
        self.offline: dict[int, int] = {}  # pod -> offline count this page was sent
        self.watching_presence: asyncio.Task | None = None

    def authorise(self):
        event = Event.objects.filter(pk=self.scope["url_route"]["kwargs"]["event_id"]).first()
        if event is None or not event_permissions.sees_everything(self.user, event.pk):
            return None
        self.role = "staff"
        self.event_id = event.pk
        return list(event.pods.values_list("pk", flat=True)), None

    async def connect(self):
        await super().connect()
        if self.event_id is not None:  # authorised
            await self.join(event_live.event_group(self.event_id))

    async def disconnect(self, code):
        await super().disconnect(code)
        if self.watching_presence is not None:
            self.watching_presence.cancel()

    async def event_changed(self, event):
        """events.live.notify_event: pods seated or removed, settings changed."""
        current = await database_sync_to_async(
            lambda: list(Pod.objects.filter(event_id=self.event_id).values_list("pk", flat=True))
        )()
        topic = live.state_topic if self.stateful else live.pod_topic
        if self.hub is not None:
            for pod_id in set(current) - set(self.pod_ids):
                self.hub.join(topic(pod_id), self)
            for pod_id in set(self.pod_ids) - set(current):
                self.hub.leave(topic(pod_id), self)
        self.pod_ids = current
        if self.stateful:
            await self.start_state()
        await self.send_json({"type": "changed", "pod": None, "version": None})

    # --- state dialect: every pod's digest, at most every 2.5 seconds -------------------------

    # At 125 pods drafting nearly every pod changes each second (its first clock moves with its
    # picks): one summary every 2.5 s keeps an open dashboard under 2 KB/s (measured 2.5 KB/s
    # at one a second, 2.0 KB/s at one every two); the countdowns tick in the browser meanwhile.
    SUMMARY_EVERY = 2.5
    # Presence is no part of a pod's state: each line's offline count is read from the
    # presence store this often, in one read for every seat of the event (the page used to
    # fetch the whole panel, a query set per pod, every 30 s for it).
    OFFLINE_EVERY = 10.0

    async def start_state(self) -> None:
        documents = await self.read_documents()
        self.digests: dict[int, dict] = {}
        self.last_summary = 0.0
        self.version = {pod_id: document.version for pod_id, document in documents.items()}
        await self.send_summary(list(documents.values()))
        if self.watching_presence is None:
            self.watching_presence = asyncio.get_running_loop().create_task(self.watch_presence())

    async def watch_presence(self) -> None:
        while True:
            try:
                await self.send_offline()
            except Exception:  # presence only informs: the next turn tries again
                logger.warning("Could not read the event's presence for its dashboard", exc_info=True)
            await asyncio.sleep(self.OFFLINE_EVERY)

    async def send_offline(self) -> None:
        """Each pod's offline count, for the pods whose count changed (all, the first time)."""
        seats = {pod_id: rows for pod_id, rows in self.seats_by_pod.items() if pod_id in self.pod_ids}
        if not seats:
            return
        counts = await aio.off_the_loop(lambda: dashboards.offline_counts(seats))
        changed = [{"id": pod_id, "offline": n} for pod_id, n in counts.items() if self.offline.get(pod_id) != n]
        self.offline.update(counts)
        if changed:
            await self.send_summary_frame(timezone.now().timestamp(), changed)

    def hear(self, document: state.Document) -> None:
        pod_id = document.pod_id
        if document.version <= self.version.get(pod_id, -1):
            return
        known = self.newest.get(pod_id)
        if known is None or known.version < document.version:
            self.newest[pod_id] = document
        if not self.flushing:
            self.flushing = True
            loop = asyncio.get_running_loop()
            wait = max(0.0, self.last_summary + self.SUMMARY_EVERY - loop.time())
            loop.call_later(wait, self.flush_soon)

    async def flush(self) -> None:
        self.flushing = False
        newest, self.newest = self.newest, {}
        for pod_id, document in newest.items():
            self.version[pod_id] = document.version
        await self.send_summary(list(newest.values()))

    async def send_summary(self, documents: list[state.Document]) -> None:
        """For each of these pods, the digest's fields that differ from what this dashboard
        was sent (a pod new to it: every field)."""
        self.last_summary = asyncio.get_running_loop().time()
        at = timezone.now().timestamp()
        changed = []
        for document in documents:
            self.seats_by_pod[document.pod_id] = [(seat[0], seat[4]) for seat in document.data["seats"]]
            digest = document.digest
            known = self.digests.get(document.pod_id, {})
            fields = {key: value for key, value in digest.items() if key == "id" or known.get(key) != value}
            if len(fields) > 1:
                self.digests[document.pod_id] = digest
                if "deadline" in fields:  # a few digits instead of a timestamp: 125 pods' clocks move every second
                    deadline = fields.pop("deadline")
                    fields["due"] = None if deadline is None else deadline - int(at)
                changed.append(fields)
        if changed or not documents:
            await self.send_summary_frame(at, changed)

    async def send_summary_frame(self, at: float, pods: list[dict]) -> None:
        """``protocol.Summary``: ``pods``' changed fields, at the server's time ``at``."""
        try:
            await self.send(text_data=orjson.dumps({"type": "summary", "at": int(at) * 1000, "pods": pods}).decode())
        except Exception:
            logger.debug("Could not send a summary", exc_info=True)


class SpectatorSocket(_PodSocket):
    """ws/watch/<token>/: anyone with the pod's current spectator link (open board only)."""

    role = "spectator"

    def authorise(self):
        token = self.scope["url_route"]["kwargs"]["token"]
        valid = token and "\x00" not in token  # PostgreSQL refuses NUL in a query
        pod = (
            Pod.objects.select_related("event").filter(spectator_token=token).exclude(spectator_token="").first()
            if valid
            else None
        )
        if pod is None:
            return None
        self.cards_url = cards_url(pod.event, self.scope)
        self.token = token
        return [pod.pk], None

    def still_allowed(self) -> bool:
        return Pod.objects.filter(pk=self.pod_ids[0], spectator_token=self.token).exists()

    def topics(self) -> list[str]:
        return [*super().topics(), live.spectators_topic(self.pod_ids[0])]

    async def deliver(self, topic: str, version: int, text: str | dict | state.Document) -> None:
        if topic.startswith("spectators:"):  # the link was regenerated: this one is dead
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await super().deliver(topic, version, text)
