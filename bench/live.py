"""Benchmark: what a live poll costs, 304 Not Modified against a full 200, at 1,000 players.

Run from the repository root: ``python bench/live.py`` (PostgreSQL at
``PEGBOARD_BENCH_DATABASE_URL``, default ``postgres://postgres@127.0.0.1:5432/pegboard_bench``;
a throw-away ``test_`` database is created and dropped). Untimed set-up: a 1,000-player event
built through the services (registration, game 1 played and verified, standings, game 2
paired and published), so every page has its real data.

1. In process (Django's test client, DEBUG off): for each live part (a player's page, the
   director's board, the standings, the wall) the median of 30 polls answered 200 (rendered:
   the kept renderings of public parts are cleared before each) and of 30 answered 304, in
   milliseconds, with the queries each takes (after the first poll: shared parts are kept
   half a second).
2. The production stack: gunicorn as the Dockerfile starts it (3 sync workers, DEBUG off, on
   this 2-core machine, which also runs the clients and PostgreSQL). ``CLIENTS`` threads poll
   the 1,000 players' parts for ``SECONDS`` seconds, each on a new connection as a phone
   behind a proxy would, first as ``static/js/live.js`` does (each player's last ETag; nothing
   changes, so the answers are 304 but for each page's once-a-minute safety refresh), then
   sending none (every answer a full 200). Printed: answers a second, median and
   95th-percentile latency, the share of 304s. 1,000 phones polling every 4 s ask 250 times
   a second.

Last line: ``live: players=<n> part_200_ms=<ms> part_304_ms=<ms> queries_200=<q>
queries_304=<q> http_304_rps=<r> http_304_p50_ms=<ms> http_304_p95_ms=<ms> http_200_rps=<r>
http_200_p50_ms=<ms> http_200_p95_ms=<ms> need_rps=250`` (the player's page).
"""

from __future__ import annotations

import http.client
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DEBUG"] = "false"  # the production settings: no query log, no debug toolbar
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
os.environ["DATABASE_URL"] = os.environ.get(
    "PEGBOARD_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pegboard_bench"
)

import django  # noqa: E402

django.setup()

from django.core.cache import caches  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from tests.smtp_sink import SmtpSink  # noqa: E402
from tournaments.demo import demo_director  # noqa: E402
from tournaments.models import Entry, Game  # noqa: E402
from tournaments.services.pairings import game_pairings_request, game_publish  # noqa: E402
from tournaments.services.simulation import event_simulate  # noqa: E402

PLAYERS = int(os.environ.get("BENCH_PLAYERS", 1000))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", 24))
SECONDS = float(os.environ.get("BENCH_SECONDS", 15))
POLLS = 30
HTTPS = {"X-Forwarded-Proto": "https"}  # as the proxy in front of gunicorn says


def build():
    director, _ = demo_director()
    report = event_simulate(
        players=PLAYERS, games=2, seed=14, director=director, stop_after_game=1,
        name="Live bench", rulings=0,
    )  # fmt: skip
    event = report.event
    game_pairings_request(event=event, number=2, user=director)
    game_publish(game=Game.objects.get(event=event, number=2), user=director)
    event.published = True
    event.save(update_fields=["published"])
    return event, director


def _median_ms(client: Client, path: str, etag: str | None) -> tuple[float, int, int]:
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    times, status = [], None
    for _ in range(POLLS):
        if etag is None:
            caches["live"].clear()  # a change: the page is rendered, not found kept
        start = time.perf_counter()
        response = client.get(path, secure=True, **headers)
        times.append((time.perf_counter() - start) * 1000)
        status = response.status_code
    if etag is None:
        caches["live"].clear()
    with CaptureQueriesContext(connection) as queries:
        client.get(path, secure=True, **headers)
    return statistics.median(times), len(queries), status


def in_process(event, director) -> dict[str, tuple]:
    entry = Entry.objects.filter(event=event).order_by("pk").first()
    staff = Client()
    staff.force_login(director)
    parts = {
        "player": (Client(), f"/r/{entry.report_token}/?part=live"),
        "board": (staff, f"/events/{event.pk}/games/2/board/?part=live"),
        "standings": (Client(), f"/events/{event.pk}/standings/?part=live"),
        "wall": (Client(), f"/events/{event.pk}/wall/?part=live"),
    }
    figures = {}
    for name, (client, path) in parts.items():
        full = _median_ms(client, path, None)
        current = client.get(path, secure=True)
        assert current.status_code == 200, (name, current.status_code)
        cheap = _median_ms(client, path, current["ETag"])
        assert (full[2], cheap[2]) == (200, 304), (name, full[2], cheap[2])
        figures[name] = (full[0], cheap[0], full[1], cheap[1])
        print(
            f"  {name:<9} 200: {full[0]:6.1f} ms {full[1]:2} queries · "
            f"304: {cheap[0]:5.1f} ms {cheap[1]} queries · ratio {full[0] / cheap[0]:.1f}"
        )
    return figures


