"""drafts.access: one look-up with the caller's permission for events, pods and seats, used by
the API, the pages and the services alike (a system caller passes no user and is trusted). An
event's own permissions are tested with the events app (tests/events/test_access.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from drafts import access, error_codes, services
from drafts.models import DraftCard, Pack, Pick, PodAction, PodLogEntry, Seat
from draftsite.errors import ForbiddenError, NotFoundError
from events import access as event_access
from events import error_codes as event_error_codes
from events import services as event_services
from events.access import SYSTEM, Permission
from events.models import StaffRole
from tests.drafts.conftest import T0, make_pod, seconds
from tests.factories import EventStaffFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_unknown_objects_are_not_found_with_their_codes():
    for lookup, code in (
        (event_access.access_event, error_codes.UNKNOWN_EVENT),
        (access.access_pod, error_codes.UNKNOWN_POD),
        (access.access_seat, error_codes.UNKNOWN_SEAT),
    ):
        with pytest.raises(NotFoundError) as error:
            lookup(987654)
        assert error.value.code == code and "987654" in error.value.message


def test_seat_and_pod_permissions(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, start=False)
    seat = Seat.objects.get(pod=pod, position=0)
    judge = EventStaffFactory(event=pod.event, role=StaffRole.JUDGE).user
    assert access.access_seat(seat.pk, players[0], permission=Permission.SEAT_OWNER) == seat
    assert access.access_seat(seat.pk, judge, permission=Permission.SEAT_READER) == seat
    for user, permission in ((judge, Permission.SEAT_OWNER), (players[1], Permission.SEAT_READER)):
        with pytest.raises(ForbiddenError) as error:
            access.access_seat(seat.pk, user, permission=permission)
        assert error.value.code == error_codes.NOT_YOUR_SEAT
    assert access.access_pod(pod.pk, players[1], permission=Permission.POD_MEMBER) == pod
    with pytest.raises(ForbiddenError) as error:
        access.access_pod(pod.pk, UserFactory(), permission=Permission.POD_MEMBER)
    assert error.value.code == event_error_codes.NOT_IN_POD
    # None is refused like an anonymous user, with the permission's code; SYSTEM is trusted; no
    # permission is a look-up.
    for permission, code in (
        (Permission.SEAT_OWNER, error_codes.NOT_YOUR_SEAT),
        (Permission.SEAT_READER, error_codes.NOT_YOUR_SEAT),
        (Permission.ORGANISER, event_error_codes.NOT_EVENT_STAFF),
    ):
        for nobody in (None, AnonymousUser()):
            with pytest.raises(ForbiddenError) as error:
                access.access_seat(seat.pk, nobody, permission=permission)
            assert error.value.code == code
        assert access.access_seat(seat.pk, event_access.SYSTEM, permission=permission) == seat
    for permission, code in (
        (Permission.POD_MEMBER, event_error_codes.NOT_IN_POD),
        (Permission.ORGANISER, event_error_codes.NOT_EVENT_STAFF),
    ):
        with pytest.raises(ForbiddenError) as error:
            access.access_pod(pod.pk, None, permission=permission)
        assert error.value.code == code
        assert access.access_pod(pod.pk, event_access.SYSTEM, permission=permission) == pod
    assert access.access_seat(seat.pk) == seat and access.access_pod(pod.pk) == pod


def test_services_check_the_acting_user(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    seat = Seat.objects.get(pod=pod, position=0)
    judge = EventStaffFactory(event=pod.event, role=StaffRole.JUDGE).user
    refused = [
        lambda: services.pause_pod(pod_id=pod.pk, actor=judge, now=T0 + seconds(1)),
        lambda: services.extend_clocks(pod_id=pod.pk, seconds=30, actor=players[0], now=T0 + seconds(1)),
        lambda: services.regenerate_spectator_token(pod_id=pod.pk, actor=judge),
        lambda: services.replace_with_automatic(seat_id=seat.pk, actor=players[0], now=T0 + seconds(1)),
        lambda: services.seat_players(event_id=pod.event_id, actor=judge),
        lambda: event_services.register_player(event_id=pod.event_id, name="Guest", actor=players[0]),
        lambda: event_services.update_event(event_id=pod.event_id, actor=judge, changes={"name": "X"}),
        lambda: services.set_pile_cover(seat_id=seat.pk, cover="checklist", actor=players[1]),
        lambda: services.move_pile_card(seat_id=seat.pk, draft_card_id=1, position=0, actor=judge),
        lambda: services.mark_ready(seat_id=seat.pk, actor=players[1], now=T0 + seconds(1)),
    ]
    for call in refused:
        with pytest.raises(ForbiddenError):
            call()
    # The same calls by the right person, or by the system, go through.
    services.set_pile_cover(seat_id=seat.pk, cover="checklist", actor=players[0])
    services.pause_pod(pod_id=pod.pk, actor=SYSTEM, now=T0 + seconds(1))
    services.resume_pod(pod_id=pod.pk, actor=organiser, now=T0 + seconds(2))


def test_players_see_pack_contents_in_logs_only_once_decklists_are_published(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, start=False)
    judge = EventStaffFactory(event=pod.event, role=StaffRole.JUDGE).user
    assert access.sees_log_packs(judge, pod.event)
    assert not access.sees_log_packs(players[0], pod.event)
    pod.event.decklists_published = True
    assert access.sees_log_packs(players[0], pod.event)


def test_none_is_nobody_to_the_draft_services_and_system_is_trusted(organiser, players, cube_names):
    """Issue 31: ``actor=None`` no longer means the system. A service refuses it as it refuses an
    anonymous user, with the same code; ``SYSTEM`` (tasks, timers, the demo) is let through."""
    pod = make_pod(organiser, players, cube_names, start=False)
    for nobody in (None, AnonymousUser()):
        with pytest.raises(ForbiddenError) as error:
            services.start_pod(pod_id=pod.pk, actor=nobody, now=T0)
        assert error.value.code == event_error_codes.NOT_EVENT_STAFF
    pod.refresh_from_db()
    assert pod.started_at is None
    services.start_pod(pod_id=pod.pk, actor=SYSTEM, now=T0)
    entry = PodLogEntry.objects.get(pod=pod, action=PodAction.START)
    assert entry.actor is None  # the system's log rows name no user

    seat = Seat.objects.get(pod=pod, position=0)
    card = DraftCard.objects.in_pack(Pack.objects.filter(holder=seat).order_by("queue_seq").first()).first()
    refusals = []
    for nobody in (None, AnonymousUser()):
        with pytest.raises(ForbiddenError) as error:
            services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, actor=nobody, now=T0 + seconds(1))
        refusals.append(error.value.code)
    # the code an anonymous user's pick from someone's seat gets (``access_seat``, SEAT_OWNER)
    with pytest.raises(ForbiddenError) as error:
        access.access_seat(seat.pk, AnonymousUser(), permission=Permission.SEAT_OWNER)
    assert refusals == [error_codes.NOT_YOUR_SEAT, error_codes.NOT_YOUR_SEAT] == [error.value.code] * 2
    assert not Pick.objects.filter(seat__pod=pod).exists()
    with pytest.raises(ForbiddenError) as error:
        services.mark_ready(seat_id=seat.pk, actor=None, now=T0 + seconds(1))
    assert error.value.code == error_codes.NOT_YOUR_SEAT
    pick = services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, actor=SYSTEM, now=T0 + seconds(1))
    assert Pick.objects.get(pk=pick.pk).made_by_id is None  # SYSTEM: a NULL actor in drafts_pick
