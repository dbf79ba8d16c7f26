"""Planner statistics kept current after a job grows tables in bulk.

A 1,000-player CSV import or a pairing adds thousands of rows at once. Until PostgreSQL's
autovacuum analyzes them, the planner believes the tables are as small as before and may pick
plans (and keep generic plans of prepared statements) that cost several times more under load.
``tables_analyze`` runs ``ANALYZE`` on the grown tables when the job's transaction commits, so
statistics are never missing, even where autovacuum lags or is off (the README says it must be
on). On SQLite it does nothing.

Reports grow the card lines a few at a time, a thousand in a game's last minutes: the standings
job, which follows them, calls ``tables_analyze_if_grown``, which analyzes a table once as many
rows changed since its last ``ANALYZE`` as would make autovacuum analyze it (50 + 10 % of its
rows). Without it, the poll's prepared version query, planned while game 1 had no card lines,
kept scanning the whole card-line table (bench/poll_plan.py: 11.9 ms a poll after 1,024 reports
instead of 0.1 ms) until autovacuum came by, or forever where it is off.
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


# autovacuum's own defaults (autovacuum_analyze_threshold, autovacuum_analyze_scale_factor)
GROWN_ROWS, GROWN_SHARE = 50, 0.10


def tables_analyze_if_grown(*, models) -> list[str]:
    """``ANALYZE`` now those tables of ``models`` in which more rows changed since their last
    analyze than autovacuum would wait for; the tables analyzed. Outside a transaction (a job's
    work done): ``ANALYZE`` takes no lock that writers wait for."""
    if connection.vendor != "postgresql":
        return []
    tables = sorted({model._meta.db_table for model in models})
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT s.relname FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid "
                "WHERE s.relname = ANY(%s) AND s.n_mod_since_analyze > %s + %s * "
                "GREATEST(c.reltuples, 0)",
                [tables, GROWN_ROWS, GROWN_SHARE],
            )
            grown = sorted(row[0] for row in cursor.fetchall())
    except DatabaseError:
        log.exception("could not read the statistics of %s", tables)
        return []
    if grown:
        _analyze(grown)
    return grown
