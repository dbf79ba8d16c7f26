"""Retrying a write that lost a race in the database.

Under a burst, PostgreSQL may end one of two transactions that wait on each other (a deadlock),
or refuse one that could not be serialised; both are safe to run again from the start, and
the player must never be told that their result failed because of it. ``retry_on_conflict``
runs the whole transaction again, a few times, after a short random pause. It only wraps an
outermost transaction: inside another one, the caller's transaction is already broken and the
error goes up to it.
"""

from __future__ import annotations

import functools
import logging
import random
import time

from django.db import OperationalError, connection

logger = logging.getLogger(__name__)

# deadlock_detected, serialization_failure, lock_not_available (a lock timeout)
RETRYABLE = {"40P01", "40001", "55P03"}
ATTEMPTS = 4


def retryable(exc: BaseException) -> bool:
    """A database error that a fresh run of the same transaction may not meet again."""
    cause = exc.__cause__
    return isinstance(exc, OperationalError) and getattr(cause, "sqlstate", None) in RETRYABLE


def retry_on_conflict(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if connection.in_atomic_block:
            return func(*args, **kwargs)
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return func(*args, **kwargs)
            except OperationalError as exc:
                if not retryable(exc) or attempt == ATTEMPTS:
                    raise
                logger.warning(
                    "%s lost a race in the database (%s); running it again (%d of %d)",
                    func.__name__, exc.__cause__.sqlstate, attempt + 1, ATTEMPTS,
                )  # fmt: skip
                time.sleep(random.uniform(0.01, 0.05) * attempt)
        raise AssertionError("unreachable")

    return wrapper