def _get(port: int, path: str, etag: str | None) -> tuple[int, str | None]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {**HTTPS, "Host": "127.0.0.1", "Connection": "close"}
        if etag:
            headers["If-None-Match"] = etag
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status, response.getheader("ETag")
    finally:
        conn.close()


def _load(port: int, paths: list[str], etags: dict[str, str] | None) -> tuple:
    """``CLIENTS`` threads for ``SECONDS``, as live.js polls: with ``etags``, each poll sends
    the player's last ETag and keeps the new one from a 200 (the minute's safety refresh);
    without, every poll is a full 200. Answers a second, p50 and p95 in ms, and how many of
    the answers were 304."""
    stop_at = time.monotonic() + SECONDS
    latencies: list[float] = []
    statuses: list[int] = []
    lock = threading.Lock()

    def run(seed: int) -> None:
        rng = random.Random(seed)
        mine, seen = [], []
        while time.monotonic() < stop_at:
            path = rng.choice(paths)
            start = time.perf_counter()
            status, etag = _get(port, path, etags.get(path) if etags else None)
            mine.append((time.perf_counter() - start) * 1000)
            seen.append(status)
            if etags is not None and status == 200:
                etags[path] = etag
        with lock:
            latencies.extend(mine)
            statuses.extend(seen)

    started = time.monotonic()
    threads = [threading.Thread(target=run, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    wrong = [s for s in statuses if s not in (200, 304)]
    if wrong:
        raise AssertionError(f"{len(wrong)} answers neither 200 nor 304, e.g. {wrong[:3]}")
    cuts = statistics.quantiles(latencies, n=20)
    share = statuses.count(304) / len(statuses)
    return len(latencies) / elapsed, statistics.median(latencies), cuts[18], share


def over_http(event) -> tuple[tuple, tuple]:
    with SmtpSink() as sink:  # production settings send e-mail by SMTP: here, to a sink
        return _over_http(event, sink.env())


def _over_http(event, mail: dict[str, str]) -> tuple[tuple, tuple]:
    port = 18765
    env = {
        **{k: v for k, v in os.environ.items() if k != "PYTEST_VERSION"},
        **mail,
        "DATABASE_URL": _url_of_test_db(),
        "ALLOWED_HOSTS": "127.0.0.1",
        "STATIC_ROOT": str(ROOT / ".bench-static"),
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    web = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
         f"127.0.0.1:{port}", "--workers", "3", "--access-logfile", "/dev/null"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(100):
            try:
                if _get(port, "/api/v1/health/", None)[0] == 200:
                    break
            except OSError:
                time.sleep(0.2)
        tokens = Entry.objects.filter(event=event).values_list("report_token", flat=True)
        paths = [f"/r/{token}/?part=live" for token in tokens]
        etags = {path: _get(port, path, None)[1] for path in paths}  # each phone's first look
        cheap = _load(port, paths, etags)
        full = _load(port, paths, None)
    finally:
        web.terminate()
        web.wait(timeout=30)
    return cheap, full


def _url_of_test_db() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def main() -> None:
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        start = time.perf_counter()
        event, director = build()
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"set-up: {PLAYERS} players, game 1 played, game 2 published "
              f"({time.perf_counter() - start:.0f} s, untimed)")  # fmt: skip
        print("in process (test client, DEBUG off), median of 30:")
        figures = in_process(event, director)
        print(f"gunicorn, 3 sync workers, {CLIENTS} clients for {SECONDS:.0f} s, a player's part:")
        cheap, full = over_http(event)
        print(
            f"  with ETags: {cheap[0]:4.0f} a second, p50 {cheap[1]:.1f} ms, p95 {cheap[2]:.1f} ms"
            f" ({cheap[3]:.1%} answered 304)"
        )
        print(f"  without:    {full[0]:4.0f} a second, p50 {full[1]:.1f} ms, p95 {full[2]:.1f} ms")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    player = figures["player"]
    print(
        f"live: players={PLAYERS} part_200_ms={player[0]:.1f} part_304_ms={player[1]:.1f} "
        f"queries_200={player[2]} queries_304={player[3]} http_304_rps={cheap[0]:.0f} "
        f"http_304_p50_ms={cheap[1]:.1f} http_304_p95_ms={cheap[2]:.1f} "
        f"http_200_rps={full[0]:.0f} http_200_p50_ms={full[1]:.1f} "
        f"http_200_p95_ms={full[2]:.1f} need_rps={PLAYERS // 4}"
    )


if __name__ == "__main__":
    main()
