"""Pegboard's settings: one module, driven by the environment (see ``config.env``).

The embedded default needs nothing: SQLite in the project folder and Celery tasks run eagerly
in-process. Production sets DEBUG=false, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL (PostgreSQL) and
CELERY_BROKER_URL (Redis).

Under pytest the test database is chosen here: PostgreSQL when CI=true or
PEGBOARD_TEST_DATABASE_URL is set (the whole suite then runs against it once), otherwise SQLite.
"""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)

_DEV_SECRET_KEY = "pegboard-development-only-key-never-use-in-production-0123456789abcdef"
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is required when DEBUG is off. Set SECRET_KEY to a long random string "
            "(python -c 'import secrets; print(secrets.token_urlsafe(50))' makes one), "
            "or set DEBUG=true for local development."
        )
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
CSRF_FAILURE_VIEW = "tournaments.views.errors.csrf_failure"  # the site's page: no inline style

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "allauth",
    "allauth.account",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.csp_kept.CSPMiddleware",  # django-csp's, its policy built once (config/csp_kept.py)
    # After the headers above, so its 429 page has them; before the views it guards.
    "tournaments.throttles.PrivateLinkGuard",
    # A player's phone reached the server (tournaments.heard): the board's "last heard".
    "tournaments.heard.LastHeardMiddleware",
    # Last, so it sees the outcome of every login (page, admin and API token).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.context_processors.queue",
                "tournaments.context_processors.menu",
            ],
        },
    },
]


def _database_url() -> str:
    default = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
    if not os.environ.get("PYTEST_VERSION"):
        return env_str("DATABASE_URL", default)
    test_url = os.environ.get("PEGBOARD_TEST_DATABASE_URL", "").strip()
    if test_url:
        return test_url
    if os.environ.get("CI", "").lower() == "true":
        return "postgres://postgres@127.0.0.1:5432/pegboard"
    return default


try:
    # Connections are kept a minute; one the server ended since is noticed and replaced at a
    # request's first query (config.postgresql), not answered with a 500.
    DATABASES = {
        "default": dj_database_url.parse(_database_url(), conn_max_age=60, conn_health_checks=True)
    }
except (ValueError, KeyError) as exc:
    raise ImproperlyConfigured(f"DATABASE_URL is not a usable database URL: {exc}") from None
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, with a connection check that needs no "SELECT 1" while the server said nothing.
    DATABASES["default"]["ENGINE"] = "config.postgresql"
_prepared = env_bool("DATABASE_PREPARED_STATEMENTS", True)
if DATABASES["default"]["ENGINE"].endswith("postgresql") and _prepared:
    # Django turns psycopg's prepared statements off (for poolers that cannot keep them), and
    # then psycopg ignores even an explicit ``prepare=True``. Django's own cursors bind on the
    # client and never prepare, so a threshold no query reaches prepares exactly the queries
    # ``tournaments.selectors.compiled`` asks for: the polls' and reports' hot few, which
    # PostgreSQL then plans once per connection instead of at every run (planning them cost
    # more than running them). Behind a pooler in transaction mode that cannot keep prepared
    # statements, set DATABASE_PREPARED_STATEMENTS=false.
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 2**31 - 1
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # Concurrent requests from several phones must wait for the write lock, not fail at once.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]


def _rate_limit(name: str, default: str) -> str:
    """A limit as allauth writes it: amount/period/per, e.g. 20/h/ip (period s, m, h or d)."""
    rate = env_str(name, default)
    if not re.fullmatch(r"[1-9][0-9]*/[0-9]*[smhd]/(ip|key|user)", rate):
        raise ImproperlyConfigured(
            f"{name}={rate!r} is not a limit: write amount/period/per, e.g. {default}."
        )
    return rate


LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"

# Wrong passwords (django-axes): five for one user name pause signing in as that name for 15
# minutes, on the login page, the admin and the API token endpoint alike. Counted by user name
# only, never by address: a venue's phones share one. A success clears the count; an admin can
# lift a pause at once with "manage.py axes_reset_username NAME".
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["username"]
AXES_RESET_ON_SUCCESS = True
# A pause ends 15 minutes after it began: more wrong guesses during it do not prolong it.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "tournaments.views.lockout.locked_out"
AXES_VERBOSE = False
# axes.W006 asks for the address in the lockout key; by design it is not (see above).
SILENCED_SYSTEM_CHECKS = ["axes.W006"]
LOGOUT_REDIRECT_URL = "home"

