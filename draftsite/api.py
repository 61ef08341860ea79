"""Site-wide API endpoints: token issue for API clients."""

from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.throttling import ScopedRateThrottle


class ObtainTokenView(ObtainAuthToken):
    """Exchange a username and password for an API token (throttled like the login page)."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"
