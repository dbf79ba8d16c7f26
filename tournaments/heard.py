"""When the server last heard from each player's phone: the director's "sending has stopped".

Terms:

- **heard**: a request on a player's private link that reached the server and found the link
  valid: a report (``/api/v1/report/<link>/``, the page's form), the page ``/r/<link>/`` or its
  live poll (answered by Django, or 304 before it by ``live_poll``). A 404 (no such link) is not
  a phone of this event.
- **last heard**: the time of the newest such request, per link.

A thousand phones poll every ~4 s; a database write per poll would be most of the server's
work. So "last heard" lives in the ``heard`` cache (Redis in production, shared by every
worker; expiring after ``KEEP_SECONDS``), and each process writes a link's time at most once
per ``MEMO_SECONDS`` (``_written``, a small memo in its memory): at most one cache write per
link per 30 s per process, whatever the phone does. The board reads all its links in one
``get_many``. A time is therefore up to ``MEMO_SECONDS`` older than the newest request:
plenty for an alarm counted in minutes.

A request does not write to the cache itself: it notes the time in this process's memory
(``_pending``), and a thread of the process writes what was noted, every link at once in one
round trip, every ``FLUSH_SECONDS`` (one ``set_many``). A thousand phones opening their pages
cost a worker a cache write a second, not one each; the board reads what its own process noted
too (``heard_many`` writes it first), and what other processes noted within a second.

An unreachable cache never fails a request: the write is skipped (and the cache left alone
for ``PAUSE_SECONDS``), and the board shows no time.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from datetime import UTC, datetime

from django.core.cache import caches

logger = logging.getLogger(__name__)

CACHE = "heard"
MEMO_SECONDS = 30
KEEP_SECONDS = 2 * 24 * 3600
PAUSE_SECONDS = 5.0
FLUSH_SECONDS = 1.0
# The memo is forgotten whole past this many links (a process sees a few thousand): a guesser
# cannot grow it, as only valid links are written, but it never grows without bound either.
MEMO_LIMIT = 20_000
PLAYER_LINK = re.compile(r"^/(?:r|api/v1/report)/(?P<link>[A-Za-z0-9_-]{1,64})/")

_written: dict[str, float] = {}
_pending: dict[str, int] = {}  # link -> when heard (epoch seconds), not yet in the cache
_paused_until = 0.0
_lock = threading.Lock()
_flusher: threading.Thread | None = None
_flushing = threading.Lock()  # held while a batch is being written


def _key(token: str) -> str:
    return f"heard:{token}"


def heard_record(*, token: str) -> None:
    """The phone holding ``token`` reached the server now (noted at most once per link per
    ``MEMO_SECONDS`` in this process; written to the cache within ``FLUSH_SECONDS``)."""
    global _flusher
    now = time.monotonic()
    last = _written.get(token)
    if last is not None and now - last < MEMO_SECONDS:
        return
    if now < _paused_until:
        return
    if len(_written) >= MEMO_LIMIT:
        _written.clear()
    _written[token] = now
    with _lock:
        _pending[token] = int(time.time())
        if _flusher is None or not _flusher.is_alive():  # one a process (also after a fork)
            _flusher = threading.Thread(target=_flush_every, name="heard-flush", daemon=True)
            _flusher.start()


def heard_flush() -> None:
    """Write every time this process noted and has not written yet, in one round trip."""
    global _paused_until
    with _flushing:
        with _lock:
            if not _pending:
                return
            batch = {_key(token): at for token, at in _pending.items()}
            _pending.clear()
        try:
            caches[CACHE].set_many(batch, KEEP_SECONDS)
        except Exception:  # the cache is down: no time recorded, never a failed request
            with _lock:
                first = time.monotonic() >= _paused_until
                _paused_until = time.monotonic() + PAUSE_SECONDS
            if first:
                logger.warning("heard cache unreachable: last-heard times not kept", exc_info=True)


def _flush_every() -> None:
    while True:
        time.sleep(FLUSH_SECONDS)
        heard_flush()


def heard_many(*, tokens: list[str]) -> dict[str, datetime]:
    """When each of ``tokens`` was last heard (links never heard, or forgotten, are absent)."""
    if not tokens:
        return {}
    heard_flush()  # what this process noted, first
    try:
        found = caches[CACHE].get_many([_key(token) for token in tokens])
    except Exception:  # the cache is down: the board shows no times rather than failing
        logger.warning("heard cache unreachable: the board shows no last-heard times")
        return {}
    prefix = len(_key(""))
    return {key[prefix:]: datetime.fromtimestamp(at, tz=UTC) for key, at in found.items()}


def heard_forget_memo() -> None:
    """Forget what this process wrote or noted, and any pause after a failed cache (tests, and
    a bench measuring the first write). Returns once no batch is being written."""
    global _paused_until
    with _flushing, _lock:
        _written.clear()
        _pending.clear()
        _paused_until = 0.0


class LastHeardMiddleware:
    """Records a player's link as heard when a request on it was answered (not 404)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = PLAYER_LINK.match(request.path_info)
        if match and response.status_code != 404 and response.status_code < 429:
            heard_record(token=match.group("link"))
        return response
