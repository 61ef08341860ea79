"""Authorization matrix: every URL of the project, every role, the expected class of answer.

The project's rules, per object and checked on the server:
- a player sees only their own seat, deck (until decklists are published) and penalties, and
  the open board of their own pod;
- the judges (judge, head judge) of an event read everything of that event;
- the organisers of an event steer it (start, pause, seat, register, replace);
- site staff read penalties across events (nothing of the draft engine);
- nobody reads or acts on another event's objects.

The table ``ENDPOINTS`` names, for every route of the URL resolver (walked, so a new route
without a row fails ``test_every_route_is_in_the_table``), the kind of object its path
parameter names and the rule (a predicate over the caller's relation to that object). Every
route is requested by every role against the caller's own object, a pod-mate's (or another
pod's) object and another event's object, and the answer must be of the expected class:
ALLOWED (2xx/3xx, or a 400/409 of a write that got past the gate) or REFUSED (401/403/404, or
a redirect to the login page). Writes run in a rolled-back savepoint, so the world is the
same for every request. The websocket routes get the same treatment with Channels'
WebsocketCommunicator.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, Group
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from accounts import services as account_services
from accounts.models import JoinLink
from decks import services as deck_services
from drafts import aio, services
from drafts.models import DraftCard, Pack, Pick, Pod, Seat
from draftsite.routing import websocket_urlpatterns
from events import roles
from events import services as event_services
from events.access import SYSTEM
from events.models import Event, EventStaff, Registration, StaffRole
from matches import services as match_services
from matches.models import Match
from penalties import services as penalty_services
from tests.drafts.conftest import cube_names  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 11, 29, 15, 0, tzinfo=dt.UTC)
ROLES = [
    "anonymous",
    "player",
    "other_pod_player",
    "other_event_player",
    "judge",
    "other_judge",
    "head_judge",
    "organiser",
    "other_organiser",
    "staff",
]


# --- the world: an event in mid-draft with two pods, and another event ----------------------


@dataclasses.dataclass
class World:
    users: dict  # role -> user (None for anonymous)
    event: Event
    other_event: Event
    pod: Pod  # the player's pod
    other_pod: Pod  # another pod of the same event
    foreign_pod: Pod  # a pod of the other event
    seats: dict  # "own" | "mate" | "other_pod" | "foreign" -> Seat
    decks: dict  # "own" | "mate" | "foreign" -> Deck
    penalties: dict  # "own" | "mate" | "foreign" -> Penalty
    registrations: dict  # "own" | "mate" | "foreign" -> Registration
    mates: list  # every user seated in the player's pod (player first)
    rounds: dict = dataclasses.field(default_factory=dict)  # "own" | "foreign" -> running match Round
    matches: dict = dataclasses.field(default_factory=dict)  # "own" | "mate" | "foreign" -> Match
    paper: dict = dataclasses.field(default_factory=dict)  # the paper draft objects (build_paper_world)
    calls: dict = dataclasses.field(default_factory=dict)  # "own" | "mate" | "foreign" -> JudgeCall
    sealed: dict = dataclasses.field(default_factory=dict)  # the sealed events and pools (build_sealed_world)


def _user(name, *, groups=(), **extra):
    user = get_user_model().objects.create_user(name, password="pw", **extra)
    for group in groups:
        user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


def _picks(pod, rounds_of_picks: int) -> None:
    """Everybody picks the top card of their first pack, ``rounds_of_picks`` times."""
    for _ in range(rounds_of_picks):
        for seat in Seat.objects.filter(pod=pod).order_by("position"):
            pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
            if pack is not None:
                card = DraftCard.objects.in_pack(pack).order_by("-place").first()
                services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, now=T0, actor=SYSTEM)


def build_world(cube: list[str], *, deck_format: str = "constructed", with_decks: bool = True) -> World:
    """Event "Cube night" (two 4-seat pods, drafting, a few picks made, decks and penalties) and
    event "Elsewhere" (one 2-seat pod, drafting, its own staff, a deck and a penalty)."""
    organiser = _user("org", groups=[roles.ORGANISER])
    other_organiser = _user("org_b", groups=[roles.ORGANISER])
    head_judge, judge, other_judge = _user("hj"), _user("judge"), _user("judge_b")
    staff = _user("staffer", is_staff=True)
    players = [_user(f"p{i}") for i in range(8)]
    foreign_players = [_user(f"b{i}") for i in range(2)]

    event = services.create_event(
        name="Cube night", date=T0.date(), created_by=organiser, draft_format="cube", cube_list=cube, pick_timer=False
    )
    EventStaff.objects.create(event=event, user=head_judge, role=StaffRole.HEAD_JUDGE)
    EventStaff.objects.create(event=event, user=judge, role=StaffRole.JUDGE)
    regs = [event_services.register_player(event_id=event.pk, user=u, actor=SYSTEM) for u in players]
    pod, other_pod = services.seat_players(
        event_id=event.pk, seed=3, pods=[[r.pk for r in regs[:4]], [r.pk for r in regs[4:]]], actor=SYSTEM
    )
    other_event = services.create_event(
        name="Elsewhere",
        date=T0.date(),
        created_by=other_organiser,
        draft_format="cube",
        cube_list=cube,
        pick_timer=False,
    )
    EventStaff.objects.create(event=other_event, user=other_judge, role=StaffRole.JUDGE)
    foreign_regs = [
        event_services.register_player(event_id=other_event.pk, user=u, actor=SYSTEM) for u in foreign_players
    ]
    (foreign_pod,) = services.seat_players(
        event_id=other_event.pk, seed=5, pods=[[r.pk for r in foreign_regs]], actor=SYSTEM
    )
    for p, by in ((pod, organiser), (other_pod, organiser), (foreign_pod, other_organiser)):
        services.start_pod(pod_id=p.pk, actor=by, now=T0)  # each event's own organiser
        _picks(p, 2)
    for e in (event, other_event):
        e.deck_format = deck_format
        e.save(update_fields=["deck_format"])

    decks = {}
    for key, reg in (("own", regs[0]), ("mate", regs[1]), ("foreign", foreign_regs[0])) if with_decks else ():
        deck, _ = deck_services.register_deck(
            event_id=reg.event_id, actor=reg.user, main=[{"name": "Island", "count": 40}], now=T0
        )
        decks[key] = deck
    penalties = {}
    for key, reg, actor, code in (
        ("own", regs[0], judge, "slow_play"),
        ("mate", regs[1], judge, "unsporting_conduct_cheating"),
        ("foreign", foreign_regs[0], other_judge, "slow_play"),
    ):
        penalties[key] = penalty_services.issue_penalty(
            event_id=reg.event_id,
            registration_id=reg.pk,
            infraction_code=code,
            actor=actor,
            description=f"Secret note about {reg.name}",
            now=T0,
        )
    # The player appealed their penalty (the head judge's decision then has something to decide).
    penalty_services.appeal_penalty(
        penalty_id=penalties["own"].pk, actor=players[0], statement="I was not slow.", now=T0
    )
    seat = lambda reg: Seat.objects.get(registration=reg)  # noqa: E731
    rounds, matches = _match_rounds(organiser, other_organiser, pod, foreign_pod, regs[0])
    # The mate's disqualification now applies to their match (its description stays hidden).
    match_services.apply_penalty(penalties["mate"], now=T0)
    paper = build_paper_world(organiser, other_organiser, head_judge, judge, other_judge, players, foreign_players)
    sealed = build_sealed_world(organiser, other_organiser, head_judge, judge, other_judge, players, foreign_players)
    for owner, ev in ((organiser, event), (other_organiser, other_event)):  # join links (accounts)
        account_services.open_registration(event_id=ev.pk, actor=owner, now=T0)
    calls = _judge_calls(matches)
    return World(
        paper=paper,
        sealed=sealed,
        calls=calls,
        users={
            "anonymous": None,
            "player": players[0],
            "other_pod_player": players[4],
            "other_event_player": foreign_players[0],
            "judge": judge,
            "other_judge": other_judge,
            "head_judge": head_judge,
            "organiser": organiser,
            "other_organiser": other_organiser,
            "staff": staff,
        },
        event=event,
        other_event=other_event,
        pod=pod,
        other_pod=other_pod,
        foreign_pod=foreign_pod,
        seats={
            "own": seat(regs[0]),
            "mate": seat(regs[1]),
            "other_pod": seat(regs[4]),
            "foreign": seat(foreign_regs[0]),
        },
        decks=decks,
        penalties=penalties,
        registrations={"own": regs[0], "mate": regs[1], "foreign": foreign_regs[0]},
        mates=players[:4],
        rounds=rounds,
        matches=matches,
    )


def _match_rounds(organiser, other_organiser, pod, foreign_pod, own_reg):
    """Round 1 running in the player's pod and in the other event's pod (matches app)."""
    rounds = {}
    for key, p, actor in (("own", pod, organiser), ("foreign", foreign_pod, other_organiser)):
        match_services.configure_matches(event_id=p.event_id, actor=actor, seed=1, now=T0)
        round_obj = match_services.pair_next_round(event_id=p.event_id, actor=actor, pod_id=p.pk, now=T0)
        rounds[key] = match_services.start_round(round_id=round_obj.pk, actor=actor, now=T0)
    own = Match.objects.get(Q(player_a=own_reg) | Q(player_b=own_reg), round=rounds["own"])
    return rounds, {
        "own": own,
        "mate": rounds["own"].matches.exclude(pk=own.pk).first(),
        "foreign": rounds["foreign"].matches.first(),
    }


def _judge_calls(matches) -> dict:
    """A judge call from each of the three matches, by its first player (judgecalls app)."""
    from judgecalls import services as call_services

    return {
        key: call_services.call_from_match(match_id=m.pk, actor=m.player_a.user, reason=f"Secret reason {key}", now=T0)
        for key, m in matches.items()
    }


def build_paper_world(organiser, other_organiser, head_judge, judge, other_judge, players, foreign_players) -> dict:
    """Event "Paper night" (paper booster draft, same staff, the same players in two 4-seat pods,
    pod 1 called and paused by a judge, followers allowed, a DFC posted by each of two players)
    and "Paper elsewhere" (the other organiser's, one 2-seat pod, called, no followers)."""
    from paper import services as paper_services
    from paper.models import Flight, PostedDfc

    event = services.create_event(
        name="Paper night", date=T0.date(), created_by=organiser, draft_format="paper", set_codes=["ISD"]
    )
    EventStaff.objects.create(event=event, user=head_judge, role=StaffRole.HEAD_JUDGE)
    EventStaff.objects.create(event=event, user=judge, role=StaffRole.JUDGE)
    regs = [event_services.register_player(event_id=event.pk, user=u, actor=SYSTEM) for u in players]
    pod, other_pod = services.seat_players(
        event_id=event.pk, seed=3, pods=[[r.pk for r in regs[:4]], [r.pk for r in regs[4:]]], actor=SYSTEM
    )
    foreign = services.create_event(
        name="Paper elsewhere", date=T0.date(), created_by=other_organiser, draft_format="paper", set_codes=["ISD"]
    )
    EventStaff.objects.create(event=foreign, user=other_judge, role=StaffRole.JUDGE)
    foreign_regs = [event_services.register_player(event_id=foreign.pk, user=u, actor=SYSTEM) for u in foreign_players]
    (foreign_pod,) = services.seat_players(
        event_id=foreign.pk, seed=5, pods=[[r.pk for r in foreign_regs]], actor=SYSTEM
    )
    flight = paper_services.start_flight(event_id=event.pk, pod_ids=[pod.pk], actor=organiser)
    foreign_flight = paper_services.start_flight(event_id=foreign.pk, pod_ids=[foreign_pod.pk], actor=other_organiser)
    paper_services.control_pod(pod_id=pod.pk, action="pause", actor=judge, reason=PAPER_SECRET)
    paper_services.set_followers_allowed(event_id=event.pk, allowed=True, actor=organiser)
    posted = {
        key: paper_services.post_dfc(pod_id=p.pk, actor=who, card="Gatstaf Shepherd")
        for key, p, who in (
            ("own", pod, players[0]),
            ("mate", pod, players[1]),
            ("foreign", foreign_pod, foreign_players[0]),
        )
    }
    assert Flight.objects.count() == 2 and PostedDfc.objects.count() == 3
    for p in (pod, other_pod, foreign_pod):
        p.refresh_from_db()
    return {
        "event": event,
        "other_event": foreign,
        "pod": pod,
        "other_pod": other_pod,
        "foreign_pod": foreign_pod,
        "flight": flight,
        "foreign_flight": foreign_flight,
        "posted": posted,
    }


def build_sealed_world(organiser, other_organiser, head_judge, judge, other_judge, players, foreign_players) -> dict:
    """Events "Sealed night" (pools opened by the site) and "Paper sealed night" (players 1 and
    2 registered their pools), both with the same staff and players, and "Sealed elsewhere"
    (the other organiser's paper sealed event, a pool registered by its first player)."""
    from sealed import selectors as sealed_selectors
    from sealed import services as sealed_services

    def make(name, actor, paper):
        return sealed_services.create_sealed_event(
            actor=actor, name=name, date=T0.date(), boosters=["DSK"], booster_count=1, paper=paper, seed=7
        )

    sealed, paper, foreign = (
        make("Sealed night", organiser, False),
        make("Paper sealed night", organiser, True),
        make("Sealed elsewhere", other_organiser, True),
    )
    for event in (sealed, paper):
        EventStaff.objects.create(event=event, user=head_judge, role=StaffRole.HEAD_JUDGE)
        EventStaff.objects.create(event=event, user=judge, role=StaffRole.JUDGE)
        for user in players:
            event_services.register_player(event_id=event.pk, user=user, actor=SYSTEM)
    EventStaff.objects.create(event=foreign, user=other_judge, role=StaffRole.JUDGE)
    for user in foreign_players:
        event_services.register_player(event_id=foreign.pk, user=user, actor=SYSTEM)
    sealed_services.open_pools(event_id=sealed.pk, actor=organiser)
    cards = [{"card_id": row["card_id"], "count": 1} for row in sealed_selectors.set_catalogue(["DSK"])[:5]]
    pools = {
        key: sealed_services.register_paper_pool(event_id=event.pk, actor=user, cards=cards)
        for key, event, user in (
            ("own", paper, players[0]),
            ("mate", paper, players[1]),
            ("foreign", foreign, foreign_players[0]),
        )
    }
    return {"sealed": sealed, "paper": paper, "foreign": foreign, "pools": pools}


# A judge's pause reason may name a player: staff see it, players and followers never do.
PAPER_SECRET = "Judge note: seat 3 may be marking cards"


# --- targets: what a path parameter names, and the facts about it ----------------------------


@dataclasses.dataclass(frozen=True)
class Target:
    label: str
    kwargs: dict
    event_id: int | None = None  # the event the object belongs to
    pod_id: int | None = None  # the pod (seat and pod targets)
    owner_id: int | None = None  # the user whose object it is (seat, deck, penalty, ...)
    valid: bool = True  # an existing object (spectator tokens: the current one)
    issuer_id: int | None = None  # penalties: the judge who issued it
    disqualification: bool = False  # penalties: a disqualification (it has a report page)


def _stored_card_image() -> dict:
    """A printing whose front image the site has a copy of (one small file, in the test's own MEDIA_ROOT)."""
    from django.core.files.base import ContentFile
    from django.utils import timezone

    from cards import images
    from cards.models import CardImage, Printing

    printing = Printing.objects.order_by("pk").first()
    url = "https://images.example.test/front.png"
    printing.image_uris = {"front": url}
    printing.save(update_fields=["image_uris"])
    name = "card-images/authorization-matrix.png"
    if not images.storage().exists(name):
        images.storage().save(name, ContentFile(b"\x89PNG\r\n\x1a\n"))
    CardImage.objects.update_or_create(
        printing=printing,
        face="front",
        key=images.key_of(url),
        defaults={
            "state": "stored",
            "stored_name": name,
            "content_type": "image/png",
            "size": 8,
            "last_used": timezone.now(),
        },
    )
    return {"printing_id": printing.pk, "face": "front", "key": images.key_of(url)}


def targets(world: World, kind: str | None, params: list[str]) -> list[Target]:
    w = world
    if kind is None:
        return [Target("none", {})]
    param = params[0]

    def of(obj_key, mapping, extra=None):
        return {k: mapping[k] for k in obj_key}

    if kind == "event":
        return [
            Target("own event", {param: w.event.pk}, w.event.pk),
            Target("other event", {param: w.other_event.pk}, w.other_event.pk),
        ]
    if kind == "pod":
        return [
            Target(label, {param: p.pk}, p.event_id, p.pk)
            for label, p in (("own pod", w.pod), ("other pod", w.other_pod), ("foreign pod", w.foreign_pod))
        ]
    if kind == "seat":
        return [
            Target(f"{label} seat", {param: s.pk}, s.pod.event_id, s.pod_id, s.registration.user_id)
            for label, s in w.seats.items()
        ]
    if kind == "deck":
        return [
            Target(f"{label} deck", {param: d.pk}, d.event_id, None, d.registration.user_id)
            for label, d in w.decks.items()
        ]
    if kind == "penalty":
        return [
            Target(
                f"{label} penalty",
                {param: p.pk},
                p.event_id,
                None,
                p.registration.user_id,
                issuer_id=p.issued_by_id,
                disqualification=p.penalty == "disqualification",
            )
            for label, p in w.penalties.items()
        ]
    if kind == "registration":
        return [
            Target(f"{label} registration", {param: r.pk}, r.event_id, None, r.user_id)
            for label, r in w.registrations.items()
        ]
    if kind == "user":
        return [
            Target(f"{label} user", {param: r.user_id}, None, None, r.user_id) for label, r in w.registrations.items()
        ]
    if kind == "set":  # a catalogue set: anyone signed in may read its booster kinds
        return [Target("set", {param: "ISD"})]
    if kind == "card":
        card = DraftCard.objects.in_pile(w.seats["own"]).first().card
        return [Target("card", {param: card.pk})]
    if kind == "card-image":  # the site's copy of a card image: anyone may read it
        return [Target("card image", _stored_card_image())]
    if kind == "join":
        return [
            Target("own event join link", {param: JoinLink.objects.get(event=w.event).token}, w.event.pk),
            Target("foreign join link", {param: JoinLink.objects.get(event=w.other_event).token}, w.other_event.pk),
            Target("unknown join link", {param: "not-a-join-link"}, None, valid=False),
        ]
    if kind == "reset":  # a password-reset link: anyone may open one; a bad one says so
        return [Target("stale reset link", {"uidb64": "MQ", "token": "set-password"})]
    if kind == "token":
        return [
            Target("own pod token", {param: w.pod.spectator_token}, w.event.pk, w.pod.pk),
            Target("foreign pod token", {param: w.foreign_pod.spectator_token}, w.other_event.pk, w.foreign_pod.pk),
            Target("revoked token", {param: "not-a-current-token"}, None, None, valid=False),
        ]
    if kind == "round":
        return [Target(f"{label} round", {param: r.pk}, r.event_id, r.pod_id) for label, r in w.rounds.items()]
    if kind == "round+action":
        return [
            Target(f"{label} round ({action})", {"round_id": r.pk, "action": action}, r.event_id, r.pod_id)
            for label, r in w.rounds.items()
            for action in ("start", "finish")
        ]
    if kind == "match":
        # owner: the role user playing in it (the player in their own match, the other
        # event's player in the foreign one; no role plays in the mate's match).
        role_users = {u.pk for u in w.users.values() if u is not None}
        return [
            Target(
                f"{label} match",
                {param: m.pk},
                m.round.event_id,
                m.round.pod_id,
                next((r.user_id for r in (m.player_a, m.player_b) if r and r.user_id in role_users), None),
            )
            for label, m in w.matches.items()
        ]
    if kind in ("call", "call+action"):
        out = []
        for label, c in w.calls.items():
            common = dict(event_id=c.event_id, owner_id=c.caller.user_id)
            if kind == "call":
                out.append(Target(f"{label} call", {param: c.pk}, **common))
            else:
                out += [
                    Target(f"{label} call ({a})", {"call_id": c.pk, "action": a}, **common)
                    for a in ("claim", "escalate", "extension", "resolve")
                ]
        return out
    if kind == "event+proposal":  # an unreported result of each event (the clock is past its round)
        return [
            Target(f"{label} proposal", {"event_id": m.round.event_id, "source": f"result:{m.pk}"}, m.round.event_id)
            for label, m in (("own event", w.matches["own"]), ("other event", w.matches["foreign"]))
        ]
    if kind == "event+sheet":
        from drafts import cardsheet

        return [
            Target(f"{label} {which} sheet", {"event_id": e.pk, "digest": digest, "language": "en"}, e.pk)
            for label, e in (("own event", w.event), ("other event", w.other_event))
            for which, digest in (("current", cardsheet.sheet_digest(e, "en")), ("stale", "0123456789abcdef"))
        ]
    if kind == "event+export":
        return [
            Target(f"{label} {kind_}", {"event_id": e.pk, "kind": kind_}, e.pk)
            for label, e in (("own event", w.event), ("other event", w.other_event))
            for kind_ in ("pairings", "results", "standings")
        ]
    if kind in ("event+staff", "event+invitation"):
        from events.models import StaffInvitation

        out = []
        for label, event in (("own event", w.event), ("other event", w.other_event)):
            if kind == "event+staff":
                row = EventStaff.objects.filter(event=event).order_by("pk").first()
                out.append(Target(f"{label} staff", {param: event.pk, "staff_id": row.pk}, event.pk))
            else:
                invitation = StaffInvitation.objects.filter(event=event).first() or StaffInvitation.objects.create(
                    event=event,
                    role="judge",
                    token=f"matrix-{event.pk}",
                    created_at=timezone.now(),
                    expires_at=timezone.now() + dt.timedelta(days=1),
                )
                out.append(Target(f"{label} invitation", {param: event.pk, "invitation_id": invitation.pk}, event.pk))
        return out
    if kind == "invitation":
        from events.models import StaffInvitation

        invitation = StaffInvitation.objects.filter(event=w.event).first() or StaffInvitation.objects.create(
            event=w.event,
            role="judge",
            token="matrix-token",
            created_at=timezone.now(),
            expires_at=timezone.now() + dt.timedelta(days=1),
        )
        return [Target("open invitation", {param: invitation.token}, w.event.pk)]
    if kind in ("paper_pod", "paper_pod+action"):
        pods = (
            ("own paper pod", w.paper["pod"]),
            ("other paper pod", w.paper["other_pod"]),
            ("foreign paper pod", w.paper["foreign_pod"]),
        )
        if kind == "paper_pod":
            return [Target(label, {param: p.pk}, p.event_id, p.pk) for label, p in pods]
        return [
            Target(f"{label} ({action})", {"pod_id": p.pk, "action": action}, p.event_id, p.pk)
            for label, p in pods[::2]
            for action in ("pause", "resume")
        ]
    if kind in ("paper_event", "paper_event+action"):
        events = (("own paper event", w.paper["event"]), ("other paper event", w.paper["other_event"]))
        if kind == "paper_event":
            return [Target(label, {param: e.pk}, e.pk) for label, e in events]
        return [
            Target(f"{label} (followers-on)", {"event_id": e.pk, "action": "followers-on"}, e.pk) for label, e in events
        ]
    if kind in ("flight", "flight+action"):
        flights = (("own flight", w.paper["flight"]), ("foreign flight", w.paper["foreign_flight"]))
        if kind == "flight":
            return [Target(label, {param: f.pk}, f.event_id) for label, f in flights]
        return [
            Target(f"{label} ({action})", {"flight_id": f.pk, "action": action}, f.event_id)
            for label, f in flights
            for action in ("pause", "resume")
        ]
    if kind == "paper_token":
        return [
            Target(
                "own paper pod link (followers allowed)",
                {param: w.paper["pod"].spectator_token},
                w.paper["event"].pk,
                w.paper["pod"].pk,
            ),
            Target(
                "foreign paper pod link (followers not allowed)",
                {param: w.paper["foreign_pod"].spectator_token},
                None,
                None,
                valid=False,
            ),
            Target("digital pod token", {param: w.pod.spectator_token}, None, None, valid=False),
        ]
    if kind == "dfc":
        return [
            Target(
                f"{label} posted DFC",
                {param: posted.pk},
                posted.seat.pod.event_id,
                posted.seat.pod_id,
                posted.seat.registration.user_id,
            )
            for label, posted in w.paper["posted"].items()
        ]
    if kind == "sealed_event":
        return [
            Target(label, {param: e.pk}, e.pk)
            for label, e in (
                ("own sealed event", w.sealed["sealed"]),
                ("own paper sealed event", w.sealed["paper"]),
                ("foreign sealed event", w.sealed["foreign"]),
            )
        ]
    if kind in ("paper_pool", "sealed_event+pool"):
        return [
            Target(
                f"{label} paper pool",
                {param: pool.pk} if kind == "paper_pool" else {"event_id": pool.event_id, "pool_id": pool.pk},
                pool.event_id,
                None,
                pool.registered_by.user_id,
            )
            for label, pool in w.sealed["pools"].items()
        ]
    if kind == "event+action":
        return [
            Target(f"{label} ({action})", {"event_id": e.pk, "action": action}, e.pk)
            for label, e in (("own event", w.event), ("other event", w.other_event))
            for action in ("pause", "resume")
        ]
    if kind == "pod+action":
        return [
            Target(f"{label} ({action})", {"pod_id": p.pk, "action": action}, p.event_id, p.pk)
            for label, p in (("own pod", w.pod), ("foreign pod", w.foreign_pod))
            for action in ("pause", "resume")
        ]
    raise AssertionError(kind)


@dataclasses.dataclass(frozen=True)
class Facts:
    authenticated: bool
    owner: bool  # the object is the caller's (their seat, deck, penalty, registration)
    in_pod: bool  # the caller is seated in the object's pod
    in_event: bool  # the caller is registered in the object's event
    event_staff: bool  # organiser, head judge or judge of the object's event
    organiser: bool  # organiser of the object's event
    head_judge: bool  # head judge of the object's event
    issuer: bool  # the judge who issued the penalty
    head_judge_anywhere: bool  # head judge of some event (the review queue)
    site_staff: bool  # user.is_staff
    site_organiser: bool  # in the site-wide organiser group
    published: bool  # the object's event published its decklists
    valid: bool  # the object exists (a current spectator token)
    disqualification: bool  # the penalty is a disqualification


def facts(world: World, role: str, target: Target) -> Facts:
    user = world.users[role]
    if user is None:
        return Facts(
            False,
            False,
            False,
            False,
            False,
            False,
            False,
            False,
            False,
            False,
            False,
            False,
            target.valid,
            target.disqualification,
        )
    staff_roles = (
        set(EventStaff.objects.filter(event_id=target.event_id, user=user).values_list("role", flat=True))
        if target.event_id
        else set()
    )
    return Facts(
        authenticated=True,
        owner=target.owner_id == user.pk,
        in_pod=bool(target.pod_id) and Seat.objects.filter(pod_id=target.pod_id, registration__user=user).exists(),
        in_event=bool(target.event_id) and Registration.objects.filter(event_id=target.event_id, user=user).exists(),
        event_staff=bool(staff_roles),
        organiser=StaffRole.ORGANISER in staff_roles,
        head_judge=StaffRole.HEAD_JUDGE in staff_roles,
        issuer=target.issuer_id == user.pk,
        head_judge_anywhere=EventStaff.objects.filter(user=user, role=StaffRole.HEAD_JUDGE).exists(),
        site_staff=user.is_staff,
        site_organiser=roles.has_role(user, roles.ORGANISER),
        published=bool(target.event_id) and world.event.__class__.objects.get(pk=target.event_id).decklists_published,
        valid=target.valid,
        disqualification=target.disqualification,
    )


# --- the rules (readable names for predicates over the facts) --------------------------------

Rule = Callable[[Facts], bool]
PUBLIC: Rule = lambda f: True  # noqa: E731
SIGNED_IN: Rule = lambda f: f.authenticated  # noqa: E731
EVENT_MEMBER: Rule = lambda f: f.event_staff or f.in_event  # registered players and staff  # noqa: E731
EVENT_STAFF: Rule = lambda f: f.event_staff  # organisers and judges of that event  # noqa: E731
EVENT_ORGANISER: Rule = lambda f: f.organiser  # noqa: E731
SITE_ORGANISER: Rule = lambda f: f.site_organiser  # noqa: E731
SEAT_READER: Rule = lambda f: f.owner or f.event_staff  # the seat's player, the event's staff  # noqa: E731
SEAT_OWNER: Rule = lambda f: f.owner  # noqa: E731
POD_MEMBER: Rule = lambda f: f.in_pod or f.event_staff  # the open board  # noqa: E731
DECK_READER: Rule = lambda f: f.owner or f.event_staff or f.published  # noqa: E731
DECK_OWNER_OR_STAFF: Rule = lambda f: f.owner or f.event_staff  # noqa: E731
PENALTY_READER: Rule = lambda f: f.owner or f.event_staff or f.site_staff  # noqa: E731
EVENT_PENALTY_READER: Rule = lambda f: f.event_staff or f.site_staff  # noqa: E731
SITE_STAFF: Rule = lambda f: f.site_staff  # noqa: E731
HEAD_JUDGE: Rule = lambda f: f.head_judge  # reviews, appeal decisions, DQ reports  # noqa: E731
ANY_HEAD_JUDGE: Rule = lambda f: f.head_judge_anywhere  # noqa: E731
PENALISED_PLAYER: Rule = lambda f: f.owner  # appeals  # noqa: E731
STATEMENT_WRITER: Rule = lambda f: f.owner or f.issuer or f.head_judge  # noqa: E731
REGISTERED: Rule = lambda f: f.in_event  # "my deck", "my pool"  # noqa: E731
TOKEN_HOLDER: Rule = lambda f: f.valid  # noqa: E731
SIGNED_IN_TOKEN_HOLDER: Rule = lambda f: f.valid and f.authenticated  # joining by link  # noqa: E731
NOBODY: Rule = lambda f: False  # noqa: E731

# Write bodies: plausible enough that an allowed caller reaches the service.
PICK = {"card": 1}
PENALTY = {"registration": 1, "infraction": "slow_play", "description": "x"}
DECISION = {"decision": "uphold", "reason": "Because."}
DECK = {"main": [{"name": "Island", "count": 40}]}

# Sealed: a paper pool is registered by a player of the event, or by an organiser for one.
REGISTRANT: Rule = lambda f: f.in_event or f.organiser  # noqa: E731

# route name -> [(method, object kind, rule, body)]
ENDPOINTS: dict[str, list[tuple[str, str | None, Rule, dict | None]]] = {
    # site
    "home": [("GET", None, PUBLIC, None)],
    "healthz": [("GET", None, PUBLIC, None)],
    "login": [("GET", None, PUBLIC, None)],
    "logout": [("POST", None, PUBLIC, None)],
    "api-schema": [("GET", None, PUBLIC, None)],
    "api-docs": [("GET", None, PUBLIC, None)],
    "api-redoc": [("GET", None, PUBLIC, None)],
    "favicon": [("GET", None, PUBLIC, None)],
    # push: the installable app, subscriptions, choices per event, announcements
    "web-manifest": [("GET", None, PUBLIC, None)],
    "service-worker": [("GET", None, PUBLIC, None)],
    "push-status": [("GET", None, PUBLIC, None)],
    "push-subscriptions": [("POST", None, SIGNED_IN, {}), ("DELETE", None, SIGNED_IN, {"endpoint": "x"})],
    "push-event": [("GET", "event", EVENT_MEMBER, None), ("PUT", "event", EVENT_MEMBER, {"on": False})],
    "push-announcements": [("POST", "event", EVENT_ORGANISER, {"text": "Lunch"})],
    "push:event": [("GET", "event", EVENT_MEMBER, None), ("POST", "event", EVENT_MEMBER, {"on": "0"})],
    # accounts: Django's auth views with the site's templates, sign-up, profile
    "password_change": [("GET", None, SIGNED_IN, None), ("POST", None, SIGNED_IN, {"old_password": "x"})],
    "password_change_done": [("GET", None, SIGNED_IN, None)],
    "password_reset": [("GET", None, PUBLIC, None), ("POST", None, PUBLIC, {"email": "nobody@example.test"})],
    "password_reset_done": [("GET", None, PUBLIC, None)],
    "password_reset_confirm": [("GET", "reset", PUBLIC, None)],
    "password_reset_complete": [("GET", None, PUBLIC, None)],
    "accounts:signup": [("GET", None, PUBLIC, None), ("POST", None, PUBLIC, {"username": ""})],
    "accounts:profile": [("GET", None, SIGNED_IN, None), ("POST", None, SIGNED_IN, {"language": "xx"})],
    # Joining: the link is the key (the page shows to anyone holding it; joining needs an account).
    "accounts:join": [("GET", "join", TOKEN_HOLDER, None), ("POST", "join", SIGNED_IN_TOKEN_HOLDER, None)],
    "accounts:registration": [("GET", "event", EVENT_ORGANISER, None), ("POST", "event", EVENT_ORGANISER, {})],
    "accounts:venue": [("GET", "event", EVENT_ORGANISER, None)],
    "accounts:import-players": [("POST", "event", EVENT_ORGANISER, {"players": "Ann,ann@example.test"})],
    # Anyone signed in may ask to leave an event; only their own registration goes.
    "accounts:drop": [("POST", "event", SIGNED_IN, None)],
    # Leaving a waitlist: only one's own place goes (a message when there is none).
    "accounts:leave-waitlist": [("POST", "event", SIGNED_IN, None)],
    "accounts:players-csv": [("GET", "event", EVENT_ORGANISER, None)],
    # Checking oneself in answers with a message (not registered, closed) for anyone signed in.
    "accounts:check-in": [("POST", "event", SIGNED_IN, None)],
    "accounts:check-in-list": [("GET", "event", EVENT_STAFF, None), ("POST", "event", EVENT_STAFF, {"action": "x"})],
    "api-token": [("POST", None, PUBLIC, {"username": "p0", "password": "wrong"})],
    "set_language": [("POST", None, PUBLIC, {"language": "pt-br"})],
    "javascript-catalog": [("GET", None, PUBLIC, None)],
    # cards and rules desk: public catalogue
    "api-card-list": [("GET", None, PUBLIC, None)],
    "api-card-detail": [("GET", "card", PUBLIC, None)],
    "api-checklist-list": [("GET", None, PUBLIC, None)],
    "rules-simulate": [("POST", None, PUBLIC, {})],
    "rules-simulate-slash": [("POST", None, PUBLIC, {})],
    "cards:search": [("GET", None, PUBLIC, None)],
    "cards:detail": [("GET", "card", PUBLIC, None)],
    "card-image": [("GET", "card-image", PUBLIC, None)],
    "rules:desk": [("GET", None, PUBLIC, None)],
    # draft API
    "api-event-list": [("GET", None, SIGNED_IN, None), ("POST", None, SITE_ORGANISER, {})],
    "api-set-boosters": [("GET", "set", SIGNED_IN, None)],
    "api-event-detail": [("GET", "event", EVENT_MEMBER, None), ("PATCH", "event", EVENT_ORGANISER, {})],
    "api-registrations": [
        ("GET", "event", EVENT_MEMBER, None),
        ("POST", "event", EVENT_ORGANISER, {"name": "Gwen Guest"}),
    ],
    "api-seating": [("POST", "event", EVENT_ORGANISER, {})],
    "api-players-csv": [("GET", "event", EVENT_ORGANISER, None)],
    # One's own place on a waitlist: read it, or leave (404 not_waitlisted: there is none).
    "api-waitlist": [("GET", "event", SIGNED_IN, None), ("DELETE", "event", SIGNED_IN, None)],
    "api-event-pods": [("GET", "event", EVENT_MEMBER, None)],
    "api-event-staff": [
        ("GET", "event", EVENT_STAFF, None),
        ("POST", "event", EVENT_ORGANISER, {"username": "p0", "role": "judge"}),
    ],
    "api-event-staff-detail": [
        ("PATCH", "event+staff", EVENT_ORGANISER, {"role": "head_judge"}),
        ("DELETE", "event+staff", EVENT_ORGANISER, None),
    ],
    "api-staff-invitations": [
        ("GET", "event", EVENT_ORGANISER, None),
        ("POST", "event", EVENT_ORGANISER, {"role": "judge"}),
    ],
    "api-staff-invitation-detail": [("DELETE", "event+invitation", EVENT_ORGANISER, None)],
    # Anyone signed in who holds the link may accept it (it is the key).
    "api-staff-invitation-accept": [("POST", "invitation", SIGNED_IN, None)],
    "api-pod-detail": [("GET", "pod", EVENT_STAFF, None)],
    "api-pod-board": [("GET", "pod", POD_MEMBER, None)],
    "api-pod-move-player": [("POST", "pod", EVENT_ORGANISER, {})],
    "api-pod-start": [("POST", "pod", EVENT_ORGANISER, {})],
    "api-pod-pause": [("POST", "pod", EVENT_ORGANISER, {})],
    "api-event-pods-pause": [("POST", "event", EVENT_ORGANISER, {})],
    "api-event-pods-resume": [("POST", "event", EVENT_ORGANISER, {})],
    "api-pod-resume": [("POST", "pod", EVENT_ORGANISER, {})],
    "api-pod-advance": [("POST", "pod", EVENT_ORGANISER, {})],
    "api-pod-extend": [("POST", "pod", EVENT_ORGANISER, {"seconds": 30})],
    "api-pod-deck-building-clock": [("POST", "pod", EVENT_ORGANISER, {"minutes": 30})],
    "api-pod-start-deck-building": [("POST", "pod", EVENT_ORGANISER, {})],
    "api-pod-spectator-link": [("POST", "pod", EVENT_ORGANISER, {})],
    "api-seat": [("GET", "seat", SEAT_READER, None)],
    "api-seat-queue": [("GET", "seat", SEAT_READER, None)],
    "api-seat-picks": [("POST", "seat", SEAT_OWNER, PICK)],
    "api-seat-pile": [("POST", "seat", SEAT_OWNER, {"card": 1, "position": 0})],
    "api-seat-pile-cover": [("POST", "seat", SEAT_OWNER, {"covered": True})],
    "api-seat-ready": [("POST", "seat", SEAT_OWNER, {})],
    "api-seat-replace": [("POST", "seat", EVENT_ORGANISER, {"automatic": True})],
    "api-seat-log": [("GET", "seat", SEAT_READER, None)],
    "api-seat-log-text": [("GET", "seat", SEAT_READER, None)],
    # decks API
    "decks-validate": [("POST", None, PUBLIC, {})],
    "decks-validate-slash": [("POST", None, PUBLIC, {})],
    "decks-parse": [("POST", None, PUBLIC, {})],
    "decks-parse-slash": [("POST", None, PUBLIC, {})],
    "decks-detail": [("GET", "deck", DECK_READER, None)],
    "decks-revalidate": [("POST", "deck", DECK_OWNER_OR_STAFF, None)],
    "decks-corrections": [
        ("GET", "deck", DECK_OWNER_OR_STAFF, None),
        ("POST", "deck", EVENT_STAFF, {"reason": "Typo", "main": DECK["main"]}),
    ],
    "decks-checks": [("GET", "deck", EVENT_STAFF, None), ("POST", "deck", EVENT_STAFF, {})],
    "decks-my-deck": [("GET", "event", REGISTERED, None), ("PUT", "event", REGISTERED, DECK)],
    "decks-my-pool": [("GET", "event", REGISTERED, None)],
    "decks-event-list": [("GET", "event", EVENT_STAFF, None)],
    "decks-event-checks": [("GET", "event", EVENT_STAFF, None)],
    "decks-selections": [
        ("GET", "event", EVENT_STAFF, None),
        ("POST", "event", EVENT_STAFF, {"method": "random", "percent": 50, "seed": 1}),
    ],
    # The checklist policy (R12) is a published rule of the event, not hidden information.
    "decks-rules": [
        ("GET", "event", SIGNED_IN, None),
        ("PUT", "event", lambda f: f.organiser or f.head_judge, {"checklist_policy": "deck"}),
    ],
    "decks-sealed-pool": [
        ("GET", "registration", DECK_OWNER_OR_STAFF, None),
        ("PUT", "registration", EVENT_ORGANISER, {}),
    ],
    # penalties API
    "penalties-infractions": [("GET", None, PUBLIC, None)],
    "penalties-event": [("GET", "event", EVENT_PENALTY_READER, None), ("POST", "event", EVENT_STAFF, PENALTY)],
    "penalties-event-csv": [("GET", "event", EVENT_PENALTY_READER, None)],
    "penalties-timeout-picks": [
        ("GET", "event", EVENT_STAFF, None),
        ("POST", "event", EVENT_STAFF, {"source": "pick:1", "reason": "x"}),
    ],
    "penalties-timeout-picks-dismiss": [("POST", "event", EVENT_STAFF, {"sources": ["pick:1"], "reason": "x"})],
    "penalties-queue": [("GET", None, SIGNED_IN, None)],
    "penalties-detail": [("GET", "penalty", PENALTY_READER, None)],
    "penalties-review": [("POST", "penalty", HEAD_JUDGE, DECISION)],
    "penalties-appeal": [("POST", "penalty", PENALISED_PLAYER, {"statement": "x"})],
    "penalties-appeal-decision": [("POST", "penalty", HEAD_JUDGE, DECISION)],
    "penalties-statement": [("POST", "penalty", STATEMENT_WRITER, {"statement": "x"})],
    "penalties-mine": [("GET", None, SIGNED_IN, None)],
    "penalties-player": [("GET", "user", SITE_STAFF, None)],
    # draft pages
    "drafts:event-list": [("GET", None, PUBLIC, None)],
    "drafts:event-create": [("GET", None, SITE_ORGANISER, None)],
    "drafts:event-detail": [("GET", "event", SIGNED_IN, None)],
    "drafts:event-join": [("POST", "event", SIGNED_IN, {})],
    "drafts:event-register": [("POST", "event", EVENT_ORGANISER, {})],
    "drafts:event-seating": [("POST", "event", EVENT_ORGANISER, {})],
    "drafts:event-settings": [("GET", "event", EVENT_ORGANISER, None), ("POST", "event", EVENT_ORGANISER, {})],
    "drafts:event-staff": [("GET", "event", EVENT_ORGANISER, None)],
    "drafts:event-staff-add": [("POST", "event", EVENT_ORGANISER, {"username": "p0", "role": "judge"})],
    "drafts:event-staff-role": [("POST", "event+staff", EVENT_ORGANISER, {"role": "judge"})],
    "drafts:event-staff-remove": [("POST", "event+staff", EVENT_ORGANISER, {})],
    "drafts:event-staff-invite": [("POST", "event", EVENT_ORGANISER, {"role": "judge"})],
    "drafts:event-staff-invitation-revoke": [("POST", "event+invitation", EVENT_ORGANISER, {})],
    "drafts:staff-invitation": [("GET", "invitation", SIGNED_IN, None), ("POST", "invitation", SIGNED_IN, {})],
    "drafts:dashboard": [("GET", "event", EVENT_STAFF, None)],
    "drafts:dashboard-panel": [("GET", "event", EVENT_STAFF, None)],
    "drafts:event-report": [("GET", "event", EVENT_STAFF, None)],
    # The catalogue is public: card sheets and look-ups need no sign-in (a stale digest: a 302).
    "drafts:card-sheet": [("GET", "event+sheet", PUBLIC, None)],
    "drafts:card-batch": [("GET", None, PUBLIC, {"ids": "1,2"})],
    "drafts:pod-detail": [("GET", "pod", EVENT_STAFF, None)],
    "drafts:pod-panel": [("GET", "pod", EVENT_STAFF, None)],
    "drafts:pod-control": [("POST", "pod+action", EVENT_ORGANISER, {})],
    "drafts:event-pods-control": [("POST", "event+action", EVENT_ORGANISER, {})],
    "drafts:pod-board": [("GET", "pod", POD_MEMBER, None)],
    "drafts:pod-board-panel": [("GET", "pod", POD_MEMBER, None)],
    "drafts:pod-log-text": [("GET", "pod", EVENT_STAFF, None)],
    "drafts:pod-log-json": [("GET", "pod", EVENT_STAFF, None)],
    "drafts:seat": [("GET", "seat", SEAT_READER, None)],
    "drafts:seat-panel": [("GET", "seat", SEAT_READER, None)],
    "drafts:seat-pick": [("POST", "seat", SEAT_OWNER, {})],
    "drafts:seat-pile": [("POST", "seat", SEAT_OWNER, {})],
    "drafts:seat-pile-cover": [("POST", "seat", SEAT_OWNER, {})],
    "drafts:seat-ready": [("POST", "seat", SEAT_OWNER, {})],
    "drafts:seat-log-text": [("GET", "seat", SEAT_READER, None)],
    "drafts:seat-log-json": [("GET", "seat", SEAT_READER, None)],
    "drafts:spectate": [("GET", "token", TOKEN_HOLDER, None)],
    "drafts:spectate-panel": [("GET", "token", TOKEN_HOLDER, None)],
    # deck pages
    "decks:index": [("GET", None, PUBLIC, None)],
    "decks:my-deck": [("GET", "event", REGISTERED, None)],
    "decks:event-decks": [("GET", "event", EVENT_STAFF, None)],
    "decks:deck-checks": [("GET", "event", EVENT_STAFF, None)],
    "decks:sealed-pools": [("GET", "event", EVENT_ORGANISER, None)],
    "decks:detail": [("GET", "deck", DECK_READER, None)],
    "decks:print": [("GET", "deck", DECK_READER, None)],
    "decks:correct": [("GET", "deck", EVENT_STAFF, None)],
    "decks:check": [("GET", "deck", EVENT_STAFF, None)],
    "decks:export-deck": [("GET", "deck", DECK_READER, {"format": "dek"})],
    # A player's own pool (a 409 while the draft runs); staff name a registration.
    "decks:export-pool": [("GET", "event", REGISTERED, {"format": "arena"})],
    "decks:export-event": [("GET", "event", EVENT_ORGANISER, None)],
    # Anonymised picks of the players who opted in (a 409 until decklists are published).
    "decks:export-pick-data": [("GET", "event", EVENT_ORGANISER, None)],
    # Draft history: a seat's log is its player's and the staff's (public only once the
    # organiser says so, after publication); the switch is the organiser's.
    "decks:drafts": [("GET", None, SIGNED_IN, None)],
    "decks:draft-log": [("GET", "seat", SEAT_READER, None)],
    "decks:draft-log-mtgo": [("GET", "seat", SEAT_READER, None)],
    "decks:pod-logs-public": [("POST", "pod", EVENT_ORGANISER, {"public": "1"})],
    "decks:pick-data-sharing": [("POST", "event", REGISTERED, {"share": "1"})],
    # penalty pages
    "penalties:mine": [("GET", None, SIGNED_IN, None)],
    "penalties:new": [("GET", None, SIGNED_IN, None)],
    "penalties:queue": [("GET", None, ANY_HEAD_JUDGE, None)],
    "penalties:players": [("GET", None, SITE_STAFF, None)],
    "penalties:event": [("GET", "event", EVENT_PENALTY_READER, None)],
    "penalties:event-report": [("GET", "event", EVENT_PENALTY_READER, None)],
    "penalties:event-report-csv": [("GET", "event", EVENT_PENALTY_READER, None)],
    "penalties:dismiss": [("POST", "event", EVENT_STAFF, {})],
    "penalties:dismiss-many": [("POST", "event", EVENT_STAFF, {})],
    "penalties:detail": [("GET", "penalty", PENALTY_READER, None)],
    "penalties:review": [("POST", "penalty", HEAD_JUDGE, {})],
    "penalties:appeal": [("POST", "penalty", PENALISED_PLAYER, {"statement": "x"})],
    "penalties:appeal-decision": [("POST", "penalty", HEAD_JUDGE, {})],
    "penalties:statement": [("POST", "penalty", STATEMENT_WRITER, {"statement": "x"})],
    # The report exists for disqualifications only (a 404 for other penalties).
    # The player's printable notice; the head judge's copy in the language of record (staff).
    "penalties:notice": [("GET", "penalty", PENALTY_READER, None)],
    "penalties:notice-record": [("GET", "penalty", EVENT_PENALTY_READER, None)],
    "penalties:disqualification": [("GET", "penalty", lambda f: f.disqualification and PENALTY_READER(f), None)],
    # matches API: pairings, results, standings and clocks are public; players report their own
    # match; judges enter results and extensions; organisers pair, start, close and repair.
    "matches-standings-compute": [("POST", None, PUBLIC, {})],
    "matches-standings-compute-slash": [("POST", None, PUBLIC, {})],
    "matches-settings": [("GET", "event", PUBLIC, None), ("PUT", "event", EVENT_ORGANISER, {"mode": "bogus"})],
    "matches-rounds": [("GET", "event", PUBLIC, None), ("POST", "event", EVENT_ORGANISER, {})],
    "matches-standings": [("GET", "event", PUBLIC, None)],
    "matches-drops": [("POST", "event", EVENT_MEMBER, {})],
    "matches-my-match": [("GET", "event", REGISTERED, None)],
    "matches-pairings-csv": [("GET", "event", PUBLIC, None)],
    "matches-results-csv": [("GET", "event", PUBLIC, None)],
    "matches-standings-csv": [("GET", "event", PUBLIC, None)],
    "matches-round": [("GET", "round", PUBLIC, None)],
    "matches-round-start": [("POST", "round", EVENT_ORGANISER, {})],
    "matches-round-finish": [("POST", "round", EVENT_ORGANISER, {})],
    "matches-round-repair": [("POST", "round", EVENT_ORGANISER, {"tables": []})],
    "matches-match": [("GET", "match", PUBLIC, None)],
    "matches-report": [("POST", "match", SEAT_OWNER, {"won": 2, "lost": 0})],
    "matches-confirm": [("POST", "match", SEAT_OWNER, {})],
    "matches-result": [("POST", "match", EVENT_STAFF, {"a_wins": 2, "b_wins": 0})],
    "matches-extension": [("POST", "match", EVENT_STAFF, {"minutes": 3})],
    # match pages
    "matches:dashboard": [("GET", "event", EVENT_STAFF, None)],
    "matches:dashboard-panel": [("GET", "event", EVENT_STAFF, None)],
    "matches:settings": [("POST", "event", EVENT_ORGANISER, {})],
    "matches:pair": [("POST", "event", EVENT_ORGANISER, {})],
    "matches:me": [("GET", "event", REGISTERED, None)],
    "matches:me-panel": [("GET", "event", REGISTERED, None)],
    "matches:drop": [("POST", "event", EVENT_MEMBER, {})],
    "matches:standings": [("GET", "event", PUBLIC, None)],
    "matches:clock": [("GET", "event", PUBLIC, None)],
    "matches:clock-panel": [("GET", "event", PUBLIC, None)],
    "matches:csv": [("GET", "event+export", PUBLIC, None)],
    "matches:pairings": [("GET", "round", PUBLIC, None)],
    "matches:slips": [("GET", "round", PUBLIC, None)],
    "matches:round-control": [("POST", "round+action", EVENT_ORGANISER, {})],
    "matches:repair": [("GET", "round", EVENT_ORGANISER, None)],
    "matches:report": [("POST", "match", SEAT_OWNER, {"won": 2, "lost": 0})],
    "matches:confirm": [("POST", "match", SEAT_OWNER, {})],
    "matches:result": [("POST", "match", EVENT_STAFF, {"a_wins": 2, "b_wins": 0})],
    "matches:extension": [("POST", "match", EVENT_STAFF, {"minutes": 3})],
    # judge calls: a player calls to their own table or seat; only the event's judges see the
    # queue and take steps; the caller reads their call's state (never another player's).
    "judgecalls-match-call": [("POST", "match", SEAT_OWNER, {"reason": "x"})],
    "judgecalls-seat-call": [("POST", "seat", SEAT_OWNER, {"reason": "x"})],
    "judgecalls-queue": [("GET", "event", EVENT_STAFF, None)],
    # Sealed events: a pool is its player's (the event's staff read every one).
    "sealed-events": [("POST", None, SITE_ORGANISER, {})],
    "sealed-event": [("GET", "sealed_event", EVENT_MEMBER, None)],
    "sealed-open": [("POST", "sealed_event", EVENT_ORGANISER, {})],
    "sealed-pool": [("GET", "sealed_event", REGISTERED, None)],
    "sealed-catalogue": [("GET", "sealed_event", EVENT_MEMBER, None)],
    "sealed-paper-pool": [("PUT", "sealed_event", REGISTRANT, {})],
    "sealed-swap": [("POST", "sealed_event", EVENT_ORGANISER, {})],
    "sealed-answer": [("POST", "sealed_event", REGISTERED, {})],
    "sealed-assign": [("POST", "paper_pool", EVENT_ORGANISER, {})],
    "sealed:new": [("GET", None, SITE_ORGANISER, None)],
    "sealed:event": [("GET", "sealed_event", EVENT_MEMBER, None)],
    "sealed:open": [("POST", "sealed_event", EVENT_ORGANISER, {})],
    "sealed:register-pool": [("GET", "sealed_event", EVENT_MEMBER, None), ("POST", "sealed_event", REGISTRANT, {})],
    "sealed:swap": [("POST", "sealed_event", EVENT_ORGANISER, {})],
    "sealed:answer": [("POST", "sealed_event", REGISTERED, {})],
    "sealed:assign": [("POST", "sealed_event+pool", EVENT_ORGANISER, {})],
    "judgecalls-detail": [("GET", "call", SEAT_READER, None)],
    "judgecalls-claim": [("POST", "call", EVENT_STAFF, {})],
    "judgecalls-escalate": [("POST", "call", EVENT_STAFF, {})],
    "judgecalls-extension": [("POST", "call", EVENT_STAFF, {"minutes": 3})],
    "judgecalls-resolve": [("POST", "call", EVENT_STAFF, {"outcome": "ruling"})],
    # the site's proposed penalties (API of the proposals page): the event's judges only; a
    # player never sees one, not even their own (a proposal is a judge's working note).
    "judgecalls-proposals": [("GET", "event", EVENT_STAFF, None)],
    "judgecalls-proposals-issue": [("POST", "event", EVENT_STAFF, {"sources": ["result:1"]})],
    "judgecalls-proposals-dismiss": [("POST", "event", EVENT_STAFF, {"sources": ["result:1"], "reason": "x"})],
    "judgecalls-proposal-issue": [("POST", "event+proposal", EVENT_STAFF, {})],
    "judgecalls-proposal-dismiss": [("POST", "event+proposal", EVENT_STAFF, {"reason": "x"})],
    "judgecalls:call-match": [("POST", "match", SEAT_OWNER, {"reason": "x"})],
    "judgecalls:call-seat": [("POST", "seat", SEAT_OWNER, {"reason": "x"})],
    "judgecalls:seat-box": [("GET", "seat", SEAT_OWNER, None)],
    "judgecalls:queue": [("GET", "event", EVENT_STAFF, None)],
    "judgecalls:queue-panel": [("GET", "event", EVENT_STAFF, None)],
    "judgecalls:proposals": [("GET", "event", EVENT_STAFF, None), ("POST", "event", EVENT_STAFF, {"action": "issue"})],
    "judgecalls:context": [("GET", "call", EVENT_STAFF, None)],
    "judgecalls:step": [("POST", "call+action", EVENT_STAFF, {"minutes": 3, "outcome": "ruling"})],
    # paper drafts: API
    "paper-api-call": [("GET", "paper_pod", POD_MEMBER, None)],
    "paper-api-start": [("POST", "paper_pod", EVENT_ORGANISER, {})],
    **{
        f"paper-api-pod-{action}": [("POST", "paper_pod", EVENT_STAFF, {"reason": "x"})]
        for action in ("pause", "resume", "repeat-pick", "skip-to-review", "restart-round")
    },
    **{
        f"paper-api-flight-{action}": [("POST", "flight", EVENT_STAFF, {"reason": "x"})]
        for action in ("pause", "resume", "repeat-pick", "skip-to-review", "restart-round")
    },
    "paper-api-dfcs": [
        ("GET", "paper_pod", POD_MEMBER, None),
        ("POST", "paper_pod", lambda f: f.in_pod, {"card": "Delver of Secrets"}),
    ],  # players only
    "paper-api-dfc": [("DELETE", "dfc", SEAT_OWNER, None)],
    "paper-api-flights": [("POST", "paper_event", EVENT_ORGANISER, {"pods": []})],
    "paper-api-followers": [("PUT", "paper_event", EVENT_ORGANISER, {"allowed": True})],
    "paper-api-seating": [("GET", "paper_event", EVENT_STAFF, None)],
    "paper-api-follow": [("GET", "paper_token", TOKEN_HOLDER, None)],
    # paper drafts: pages
    "paper:room": [("GET", "paper_event", EVENT_STAFF, None)],
    "paper:room-control": [("POST", "paper_event+action", EVENT_ORGANISER, {})],
    "paper:slips": [("GET", "paper_event", EVENT_STAFF, None)],
    "paper:wall": [("GET", "paper_event", EVENT_STAFF, None)],
    "paper:pod": [("GET", "paper_pod", POD_MEMBER, None)],
    "paper:caller": [("GET", "paper_pod", EVENT_STAFF, None)],
    "paper:control": [("POST", "paper_pod+action", EVENT_STAFF, {"reason": "x"})],
    "paper:table": [("GET", "paper_pod", POD_MEMBER, None)],
    "paper:post-dfc": [("POST", "paper_pod", lambda f: f.in_pod, {"card": "Delver of Secrets"})],
    "paper:withdraw-dfc": [("POST", "dfc", SEAT_OWNER, {})],
    "paper:flight-control": [("POST", "flight+action", EVENT_STAFF, {"reason": "x"})],
    "paper:follow": [("GET", "paper_token", TOKEN_HOLDER, None)],
    "paper:follow-table": [("GET", "paper_token", TOKEN_HOLDER, None)],
}


# --- the resolver walk ------------------------------------------------------------------------


def project_routes() -> list[tuple[str, str, list[str]]]:
    """(route name with namespace, route pattern, path parameter names) of every URL of the
    project except the Django admin (its own permission system, tested by Django)."""
    found = []

    def walk(patterns, prefix="", namespace=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                if str(p.pattern).startswith("admin/"):
                    continue
                ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
                walk(p.url_patterns, prefix + str(p.pattern), ns)
            elif isinstance(p, URLPattern):
                found.append((f"{namespace}{p.name}", prefix + str(p.pattern), list(p.pattern.converters)))

    walk(get_resolver().url_patterns)
    return found


def test_every_route_is_in_the_table():
    names = [name for name, _, _ in project_routes()]
    assert sorted(set(names) - set(ENDPOINTS)) == []  # a new route needs its row (and its rule)
    assert sorted(set(ENDPOINTS) - set(names)) == []


# --- classify an answer -----------------------------------------------------------------------

# A 404 that answers "there is none yet", given only past the permission check.
NOT_REFUSALS = {"no_deck", "no_pool", "no_appeal", "not_waitlisted"}


def answer_class(response, method: str) -> str:
    status = response.status_code
    if status >= 500:
        return f"SERVER ERROR {status}"
    if status in (401, 403):
        return "REFUSED"
    if status == 404:
        if response.get("Content-Type", "").startswith("application/json"):
            codes = {e.get("code") for e in response.json().get("errors", [])}
            if codes & NOT_REFUSALS:
                return "ALLOWED"
        return "REFUSED"
    if status in (301, 302, 303) and "/accounts/login/" in response.get("Location", ""):
        return "REFUSED"
    if status == 405:
        return "WRONG METHOD"
    if 200 <= status < 400:
        return "ALLOWED"
    if status == 409 or (status in (400, 429) and method != "GET"):
        return "ALLOWED"  # past the permission check, refused on the body or the state
    return f"UNEXPECTED {status}"


def _client(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def request(client: Client, method: str, url: str, body: dict | None):
    cache.clear()  # no throttle or presence state carried between requests
    with transaction.atomic():
        if method == "GET":
            response = client.get(url, data=body)  # a GET's "body" is its query
        elif method == "POST" and not url.startswith("/api/"):
            response = client.post(url, data=body or {})  # an HTML form
        else:
            response = client.generic(
                method, url, data=__import__("json").dumps(body or {}), content_type="application/json"
            )
        transaction.set_rollback(True)
    return response


def test_authorization_matrix_http(cube_names):  # noqa: F811
    world = build_world(cube_names)
    clients = {role: _client(world.users[role]) for role in ROLES}
    mismatches, checked = [], 0
    for name, route, params in project_routes():
        for method, kind, rule, body in ENDPOINTS[name]:
            for target in targets(world, kind, params):
                url = "/" + route
                for key, value in target.kwargs.items():
                    url = url.replace(f"<{_converter(route, key)}{key}>", str(value))
                for role in ROLES:
                    expected = "ALLOWED" if rule(facts(world, role, target)) else "REFUSED"
                    # Logging out ends the session: that one gets a throwaway client.
                    client = _client(world.users[role]) if name == "logout" else clients[role]
                    got = answer_class(request(client, method, url, body), method)
                    checked += 1
                    if got != expected:
                        mismatches.append(
                            f"{method} {url} [{name}, {target.label}] as {role}: expected {expected}, got {got}"
                        )
    assert checked > 1000
    assert mismatches == [], "\n" + "\n".join(mismatches)


def _converter(route: str, key: str) -> str:
    start = route.index(f"{key}>")
    opening = route.rindex("<", 0, start)
    return route[opening + 1 : start]


# --- websockets ------------------------------------------------------------------------------

router = URLRouter(websocket_urlpatterns)


def on_a_loop_of_its_own(attempt):
    """Run ``attempt()`` with ``async_to_sync`` (a new event loop), closing that loop's pool of
    pick connections (``drafts.aio``) before the loop closes, as ``tests/conftest.py`` does for
    async tests: left open, the pool's tasks once kept the loop's shutdown waiting for ever."""

    async def run():
        try:
            return await attempt()
        finally:
            await aio.aclose()

    return async_to_sync(run)()


def socket_opens(path: str, user) -> bool:
    async def attempt():
        communicator = WebsocketCommunicator(router, path)
        communicator.scope["user"] = user if user is not None else AnonymousUser()
        connected, _ = await communicator.connect()
        if connected:
            await communicator.disconnect()
        return connected

    return on_a_loop_of_its_own(attempt)


WEBSOCKETS = {
    # route -> (object kind, rule)
    "ws/seats/<int:seat_id>/": ("seat", SEAT_READER),
    "ws/pods/<int:pod_id>/": ("pod", POD_MEMBER),
    "ws/events/<int:event_id>/": ("event", EVENT_STAFF),
    "ws/watch/<str:token>/": ("token", TOKEN_HOLDER),
    "ws/paper/pods/<int:pod_id>/": ("paper_pod", POD_MEMBER),
    "ws/paper/follow/<str:token>/": ("paper_token", TOKEN_HOLDER),
    "ws/ping/": (None, PUBLIC),
    # Says only "changed": pairings, results and clocks are public.
    "ws/matches/events/<int:event_id>/": ("event", PUBLIC),
    "ws/judgecalls/events/<int:event_id>/": ("event", EVENT_STAFF),
    # The caller's own call box: the seat's player only (not even the event's staff).
    "ws/judgecalls/seats/<int:seat_id>/": ("seat", SEAT_OWNER),
}


@pytest.mark.django_db(transaction=True, serialized_rollback=True)  # restores the seed catalogue
def test_authorization_matrix_websockets(cube_names):  # noqa: F811
    """A player cannot open another seat's socket; another event's organiser cannot open a pod
    socket; the event socket is staff only; spectator sockets need the current token."""
    world = build_world(cube_names)
    routes = {str(p.pattern) for p in websocket_urlpatterns}
    assert routes == set(WEBSOCKETS)
    mismatches = []
    for route, (kind, rule) in WEBSOCKETS.items():
        params = [route[route.index(":") + 1 : route.index(">")]] if "<" in route else []
        for target in targets(world, kind, params):
            path = route
            for key, value in target.kwargs.items():
                path = path.replace(f"<{_converter(route, key)}{key}>", str(value))
            for role in ROLES:
                expected = rule(facts(world, role, target))
                if socket_opens(path, world.users[role]) != expected:
                    mismatches.append(
                        f"{path} [{target.label}] as {role}: expected {'open' if expected else 'refused'}"
                    )
    assert mismatches == [], "\n" + "\n".join(mismatches)


def socket_pick(path: str, user, card_id: int, pack_id: int) -> dict | None:
    """Open the seat socket as ``user`` and pick; the answer, or None when the socket is refused."""

    async def attempt():
        communicator = WebsocketCommunicator(router, path)
        communicator.scope["user"] = user if user is not None else AnonymousUser()
        connected, _ = await communicator.connect()
        if not connected:
            return None
        try:
            await communicator.send_json_to({"type": "pick", "card": card_id, "pack": pack_id, "ref": "m"})
            while True:
                message = await communicator.receive_json_from(timeout=20)
                if message["type"] in ("picked", "pick_refused"):
                    return message
        finally:
            await communicator.disconnect()

    return on_a_loop_of_its_own(attempt)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)  # restores the seed catalogue
def test_authorization_matrix_socket_picks(cube_names):  # noqa: F811
    """Over the seat socket only the seat's player picks: every other role that may open the
    socket (the event's staff, who watch read-only) is refused with 403 not_your_seat and
    nothing is stored; the others cannot open it at all. Last, the owner's pick goes through."""
    world = build_world(cube_names)
    mismatches = []
    owners_turn = []
    for label, seat in world.seats.items():
        pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
        card = DraftCard.objects.in_pack(pack).first()
        picks_before = Pick.objects.filter(seat=seat).count()
        target = targets(world, "seat", ["seat_id"])[list(world.seats).index(label)]
        for role in ROLES:
            user = world.users[role]
            if user is not None and user.pk == seat.registration.user_id:
                owners_turn.append((seat, user, card, pack))
                continue
            answer = socket_pick(f"ws/seats/{seat.pk}/", user, card.pk, pack.pk)
            opens = SEAT_READER(facts(world, role, target))
            if answer is None:
                got = "socket refused"
            else:
                got = f"{answer['type']} {answer.get('status')} {[e['code'] for e in answer.get('errors', [])]}"
            expected = "pick_refused 403 ['not_your_seat']" if opens else "socket refused"
            if got != expected:
                mismatches.append(f"{label} seat as {role}: expected {expected}, got {got}")
        if Pick.objects.filter(seat=seat).count() != picks_before:
            mismatches.append(f"{label} seat: a refused pick was stored")
    assert mismatches == [], "\n" + "\n".join(mismatches)
    assert [seat for seat, *_ in owners_turn] == [world.seats[k] for k in ("own", "other_pod", "foreign")]
    for seat, user, card, pack in owners_turn:
        answer = socket_pick(f"ws/seats/{seat.pk}/", user, card.pk, pack.pk)
        assert answer["type"] == "picked" and answer["pick"]["card"] == card.pk
        assert Pick.objects.filter(seat=seat, draft_card=card).exists()


def test_role_is_checked_before_the_body_everywhere(cube_names):  # noqa: F811
    """A caller without the role gets 401/403 even with a body the endpoint would refuse: an
    outsider must not learn about the body's validity (deck-check selections, deck rules PUT and
    timeout-pick dismissal once answered 400)."""
    world = build_world(cube_names)
    clients = {role: _client(world.users[role]) for role in ROLES}
    mismatches, checked = [], 0
    for name, route, params in project_routes():
        # Logging out is for anyone; a registration without a name is self-registration (the
        # body says which action it is, so its rule depends on the body).
        if name in ("logout", "api-registrations"):
            continue
        for method, kind, rule, _body in ENDPOINTS[name]:
            if method == "GET":
                continue
            for target in targets(world, kind, params):
                url = "/" + route
                for key, value in target.kwargs.items():
                    url = url.replace(f"<{_converter(route, key)}{key}>", str(value))
                for role in ROLES:
                    if rule(facts(world, role, target)):
                        continue
                    response = request(
                        clients[role], method, url, {"method": 7, "checklist_policy": 7, "source": 7, "reason": 7}
                    )
                    checked += 1
                    got = answer_class(response, method)
                    if got != "REFUSED":
                        mismatches.append(f"{method} {url} [{name}, {target.label}] as {role}: {response.status_code}")
    assert checked > 300
    assert mismatches == [], "\n" + "\n".join(mismatches)
