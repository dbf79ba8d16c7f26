"""The players' polls answered 304 before Django's request handling, in the WSGI entry point.

During a game a thousand phones each ask every 3.5-4 s whether their page changed; nearly
every answer is "no". Through Django's middleware and URL routing that "no" costs several
times the one query it needs, and on a small server it is most of the load. So a poll of a
player's live part (``GET /r/<link>/?part=live`` with ``If-None-Match``) is checked here: when
the version (``selectors.live.entry_poll_by_token``, the same one the view sends as its
ETag) still matches, the answer is a 304 at once. Anything else (no ETag, a changed version,
a bad link, a host Django would refuse, plain HTTP that Django would redirect, a database
error) goes to Django unchanged, which answers as it always does.

The connection is checked before the version query (``CONN_HEALTH_CHECKS``, as Django checks
it): a connection PostgreSQL ended is replaced before the query, not found out by it. A changed
version is handed to the view in the request (``VERSION_KEY``), so a 200 does not ask again.
Every answer tells the phone when to poll next (``POLL_HEADER``, ``selectors.live.poll_seconds``).

A poll that reaches here with a valid link is the phone being heard (``tournaments.heard``: a
cache write at most every 30 s per link, none in the database), whatever the answer.

A 304 has no body: it tells the phone only that what it shows is current, and only to whoever
holds the private link.
"""

from __future__ import annotations

import logging
import re

from django.conf import settings
from django.db import close_old_connections
from django.http.request import split_domain_port, validate_host
from django.utils.cache import parse_etags

from tournaments.heard import heard_record
from tournaments.selectors.live import entry_poll_by_token

logger = logging.getLogger(__name__)

POLL = re.compile(r"^/r/([A-Za-z0-9_-]{1,64})/$")
# Where a version read here waits for the view (a WSGI key no request header can set): the
# version and the poll's seconds.
VERSION_KEY = "pegboard.live_version"
# Seconds until the phone's next poll (static/js/live.js reads it).
POLL_HEADER = "X-Poll-Seconds"


def host_allowed(environ) -> bool:
    host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")
    domain, _ = split_domain_port(host)
    return bool(domain) and validate_host(domain, settings.ALLOWED_HOSTS)


def etag_held(etag: str, if_none_match: str) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (a strong one, ``"..."``). The
    comparison is weak (RFC 9110 13.1.2): a compressed answer's ``W/"..."`` matches too."""
    return etag in {tag.removeprefix("W/") for tag in parse_etags(if_none_match)}


def _secure_enough(environ) -> bool:
    """False when Django would redirect this request to HTTPS instead of answering it."""
    if not settings.SECURE_SSL_REDIRECT:
        return True
    if environ.get("wsgi.url_scheme") == "https":
        return True
    header, value = settings.SECURE_PROXY_SSL_HEADER or (None, None)
    return bool(header) and environ.get(header, "").split(",")[0].strip() == value


def _not_modified(environ) -> tuple[str, float] | None:
    """The ETag to answer 304 with and the poll's seconds, or None to let Django answer."""
    if environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING") != "part=live":
        return None
    match = POLL.match(environ.get("PATH_INFO", ""))
    asked = environ.get("HTTP_IF_NONE_MATCH", "")
    if not match or not asked or not host_allowed(environ) or not _secure_enough(environ):
        return None
    close_old_connections()  # what Django does at each request's start and end
    try:
        found = entry_poll_by_token(token=match.group(1))
    except Exception:  # the database is unwell: Django's own handling says so properly
        logger.warning("live poll shortcut: version not read, passing to Django", exc_info=True)
        return None
    finally:
        close_old_connections()
    if found is None:
        return None
    heard_record(token=match.group(1))
    etag = f'"{found[0]}"'
    if etag_held(etag, asked):
        return etag, found[1]
    environ[VERSION_KEY] = found
    return None


def with_poll_shortcut(application):
    """Wrap the Django WSGI ``application``: unchanged polls are answered here."""

    def app(environ, start_response):
        unchanged = _not_modified(environ)
        if unchanged is None:
            return application(environ, start_response)
        etag, seconds = unchanged
        start_response(
            "304 Not Modified",
            [
                ("ETag", etag),
                ("Cache-Control", "private, no-cache"),
                ("Vary", "Cookie"),
                (POLL_HEADER, f"{seconds:g}"),
            ],
        )
        return [b""]

    return app
