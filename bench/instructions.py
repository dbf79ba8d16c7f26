"""Benchmark: instructions a request costs, whatever the machine's speed (issue 24).
``make bench-instructions``.

Timings on this project's 2-core machines moved 2-4x between machines of one kind and up to 40%
between runs on one (README, "Load"), so a change worth 5% could not be seen in them. valgrind's
callgrind counts the instructions a process runs: the same count on a fast, a slow or a busy
machine. This bench counts, in one process with production settings (DEBUG off, static files
from a manifest) on PostgreSQL (a throw-away copy of ``PEGBOARD_BENCH_DATABASE_URL``'s server):

- ``report``: a phone's report, ``POST /api/v1/report/<link>/`` with an ``Idempotency-Key``
  through ``config.wsgi`` as gunicorn calls it; both cards of each table in a random order (one
  card waits, the other verifies its table), as in ``bench/load.py``;
- ``open``: a phone opening its player's page, ``GET /r/<link>/`` with Chromium's ``Accept``;
- ``page``: a spectator's reload of the event's public standings page (``GET
  /events/<id>/standings/``, no cookie), as ``bench/load.py``'s 200 spectators send it: after
  the first, each is answered with the rendering kept for the standings' version;
- ``limit_report``: the stack's own limit's report (``bench/limit_app``: a token looked up, one
  row inserted, a small JSON 201), the same way.

Each figure is (a run of 1 + N requests minus a run of 1) / N: starting Python and Django and
the worker's warm-up (``config.warm``) cancel out. Each run starts from a copy of the same
database, so the two runs and the two stacks find the same rows, and keeps one connection.
``report_ratio`` is the limit's report over Pegboard's: the share of the stack's least that a
report costs.

Not counted: PostgreSQL's own work, which runs in its server. It is printed beside, as the CPU
milliseconds a request cost the run's backend (its /proc/<pid>/schedstat, when the server runs
on this machine; the same difference of two runs): a time, not a count, and taken while
valgrind slows the client about 50 times, so the backend works with cold caches (this
session's machine: 1.40 ms a report here, 0.66 ms with a client at full speed). Read the two
stacks' figures against each other, not against a real run. Nor counted: the standings job a
verifying report asks for (the Celery worker's; each report here finds it waiting, as all but
one in a couple of seconds of a burst do). The last-heard times, which a thread writes once a
second, are written once after each run (a second is a few requests under valgrind, not a few
hundred). The caches the workers share are a Redis server of the bench's own, as in production.

Last line: ``instructions: requests=<N> report_m=<M> open_m=<M> page_m=<M>
limit_report_m=<M> report_ratio=<limit/report> postgres_report_ms=<ms> postgres_limit_ms=<ms>``
(M: millions of instructions a request). Environment: ``BENCH_REQUESTS`` (200),
``PEGBOARD_BENCH_DATABASE_URL``, ``BENCH_KINDS`` (all four; e.g. ``report``: that kind's line
alone, a try-out in minutes).
Needs valgrind (``apt-get install valgrind``; ``make bench-instructions`` installs it).
"""

from __future__ import annotations

import io
import json
import os
import pickle
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
REQUESTS = int(os.environ.get("BENCH_REQUESTS", 200))
ALL_KINDS = ("report", "open", "page", "limit_report")
# BENCH_KINDS=report: only those kinds, to try a change in a few minutes (no last line).
KINDS = tuple(
    k for k in ALL_KINDS if k in os.environ.get("BENCH_KINDS", ",".join(ALL_KINDS)).split(",")
)
NAVIGATION = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
COLLECTED = re.compile(r"^==\d+== Collected : (\d+)$", re.MULTILINE)
BACKEND = re.compile(r"^backend_ns=(\d+|none)$", re.MULTILINE)


def per_request(small: int, big: int, requests: int) -> float:
    """Instructions a request: the difference of two runs, over the requests it adds."""
    if big <= small:
        raise ValueError(f"the run of {requests} more requests counted no more ({big} <= {small})")
    return (big - small) / requests


def collected(valgrind_stderr: str) -> int:
    """The total callgrind prints when the process ends (``==pid== Collected : n``)."""
    found = COLLECTED.findall(valgrind_stderr)
    if not found:
        raise RuntimeError(f"callgrind printed no total:\n{valgrind_stderr[-2000:]}")
    return int(found[-1])


