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
