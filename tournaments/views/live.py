"""Live parts of pages: polled every few seconds, answered 304 Not Modified while nothing changed.

A live page renders in full once; its ``data-live-url`` (the same address with ``?part=live``)
returns just the part that changes, with an ETag made from a version (``selectors/live``) that
costs one query. ``static/js/live.js`` polls it with ``If-None-Match`` and swaps the part in on
a 200. ``Cache-Control: no-cache`` lets a browser keep the part but always ask first; a private
page adds ``private`` so no shared cache keeps it.

A public page (the same for every anonymous visitor) is rendered once per version for all the
web workers (``rendered_once``): a 1,024-row standings page takes a worker 40-120 ms, and when a
snapshot made a new version each of the three workers rendered it, at about the same moment, as
the spectators asked. A kept rendering of 1 kB or more is also kept gzip-compressed, made once
with it, and sent so to a browser that accepts gzip (every browser does): a 1,024-row standings
page is 343 kB as it is and 8 kB compressed, on a venue's Wi-Fi and on every spectator's
phone plan. Compressing it at each request (Django's ``GZipMiddleware``) would cost more than
sending it: it is done once per version. The page is the same for every anonymous visitor (a
rendering that set a cookie or showed a message is not kept), so it carries no secret for a
compression side channel (BREACH) to guess.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import caches
from django.http import HttpResponse, HttpResponseNotModified
from django.middleware.gzip import re_accepts_gzip
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string

from tournaments.live_poll import etag_held
from tournaments.throttles import FailOpen

# A kept rendering is found by its version, so it is never stale; this only frees the memory
# of versions nobody asks for any more.
RENDERED_SECONDS = 120
# The renderings every worker shares (the ``rendered`` cache: Redis in production) are needed
# only until each worker has its own copy; a worker rendering a version claims it this long.
SHARED_SECONDS = 30
CLAIM_SECONDS = 10
_shared = FailOpen("rendered-pages cache unreachable: each worker renders its own pages for %.0f s")
# The version of the newest rendering this process served, by address (its content is in the
# ``live`` cache).
_newest: dict[str, str] = {}
NEWEST_LIMIT = 1000
# A kept rendering this size or larger is kept compressed too (a smaller one gains too little).
GZIP_FROM = 1024


def live_part(
    request, *, version: str, render: Callable[[], HttpResponse], private: bool = True
) -> HttpResponse:
    etag = f'"{version}"'
    held = etag_held(etag, request.headers.get("If-None-Match", ""))
    response = HttpResponseNotModified() if held else render()
    response.setdefault("ETag", etag)  # a rendering of an earlier version carries its own
    response["Cache-Control"] = "private, no-cache" if private else "no-cache"
    return response


def live_page(
    request,
    *,
    version: Callable[[], str],
    page: str,
    part: str,
    context: Callable[[], dict],
) -> HttpResponse:
    """A page with a live part: ``?part=live`` answers the part (or 304); otherwise the page.
    Signed-in visitors get ``private`` answers (what they see may depend on who they are).
    Anonymous visitors see the same page for a version: it carries the ETag too, and is
    rendered once per version and process (``rendered_once``) however many spectators ask."""
    is_part = request.GET.get("part") == "live"

    def render_it() -> HttpResponse:
        extra = {} if is_part else {"live_url": f"{request.path}?part=live"}
        return render(request, part if is_part else page, {**context(), **extra})

    if request.user.is_authenticated:
        if is_part:
            return live_part(request, version=version(), render=render_it)
        response = render_it()
        response["Cache-Control"] = "private, no-cache"
        return response
    current = version()
    return live_part(
        request,
        version=current,
        render=lambda: rendered_once(request, current, render_it),
        private=False,
    )


def rendered_once(request, version: str, render_it: Callable[[], HttpResponse]) -> HttpResponse:
    """``render_it()``, rendered once for ``version`` of this address by all the workers: a
    public page of a thousand rows is rendered once per change, not once per spectator or per
    worker. Kept in this process's memory, and shared through the ``rendered`` cache (the page
    or its live part, asked without other query parameters: any other address stays in this
    process, so made-up addresses cannot fill the shared cache). While another worker renders
    a new version, this one answers with the last version it served, with that version's ETag
    (the page's live part follows within a poll). A page that set a cookie or showed a message
    belongs to its visitor and is not kept. With the shared cache unreachable, each worker
    renders its own."""
    address = request.get_full_path()
    key = f"render:{address}:{version}"
    shared = request.META.get("QUERY_STRING", "") in ("", "part=live")
    kept = caches["live"].get(key)
    if kept is None and shared:
        kept = _shared(lambda: caches["rendered"].get(key), None)
        if kept is not None:
            caches["live"].set(key, kept, RENDERED_SECONDS)
    if kept is not None:
        _newest_note(address, version)
        return kept_response(request, version, kept)
    newest = _newest.get(address)
    earlier = (
        caches["live"].get(f"render:{address}:{newest}") if newest not in (None, version) else None
    )
    if shared and earlier is not None and not _claimed(key):
        return _earlier(request, newest, earlier)  # another worker is rendering this version
    response = render_it()
    messages = getattr(request, "_messages", None)
    personal = request.META.get("CSRF_COOKIE_NEEDS_UPDATE") or (messages and messages.used)
    if response.status_code == 200 and not personal and not response.cookies:
        content = response.content
        packed = compress_string(content) if len(content) >= GZIP_FROM else None
        kept = (content, response["Content-Type"], packed)
        caches["live"].set(key, kept, RENDERED_SECONDS)
        if shared:
            _shared(lambda: caches["rendered"].set(key, kept, SHARED_SECONDS), None)
        _newest_note(address, version)
        return kept_response(request, version, kept)
    return response


def kept_response(request, version: str, kept: tuple) -> HttpResponse:
    """A kept rendering of ``version``: compressed to a visitor who accepts gzip (its ETag then
    weak, as the bytes differ: ``W/"<version>"``), as it is otherwise; either way marked as
    depending on ``Accept-Encoding`` for any cache between. A rendering kept before the
    compressed copy was (two items) is sent as it is."""
    content, content_type, packed = (*kept, None)[:3]
    accepts = re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", ""))
    if packed is not None and accepts:
        response = HttpResponse(packed, content_type=content_type)
        response["Content-Encoding"] = "gzip"
        response["ETag"] = f'W/"{version}"'
    else:
        response = HttpResponse(content, content_type=content_type)
    if packed is not None:
        patch_vary_headers(response, ("Accept-Encoding",))
    return response


def _newest_note(address: str, version: str) -> None:
    if len(_newest) >= NEWEST_LIMIT:
        _newest.clear()
    _newest[address] = version


def _claimed(key: str) -> bool:
    """Whether this process may render ``key`` now: no other worker is (or the cache is
    unreachable: then every worker renders its own)."""
    return _shared(lambda: caches["rendered"].add(f"{key}:claim", 1, CLAIM_SECONDS), True)


def _earlier(request, version: str, kept: tuple) -> HttpResponse:
    """The rendering of an earlier ``version``, answered as any live part is (its own ETag, or
    a 304 to a visitor who holds it)."""
    render = lambda: kept_response(request, version, kept)  # noqa: E731
    return live_part(request, version=version, render=render, private=False)


def rendered_forget() -> None:
    """Forget the renderings this process noted (tests)."""
    _newest.clear()
