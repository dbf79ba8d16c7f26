"""The world of the permission matrix, built once per test module inside a transaction that
is rolled back at the end; each test (``django_db``) runs in a savepoint of it, so what one
request changes is gone before the next.

Sessions are signed cookies: signing a client in then writes no row (some 1,800 times).
"""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import override_settings

from tests.permissions.world import build_world

FAST = {  # the password hasher is the whole run's (tests/conftest.py)
    "SESSION_ENGINE": "django.contrib.sessions.backends.signed_cookies",
}


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with override_settings(**FAST), django_db_blocker.unblock(), transaction.atomic():
        built = build_world()
        # PostgreSQL checks deferred foreign keys at each test's end, for every row written in
        # the transaction so far: check the world's once, here, not in each of 1,800 tests.
        connection.check_constraints()
        yield built
        transaction.set_rollback(True)
