"""Writes of push notifications: a browser's subscription, a player's choices per event, an
organiser's announcement, and sending one user's notice to each of their browsers.

Sending happens only in Celery tasks (``push.tasks``), booked after the commit
(``push.dispatch``): a slow or failing push service costs a worker's time, never a request's."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import logging
import urllib.parse

import requests
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from draftsite.errors import DomainError
from events.access import Permission, access_event, recorded_user
from push import config, dispatch, error_codes, notices
from push.models import Announcement, EventPush, PushSent, PushSubscription, Trigger

logger = logging.getLogger(__name__)

MAX_ANNOUNCEMENT = 200
GONE = (404, 410)  # RFC 8030: the subscription expired or was withdrawn


def _signed_in(actor) -> None:
    if actor is None or not getattr(actor, "is_authenticated", False):
        raise DomainError("not_authenticated", gettext("Sign in first."), status_code=401)


def _b64(value: object, length: int, first: int | None = None) -> str:
    if not isinstance(value, str) or not value or len(value) > 200:
        raise ValueError
    raw = config.b64url_decode(value.strip())
    if len(raw) != length or (first is not None and raw[0] != first):
        raise ValueError
    return value.strip()


def _endpoint(value: object) -> str:
    if not isinstance(value, str) or len(value) > 2000:
        raise ValueError
    url = urllib.parse.urlsplit(value)
    allowed = ("https", "http") if settings.PUSH_ALLOW_HTTP_ENDPOINTS else ("https",)
    if url.scheme not in allowed or not url.hostname:
        raise ValueError
    return value


@transaction.atomic
def subscribe(*, actor, endpoint: object, p256dh: object, auth: object, now: dt.datetime | None = None):
    """Keep (or move to ``actor``) the browser's subscription, as ``PushManager.subscribe``
    gave it: the endpoint and the keys that encrypt for it (RFC 8291: a P-256 point and a
    16-byte secret)."""
    _signed_in(actor)
    if not config.enabled():
        raise DomainError(error_codes.PUSH_OFF, config.why_off(), status_code=409)
    try:
        fields = {"endpoint": _endpoint(endpoint), "p256dh": _b64(p256dh, 65, 0x04), "auth": _b64(auth, 16)}
    except (ValueError, TypeError):
        raise DomainError(
            error_codes.INVALID_SUBSCRIPTION, gettext("This browser's push subscription is not valid.")
        ) from None
    subscription, _ = PushSubscription.objects.update_or_create(
        endpoint=fields["endpoint"],
        defaults={
            "user": actor,
            "p256dh": fields["p256dh"],
            "auth": fields["auth"],
            "created_at": now or timezone.now(),
        },
    )
    return subscription


@transaction.atomic
def unsubscribe(*, actor, endpoint: object) -> int:
    """Forget the actor's browser (the page turned notifications off, or the browser did)."""
    _signed_in(actor)
    if not isinstance(endpoint, str):
        raise DomainError(error_codes.INVALID_SUBSCRIPTION, gettext("This browser's push subscription is not valid."))
    deleted, _ = PushSubscription.objects.filter(user=actor, endpoint=endpoint).delete()
    return deleted


@transaction.atomic
def set_event_push(
    *, event_id: int, actor, on: bool, triggers: object = None, now: dt.datetime | None = None
) -> EventPush | None:
    """Turn the actor's notifications for the event on (with the chosen ``triggers``; all when
    none are named) or off. Staff and registered players may."""
    access_event(event_id, actor, permission=Permission.MEMBER)
    if not on:
        EventPush.objects.filter(event_id=event_id, user=actor).delete()
        return None
    chosen = Trigger.values if triggers is None else triggers
    if not isinstance(chosen, list | tuple) or any(t not in Trigger.values for t in chosen):
        raise DomainError(
            error_codes.UNKNOWN_TRIGGER,
            gettext("Unknown notification: choose among %(choices)s.") % {"choices": ", ".join(Trigger.values)},
        )
    switches = {trigger: trigger in chosen for trigger in Trigger.values}
    choice, _ = EventPush.objects.update_or_create(
        event_id=event_id, user=actor, defaults={**switches, "updated_at": now or timezone.now()}
    )
    return choice


@transaction.atomic
def announce(*, event_id: int, actor, text: object, now: dt.datetime | None = None) -> Announcement:
    """An organiser's message to every checked-in player who turned notifications on."""
    event = access_event(event_id, actor, permission=Permission.ORGANISER)
    text = text.strip() if isinstance(text, str) else ""
    if not text or len(text) > MAX_ANNOUNCEMENT or "\x00" in text:
        raise DomainError(
            error_codes.INVALID_ANNOUNCEMENT,
            gettext("An announcement is 1 to %(max)s characters.") % {"max": MAX_ANNOUNCEMENT},
        )
    announcement = Announcement.objects.create(
        event=event, text=text, by=recorded_user(actor), at=now or timezone.now()
    )
    dispatch.send_on_commit(notices.ANNOUNCEMENT, announcement.pk)
    return announcement


# --- Sending (tasks only) ------------------------------------------------------------------


@dataclasses.dataclass
class Delivery:
    sent: int = 0
    removed: int = 0
    failed: int = 0


def _take_once(user_id: int, key: str, now: dt.datetime) -> bool:
    """Claim a notice that goes at most once; False when it already went (or is going)."""
    try:
        with transaction.atomic():
            PushSent.objects.create(user_id=user_id, key=key, at=now)
    except IntegrityError:
        return False
    return True


def deliver(kind: str, object_id: int, user_id: int, *, now: dt.datetime | None = None, session=None) -> Delivery:
    """Send the user's notice about ``object_id`` to each of their browsers. A subscription the
    push service answers 404 or 410 for is removed; any other failure is logged and skipped."""
    from pywebpush import WebPushException, webpush

    result = Delivery()
    if not config.enabled():
        return result
    now = now or timezone.now()
    notice = notices.render(kind, object_id, user_id, now)
    if notice is None:
        return result
    if notice.once_key and not _take_once(user_id, notice.once_key, now):
        return result
    payload = json.dumps(
        {
            "kind": kind,
            "title": notice.title,
            "body": notice.body,
            "url": notice.url,
            "tag": notice.tag,
            "lang": notices.language_of(user_id),
        },
        ensure_ascii=False,
    )
    for subscription in PushSubscription.objects.filter(user_id=user_id):
        info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
        try:
            webpush(
                info,
                data=payload,
                vapid_private_key=config.vapid(),
                vapid_claims={"sub": config.subject()},
                ttl=notices.TTL_SECONDS[kind],
                timeout=settings.PUSH_TIMEOUT_SECONDS,
                headers={"Urgency": "high" if kind in (Trigger.PACK_WAITING, Trigger.JUDGE) else "normal"},
                requests_session=session,
            )
            result.sent += 1
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            if status in GONE:
                PushSubscription.objects.filter(pk=subscription.pk, endpoint=subscription.endpoint).delete()
                result.removed += 1
            else:
                result.failed += 1
                logger.warning("push to subscription %s failed: %s", subscription.pk, status)
        except requests.RequestException as exc:  # timeout, refused: the next notice may pass
            result.failed += 1
            logger.warning("push to subscription %s failed: %s", subscription.pk, exc.__class__.__name__)
    return result


def fan_out(kind: str, object_id: int) -> list[int]:
    """The users to tell (one ``push.deliver`` task each, so one slow browser delays no other)."""
    if not config.enabled() or kind not in notices.KINDS:
        return []
    return notices.audience(kind, object_id)
