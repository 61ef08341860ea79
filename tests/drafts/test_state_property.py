"""The state dialect under random interleavings of everything that changes a pod (hypothesis).

A stateful test: picks by random seats (random pile positions, sometimes a stale pack id),
pauses, resumes, a seat replaced by an automatic drafter, a seat handed to a newly registered
player, readies between rounds, waits past the pick clocks (``enforce_deadlines`` with a
``now`` that only moves forward), pile moves and covers, and reconnects. A page of every kind
of viewer follows the pod: a seat's player, staff on a seat, staff on the pod, a member and a
spectator. Each page is fed by a real ``drafts.consumers.PodSocket`` cut off the network (its
``start_state``, ``hear``, ``flush`` and ``receive_json`` run as they are; only ``send`` and
the database read are stubbed), and follows the frames as the shipped page script does
(``static/js/draftstate.js``).

After every step:

- every page that was sent the step equals a fresh snapshot of the newest document for its
  viewer; a page whose socket did not hear the step (versions coalescing) catches up with
  the next delta; a page that lost a frame notices the gap, asks for ``sync`` and catches up;
- every frame has its type (``protocol.check_server_frame``), and every delta a page applies
  goes from the page's version to a later one;
- every card of the pod is in exactly one held pack or pile, or in a pack not opened yet;
- R15: staff see every card of the seats their page shows, the board shows DFCs only;
- R16: no frame to (and no state of) a member, a spectator or a player holds a single-faced
  card of another seat, except what is in the pack in front of the player and in their pile;
- R17: pile positions chosen on a pick, pile moves and pile covers reach every page.
"""

from __future__ import annotations

import asyncio
import copy
import datetime as dt
import itertools

import orjson
import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from drafts import consumers, live, protocol, services, state
from drafts.models import PILE_COVERS, DraftCard, Pack, Pick, Pod, PodState, Seat
from draftsite.errors import DomainError
from events import services as event_services
from events.access import SYSTEM
from tests.drafts import conftest
from tests.drafts.test_state import card_ids_in, is_patch, live_pick, same_document
from tests.factories import UserFactory
from tests.places import held

pytestmark = [pytest.mark.django_db]

PAGES = ("player", "staff seat", "staff pod", "member", "spectator")
RESTRICTED = ("player", "member", "spectator")  # R16: no single-faced card of another seat

# Most steps reach every page; some pages miss one (their socket heard nothing: the next
# document's delta covers both versions), a few lose a frame on the way (the page asks sync).
MISSES: st.SearchStrategy[frozenset[str]] = st.one_of(
    st.just(frozenset()),
    st.frozensets(st.sampled_from(PAGES), min_size=1, max_size=3),
)
LOSSES: st.SearchStrategy[frozenset[str]] = st.one_of(
    st.just(frozenset()), st.just(frozenset()), st.frozensets(st.sampled_from(PAGES), max_size=1)
)
SEAT = st.integers(0, 7)
_names = itertools.count(1)


def decoded(frame_text: str) -> dict:
    frame = orjson.loads(frame_text)
    protocol.check_server_frame(frame)
    return frame


def fresh_state(document: state.Document, viewer: state.Viewer) -> dict:
    return orjson.loads(orjson.dumps(state.snapshot_state(state.pieces(document, viewer))))


