"""Benchmark: the storm when the venue's network returns (issue 25 item 8). ``make bench-replay``.

1,024 players (``REPLAY_PLAYERS``) held their game-1 reports while the server was unreachable;
the network returns and every phone sends what it held within ``REPLAY_RELEASE_SECONDS`` (5),
each report twice with the same ``Idempotency-Key`` and body (the phone lost the first answer
and sent again: ``bench/replay_storm.py``). On the production stack of ``bench/load.py``
(``bench/load_stack.py``: gunicorn with production settings and ``gunicorn.conf.py``, a Celery
worker, Redis; PostgreSQL at ``PEGBOARD_BENCH_DATABASE_URL``, a throw-away ``test_`` database
created and dropped), with the load generator on the same cores. No phone polls and no
spectator watches: the storm alone.

Measured: every answer (2,048), timed from when it was due (open loop); that each report's two
answers are the same 201; then the database: reports lost (a player with no reported line),
duplicated lines (more than one reported line for a player), tables not verified; and the time
from the release's start until the public standings show every verified line (``settle_s``).

Last line: ``replay: reports=<n> lost=<l> duplicated=<d> p99_ms=<p> settle_s=<s>``; the exit
status is 1 when a report was lost or duplicated, a table not verified, or an answer wrong.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

import production_django  # noqa: F401  (bench/: Django set up first)

# isort: split
from django.db import connection  # noqa: E402
from load_gen import p  # noqa: E402  (bench/)
from load_setup import event_with_game, statistics_settle  # noqa: E402
from load_stack import Stack, cpu_by_part, print_cpu  # noqa: E402
from replay_storm import schedule, settled, storm, tally  # noqa: E402

PLAYERS = int(os.environ.get("REPLAY_PLAYERS", 1024))
RELEASE_SECONDS = float(os.environ.get("REPLAY_RELEASE_SECONDS", 5))


def main() -> int:
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    stack = None
    try:
        started = time.perf_counter()
        event, reports, _ = event_with_game(None, "Replay weekend", PLAYERS)
        statistics_settle("analyzed")
        print(f"set-up: {PLAYERS} players, game 1 published, {len(reports)} reports held "
              f"({time.perf_counter() - started:.0f} s, untimed)")  # fmt: skip
        stack = Stack()
        stack.start()
        print(f"stack: gunicorn (gunicorn.conf.py), a Celery worker, Redis, PostgreSQL; "
              f"{os.cpu_count()} cores shared with the load generator")  # fmt: skip
        sends = schedule(reports, RELEASE_SECONDS, seed=PLAYERS)
        cpu_before, clock = cpu_by_part(stack), time.monotonic()
        result = asyncio.run(storm(stack.web_port, sends))
        answered_s = time.monotonic() - result.started_at
        settle_s = asyncio.run(settled(stack.web_port, event.pk, len(reports), result.started_at))
        print_cpu(cpu_before, cpu_by_part(stack), time.monotonic() - clock)
        times = result.record.submissions
        wrong = result.replay_errors()
        print(f"storm: {len(sends)} sends ({len(reports)} reports twice) released over "
              f"{RELEASE_SECONDS:.0f} s; {len(times)} answered in {answered_s:.1f} s; p50 "
              f"{p(times, 50):.0f} ms, p99 {p(times, 99):.0f} ms, max {max(times, default=0):.0f}"
              f" ms; {len(result.record.errors)} errors; {len(wrong)} resends not answered as "
              f"the first")  # fmt: skip
        for line in (result.record.errors + wrong)[:5]:
            print(f"  {line}")
        lost, duplicated, unverified = tally(event, [token for token, _ in reports])
        print(f"database: {lost} reports lost, {duplicated} lines duplicated, {unverified} "
              f"tables not verified; standings showed every line {settle_s:.1f} s after the "
              f"release began ({settle_s - answered_s:.1f} s after the last answer)")  # fmt: skip
    finally:
        if stack is not None:
            stack.stop()
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"replay: reports={len(reports)} lost={lost} duplicated={duplicated} "
          f"p99_ms={p(times, 99):.0f} settle_s={settle_s:.1f}")  # fmt: skip
    failed = lost or duplicated or unverified or result.record.errors or wrong
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