# Accounts people make themselves (django-allauth, ``allauth.account`` only: no social logins).
# Sign-up asks a user name, an e-mail address and a password; the address must be confirmed by
# the e-mailed link before the account can sign in (the login page refuses it until then and
# says so: tournaments.forms_accounts.SignInForm). Signing in stays Django's own page at
# /accounts/login/ (name "login"), so django-axes still counts wrong passwords there.
# Sign-up and password reset are throttled by allauth's rate limits (per client address, in the
# default cache): a venue's phones share one address, so the sign-up limit is generous enough
# for a club signing up together and still stops a script.
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS = 3
ACCOUNT_EMAIL_SUBJECT_PREFIX = "Pegboard: "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
ACCOUNT_ADAPTER = "tournaments.accounts.AccountAdapter"
ACCOUNT_RATE_LIMITS = {
    "signup": _rate_limit("ACCOUNT_SIGNUP_RATE", "20/h/ip"),
    "reset_password": "20/h/ip,5/h/key",
    "reset_password_from_key": "20/m/ip",
    "confirm_email": "1/3m/key",
}
# Invitations to hold a role (tournaments.services.invitations) stop working after this many days.
INVITATION_DAYS = env_int("INVITATION_DAYS", 14, minimum=1)
# A place offered to the next on a waitlist (tournaments.services.waitlist) is theirs this long.
WAITLIST_OFFER_HOURS = env_int("WAITLIST_OFFER_HOURS", 48, minimum=1)

LANGUAGE_CODE = "en-us"
TIME_ZONE = "America/New_York"
USE_I18N = False  # English only: no translation machinery (get_language()) at each request
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "config.static_storage.StaticStorage"
    },
}

# Security: strict by default whenever DEBUG is off (check --deploy reports nothing).
# VENUE (``make venue``, config/venue.py): production settings on a laptop serving phones over
# the venue's own router, where no certificate can be had: plain HTTP, so no redirect to
# HTTPS, no HSTS, and cookies a phone keeps over HTTP (else no form could be sent).
VENUE = env_bool("VENUE", default=False)
_HTTPS_ONLY = not DEBUG and not VENUE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=_HTTPS_ONLY)
SESSION_COOKIE_SECURE = _HTTPS_ONLY
CSRF_COOKIE_SECURE = _HTTPS_ONLY
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 30 * 24 * 3600) if _HTTPS_ONLY else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = _HTTPS_ONLY
SECURE_HSTS_PRELOAD = _HTTPS_ONLY
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): scripts, styles, images and requests from this site only;
# no inline script or style, no plugins, no framing. The charts (SVG images) carry their own
# styles and relax style-src for themselves; the API docs load their start-up script as a file.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Celery: no broker configured means tasks run eagerly, so the embedded default needs no Redis.
CELERY_TASK_ALWAYS_EAGER = not env_str("CELERY_BROKER_URL")
# Eager tasks never reach a broker; the in-memory one only stops kombu guessing at localhost.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "memory://localhost/")
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_IGNORE_RESULT = True  # job state lives in the Job table, readable by pages and API
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# A send to a broker that is down fails within about a second; the job waits for the sweeper.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# Redis redelivers an unacknowledged message after this long; it must outlast the hard time
# limit. Recovery from a dead worker does not wait for it: the sweeper does that (see below).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 600}
# Jobs (tournaments.services.jobs): heartbeats, when a quiet running job is taken back, how
# often the sweeper runs, when a sent job that nobody took is sent again, and how many stopped
# runs a job gets before it fails for good.
JOBS_STALE_SECONDS = env_int("JOBS_STALE_SECONDS", 30, minimum=3)
JOBS_HEARTBEAT_SECONDS = max(0.5, JOBS_STALE_SECONDS / 6)
JOBS_SWEEP_SECONDS = env_int("JOBS_SWEEP_SECONDS", 15, minimum=1)
JOBS_RESEND_SECONDS = 60
JOBS_MAX_ATTEMPTS = 3
CELERY_BEAT_SCHEDULE = {
    "jobs-sweep": {
        "task": "tournaments.tasks.jobs_sweep",
        "schedule": float(JOBS_SWEEP_SECONDS),
        # A sweep that waited in the queue longer than the next one is worthless: drop it.
        "options": {"expires": float(JOBS_SWEEP_SECONDS)},
    },
    # Waitlist offers not taken in time pass on even when nobody opens a page.
    "waitlist-sweep": {"task": "tournaments.tasks.waitlist_sweep", "schedule": 300.0},
    # Playoff no-shows forfeit on the clock even when nobody opens the match page.
    "playoff-forfeits": {"task": "tournaments.tasks.apply_playoff_forfeits", "schedule": 60.0},
}