class Socket:
    """A ``PodSocket`` with its viewer, cut off the network: the frames it sends are kept,
    and its database read returns the document the test hands it."""

    def __init__(self, loop: asyncio.AbstractEventLoop, pod_id: int, viewer: state.Viewer):
        self.loop = loop
        self.consumer = consumer = consumers.PodSocket()
        consumer.scope = {}
        consumer.pod_ids = [pod_id]
        consumer.viewer = viewer
        consumer.dialect = protocol.PROTOCOL_STATE
        consumer.cards_url = "/cards/"
        self.outbox: list[str] = []
        self.document: state.Document | None = None

        async def send(text_data=None, bytes_data=None, close=False):
            assert text_data is not None and bytes_data is None and not close
            self.outbox.append(text_data)

        async def read_documents():
            return {self.document.pod_id: self.document}

        consumer.send = send  # type: ignore[method-assign]
        consumer.read_documents = read_documents  # type: ignore[method-assign]

    def take(self) -> list[str]:
        out, self.outbox = self.outbox, []
        return out

    def start(self, document: state.Document) -> list[str]:
        """Connect: the snapshot."""
        self.document = document
        self.loop.run_until_complete(self.consumer.start_state())
        return self.take()

    def sync(self, document: state.Document) -> list[str]:
        """The page sent ``{"type": "sync"}``."""
        self.document = document
        self.loop.run_until_complete(self.consumer.receive_json({"type": "sync"}))
        return self.take()

    def hear(self, document: state.Document) -> list[str]:
        """A published document reached the socket: ``hear``, then the flush it schedules."""

        async def turn():
            self.consumer.hear(document)
            await asyncio.sleep(0)  # the loop turn ends: flush_soon runs and starts the flush
            await asyncio.gather(*(asyncio.all_tasks() - {asyncio.current_task()}))
            due = self.consumer.board_due
            if due is not None:  # a board-only change kept back: the step waits until it is due
                due.cancel()
                sent_at = self.consumer.delta_sent_at
                for pod_id in sent_at:  # as if BOARD_EVERY had passed
                    sent_at[pod_id] -= self.consumer.BOARD_EVERY
                self.consumer._board_is_due()
                await asyncio.sleep(0)
                await asyncio.gather(*(asyncio.all_tasks() - {asyncio.current_task()}))

        self.loop.run_until_complete(turn())
        return self.take()


class Page:
    """What the shipped page does with frames (``draftstate.js``: ``receive``, ``applyDelta``):
    a snapshot replaces the state; a delta from the page's version is applied; one it has is
    skipped; after a gap the page asks for a snapshot and ignores deltas until it comes."""

    def __init__(self, name: str, viewer: state.Viewer):
        self.name, self.viewer = name, viewer
        self.state: dict | None = None
        self.version: int | None = None
        self.syncing = False
        self.lost = False  # a frame to this page was lost since its last snapshot
        self.applied: list[tuple[int, int]] = []
        self.frames: list[dict] = []  # this step's

    def receive(self, frame: dict) -> None:
        self.frames.append(frame)
        if frame["type"] == "snapshot":
            self.state, self.version = copy.deepcopy(frame["state"]), frame["version"]
            self.syncing = self.lost = False
            return
        assert frame["type"] == "delta", frame["type"]
        if self.state is None or self.syncing:
            return
        for change in frame["deltas"]:
            assert change["version"] > change["from"], (self.name, change["from"], change["version"])
            if change["version"] <= self.version:
                continue
            if change["version"] > change["from"] + 1:
                event("a delta covered several versions")
            if change["from"] != self.version:
                # Only a lost frame may leave a gap: a socket's deltas start where the page is.
                assert self.lost, (self.name, "delta from", change["from"], "to a page at", self.version)
                self.syncing = True
                break
            apply(self.state, change)
            self.applied.append((change["from"], change["version"]))
            self.version = change["version"]


def apply(page_state: dict, change: dict) -> None:
    """``draftstate.js``'s ``applyDelta``: each part present replaces that part (board seats
    are matched by their position)."""
    if "pod" in change:
        page_state["pod"] = change["pod"]
    board = change.get("board", {})
    if "piles_open" in board:
        page_state["board"]["piles_open"] = board["piles_open"]
    for position, seat in board.get("seats", {}).items():
        seats = page_state["board"]["seats"]
        at = next((i for i, s in enumerate(seats) if str(s["position"]) == str(position)), None)
        if at is None:
            seats.append(seat)
        else:
            seats[at] = seat
    for seat_id, parts in change.get("seats", {}).items():
        page_state["seats"].setdefault(seat_id, {"info": None, "queue": [], "pile": []}).update(parts)


