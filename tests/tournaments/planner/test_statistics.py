"""Planner statistics follow the tables the reports grow (``services.planner``): the standings
job analyzes a table once as many rows changed as would make autovacuum do it, and not before.

PostgreSQL only (marked ``services``: skipped locally, required in CI); the changes must be
committed for PostgreSQL to count them, so the test commits (``transaction=True``)."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from tournaments.models import Notice
from tournaments.services.planner import GROWN_ROWS, tables_analyze_if_grown

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _changed_since_analyze(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT n_mod_since_analyze FROM pg_stat_user_tables WHERE relname = %s", [table]
        )
        return cursor.fetchone()[0]


def _counted(table: str, at_least: int) -> None:
    """Until PostgreSQL's statistics show the committed changes (flushed within a second)."""
    for _ in range(50):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_force_next_flush()")
        if _changed_since_analyze(table) >= at_least:
            return
        time.sleep(0.1)
    pytest.fail(f"the changes to {table} were never counted")


def test_a_grown_table_is_analyzed_once_and_a_quiet_one_is_left(event_in_play):
    assert connection.vendor == "postgresql"
    table = Notice._meta.db_table
    entry = event_in_play(10).entries.first()
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {table}")
    Notice.objects.bulk_create(Notice(entry=entry, message="m") for _ in range(GROWN_ROWS // 2))
    _counted(table, GROWN_ROWS // 2)
    assert tables_analyze_if_grown(models=[Notice]) == []  # fewer than autovacuum waits for

    Notice.objects.bulk_create(Notice(entry=entry, message="m") for _ in range(GROWN_ROWS))
    _counted(table, GROWN_ROWS + 1)
    assert tables_analyze_if_grown(models=[Notice]) == [table]
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [table])
        assert cursor.fetchone()[0] >= GROWN_ROWS  # the planner now knows the rows are there
    assert tables_analyze_if_grown(models=[Notice]) == []
