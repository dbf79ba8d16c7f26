"""The phones' report API through a lighter Django handler, in the WSGI entry point (issue 24).

A report from a phone (``/api/v1/report/<link>/``, and ``.../match/`` in the playoffs) carries its
credential in its path: its views read no session, no sign-in and no CSRF token
(``authentication_classes = []``; DRF exempts its views from CSRF checks) and answer JSON. In a
round's burst these are most of the server's requests, and most of the site's middleware
(static files, sessions, CSRF, sign-in, messages, allauth, Axes, the page headers for documents)
did nothing for them but take time. So such a request goes through a second Django handler,
the same settings, URLs and views, with only the middleware it needs (``LINK_MIDDLEWARE``):

- ``SecurityMiddleware``: HTTPS (redirect, HSTS), ``nosniff``, the referrer policy;
- ``PrivateLinkGuard``: an address guessing links is blocked (``tournaments.throttles``);
- ``LastHeardMiddleware``: the phone was heard (``tournaments.heard``).

Only a request whose answer is JSON takes it: one that asks for HTML (``Accept: text/html``,
DRF's browsable page, a document with forms) goes to the site's full handler, as does any
request whose host Django would refuse (the host is checked here as ``CommonMiddleware`` checks
it there). Every other path is the full handler's.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler

from tournaments.live_poll import host_allowed

LINK_API = re.compile(r"^/api/v1/report/[A-Za-z0-9_-]{1,64}/(?:match/)?$")

LINK_MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "tournaments.throttles.PrivateLinkGuard",
    "tournaments.heard.LastHeardMiddleware",
]


class LinkApiHandler(WSGIHandler):
    """Django's WSGI handler with ``LINK_MIDDLEWARE`` instead of the site's ``MIDDLEWARE``."""

    def load_middleware(self, is_async: bool = False) -> None:
        # Django builds the chain from settings.MIDDLEWARE: given this list for that moment
        # (once, when the process starts, before any request), restored at once.
        site = settings.MIDDLEWARE
        settings.MIDDLEWARE = LINK_MIDDLEWARE
        try:
            super().load_middleware(is_async)
        finally:
            settings.MIDDLEWARE = site


def link_api(environ) -> bool:
    """Whether this request is one for the light handler."""
    return (
        LINK_API.match(environ.get("PATH_INFO", "")) is not None
        and "text/html" not in environ.get("HTTP_ACCEPT", "")
        and host_allowed(environ)
    )


def with_link_api(application):
    """Wrap the site's WSGI ``application``: link API requests go to ``LinkApiHandler``."""
    light = LinkApiHandler()

    def app(environ, start_response):
        if link_api(environ):
            return light(environ, start_response)
        return application(environ, start_response)

    return app