class StatePages(RuleBasedStateMachine):
    """One pod per example (its own event), five pages following it. Set by the test:"""

    organiser = None
    players: list = []
    cube_names: list[str] = []
    patched_picks = 0  # live picks whose answer patched the copy (over the whole test)

    def __init__(self):
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.pod_id: int | None = None

    def teardown(self):
        self.loop.close()

    # --- the pod and its pages -------------------------------------------------------------------

    @initialize(player_seat=SEAT, staff_seat=SEAT, seed=st.integers(0, 2**16))
    def open_pages(self, player_seat, staff_seat, seed):
        self.now = conftest.T0
        pod = conftest.make_pod(self.organiser, self.players, self.cube_names, now=self.now, seed=seed)
        self.pod_id = pod.pk
        self.event_id = pod.event_id
        self.seats = list(Seat.objects.filter(pod=pod).order_by("position").values_list("pk", flat=True))
        self.player_seat, self.staff_seat = self.seats[player_seat], self.seats[staff_seat]
        self.single = set(DraftCard.objects.filter(pod=pod, is_dfc=False).values_list("pk", flat=True))
        self.all_cards = set(DraftCard.objects.filter(pod=pod).values_list("pk", flat=True))
        self.opened = sum(Pack.objects.filter(pod=pod).values_list("initial_size", flat=True))
        self.heads: dict[int, list[int]] = {seat: [] for seat in self.seats}  # packs each seat had in front
        self.viewers = {
            "player": state.Viewer(seat_ids=(self.player_seat,)),
            "staff seat": state.Viewer(seat_ids=(self.staff_seat,), full=True),
            "staff pod": state.Viewer(full=True, every_seat=True),
            "member": state.Viewer(),  # PodSocket: a player of the pod on the pod page
            "spectator": state.Viewer(),  # SpectatorSocket
        }
        self.pages: dict[str, Page] = {}
        self.sockets: dict[str, Socket] = {}
        document = self.publish()  # the process first follows the pod: its copy
        for name in PAGES:
            self.connect(name, document)
        self.check_pages(document, set(PAGES))

    def read(self) -> state.Document:
        """The pod's document read afresh (what every page is checked against)."""
        document = state.read(self.pod_id)
        for seat_id in self.seats:
            queue = document.held.get(seat_id, [])
            if queue and queue[0]["pack_id"] not in self.heads[seat_id]:
                self.heads[seat_id].append(queue[0]["pack_id"])
        # As drafts.live carries it: the document's text, decoded once for every socket.
        return state.Document.decode(document.encode())

    def publish(self) -> state.Document:
        """What the live layer hands the sockets after a change through a service: the
        document read after the commit (``live.notify_pod``), kept as the process's copy."""
        document = self.read()
        state.remember(live.state_topic(self.pod_id), document)
        return document

    def live_pick(self, seat_id: int, card_id: int, **kwargs) -> state.Document | None:
        """A seat socket's pick (``drafts_pick_live``): the process's copy of the document
        patched with what the pick wrote (or the whole document it answered), which must be
        the pod's document read afresh. Raises the refusal, as ``make_pick``."""
        reading, text, document = live_pick(seat_id=seat_id, card_id=card_id, now=self.now, **kwargs)
        if reading.notice is not None:
            assert document is not None
            event("a live pick answered a patch" if is_patch(text) else "a live pick answered the whole document")
            StatePages.patched_picks += is_patch(text)
            assert same_document(document, state.read(self.pod_id))
        if reading.refusal is not None:
            raise reading.refusal
        assert reading.result is not None
        return document

    def connect(self, name: str, document: state.Document) -> None:
        self.pages[name] = page = Page(name, self.viewers[name])
        self.sockets[name] = socket = Socket(self.loop, self.pod_id, self.viewers[name])
        (frame,) = socket.start(document)
        page.receive(decoded(frame))
        assert page.frames[-1]["type"] == "snapshot"

    def deliver(self, misses=frozenset(), losses=frozenset(), heard: state.Document | None = None) -> None:
        """The step is committed: its document reaches every socket that hears it (``heard``:
        the copy a live pick patched; else the document read after the step). Pages are then
        checked against a fresh snapshot of the pod."""
        document = self.read()
        heard = heard if heard is not None and heard.version == document.version else self.publish()
        for page in self.pages.values():
            page.frames = []
        for name, page in self.pages.items():
            if name in misses:
                continue
            socket = self.sockets[name]
            for text in socket.hear(heard):
                frame = decoded(text)
                assert frame["pod"] == self.pod_id and len(frame["deltas"]) == 1
                # The socket builds the frame with state.delta_frame: the same text again.
                assert text == state.delta_frame(self.pod_id, frame["deltas"])
                if name in losses:
                    page.lost = True
                    continue
                page.receive(frame)
            if page.syncing:
                event("a page missed a frame and synced")
                for text in socket.sync(document):
                    page.receive(decoded(text))
        self.check_pages(document, {name for name in PAGES if name not in misses and not self.pages[name].lost})
        self.check_cards(document)
        pod = document.data["pod"]
        event(f"reached: {pod['state']} {pod['paused_from']} round {pod['round']}".replace("  ", " "))

    # --- what must hold after every step ---------------------------------------------------------

    def check_pages(self, document: state.Document, reached: set[str]) -> None:
        """``reached``: the pages that were sent this step (a page behind is checked when it
        catches up: what it holds is of an older document)."""
        for name, page in self.pages.items():
            for frame in page.frames:  # this step's, made from this document
                self.check_r16(name, document, frame)
            if name in reached:
                assert not page.syncing, name
                assert page.state == fresh_state(document, page.viewer), name
                self.check_r16(name, document, page.state)
            assert all(a < b for a, b in page.applied), name
            assert len({b for _, b in page.applied}) == len(page.applied), name

    def check_r16(self, name: str, document: state.Document, value) -> None:
        if name not in RESTRICTED:
            return
        allowed: set[int] = set()
        if name == "player":
            allowed |= {card[0] for card in document.pile(self.player_seat)}
            queue = document.held.get(self.player_seat, [])
            if queue:
                allowed |= {card[0] for card in queue[0]["cards"]}
        shown = set(card_ids_in(value)) & self.single
        assert shown <= allowed, (name, sorted(shown - allowed))

    def check_cards(self, document: state.Document) -> None:
        """Every card of the pod in exactly one place (the document's packs and piles, or a
        pack not opened yet), every held pack with as many cards as it has left, and staff on
        the pod page shown every one of them (R15)."""
        pod = document.data["pod"]
        placed = [card[0] for pack in document.data["packs"] for card in pack[7]]
        placed += [card[0] for cards in document.data["piles"].values() for card in cards]
        assert len(placed) == len(set(placed)), "a card in two places"
        for pack_id, _holder, _round, picks_made, initial_size, *_rest, cards in document.data["packs"]:
            assert len(cards) == initial_size - picks_made, pack_id
        unopened = DraftCard.objects.filter(pk__in=held(pod_id=self.pod_id, holder=None))
        assert set(unopened.values_list("opened_in__round", flat=True)) <= set(range(pod["round"] + 1, 4))
        assert not Pack.objects.filter(pod_id=self.pod_id, holder=None, round__gt=pod["round"], picks_made__gt=0)
        unopened_ids = set(unopened.values_list("pk", flat=True))
        assert not unopened_ids & set(placed)
        assert unopened_ids | set(placed) == self.all_cards and len(self.all_cards) == self.opened
        staff = fresh_state(document, self.viewers["staff pod"])
        assert sorted(card_ids_in(staff["seats"])) == sorted(placed)
        for seat in staff["board"]["seats"]:  # R15: of the other seats' cards, DFCs only
            assert not set(card_ids_in(seat)) & self.single

    # --- the steps -------------------------------------------------------------------------------

    def pod_state(self) -> str:
        return Pod.objects.values_list("state", flat=True).get(pk=self.pod_id)

    @rule(
        seat=SEAT,
        slot=st.integers(0, 14),
        position=st.none() | st.integers(0, 45),
        stale=st.integers(0, 4),
        think=st.integers(0, 6),
        misses=MISSES,
        losses=LOSSES,
        live_socket=st.booleans() | st.just(True),
    )
    def pick(self, seat, slot, position, stale, think, misses, losses, live_socket):
        """A pick from the front pack; one in five names a pack the seat had before (stale).
        Mostly from a seat socket (the patched copy is what the pages hear), else over HTTP."""
        seat_id = self.seats[seat]
        self.now += dt.timedelta(seconds=think)
        head = Pack.objects.filter(holder_id=seat_id).order_by("queue_seq").first()
        cards = list(DraftCard.objects.in_pack(head)) if head else []
        card_id = cards[slot % len(cards)].pk if cards else min(self.all_cards)
        pack_id = head.pk if head else None
        if stale == 0:
            old = [p for p in self.heads[seat_id] if p != pack_id]
            pack_id = old[slot % len(old)] if old else pack_id
        heard = None
        try:
            if live_socket:  # as the seat socket sends it: the copy patched from the answer
                heard = self.live_pick(seat_id, card_id, position=position, pack_id=pack_id)
                result_id = Pick.objects.filter(seat_id=seat_id).order_by("-id").values_list("id", flat=True)[0]
            else:
                result_id = services.make_pick(
                    seat_id=seat_id,
                    draft_card_id=card_id,
                    position=position,
                    pack_id=pack_id,
                    now=self.now,
                    actor=SYSTEM,
                ).id
        except DomainError as error:
            event(f"pick refused: {error.code}")
        else:
            assert pack_id is None or Pick.objects.get(pk=result_id).pack_id == pack_id
        self.deliver(misses, losses, heard)

    @rule(turns=st.integers(1, 15), misses=MISSES, live_socket=st.booleans())
    def everyone_picks(self, turns, misses, live_socket):
        """Every seat with a pack in front picks its first card, ``turns`` times, a second
        apart, and then the pages hear of it (rounds get somewhere; big deltas). From seat
        sockets, each pick's patch applies to the copy the one before left."""
        heard = None
        for _ in range(turns):
            self.now += dt.timedelta(seconds=1)
            for seat_id in self.seats:
                head = Pack.objects.filter(holder_id=seat_id).order_by("queue_seq").first()
                card = DraftCard.objects.in_pack(head).first() if head else None
                if card is None:
                    continue
                try:
                    if live_socket:
                        heard = self.live_pick(seat_id, card.pk, position=0) or heard
                    else:
                        services.make_pick(
                            seat_id=seat_id, draft_card_id=card.pk, position=0, now=self.now, actor=SYSTEM
                        )
                except DomainError:
                    pass
        self.deliver(misses, heard=heard)

    @rule(seconds=st.integers(1, 60) | st.sampled_from([90, 150, 300]), misses=MISSES, losses=LOSSES)
    def wait(self, seconds, misses, losses):
        """Time passes; the sweep enforces whatever clock ran out (timeout picks, review's end)."""
        self.now += dt.timedelta(seconds=seconds)
        services.enforce_deadlines(pod_id=self.pod_id, now=self.now)
        self.deliver(misses, losses)

    @rule(extra=st.integers(0, 3), misses=MISSES, losses=LOSSES)
    def wait_for_the_next_clock(self, extra, misses, losses):
        """Time passes until the first clock of the pod runs out (a pick's, the review's, deck
        building's), and a little more; the sweep enforces it."""
        pod = Pod.objects.get(pk=self.pod_id)
        clocks = [d for d in Pack.objects.filter(pod=pod).exclude(deadline=None).values_list("deadline", flat=True)]
        clocks += [d for d in (pod.review_deadline, pod.deck_building_deadline) if d is not None]
        if clocks:
            self.now = max(self.now, min(clocks) + dt.timedelta(seconds=extra))
        services.enforce_deadlines(pod_id=self.pod_id, now=self.now)
        self.deliver(misses, losses)

    @rule(then_resume=st.booleans(), misses=MISSES)
    def pause(self, then_resume, misses):
        """A pause; half the time resumed in the next step (or the pod would mostly be paused)."""
        try:
            services.pause_pod(pod_id=self.pod_id, actor=self.organiser, now=self.now)
        except DomainError:
            pass
        self.deliver(misses)
        if then_resume:
            self.now += dt.timedelta(seconds=5)
            self.resume(misses=frozenset())

    @rule(misses=MISSES)
    def resume(self, misses):
        try:
            services.resume_pod(pod_id=self.pod_id, actor=self.organiser, now=self.now)
        except DomainError:
            pass
        self.deliver(misses)

    @rule(seat=SEAT, misses=MISSES)
    def replace_with_automatic(self, seat, misses):
        try:
            services.replace_with_automatic(seat_id=self.seats[seat], actor=self.organiser, now=self.now)
        except DomainError:
            pass
        self.deliver(misses)

    @rule(seat=SEAT, misses=MISSES)
    def hand_seat(self, seat, misses):
        """The seat goes to a player registered just now (a new name on the board)."""
        registration = event_services.register_player(
            event_id=self.event_id, user=UserFactory(username=f"late-{next(_names)}"), actor=self.organiser
        )
        try:
            services.hand_seat(
                seat_id=self.seats[seat], registration_id=registration.pk, actor=self.organiser, now=self.now
            )
        except DomainError:
            pass
        self.deliver(misses)

    @precondition(lambda self: self.pod_id is not None and self.pod_state() == PodState.REVIEWING)
    @rule(seat=SEAT, misses=MISSES, losses=LOSSES)
    def ready(self, seat, misses, losses):
        try:
            services.mark_ready(seat_id=self.seats[seat], now=self.now, actor=SYSTEM)
        except DomainError:
            pass
        self.deliver(misses, losses)

    @precondition(lambda self: self.pod_id is not None and self.pod_state() == PodState.REVIEWING)
    @rule(misses=MISSES)
    def everyone_ready(self, misses):
        """Each player readies (a step each): the last one starts the next round."""
        for seat_id in Seat.objects.filter(pod_id=self.pod_id, ready=False, is_automatic=False).values_list(
            "pk", flat=True
        ):
            try:
                services.mark_ready(seat_id=seat_id, now=self.now, actor=SYSTEM)
            except DomainError:  # the round started already
                break
            self.deliver(misses)

    @rule(seat=SEAT, frm=st.integers(0, 45), to=st.integers(0, 45), misses=MISSES)
    def move_pile_card(self, seat, frm, to, misses):
        """R17: a card moves within its pile."""
        pile = list(DraftCard.objects.in_pile(self.seats[seat]))
        if pile:
            services.move_pile_card(
                seat_id=self.seats[seat], draft_card_id=pile[frm % len(pile)].pk, position=to % len(pile), actor=SYSTEM
            )
        self.deliver(misses)

    @rule(seat=SEAT, cover=st.sampled_from(PILE_COVERS), misses=MISSES)
    def pile_cover(self, seat, cover, misses):
        """R17: the pile starts with a basic land or a checklist card (or nothing)."""
        services.set_pile_cover(seat_id=self.seats[seat], cover=cover, actor=SYSTEM)
        self.deliver(misses)

    @rule(name=st.sampled_from(PAGES))
    def reconnect(self, name):
        """The page drops and comes back: a new socket, a fresh snapshot."""
        document = self.publish()
        for page in self.pages.values():
            page.frames = []
        self.connect(name, document)
        self.check_pages(document, {name})

    @invariant()
    def each_socket_knows_the_version_its_page_is_at(self):
        """What a socket sent is what its page holds (unless a frame was lost on the way)."""
        if self.pod_id is None:
            return
        for name, page in self.pages.items():
            if not page.lost:
                assert self.sockets[name].consumer.version[self.pod_id] == page.version, name


@pytest.mark.slow
def test_pages_equal_a_fresh_snapshot_after_any_interleaving(db, organiser, players, cube_names):
    """R15-R17 over random interleavings (see the module's docstring)."""
    StatePages.organiser, StatePages.players, StatePages.cube_names = organiser, players, cube_names
    StatePages.patched_picks = 0
    run_state_machine_as_test(
        StatePages,
        settings=settings(
            max_examples=15,
            stateful_step_count=30,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        ),
    )
    # The pages above followed copies patched from the live picks' answers, not only documents
    # read whole: the patched path was exercised (most examples pick from seat sockets).
    assert StatePages.patched_picks > 50, StatePages.patched_picks
