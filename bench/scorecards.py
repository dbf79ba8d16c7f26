"""Benchmark: the printable scorecards of a 500-player event, one QR code per player.

Run from the repository root: ``python bench/scorecards.py`` (PostgreSQL at
``PEGBOARD_BENCH_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/pegboard_bench_scorecards``; a throw-away ``test_``
database is created and dropped). Builds the event through the services
as a director would (500 players entered and checked in, registration closed), then renders
``/events/<id>/scorecards/`` through Django's test client with DEBUG off, on https at a
host name of typical length (the links, and so the QR codes, are the size they are live):
- first render: the page's first render in the process (its template compiled, no QR code made
  yet), after one request to another page has paid the process's imports and URL loading;
- cold_ms: the median of 5 renders, each with the QR code cache emptied first (every code drawn
  again: what the director waits for after printing a new event's cards);
- warm_ms: the median of 20 renders with every code cached (a reprint);
- queries: the queries one render takes (the tests check it does not grow with the field).
Times are wall-clock milliseconds. Before the last line: the machine's load, the first render,
and this process's CPU time for the cold and warm renders (which a busy machine does not
inflate, where it does the wall clock). Last line:
``scorecards: players=<n> cold_ms=<ms> warm_ms=<ms> queries=<q>``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "true")
os.environ["DATABASE_URL"] = os.environ.get(
    "PEGBOARD_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pegboard_bench_scorecards"
)

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from tournaments.models import Event  # noqa: E402
from tournaments.services.entries import Registration, entry_register  # noqa: E402
from tournaments.services.events import event_close_registration, event_create  # noqa: E402
from tournaments.services.simulation import FIRST, LAST  # noqa: E402
from tournaments.views.standings import scorecard_qr_svg  # noqa: E402

PLAYERS, COLD_RUNS, WARM_RUNS = 500, 5, 20
HOST = "pegboard.example.org"  # a link as long as a real one: https://<host>/r/<token>/


def build() -> tuple[Event, object]:
    director = get_user_model().objects.create_user(username="bench-director")
    event = event_create(user=director, name="Bench Open", preset="acc-main")
    for i in range(PLAYERS):
        name = f"{FIRST[i % len(FIRST)]} {LAST[i // len(FIRST) % len(LAST)]} {i:03}"
        entry_register(
            event=event,
            registration=Registration(name=name, acc_number=f"B{i:06}"),
            user=director,
            check_in=True,
        )
    return event_close_registration(event=event, user=director), director


def timed(client: Client, url: str) -> tuple[float, float]:
    """The render's wall-clock and CPU milliseconds (this process's CPU: on a busy machine the
    wall clock also counts the time other processes had the CPU)."""
    start, start_cpu = time.perf_counter(), time.process_time()
    response = client.get(url, secure=True)
    wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    if response.status_code != 200 or response.content.count(b"<svg") != PLAYERS:
        raise AssertionError(f"{url} answered {response.status_code} without {PLAYERS} codes")
    return wall * 1000, cpu * 1000


def medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def measure(event: Event, director) -> dict[str, tuple[float, float] | int]:
    client = Client(HTTP_HOST=HOST)
    client.force_login(director)
    url = f"/events/{event.pk}/scorecards/"
    with override_settings(DEBUG=False, ALLOWED_HOSTS=[HOST]):
        client.get(f"/events/{event.pk}/manage/", secure=True)  # imports and URL loading
        scorecard_qr_svg.cache_clear()
        first = timed(client, url)
        cold = []
        for _ in range(COLD_RUNS):
            scorecard_qr_svg.cache_clear()
            cold.append(timed(client, url))
        warm = [timed(client, url) for _ in range(WARM_RUNS)]
        with CaptureQueriesContext(connection) as queries:
            client.get(url, secure=True)
    return {"first": first, "cold": medians(cold), "warm": medians(warm), "queries": len(queries)}


def main() -> None:
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        event, director = build()
        m = measure(event, director)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    (first, first_cpu), (cold, cold_cpu), (warm, warm_cpu) = m["first"], m["cold"], m["warm"]
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"first render: wall_ms={first:.0f} cpu_ms={first_cpu:.0f}")
    print(f"cpu: cold_ms={cold_cpu:.0f} warm_ms={warm_cpu:.0f}")
    queries = m["queries"]
    print(f"scorecards: players={PLAYERS} cold_ms={cold:.0f} warm_ms={warm:.0f} queries={queries}")


if __name__ == "__main__":
    main()
