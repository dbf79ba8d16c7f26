"""The player's page when the venue's Wi-Fi fails (issue 25): what the page carries for the phone,
and the service worker that keeps the page and its scripts on the phone once opened.

Terms:

- offline settings: the event's scoring settings (``selectors.events.event_scoring_settings``,
  the engine's own) and the addresses the phone's queue needs, carried in the page as a JSON
  script element; ``static/js/report-rules.js`` works out "what will this put on my card" from
  them when the server cannot be reached, and the engine checks the report again on arrival.
- service worker: ``/r/sw.js``, so its scope is the players' pages (``/r/``). A small worker of
  our own, not Workbox: Workbox's npm packages are ES modules meant for a bundler (this site has
  no build step) and its loader fetches from a CDN the Content-Security-Policy forbids; what the
  page needs is twenty lines of caching (``templates/tournaments/player/sw.js``).
- precache: the static files the player's page uses, fetched when the worker is installed.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import asdict

from django.conf import settings
from django.core.signals import setting_changed
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import format_html_join, json_script
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET

from tournaments.converters import is_link, link_path
from tournaments.selectors.events import event_scoring_settings

# The player's page's own scripts, in the order it loads them (``page_scripts``).
PAGE_SCRIPTS = (
    "js/keypad.js",
    "js/report-key.js",
    "js/live.js",
    "vendor/idb/umd.js",
    "js/report-rules.js",
    "js/report-queue.js",
    "js/report-offline.js",
)
# What the player's page loads (templates/base.html and PAGE_SCRIPTS), kept on the phone.
PAGE_FILES = ("css/pegboard.css", "favicon.svg", "js/menu.js", *PAGE_SCRIPTS)
# The worker runs the queue itself on a Background Sync (where the browser has it).
WORKER_SCRIPTS = ("vendor/idb/umd.js", "js/report-queue.js")


_scripts: dict[str, SafeString] = {}


def page_scripts() -> SafeString:
    """The ``<script>`` elements of ``PAGE_SCRIPTS`` (report.html), made once per process: a
    ``{% static %}`` tag costs about 15 us, and a thousand phones open the page in a few
    seconds. Made again when the static files' storage or address changes (a test's
    ``override_settings``: ``_forget_scripts``)."""
    made = _scripts.get("html")
    if made is None:
        made = _scripts["html"] = format_html_join(
            "\n", '<script src="{}" defer></script>', ((static(name),) for name in PAGE_SCRIPTS)
        )
    return made


def _forget_scripts(*, setting, **kwargs) -> None:
    if setting in ("STORAGES", "STATIC_URL", "STATIC_ROOT"):
        _scripts.clear()


setting_changed.connect(_forget_scripts)


@functools.cache
def _worker_url(urlconf, prefix) -> str:
    return reverse("player-worker", urlconf=urlconf)


def _urls() -> tuple:
    """The URL configuration and prefix the addresses are made for (outside a request, the
    settings' own configuration)."""
    return get_urlconf() or settings.ROOT_URLCONF, get_script_prefix()


def offline_settings(scoring, token: str, form) -> dict:
    """What the phone needs to preview and queue a report for the entry of link ``token``
    without the server, in an event scored by ``scoring``."""
    return {
        "settings": asdict(scoring),
        "token": token,
        "report_url": link_path("api-report", token),
        "match_url": link_path("api-match-report", token),
        "worker_url": _worker_url(*_urls()),
        "scope": "/r/",
        "messages": {
            "result": form.fields["result"].error_messages["required"],
            "margin": form.fields["margin"].error_messages["required"],
            "whole": form.fields["margin"].error_messages["invalid"],
        },
    }


# Stands for the link in a kept script element: nothing else there can hold it (the settings
# are numbers, the rest fixed words and the addresses the link goes in).
_LINK_MARK = "0offline0link0"
_scripts_of: dict[tuple, list[str]] = {}


def offline_script(*, entry, form) -> SafeString:
    """``offline_settings`` as the page's ``<script id="offline-settings">`` (what
    ``json_script`` makes of it), kept per event settings with the link left out: the dict
    and its JSON were made again for each of a thousand phones opening their pages, and only
    the link differs between them. The form's messages are its fields' own (the same for
    every form)."""
    scoring, token = event_scoring_settings(event=entry.event), entry.report_token
    if not is_link(token):  # never made so (secrets.token_urlsafe): never joined in unescaped
        return json_script(offline_settings(scoring, token, form), "offline-settings")
    key = (scoring, *_urls())
    halves = _scripts_of.get(key)
    if halves is None:
        made = json_script(offline_settings(scoring, _LINK_MARK, form), "offline-settings")
        halves = _scripts_of[key] = made.split(_LINK_MARK)
    return mark_safe(token.join(halves))  # a link's characters need no escaping in JSON or HTML


@require_GET
def player_worker(request):
    """The service worker of the players' pages (``scope`` /r/), rendered with the files'
    addresses as the static storage names them (hashed in production)."""
    files = [static(name) for name in PAGE_FILES]
    version = hashlib.sha256(" ".join(files).encode()).hexdigest()[:12]
    config = {
        "files": files,
        "scripts": [static(name) for name in WORKER_SCRIPTS],
        "cache": f"pegboard-player-{version}",
        "static": settings.STATIC_URL,  # "/static/" (static("") has no manifest entry)
    }
    # json.dumps of plain strings: nothing in it can close the script.
    body = render_to_string("tournaments/player/sw.js", {"config": mark_safe(json.dumps(config))})
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # A new worker is picked up on the next visit: browsers check it at most daily otherwise.
    response["Cache-Control"] = "no-cache"
    return response
