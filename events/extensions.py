"""What the apps above the events app add to an event's registrations, pages and changes. They
register here from their ``AppConfig.ready()``, so the events app imports none of them (the
layers contract in ``.importlinter``):

* the app that holds the players' side of an event (accounts: profiles, join links, the waitlist,
  check-in) registers it once: ``register_players(Players(...))``. An event's registrations,
  seating and pages read a player's name, who seating takes and how a player joins through it;
* the app that seats an event's players (the draft engine's pods) registers where they sit:
  ``register_seating(Seating(...))``; the event list shows a player's seat, the event page its
  pods and seating, and the staff pages and API warn of a judge seated as a player;
* an app whose live pages must hear that a person's place on an event's staff changed (the draft
  engine's staff sockets) registers ``register_staff_listener(listener)``: ``listener(event_id,
  user_id, allowed)`` runs after the commit (``events.live.notify_staff_changed``);
* an app that keeps something of an event in step with its settings (the draft engine's pod
  versions) registers ``register_settings_listener(listener)``: ``listener(event)`` runs inside
  the transaction that changed them (``events.services.staff.update_event``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from events.models import Event, Registration


@dataclass(frozen=True)
class Joined:
    """What joining an event did: registered the player, or put them on its waitlist."""

    registration: Registration | None  # None: waitlisted
    waitlist_position: int | None = None


@dataclass(frozen=True)
class Players:
    """The players' side of an event, as the app that holds it (accounts) answers it."""

    display_name: Callable[[Any], str]  # the name the site shows for an account
    seatable_registration_ids: Callable[[int], set[int]]  # who seating takes (every one, or the checked-in)
    join_link_token: Callable[[int], str | None]  # the event's open-registration link, if it has one
    event_page: Callable[[int, Any, Registration | None], dict]  # the event page's check-in and joining parts
    join: Callable[[int, Any, dt.datetime], Joined]  # a player registers themself (capacity, waitlist)


@dataclass(frozen=True)
class Seating:
    """Where an event's players sit, as the app that seats them (the draft engine) answers it."""

    seated_players: Callable[[Event, Iterable[int]], dict[int, Any]]  # user id -> their first seat
    seated_warning: Callable[[Any], str]  # what the staff pages say of a judge in that seat
    seats_by_event: Callable[[Any], dict[int, Any]]  # an account's seat in each event it is seated in
    # The event page's pods and seating (my_seat, pods, seated_ids, any_started, seating_form),
    # for the event, the caller's registration and whether the caller sees its members.
    event_page: Callable[[Event, Registration | None, bool], dict]


_players: list[Players] = []
_seating: list[Seating] = []
_staff_listeners: list[Callable[[int, int, bool], object]] = []
_settings_listeners: list[Callable[[Event], object]] = []


def register_players(players: Players) -> None:
    _players[:] = [players]  # one app holds the players' side; a repeated ready() replaces it


def players() -> Players:
    if not _players:
        raise ImproperlyConfigured(
            "No app registered the players' side of events (events.extensions.register_players)."
        )
    return _players[0]


def register_seating(seating_: Seating) -> None:
    _seating[:] = [seating_]  # one app seats an event's players; a repeated ready() replaces it


def seating() -> Seating:
    if not _seating:
        raise ImproperlyConfigured("No app registered where events' players sit (events.extensions.register_seating).")
    return _seating[0]


def register_staff_listener(listener: Callable[[int, int, bool], object]) -> None:
    if all(registered is not listener for registered in _staff_listeners):  # a repeated ready() adds none
        _staff_listeners.append(listener)


def staff_listeners() -> tuple[Callable[[int, int, bool], object], ...]:
    return tuple(_staff_listeners)


def register_settings_listener(listener: Callable[[Event], object]) -> None:
    if all(registered is not listener for registered in _settings_listeners):
        _settings_listeners.append(listener)


def settings_listeners() -> tuple[Callable[[Event], object], ...]:
    return tuple(_settings_listeners)