# Live polls (tournaments/selectors/live.py): what every poll of an event shares is kept this
# long in each process's memory; a change still shows within the poll (static/js/live.js,
# 3.5-4 s) plus this. Tests read versions right after each write, so they keep nothing.
LIVE_SHARE_SECONDS = 0 if os.environ.get("PYTEST_VERSION") else 0.5
# How often a player's phone polls its page (selectors.live.poll_seconds, sent to the phone with
# each answer): every LIVE_POLL_SECONDS, and in a large field less often, so that one event's
# phones together poll at most LIVE_POLL_BUDGET times a second (README, "Load").
LIVE_POLL_SECONDS = 3.5
LIVE_POLL_BUDGET = env_int("LIVE_POLL_BUDGET", 100, minimum=1)
# The director's board warns that sending has stopped when no phone of a game still being
# played has reached the server for this many minutes (tournaments.selectors.board).
SILENCE_MINUTES = env_int("SILENCE_MINUTES", 5, minimum=1)


# Limits (tournaments.throttles) count in the "throttle" cache every gunicorn worker shares: Redis
# at THROTTLE_CACHE_URL (default: the broker's server, another database); with no broker and under
# pytest, each process's memory. Short timeouts: a dead Redis costs little (the limits fail open).
def _shared_cache(location: str) -> dict:
    """A cache every worker shares (Redis) in production; this process's memory otherwise."""
    url = env_str("THROTTLE_CACHE_URL")
    broker = env_str("CELERY_BROKER_URL")
    if not url and broker.startswith(("redis://", "rediss://")):
        parts = urlsplit(broker)
        database = 2 if parts.path.strip("/") == "1" else 1
        url = urlunsplit(parts._replace(path=f"/{database}"))
    if os.environ.get("PYTEST_VERSION") or not url or url == "locmem://":
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": location}
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(
            f"THROTTLE_CACHE_URL={url!r} is not a Redis URL: write redis://host:6379/1, "
            "or locmem:// to count in each process's memory."
        )
    return {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": "pegboard",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }


def _rate(name: str, default: str) -> str:
    """A rate as DRF writes it: requests/period, the period s, min, hour or day."""
    rate = env_str(name, default)
    if not re.fullmatch(r"[1-9][0-9]*/(s|sec|second|m|min|minute|h|hour|d|day)", rate):
        raise ImproperlyConfigured(
            f"{name}={rate!r} is not a rate: write requests/period, e.g. {default}."
        )
    return rate


CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "live": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "live",
        "OPTIONS": {"MAX_ENTRIES": 5000},
    },
    "throttle": _shared_cache("throttle"),
    # When each player's phone last reached the server (tournaments.heard): shared by every
    # worker like the limits' counts.
    "heard": _shared_cache("heard"),
    # Public pages rendered once per version for every worker (tournaments.views.live).
    "rendered": _shared_cache("rendered"),
}

# E-mail ("your next table", tournaments.services.table_emails). Every message holds the
# player's private link, so with DEBUG off they go to a mail server (SMTP, the default) and never
# into a log or a file: the console and file backends are refused at start. Development
# (DEBUG=true) prints them on the console.
# Pages build their links from the request's own host; a job (the e-mails) has no request and
# uses SITE_URL. Unset in production, it is the first real name in ALLOWED_HOSTS over https (an
# e-mail saying http://localhost:8000 sends every player nowhere).
_LOCAL_HOSTS = {"*", "localhost", "127.0.0.1", "[::1]", "testserver"}


def _site_url_default() -> str:
    hosts = [h.lstrip(".") for h in ALLOWED_HOSTS if h not in _LOCAL_HOSTS and h != "."]
    return f"https://{hosts[0]}" if hosts and not DEBUG else "http://localhost:8000"


SITE_URL = env_str("SITE_URL", _site_url_default()).rstrip("/")
if not SITE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(
        f"SITE_URL={SITE_URL!r} is not an address: start it with https:// (or http://)."
    )
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Pegboard <noreply@localhost>")
_SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
_WRITING_BACKENDS = {
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.filebased.EmailBackend",
}
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if DEBUG else _SMTP_BACKEND,
)
if not DEBUG and EMAIL_BACKEND in _WRITING_BACKENDS:
    raise ImproperlyConfigured(
        f"EMAIL_BACKEND={EMAIL_BACKEND} writes every e-mail, players' private links included, "
        "into a log or a file. With DEBUG off, unset EMAIL_BACKEND (or set it to "
        f"{_SMTP_BACKEND}) and set EMAIL_HOST and EMAIL_PORT to your mail server; "
        "set DEBUG=true for local development."
    )
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=False)
# A mail server that stops answering fails that message, not the whole job's time limit.
EMAIL_TIMEOUT = 20

