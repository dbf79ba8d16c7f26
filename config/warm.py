"""A web worker made ready before it takes its first request (gunicorn's ``post_worker_init``).

Django does some work once per process, at the first request that needs it: importing the
URL configuration (every view, DRF, the schema), compiling each template, reading the static
files' manifest, opening the database connection, building the hottest queries' SQL
(``selectors.compiled``) and preparing them on the connection, importing the Redis client and
connecting the shared caches, importing what every page's rendering and middleware load on
first use. Together that is 0.3-0.9 s of one worker's time, and the first request of each
kind (a report, a page opening, a spectator's page) still took 87-166 ms when the caches and
first uses were left to it, against 6-12 ms after. A worker that has
just started (a deploy, or gunicorn replacing one that died) did it while a thousand phones
opened their pages: its first requests waited, and every request queued behind them waited
too. Here it is done before the worker accepts a connection.

Each step is best effort: a worker that cannot reach the database, or finds a broken template,
still starts, logs why, and does that step at its first request as it would have.
"""

from __future__ import annotations

import gc
import logging
import time
from pathlib import Path

logger = logging.getLogger(__name__)


def worker_warm() -> dict[str, float]:
    """Do once, now, what this process's first requests would do once. Returns each step's
    milliseconds (for the log and the tests)."""
    took = {}
    for name, step in (
        ("urls", _urls),
        ("templates", _templates),
        ("static", _static),
        ("database", _database),
        ("queries", _queries),
        ("caches", _caches),
        ("first_use", _first_use),
    ):
        start = time.perf_counter()
        try:
            step()
        except Exception:  # a step that fails here fails again, visibly, at its first request
            logger.warning("worker warm-up: %s skipped", name, exc_info=True)
        took[name] = (time.perf_counter() - start) * 1000
    logger.info("worker warm-up: %s", ", ".join(f"{k} {v:.0f} ms" for k, v in took.items()))
    return took


def _urls() -> None:
    from django.urls import get_resolver

    resolver = get_resolver()
    _ = resolver.url_patterns  # imports the URL configuration: every view and what it imports
    _reverse_tables(resolver)


def _reverse_tables(resolver) -> None:
    """The reverse lookup tables, built on the first reverse(): the root's, and each
    namespace's (``admin:index`` in every page's menu built the admin's at the first page)."""
    _ = resolver.reverse_dict
    for _prefix, inner in resolver.namespace_dict.values():
        _reverse_tables(inner)


def template_names() -> list[str]:
    """Every template of this project's own directories (the pages people open; third-party
    ones such as the admin's are left to their first use)."""
    from django.conf import settings

    names = []
    for directory in settings.TEMPLATES[0]["DIRS"]:
        root = Path(directory)
        found = root.rglob("*")
        names += sorted(str(p.relative_to(root)) for p in found if p.suffix in (".html", ".txt"))
    return names


def _templates() -> None:
    from django.template import TemplateSyntaxError
    from django.template.loader import get_template

    for name in template_names():
        try:
            get_template(name)  # compiled and kept by the cached loader
        except TemplateSyntaxError:
            logger.warning("worker warm-up: template %s does not compile", name, exc_info=True)


def _static() -> None:
    from django.contrib.staticfiles.storage import staticfiles_storage

    # The manifest of hashed names is read on the first {% static %}.
    staticfiles_storage.url("css/pegboard.css")


def _database() -> None:
    from django.db import connection

    connection.ensure_connection()  # kept open for the requests (CONN_MAX_AGE)


def _queries() -> None:
    """Each compiled query built, then run once for a value no row has: its statement is
    prepared on this worker's connection, and PostgreSQL has read the tables' descriptions
    into this connection's process (several milliseconds a table at its first use)."""
    from django.db import connection, transaction

    import tournaments.selectors.live  # noqa: F401  (registers its compiled queries)
    from tournaments.selectors.compiled import Compiled

    with transaction.atomic():  # a locking read is only built and run inside one
        for compiled in Compiled.made:
            compiled.plan(connection.vendor)
            compiled.rows(*(0 if kind is int else "" for kind in compiled.kinds))
        transaction.set_rollback(True)  # nothing was written; nothing stays locked


def collector_freeze() -> int:
    """After the warm-up: every object made so far (Django and its apps, the URL configuration
    and views, the compiled templates and queries: ~157,000 objects) is moved out of the garbage
    collector's reach for the rest of the process, which keeps them all anyway. A full
    collection walked them all: in-process, 80 ms once every ~2,000 reports, and every request
    queued behind it waited. Young objects are collected as before. Returns how many were
    frozen (logged)."""
    gc.collect()
    gc.freeze()
    count = gc.get_freeze_count()
    logger.info("worker warm-up: %d objects out of the garbage collector's full walks", count)
    return count


# A key no one writes: asking for it only connects.
WARM_KEY = "worker-warm-up"


def _caches() -> None:
    """Each cache made, and each one shared through Redis asked once: the Redis client is
    imported (0.25 s on a 2-core machine) and a connection opened here, not in the first
    request that counts a limit or notes a phone heard (every request queued behind it
    waited). A Redis that cannot be reached skips the step after its connect timeout
    (0.5 s); the requests then find the limits off, as they would have (``throttles``)."""
    from django.conf import settings
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    for alias in settings.CACHES:
        cache = caches[alias]
        if isinstance(cache, RedisCache):
            cache.get(WARM_KEY)


def _first_use() -> None:
    """What a page's first rendering and the middleware do once: import the template
    context processors, the messages' and the sessions' storage and the locale's number
    formats, and make what a process keeps once made: the menu's addresses, the player's
    page's empty form and scripts (17 ms at the first opening here)."""
    from django.conf import settings
    from django.template import engines
    from django.utils import formats
    from django.utils.module_loading import import_string

    _ = engines["django"].engine.template_context_processors
    import_string(settings.MESSAGE_STORAGE)
    import_string(settings.SESSION_SERIALIZER)
    formats.get_format("DECIMAL_SEPARATOR")
    from tournaments.context_processors import menu
    from tournaments.views.report import unbound_report_fields
    from tournaments.views.report_offline import page_scripts

    unbound_report_fields()  # the player's page: the empty form's fields, rendered once
    # Last, what needs the static files' manifest (a missing one fails only these):
    page_scripts()  # the page's <script> elements
    menu(None)  # the menu's addresses and the static files' (context_processors)
