"""The kept connection's check at a request's start (``config.postgresql``): no round trip while
the server has said nothing, and a connection the server ended is still found and replaced."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from tests.helpers import connection_terminate, postgres_connect
from tournaments.models import Entry

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def closed_after(transactional_db):
    yield
    connection.close()


def _sent_while_checking(tmp_path) -> str:
    """What the connection sent the server during one request-start check (libpq's trace)."""
    connection.health_check_done = False
    trace = tmp_path / "trace.txt"
    with open(trace, "w") as out:
        connection.connection.pgconn.trace(out.fileno())
        try:
            connection.close_if_health_check_failed()
        finally:
            if connection.connection is not None:
                connection.connection.pgconn.untrace()
    return trace.read_text()


def test_the_backend_is_ours_and_checks_at_each_request(settings):
    assert settings.DATABASES["default"]["ENGINE"] == "config.postgresql"
    assert connection.health_check_enabled


def test_a_healthy_connection_is_checked_without_a_query(tmp_path):
    Entry.objects.count()  # the connection is open and idle, as between two requests
    sent = _sent_while_checking(tmp_path)
    assert "SELECT 1" not in sent
    assert connection.connection is not None  # kept


def test_a_connection_with_a_notice_waiting_is_asked_plainly(tmp_path):
    with connection.cursor() as cursor:
        cursor.execute("LISTEN pegboard_check")
    with postgres_connect() as other:  # another session's notice reaches ours while it is idle
        other.execute("NOTIFY pegboard_check")
    time.sleep(0.2)
    sent = _sent_while_checking(tmp_path)
    assert "SELECT 1" in sent  # something was there to read: Django's own check decided
    assert connection.connection is not None  # and the session was fine: kept


def test_a_connection_the_server_ended_is_replaced_before_the_query(tmp_path):
    Entry.objects.count()
    ended = connection.connection.info.backend_pid
    connection_terminate()
    connection.health_check_done = False
    connection.close_if_health_check_failed()
    assert connection.connection is None  # closed here, not found out by the next query
    assert Entry.objects.count() == 0
    assert connection.connection.info.backend_pid != ended