def backend_cpu_ns() -> int | None:
    """Nanoseconds on the CPU of this process's PostgreSQL backend (its connection is kept for
    the run), from /proc when the server runs on this machine; else None."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    try:
        if Path(f"/proc/{pid}/comm").read_text().strip() != "postgres":
            return None  # another machine's (or a container's) process number
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
    except OSError:
        return None


# The measured process (run under valgrind)


def _environ(method: str, path: str, body: bytes, accept: str, **headers) -> dict:
    return {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "HTTP_HOST": "127.0.0.1",
        "wsgi.url_scheme": "http", "HTTP_X_FORWARDED_PROTO": "https", "HTTP_ACCEPT": accept,
        "wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body)),
        "CONTENT_TYPE": "application/json", "REMOTE_ADDR": "127.0.0.1", "wsgi.errors": sys.stderr,
        **headers,
    }  # fmt: skip


def _call(application, environ: dict, expected: int) -> None:
    """One request as gunicorn makes it: the answer read, then closed (Django's
    ``request_finished``: the connection's age checked, the caches closed)."""
    statuses: list[str] = []
    answer = application(environ, lambda status, headers, exc=None: statuses.append(status))
    try:
        body = b"".join(answer)
    finally:
        answer.close()
    if not statuses[0].startswith(str(expected)):
        raise RuntimeError(f"{environ['PATH_INFO']} answered {statuses[0]}: {body[:300]!r}")


def child(kind: str, count: int, setup: str) -> None:
    """``count`` requests of ``kind`` in this process, after the worker's warm-up."""
    sys.path.insert(0, str(ROOT))
    with open(setup, "rb") as file:
        event_id, reports, everyone = pickle.load(file)
    if kind == "limit_report":
        os.environ["DJANGO_SETTINGS_MODULE"] = "bench.limit_app.settings"
        import django

        django.setup()
        _connection_kept()
        from bench.limit_app.wsgi import application

        body = json.dumps({"result": "won", "margin": 12}).encode()
        start = backend_cpu_ns()
        for n in range(count):
            _call(application, _environ("POST", f"/limit/limit-{n}/", body, "*/*"), 201)
        _say_backend(start)
        return
    sys.path.insert(0, str(ROOT / "bench"))
    import production_django  # noqa: F401

    from config.warm import worker_warm
    from config.wsgi import application
    from tournaments import heard
    from tournaments.services import standings

    _connection_kept()
    worker_warm()
    standings._waiting_until[event_id] = float("inf")  # the job is waiting (see the docstring)
    heard.FLUSH_SECONDS = 24 * 3600  # written once, after the run (see the docstring)
    start = backend_cpu_ns()
    for n in range(count):
        if kind == "report":
            token, given = reports[n]
            key = {"HTTP_IDEMPOTENCY_KEY": f"instructions-{n:06}"}
            environ = _environ("POST", f"/api/v1/report/{token}/", json.dumps(given).encode(),
                               "*/*", **key)  # fmt: skip
            _call(application, environ, 201)
        elif kind == "page":
            page = f"/events/{event_id}/standings/"
            _call(application, _environ("GET", page, b"", NAVIGATION), 200)
        else:
            _call(application, _environ("GET", f"/r/{everyone[n]}/", b"", NAVIGATION), 200)
    heard.heard_flush()
    _say_backend(start)


def _say_backend(start: int | None) -> None:
    end = backend_cpu_ns()
    print(f"backend_ns={'none' if start is None or end is None else end - start}")


def _connection_kept() -> None:
    """One database connection for the whole run: a gunicorn worker keeps its connection 60 s
    (``CONN_MAX_AGE``), thousands of requests, but a run under valgrind lasts minutes, and a new
    connection each minute (a backend started, statements prepared again) would count here."""
    from django.db import connections

    connections["default"].settings_dict["CONN_MAX_AGE"] = None


# The parent: the database, the runs, the figures


def main() -> None:
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        sys.exit("bench/instructions.py needs valgrind: apt-get install valgrind")
    sys.path.insert(0, str(ROOT / "bench"))
    import production_django  # noqa: F401
    from django.db import connection
    from django.test.utils import setup_test_environment
    from load_setup import event_with_game, statistics_settle
    from load_stack import free_port, redis_command, stop_on_terminate

    from bench.limit_app import tables_create

    stop_on_terminate()
    setup_test_environment()
    connection.settings_dict["TEST"]["NAME"] = "test_pegboard_instructions"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    work, redis = Path(tempfile.mkdtemp(prefix="pegboard-instructions-")), None
    try:
        players = max(1024, REQUESTS + 2 - REQUESTS % 2)  # a report and a page each request
        # Both cards of as many tables as the run needs, shuffled among themselves: half the
        # reports verify their table, as in a burst (all 512 tables' cards gave one in ten).
        tables = REQUESTS // 2 + 1
        event, reports, everyone = event_with_game(None, "Instructions", players, tables=tables)
        with connection.cursor() as cursor:
            tables_create(cursor, REQUESTS + 1)
        statistics_settle("analyzed")
        setup = work / "setup.pickle"
        setup.write_bytes(pickle.dumps((event.pk, reports, everyone)))
        settings = connection.settings_dict
        redis_port = free_port()
        redis = subprocess.Popen(redis_command(redis_port), stdout=subprocess.DEVNULL)
        _wait_for(redis_port)
        env = {
            **os.environ,
            "DEBUG": "false",
            "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-only-" + "x" * 50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "STATIC_ROOT": str(work / "static"),
            # The caches every worker shares in production (limits, last heard, renderings).
            "THROTTLE_CACHE_URL": f"redis://127.0.0.1:{redis_port}/1",
            "PYTHONHASHSEED": "0",  # both runs start the same way
        }
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                       cwd=ROOT, env=env, check=True)  # fmt: skip
        connection.close()
        figures, postgres = {}, {}
        for kind in KINDS:
            totals, cpu = [], []
            for count in (1, 1 + REQUESTS):
                copy = f"{settings['NAME']}_run"
                _copy_database(connection, settings["NAME"], copy)
                url = _url(copy)
                run_env = {**env, "PEGBOARD_BENCH_DATABASE_URL": url, "DATABASE_URL": url}
                try:
                    done = subprocess.run(
                        [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null",
                         sys.executable, __file__, "--child", kind, str(count), str(setup)],
                        cwd=ROOT, env=run_env, capture_output=True, text=True,
                    )  # fmt: skip
                finally:
                    _drop_database(connection, copy)
                if done.returncode != 0:
                    raise RuntimeError(f"{kind} x{count} failed:\n{done.stderr[-3000:]}")
                totals.append(collected(done.stderr))
                said = BACKEND.search(done.stdout)
                cpu.append(None if said is None or said[1] == "none" else int(said[1]))
            figures[kind] = per_request(*totals, REQUESTS) / 1e6
            postgres[kind] = None if None in cpu else (cpu[1] - cpu[0]) / 1e6 / REQUESTS
            print(f"{kind}: {figures[kind]:.2f} M instructions a request (runs of 1 and "
                  f"{1 + REQUESTS}: {totals[0]:,} and {totals[1]:,})", flush=True)  # fmt: skip
    finally:
        if redis is not None:
            redis.terminate()
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)
        shutil.rmtree(work, ignore_errors=True)
    ms = {k: "n/a" if v is None else f"{v:.2f}" for k, v in postgres.items()}
    if KINDS != ALL_KINDS:  # a try-out of some kinds: their figures above, no last line
        return
    print(
        f"instructions: requests={REQUESTS} report_m={figures['report']:.2f} "
        f"open_m={figures['open']:.2f} page_m={figures['page']:.2f} "
        f"limit_report_m={figures['limit_report']:.2f} "
        f"report_ratio={figures['limit_report'] / figures['report']:.2f} "
        f"postgres_report_ms={ms['report']} postgres_limit_ms={ms['limit_report']}"
    )


def _url(name: str) -> str:
    """The bench's database address (``production_django``) with database ``name``: its user,
    password, host and options kept as they were written."""
    return urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}"))


def _wait_for(port: int) -> None:
    """Until the bench's Redis takes connections (the caches fail open: a run that started
    before it would count no cache round trips, silently)."""
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the bench's Redis did not start on port {port}")


def _copy_database(connection, template: str, name: str) -> None:
    with connection._nodb_cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cursor.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')


def _drop_database(connection, name: str) -> None:
    with connection._nodb_cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        main()
