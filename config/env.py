"""Reading settings from the environment, failing loudly on bad values.

Every environment variable Pegboard reads is declared in ``ENVIRONMENT_VARIABLES`` with a one-line
description, so the README, the compose file's test and ``config.settings`` agree on one list.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

ENVIRONMENT_VARIABLES: dict[str, str] = {
    "DEBUG": "true/false (default false). Development mode: detailed errors, no HTTPS enforcement.",
    "SECRET_KEY": "Required when DEBUG is off: a long random string (50+ characters).",
    "ALLOWED_HOSTS": "Comma-separated host names the site answers to (default: localhost names).",
    "CSRF_TRUSTED_ORIGINS": "Comma-separated https:// origins for forms behind a proxy.",
    "DATABASE_URL": "Database URL (default: sqlite file db.sqlite3 in the project).",
    "DATABASE_PREPARED_STATEMENTS": "true/false (default true). PostgreSQL: run the hottest "
    "queries as prepared statements; false behind a pooler that cannot keep them.",
    "CELERY_BROKER_URL": "Redis URL for the task queue. Unset: tasks run eagerly in-process.",
    "JOBS_SWEEP_SECONDS": "Seconds between sweeps that send waiting jobs (default 15).",
    "JOBS_STALE_SECONDS": "Seconds without heartbeat before a running job reruns (default 30).",
    "SECURE_SSL_REDIRECT": "true/false (default: on when DEBUG is off). Redirect HTTP to HTTPS.",
    "VENUE": "true/false (default false). Venue mode (make venue): production settings over "
    "plain HTTP on the venue's own network: no HTTPS redirect, no HSTS, cookies over HTTP.",
    "SECURE_HSTS_SECONDS": "HSTS max-age when DEBUG is off (default 2592000, 30 days).",
    "STATIC_ROOT": "Where collectstatic writes (default: staticfiles/ in the project).",
    "LOG_LEVEL": "Logging level for Pegboard's own loggers (default INFO).",
    "SITE_URL": "The site's address for links in e-mails (default: https:// and the first "
    "non-local ALLOWED_HOSTS name with DEBUG off, else http://localhost:8000).",
    "DEFAULT_FROM_EMAIL": "Sender of e-mails (default: Pegboard <noreply@localhost>).",
    "EMAIL_BACKEND": "Django e-mail backend (default: SMTP; console when DEBUG is on). The "
    "console and file backends are refused when DEBUG is off: e-mails hold private links.",
    "EMAIL_HOST": "SMTP server for the SMTP backend (default localhost).",
    "EMAIL_PORT": "SMTP port (default 25).",
    "EMAIL_HOST_USER": "SMTP user name (default: none).",
    "EMAIL_HOST_PASSWORD": "SMTP password (default: none).",
    "EMAIL_USE_TLS": "true/false (default false). STARTTLS to the SMTP server.",
    "API_TOKEN_HOURS": "Hours an API token is good for after it was issued (default 720).",
    "IDEMPOTENCY_KEY_HOURS": "Hours the first answer to a report sent with an Idempotency-Key "
    "is kept (default 48); the jobs sweep deletes older ones.",
    "LIVE_POLL_BUDGET": "Polls a second that one event's players' phones make together at most "
    "(default 100): in a larger field each phone polls less often than every 3.5 s.",
    "SILENCE_MINUTES": "Minutes without any phone of a game in play reaching the server before "
    "the director's board says sending has stopped (default 5).",
    "NUM_PROXIES": "Trusted proxies in front of gunicorn that add X-Forwarded-For (default 0: "
    "the client is REMOTE_ADDR).",
    "THROTTLE_CACHE_URL": "Where the limits count: redis:// URL, or locmem:// (default: the "
    "broker's Redis, database 1, or 2 if the broker uses 1; locmem:// without one).",
    "THROTTLE_ANON_RATE": "Anonymous API reads per client address (default 120/min).",
    "THROTTLE_USER_READ_RATE": "API reads per signed-in account (default 600/min).",
    "THROTTLE_STAFF_READ_RATE": "API reads per staff account (default 1200/min).",
    "THROTTLE_LINK_MISSES_RATE": "Unknown private links per client address before a block "
    "(default 30/min).",
    "THROTTLE_ANON_WRITE_RATE": "Registration requests sent or changed with no account, per "
    "client address (default 20/hour): each e-mails the address it names.",
    "ACCOUNT_SIGNUP_RATE": "Sign-ups per client address, as amount/period/per (default 20/h/ip).",
    "WAITLIST_OFFER_HOURS": "Hours the next on a waitlist has to take an offered place "
    "(default 48).",
    "INVITATION_DAYS": "Days an e-mailed invitation to hold a role stays good (default 14).",
}

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _declared(name: str) -> str:
    if name not in ENVIRONMENT_VARIABLES:
        raise KeyError(f"{name} is not declared in config.env.ENVIRONMENT_VARIABLES")
    return os.environ.get(name, "").strip()


def env_str(name: str, default: str = "") -> str:
    return _declared(name) or default


def env_bool(name: str, default: bool) -> bool:
    raw = _declared(name)
    if not raw:
        return default
    if raw.lower() in _TRUE:
        return True
    if raw.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean: use true or false.")


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    raw = _declared(name)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name}={value} must be at least {minimum}.")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = _declared(name)
    if not raw:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]
