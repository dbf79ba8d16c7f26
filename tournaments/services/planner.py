"""Planner statistics kept current after a job grows tables in bulk.

A 1,000-player CSV import or a pairing adds thousands of rows at once. Until PostgreSQL's
autovacuum analyzes them, the planner believes the tables are as small as before and may pick
plans (and keep generic plans of prepared statements) that cost several times more under load.
``tables_analyze`` runs ``ANALYZE`` on the grown tables when the job's transaction commits, so
statistics are never missing, even where autovacuum lags or is off (the README says it must be
on). On SQLite it does nothing.
"""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection, transaction

log = logging.getLogger(__name__)


def tables_analyze(*, models) -> None:
    """``ANALYZE`` the tables of ``models`` once the current transaction commits (at once when
    none is open). A failure is logged, never raised: the job's rows are already stored."""
    if connection.vendor != "postgresql":
        return
    tables = sorted({model._meta.db_table for model in models})
    transaction.on_commit(lambda: _analyze(tables))


def _analyze(tables: list[str]) -> None:
    quoted = ", ".join(connection.ops.quote_name(table) for table in tables)
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {quoted}")
    except DatabaseError:
        log.exception("ANALYZE of %s failed; autovacuum will analyze them later", quoted)
