"""Running a write again when the database, not the request, made it fail.

Two failures are safe to get over by running the transaction again from the start, and the
player must never be told that their result failed because of either:

- *A lost race*: under a burst, PostgreSQL may end one of two transactions that wait on each
  other (a deadlock) or refuse one that could not be serialised. It is run again, a few times
  (``ATTEMPTS`` in all), after a short random pause.
- *A dropped connection*: the server ended the session (``pg_terminate_backend``, a restart, a
  network cut), or could not take a new one. Django's connection is closed and the transaction
  run again on a new one, at most ``DROP_RETRIES`` times. A connection found gone before the
  transaction began (nothing was run) is replaced once more on top of that.

A connection that drops during COMMIT leaves the outcome in doubt: the server may have saved
the transaction before the answer was lost. Running it blindly again would save the report
twice (a report sent again keeps the first line as not current), or refuse it ("already
verified") although it was saved. So ``retry_on_conflict`` opens the transaction itself (the
function it wraps must not) and knows whether the function had finished. If it had, it first
asks the database, on the new connection, whether what that attempt wrote is there: by default
the model instance the function returned, by its id (a rolled-back insert's id is never given
to another row). If it is, the saved row is the answer and nothing is written again.

``retry_on_conflict`` only retries an outermost transaction: inside another one, the caller's
transaction is already broken and the error goes up to it. ``read_again_on_drop`` runs a read
(the answer built after a saved report, say) once more on a new connection, and
``connection_dropped`` tells a dropped connection from any other error.
"""

from __future__ import annotations

import functools
import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import Model

logger = logging.getLogger(__name__)

T = TypeVar("T")

# deadlock_detected, serialization_failure, lock_not_available (a lock timeout)
RETRYABLE = {"40P01", "40001", "55P03"}
ATTEMPTS = 4
# admin_shutdown, crash_shutdown, cannot_connect_now, idle_session_timeout, too_many_connections;
# and every connection_exception (class 08).
DROPPED = {"57P01", "57P02", "57P03", "57P05", "53300"}
DROP_RETRIES = 2  # a second drop in the same report happens when sessions end every 0.5 s


def _sqlstate(exc: BaseException) -> str:
    return getattr(exc.__cause__, "sqlstate", None) or ""


def retryable(exc: BaseException) -> bool:
    """A database error that a fresh run of the same transaction may not meet again."""
    return isinstance(exc, OperationalError) and _sqlstate(exc) in RETRYABLE


def connection_dropped(exc: BaseException, used=None) -> bool:
    """The error means the database connection is gone (or none could be made), not that the
    query was wrong. An error without a SQLSTATE ("server closed the connection unexpectedly",
    "the connection is closed", a refused connection) is a drop when the driver's connection
    the work ran on (``used``; by default the current one) is closed: the driver marks it so
    when the server went away, and Django closes it when even a rollback failed."""
    if not isinstance(exc, (OperationalError, InterfaceError)):
        return False
    state = _sqlstate(exc)
    if state:
        return state in DROPPED or state.startswith("08")
    used = used if used is not None else connection.connection
    return used is None or bool(getattr(used, "closed", False))


def read_again_on_drop(read: Callable[[], T]) -> T:
    """``read()``, run once more on a new connection if its connection dropped. Only for work
    that may run twice (reads, or writes that change nothing the second time)."""
    if connection.in_atomic_block:
        return read()
    used = connection.connection
    try:
        return read()
    except (OperationalError, InterfaceError) as exc:
        if not connection_dropped(exc, used):
            raise
        logger.warning("a read lost its database connection (%s); reading again", exc)
        connection.close()
    try:
        return read()
    except (OperationalError, InterfaceError) as exc:
        logger.error("a read failed again after its connection dropped: %s", exc)
        raise


def _stored(result):
    """The default check after a commit in doubt: the returned row, read again by its id."""
    if not isinstance(result, Model) or result.pk is None:
        raise TypeError(
            "retry_on_conflict cannot tell whether this result was saved: pass saved=..."
        )
    return type(result)._default_manager.filter(pk=result.pk).first()


class _Attempt:
    """One run of the transaction: ``began`` once the transaction is open (before, nothing was
    sent but a connection's set-up), ``finished`` once the function returned (then only the
    commit can have failed)."""

    began = finished = False
    result = None
    used = None  # the driver's connection it ran on

    def run(self, func, args, kwargs):
        # Django's own check of a kept connection, before the transaction rather than at its
        # first query, where a failed check could only end the transaction.
        connection.close_if_health_check_failed()
        connection.ensure_connection()
        self.used = connection.connection
        with transaction.atomic():
            self.began = True
            self.result = func(*args, **kwargs)
            self.finished = True
        return self.result


def retry_on_conflict(func=None, *, saved: Callable | None = None):
    """Run ``func`` in a transaction of its own, again after a lost race or a dropped
    connection (see the module's note). ``saved(result)``, asked after a commit in doubt,
    returns the result as stored, or None when the attempt was not saved."""
    if func is None:
        return functools.partial(retry_on_conflict, saved=saved)
    check = saved or _stored

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if connection.in_atomic_block:
            with transaction.atomic():
                return func(*args, **kwargs)
        conflicts, drops = 0, {True: 0, False: 0}  # drops by whether the transaction began
        while True:
            attempt = _Attempt()
            try:
                return attempt.run(func, args, kwargs)
            except (OperationalError, InterfaceError) as exc:
                if retryable(exc) and conflicts < ATTEMPTS - 1:
                    conflicts += 1
                    logger.warning(
                        "%s lost a race in the database (%s); running it again (%d of %d)",
                        func.__name__, _sqlstate(exc), conflicts + 1, ATTEMPTS,
                    )  # fmt: skip
                    time.sleep(random.uniform(0.01, 0.05) * conflicts)
                    continue
                if not connection_dropped(exc, attempt.used):
                    raise
                if drops[attempt.began] >= DROP_RETRIES:
                    logger.error("%s lost its connection again: not run again", func.__name__)
                    raise
                drops[attempt.began] += 1
                stored = _after_drop(func, attempt, check, exc)
                if stored is not None:
                    return stored

    return wrapper


def _after_drop(func, attempt: _Attempt, check: Callable, exc: BaseException):
    """Reconnect; the saved result if the lost commit did save, else None (run again)."""
    connection.close()  # also one Django's clean-up opened: the next run opens its own
    if attempt.finished:
        stored = read_again_on_drop(lambda: check(attempt.result))
        if stored is not None:
            logger.warning(
                "%s: the connection dropped during COMMIT (%s) and the transaction was saved; "
                "answering with it, not writing it again", func.__name__, exc,
            )  # fmt: skip
            return stored
    logger.warning(
        "%s lost its database connection (%s)%s; running it again on a new one",
        func.__name__, exc, " during COMMIT, unsaved" if attempt.finished else "",
    )  # fmt: skip
    return None
