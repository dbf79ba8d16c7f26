"""Live parts of pages: polled every few seconds, answered 304 Not Modified while nothing changed.

A live page renders in full once; its ``data-live-url`` (the same address with ``?part=live``)
returns just the part that changes, with an ETag made from a version (``selectors/live``) that
costs one query. ``static/js/live.js`` polls it with ``If-None-Match`` and swaps the part in on
a 200. ``Cache-Control: no-cache`` lets a browser keep the part but always ask first; a private
page adds ``private`` so no shared cache keeps it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.utils.cache import parse_etags


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
    Signed-in visitors get ``private`` answers (what they see may depend on who they are)."""
    private = request.user.is_authenticated
    if request.GET.get("part") == "live":
        return live_part(
            request,
            version=version(),
            render=lambda: render(request, part, context()),
            private=private,
        )
    response = render(request, page, {**context(), "live_url": f"{request.path}?part=live"})
    response["Cache-Control"] = "private, no-cache" if private else "no-cache"
    return response
