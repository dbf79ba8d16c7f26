"""Live parts of pages: polled every few seconds, answered 304 Not Modified while nothing changed.

A live page renders in full once; its ``data-live-url`` (the same address with ``?part=live``)
returns just the part that changes, with an ETag made from a version (``selectors/live``) that
costs one query. ``static/js/live.js`` polls it with ``If-None-Match`` and swaps the part in on
a 200. ``Cache-Control: no-cache`` lets a browser keep the part but always ask first; a private
page adds ``private`` so no shared cache keeps it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import caches
from django.http import HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.utils.cache import parse_etags

# A kept rendering is found by its version, so it is never stale; this only frees the memory
# of versions nobody asks for any more.
RENDERED_SECONDS = 120


def live_part(
    request, *, version: str, render: Callable[[], HttpResponse], private: bool = True
) -> HttpResponse:
    etag = f'"{version}"'
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
    else:
        response = render()
    response["ETag"] = etag
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
    """``render_it()``, kept in this process's memory for ``version`` of this address: a public
    page of a thousand rows is rendered once per change, not once per spectator. A page that
    set a cookie or showed a message belongs to its visitor and is not kept."""
    key = f"render:{request.get_full_path()}:{version}"
    kept = caches["live"].get(key)
    if kept is not None:
        content, content_type = kept
        return HttpResponse(content, content_type=content_type)
    response = render_it()
    messages = getattr(request, "_messages", None)
    personal = request.META.get("CSRF_COOKIE_NEEDS_UPDATE") or (messages and messages.used)
    if response.status_code == 200 and not personal and not response.cookies:
        caches["live"].set(key, (response.content, response["Content-Type"]), RENDERED_SECONDS)
    return response