# API tokens (tournaments.services.api_tokens): refused this many hours after they were issued;
# POST /api/v1/auth/token/ then gives a new one. 30 days by default: a director's script or
# phone app signs in again once a month, and a token that leaked stops working on its own.
API_TOKEN_HOURS = env_int("API_TOKEN_HOURS", 720, minimum=1)

# A player's report sent with an Idempotency-Key (services.idempotency): the first answer is kept
# this many hours, so a phone that sends the same report again (a lost answer, an offline queue)
# gets that answer and stores nothing twice. The jobs sweep deletes older keys.
IDEMPOTENCY_KEY_HOURS = env_int("IDEMPOTENCY_KEY_HOURS", 48, minimum=1)

REST_FRAMEWORK = {
    # The token first: its refusals (expired, revoked) are then 401 with WWW-Authenticate,
    # which DRF decides from the first class; pages' sessions sign in the API as before.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "tournaments.api.authentication.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # JSON bodies nested past 32 levels are a 400 before decoding (tournaments.api.parsers).
    "DEFAULT_PARSER_CLASSES": [
        "tournaments.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "tournaments.api.pagination.BoundedLimitOffsetPagination",
    "EXCEPTION_HANDLER": "tournaments.api.errors.exception_handler",
    # API GETs and HEADs (tournaments.throttles): anonymous per address; signed in per account,
    # 600/min (a director's board polling 3 views every 4 s in 5 tabs is 225; a script, 10/s at
    # most); staff 1200/min (the office's scripts; a stolen staff token is bounded too).
    "DEFAULT_THROTTLE_CLASSES": [
        "tournaments.throttles.AnonymousReadThrottle",
        "tournaments.throttles.AccountReadThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon_read": _rate("THROTTLE_ANON_RATE", "120/min"),
        "user_read": _rate("THROTTLE_USER_READ_RATE", "600/min"),
        "staff_read": _rate("THROTTLE_STAFF_READ_RATE", "1200/min"),
        "link_misses": _rate("THROTTLE_LINK_MISSES_RATE", "30/min"),  # then the address blocked
        "anon_write": _rate("THROTTLE_ANON_WRITE_RATE", "20/hour"),  # registrations, no account
    },
    # The client address: REMOTE_ADDR, or behind NUM_PROXIES proxies that each add
    # X-Forwarded-For, the hop the nearest one added (never a header the client wrote itself).
    "NUM_PROXIES": env_int("NUM_PROXIES", 0),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Pegboard API",
    # tournaments.converters: ids and numbers in paths, at most 18 digits (num); private links'
    # and check-in codes' secrets, 1-64 characters of A-Z a-z 0-9 _ - (link).
    "PATH_CONVERTER_OVERRIDES": {
        "num": {"type": "integer", "minimum": 0, "maximum": 999_999_999_999_999_999},
        "link": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$", "maxLength": 64},
    },
    "DESCRIPTION": "ACC-style cribbage tournaments: events, pairings, results, rulings, playoffs.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several models have a "status"; name each set of choices after its model.
    "ENUM_NAME_OVERRIDES": {
        "EntryStatusEnum": "tournaments.models.events.Entry.Status",
        "GameStatusEnum": "tournaments.models.games.Game.Status",
        "JobStatusEnum": "tournaments.models.jobs.Job.Status",
        "CardLineKindEnum": "tournaments.models.results.CardLine.Kind",
        "AuditKindEnum": "tournaments.models.audit.AuditEntry.Kind",
        "EventKindEnum": "tournaments.models.events.Event.Kind",
        "MatchGameStatusEnum": "tournaments.models.playoffs.MatchGame.Status",
        # The player's game state, in the page's data and in a saved report's answer.
        "PlayerStateEnum": "tournaments.api.serializers_results.PLAYER_STATES",
    },
}

# One console handler for everything, with players' private links taken out (config.logging);
# Django's own loggers (requests, runserver) are routed to it instead of their defaults.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"private_links": {"()": "config.logging.RedactPrivateLinks"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["private_links"]},
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {
        "tournaments": {"level": env_str("LOG_LEVEL", "INFO")},
        "config": {"level": env_str("LOG_LEVEL", "INFO")},
        "django": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
