"""Limits on what one client may ask: API reads (anonymous per address, signed in per
account), anonymous writes, and guessing private links.

Terms:

- **client address**: the address a request came from (``client_address``): ``REMOTE_ADDR``,
  or behind ``NUM_PROXIES`` trusted proxies the X-Forwarded-For hop the nearest one added
  (DRF's rule); an IPv6 client is its /64, which one machine is usually given whole. A venue's
  phones share ONE address (the venue's NAT), so nothing a player does with a valid link is
  ever counted against it.
- **anonymous read**: a GET or HEAD of an API view by someone not signed in, except the
  private-link views (``/api/v1/report/<link>/``). ``AnonymousReadThrottle`` (DRF) allows
  ``DEFAULT_THROTTLE_RATES["anon_read"]`` of them per client address; past it the answer is a
  429 with ``Retry-After``. Signed-in users are never counted against their address.
- **account read**: the same by someone signed in (session or API token). Anyone can sign up
  and get a token, so ``AccountReadThrottle`` allows ``DEFAULT_THROTTLE_RATES["user_read"]``
  of them per account (its user id, wherever it connects from), staff and superusers
  ``["staff_read"]``: higher, as the ACC office's tools read every event, yet bounded, as a
  stolen staff token is the worst case. Past it: the same 429 as an anonymous read.
- **private-link path**: ``/r/<link>/...``, ``/api/v1/report/<link>/...``, an invitation's
  ``/invitations/<link>/``, a registration request's ``/registration/<link>/...`` (and
  ``/api/v1/registrations/private/<link>/...``) and an event's
  check-in code ``/events/<id>/check-in/<code>/``: the secret in the path is the credential.
- **miss**: a private-link path answered 404, i.e. a link that is not (or no longer) valid. Only
  *distinct* links count: a phone left open on a replaced link polls the same dead link every
  4 s, and that is one miss, not fifteen a minute.
- **anonymous write**: a POST of a public form that makes or changes something with no account
  behind it: a weekend's registration request (``/weekends/<id>/register/``) and its change
  from the player's private page (and the API's POST of a request). ``throttle_writes`` allows
  ``DEFAULT_THROTTLE_RATES["anon_write"]`` of them per client address (20 an hour by default:
  a club's members sending their requests together from its network, not a script; and each
  request e-mails the address it names, with words its sender chose, so the site must not be
  a mail relay); only writes taken count, never a refused form. Past it, the site's 429 page
  (the API's 429) says when to send again. Sign-up is limited by allauth's own rate limit
  (``ACCOUNT_RATE_LIMITS``), counted per client address as here (``accounts.AccountAdapter``).
- **block**: an address that made ``DEFAULT_THROTTLE_RATES["link_misses"]`` misses (30 a
  minute by default) gets 429 with ``Retry-After`` on every private-link path, valid or not,
  for one period (a minute) from the miss that reached the limit. A blocked address cannot
  learn which links are valid: letting valid links through would answer "valid" or "429"
  instead of "valid" or "404", the same oracle. Polls whose page did not change are still
  answered 304 before Django (``live_poll``): that needs the link *and* its current version, so
  it tells a guesser nothing.

Every count lives in the ``throttle`` cache (Redis in production, so every gunicorn worker
shares them). If that cache is unreachable the limits are off (fail open, with one warning per
pause): a report is never refused or broken because the counter is down.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import logging
import math
import re
import threading
import time
from functools import wraps

from django.core.cache import caches
from django.http import Http404, JsonResponse
from rest_framework.exceptions import Throttled
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from tournaments.views.errors import too_many_requests_page

logger = logging.getLogger(__name__)

CACHE = "throttle"
READ_METHODS = ("GET", "HEAD")
PRIVATE_LINK = re.compile(
    r"^/(?:r|api/v1/report|invitations|registration|api/v1/registrations/private)/"
    r"(?P<link>[^/]+)/"
    r"|^/events/[0-9]+/check-in/(?!everyone/$)(?P<code>[^/]+)/$"
)
# After the cache fails, this process leaves it alone this long: a dead Redis costs one
# connection attempt per pause, not one per request.
PAUSE_SECONDS = 5.0


def client_address(request) -> str:
    """The client's address as the limits count it (see the module's terms)."""
    return _counted_as(BaseThrottle().get_ident(request) or "")


@functools.lru_cache(maxsize=4096)  # a venue's phones share a few addresses: parsed once each
def _counted_as(address: str) -> str:
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address or "unknown"
    if ip.version == 6 and ip.ipv4_mapped is None:
        return f"{ipaddress.ip_network((ip, 64), strict=False).network_address}/64"
    return str(ip)


def private_link(path: str) -> str | None:
    """The secret in a private-link path (the link or the check-in code), else None."""
    match = PRIVATE_LINK.match(path)
    return (match.group("link") or match.group("code")) if match else None


LIMITS_OFF = (
    "throttle cache unreachable: limits are off for %.0f s (requests are answered unlimited)"
)


class FailOpen:
    """Runs cache calls so that an unreachable cache never fails a request: the call's
    ``default`` is returned instead, and the cache is left alone for ``PAUSE_SECONDS``."""

    def __init__(self, warning: str = LIMITS_OFF) -> None:
        self.paused_until = 0.0
        self.lock = threading.Lock()
        self.warning = warning

    def __call__(self, call, default):
        if time.monotonic() < self.paused_until:
            return default
        try:
            return call()
        except Exception:  # any failure of the counter: limits off, never a 500
            with self.lock:
                first = time.monotonic() >= self.paused_until
                self.paused_until = time.monotonic() + PAUSE_SECONDS
            if first:
                logger.warning(self.warning, PAUSE_SECONDS, exc_info=True)
            return default


fail_open = FailOpen()


class _RateFromSettings(SimpleRateThrottle):
    """A rate read from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` when the throttle is made
    (DRF reads it once, at import), counted in the ``throttle`` cache, per client address."""

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES[self.scope]

    @property
    def cache(self):
        return caches[CACHE]

    def get_ident(self, request) -> str:
        return client_address(request)


class AnonymousReadThrottle(_RateFromSettings):
    """Anonymous GET and HEAD of the API, per client address, except the private-link views."""

    scope = "anon_read"

    def get_cache_key(self, request, view):
        if request.method not in READ_METHODS or request.user.is_authenticated:
            return None
        if private_link(request.path_info) is not None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request, view) -> bool:
        return fail_open(lambda: self._allow(request, view), True)

    def _allow(self, request, view) -> bool:
        return super().allow_request(request, view)


class AccountReadThrottle(_RateFromSettings):
    """GET and HEAD of the API by a signed-in account, per account (its user id), except the
    private-link views; staff and superusers at their own rate (see the module's terms)."""

    scope = "user_read"

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)  # unset: no limit

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}

    def allow_request(self, request, view) -> bool:
        user = request.user
        if request.method not in READ_METHODS or not user.is_authenticated:
            return True
        if private_link(request.path_info) is not None:
            return True
        if user.is_staff or user.is_superuser:
            self.scope = "staff_read"
            self.rate = self.get_rate()
            self.num_requests, self.duration = self.parse_rate(self.rate)
        return fail_open(lambda: self._allow(request, view), True)

    def _allow(self, request, view) -> bool:
        return super().allow_request(request, view)


# Every private-link request asks the cache whether its address is blocked; a venue's thousand
# phones share a few addresses, so an answer "not blocked" is kept in this process this long
# (a block reaches the other processes within it; this one's own at once). Bounded: the memo is
# emptied when it holds more addresses than this.
CLEAR_MEMO_SECONDS = 1.0
CLEAR_MEMO_SIZE = 10_000
_clear_until: dict[str, float] = {}


class LinkMisses(_RateFromSettings):
    """The misses of one client address on private-link paths, and its block."""

    scope = "link_misses"

    def __init__(self, request, address: str | None = None) -> None:
        super().__init__()
        self.address = address or self.get_ident(request)
        self.prefix = f"links:{self.address}"

    def blocked_for(self) -> int:
        """Seconds the address is still blocked (0: not blocked)."""
        if self.rate is None or time.monotonic() < _clear_until.get(self.address, 0.0):
            return 0
        until = fail_open(lambda: self.cache.get(f"{self.prefix}:blocked"), None)
        wait = max(0, math.ceil(until - self.timer())) if until else 0
        if not wait:
            if len(_clear_until) >= CLEAR_MEMO_SIZE:
                _clear_until.clear()
            _clear_until[self.address] = time.monotonic() + CLEAR_MEMO_SECONDS
        return wait

    def miss(self, secret: str) -> None:
        """Count a miss of ``secret`` (once per window); block the address at the limit."""
        if self.rate is not None:
            fail_open(lambda: self._count(secret), None)

    def _count(self, secret: str) -> None:
        digest = hashlib.blake2b(secret.encode(), digest_size=8).hexdigest()
        if not self.cache.add(f"{self.prefix}:{digest}", 1, self.duration):
            return  # this link already counted in the window
        self.cache.add(f"{self.prefix}:misses", 0, self.duration)
        misses = self.cache.incr(f"{self.prefix}:misses")
        if misses == self.num_requests:
            self.cache.set(f"{self.prefix}:blocked", self.timer() + self.duration, self.duration)
            _clear_until.pop(self.address, None)
            logger.info(
                "private links: %s blocked for %d s after %d unknown links",
                self.address,
                self.duration,
                misses,
            )


class PrivateLinkGuard:
    """Middleware: counts misses on private-link paths and answers a blocked address 429."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        secret = private_link(request.path_info)
        if secret is None:
            return self.get_response(request)
        # An address found clear within CLEAR_MEMO_SECONDS is not asked about again (the memo
        # of ``blocked_for``), nor is its limit set up, unless the link is a miss.
        address = client_address(request)
        if time.monotonic() >= _clear_until.get(address, 0.0):
            wait = LinkMisses(request, address).blocked_for()
            if wait:
                return too_many_requests(request, wait)
        response = self.get_response(request)
        if response.status_code == 404:
            LinkMisses(request, address).miss(secret)
        return response


class AnonymousWriteThrottle(_RateFromSettings):
    """Anonymous writes (POST) per client address, on a page (``throttle_writes``) or an API
    view that lists it in ``throttle_classes`` and calls ``count`` once the write is taken (see
    the module's terms). Only writes taken count: a player who mistypes the form three times
    has sent one request, not four. The look and the count are two cache calls, not one
    atomic step: two writes at the same instant may both pass the last place, as with DRF's
    own throttles; a limit on a script's flood, not a quota."""

    scope = "anon_write"

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)  # unset: no limit

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request, view) -> bool:
        """Whether this address may write now; nothing is counted here."""
        if self.rate is None or request.method != "POST":
            return True
        return fail_open(lambda: self._look(request), True)

    def _look(self, request) -> bool:
        self.key, self.now = self.get_cache_key(request, None), self.timer()
        self.history = [t for t in self.cache.get(self.key, []) if t > self.now - self.duration]
        return len(self.history) < self.num_requests

    def count(self, request) -> None:
        """Count a write that was taken."""
        if self.rate is not None:
            fail_open(lambda: self._count(request), None)

    def _count(self, request) -> None:
        key, now = self.get_cache_key(request, None), self.timer()
        history = [t for t in self.cache.get(key, []) if t > now - self.duration]
        self.cache.set(key, [now, *history], self.duration)

    def wait_for(self, request) -> int:
        """0 when this address may write now, else the seconds until it may."""
        if self.allow_request(request, None):
            return 0
        return max(1, math.ceil(self.wait() or 1))


def throttle_writes(view):
    """A page view whose POST is an anonymous write: past the limit the 429 page; an answer
    below 400 (the write taken) is counted."""

    @wraps(view)
    def limited(request, *args, **kwargs):
        if request.method != "POST":
            return view(request, *args, **kwargs)
        throttle = AnonymousWriteThrottle()
        wait = throttle.wait_for(request)
        if wait:
            return too_many_requests(request, wait, reason="writes")
        response = view(request, *args, **kwargs)
        if response.status_code < 400:
            throttle.count(request)
        return response

    return limited


def link_in_body(request, token: str, lookup):
    """``lookup(token)`` for a private link sent in a request's body (asking to link an
    account): the same misses and block as a link in a path, so the body is no way around
    them. A blocked address gets the 429 as ``Throttled``."""
    misses = LinkMisses(request)
    wait = misses.blocked_for()
    if wait:
        raise Throttled(wait=wait)
    try:
        return lookup(token)
    except Http404:
        misses.miss(token)
        raise


def too_many_requests(request, wait: int, reason: str = "links"):
    """The 429 of a blocked address (``reason`` "links") or of too many anonymous writes
    ("writes"): the API's error shape, or the site's page."""
    if request.path_info.startswith("/api/"):
        message = (
            f"Too many unknown private links were tried from your address. Try again in "
            f"{wait} seconds."
        )
        body = {"errors": [{"field": None, "code": "throttled", "message": message}]}
        response = JsonResponse(body, status=429)
    else:
        response = too_many_requests_page(request, wait=wait, reason=reason)
    response["Retry-After"] = str(wait)
    response["Cache-Control"] = "no-store"
    return response
