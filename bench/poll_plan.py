"""The poll's version query as a connection keeps it: prepared while game 1's card lines are
empty, then run after the burst's reports (issue 24: PostgreSQL busy under polling).

``python bench/poll_plan.py`` (PostgreSQL at ``PEGBOARD_BENCH_DATABASE_URL``; a throw-away
``test_`` database): enters ``BENCH_PLAYERS`` (1024) players, pairs and publishes game 1,
runs ``ANALYZE`` (as the bench and the pairing job do: the card lines are empty then), prepares
``_entry_row`` as a kept connection does (six runs: PostgreSQL then keeps one generic plan),
posts every report (the standings job runs after the verified ones), and prints how the card
lines are scanned and the execution time: with the same connection's statement, and re-prepared
(a new connection).

A generic plan made when the card-line table was empty scanned the whole table in each poll
(11.9 ms after 1,024 reports, against 0.1 ms) until something invalidated it: an ``ANALYZE`` of
the table (autovacuum's, once 50 + 10 % of its rows changed; never when autovacuum is off) or
the connection's end. The standings job now analyzes the card lines by that same rule
(``services.planner.tables_analyze_if_grown``), which also replaces the cached plans."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DEBUG"] = "false"
os.environ["ALLOWED_HOSTS"] = "127.0.0.1"
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
os.environ["DATABASE_URL"] = os.environ.get(
    "PEGBOARD_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pegboard_bench"
)
os.environ.pop("CELERY_BROKER_URL", None)

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from load_setup import event_with_game  # noqa: E402  (bench/)
from rest_framework.test import APIClient  # noqa: E402

from tournaments.selectors.live import _entry_row  # noqa: E402

PLAYERS = int(os.environ.get("BENCH_PLAYERS", 1024))


def prepare(cursor, sql: str, params) -> None:
    cursor.execute("DEALLOCATE ALL")
    cursor.execute(f"PREPARE poll AS {sql}")
    for _ in range(6):
        cursor.execute("EXECUTE poll(%s)", params)


def show(cursor, label: str, params) -> None:
    cursor.execute("EXPLAIN (ANALYZE, COSTS OFF) EXECUTE poll(%s)", params)
    rows = [row[0] for row in cursor.fetchall()]
    scans = sorted({row.strip().split(" (")[0] for row in rows if "cardline" in row})
    print(f"{label}: {'; '.join(scans)}; {rows[-1].strip()}")


def main() -> None:
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        event, reports, everyone = event_with_game(None, "Plan weekend", PLAYERS)
        sql, params = _entry_row(everyone[0]).query.sql_with_params()
        sql = sql.replace("%s", "$1")
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
            prepare(cursor, sql, params)
            show(cursor, "prepared, no card lines yet", params)
            client = APIClient()
            for token, body in reports:
                client.post(f"/api/v1/report/{token}/", body, format="json",
                            HTTP_HOST="127.0.0.1", secure=True)  # fmt: skip
            cursor.execute(
                "SELECT analyze_count FROM pg_stat_user_tables "
                "WHERE relname = 'tournaments_cardline'"
            )
            analyzed = cursor.fetchone()[0]
            show(
                cursor,
                f"the same connection after {len(reports)} reports (the standings job analyzed "
                f"the card lines {analyzed} time(s) as they grew)",
                params,
            )
            prepare(cursor, sql, params)
            show(cursor, "re-prepared (a new connection)", params)
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
