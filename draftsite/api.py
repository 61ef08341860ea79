"""Site-wide API endpoints: token issue for API clients; the one reader of request bodies."""

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.throttling import SimpleRateThrottle

from draftsite.clients import client_address
from draftsite.errors import DomainError
from draftsite.parsers import JSONParser


class _SettingsRateThrottle(SimpleRateThrottle):
    """Reads its rate from settings on each request (so deployments and tests can change it)."""

    setting = ""

    def get_rate(self):
        return getattr(settings, self.setting)


class TokenAccountThrottle(_SettingsRateThrottle):
    """Token requests per (account, address): guessing one account's password stays slow."""

    scope = "login_account"
    setting = "LOGIN_THROTTLE_RATE"

    def get_cache_key(self, request, view):
        username = request.data.get("username") if hasattr(request.data, "get") else None
        username = username.strip().lower() if isinstance(username, str) else ""
        ident = f"{username}|{client_address(request)}"
        return self.cache_format % {"scope": self.scope, "ident": self._digest(ident)}

    @staticmethod
    def _digest(text: str) -> str:
        import hashlib

        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class TokenAddressThrottle(_SettingsRateThrottle):
    """Token requests per address, generous: a whole venue shares one address, and 200
    players may sign in within the same minute."""

    scope = "login_address"
    setting = "LOGIN_ADDRESS_THROTTLE_RATE"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


class ObtainTokenView(ObtainAuthToken):
    """Exchange a username and password for an API token.

    Throttled per account and address (``LOGIN_THROTTLE_RATE``, 10/min) and, much more
    loosely, per address (``LOGIN_ADDRESS_THROTTLE_RATE``, 1000/min); repeated failures lock
    the account from that address (draftsite.middleware)."""

    throttle_classes = [TokenAccountThrottle, TokenAddressThrottle]
    # ObtainAuthToken names DRF's parsers; use the site's (deep or broken JSON is a 400).
    parser_classes = [JSONParser, FormParser, MultiPartParser]


# DRF's own code for a serializer given data that is not a dict: one code for the whole class,
# whether the endpoint's serializer or its view reads the body first.
INVALID_BODY = "invalid"


def body_object(request) -> Mapping[str, Any]:
    """The request's body, which must be a JSON object (or a form); ``null``, ``[]``, ``"x"``
    or ``123`` is a 400 ``invalid`` (issue 46 item 12: a view that read such a body with
    ``.get`` fell back to defaults and acted on it). No body at all is an empty object."""
    data = request.data
    if not isinstance(data, Mapping):
        raise DomainError(INVALID_BODY, gettext("The request body must be a JSON object, like {}."), field="body")
    return data


def validated_body(serializer_class, request) -> dict:
    """The request body checked by ``serializer_class``; a 400 in the site's error shape if not."""
    serializer = serializer_class(data=body_object(request))
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
