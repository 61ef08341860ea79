"""Whether Web Push is on, and the site's VAPID identity (RFC 8292) from the environment.

Push is on only with both keys set (``VAPID_PUBLIC_KEY``, ``VAPID_PRIVATE_KEY``:
``manage.py make_vapid_keys`` prints a pair). Without them nothing is sent, the API says
``enabled: false`` and the notifications page says why."""

from __future__ import annotations

import base64
import functools

from django.conf import settings
from django.utils.translation import gettext


def b64url_decode(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def b64url_encode(value: bytes) -> str:
    return base64.urlsafe_b64encode(value).rstrip(b"=").decode()


def enabled() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def why_off() -> str:
    """For people: why this site sends no push notifications ("" when it does)."""
    if enabled():
        return ""
    return gettext(
        "This site has no push keys (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY), so it cannot send "
        "notifications to a closed browser. Its organiser makes a pair with "
        "“manage.py make_vapid_keys”."
    )


@functools.cache
def _vapid(private_key: str):
    from py_vapid import Vapid

    return Vapid.from_string(private_key=private_key)


def vapid():
    """The signing key (a ``py_vapid.Vapid``), read once per process and key."""
    return _vapid(settings.VAPID_PRIVATE_KEY)


def subject() -> str:
    """The VAPID ``sub`` claim: how a push service reaches whoever runs the site."""
    return settings.VAPID_SUBJECT or settings.SITE_URL


def make_key_pair() -> tuple[str, str]:
    """A new (public, private) pair: the uncompressed P-256 point and the raw 32-byte private
    value, base64url, as browsers (``applicationServerKey``) and py_vapid read them."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64url_encode(public), b64url_encode(private)
