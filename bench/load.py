"""Benchmark: a 1,024-player weekend burst on the production stack. ``make bench-load``.

Starts, on this machine: gunicorn with production settings (DEBUG off, ``gunicorn.conf.py``:
the worker model and count the production image uses), a Celery worker, a Redis server of its
own; PostgreSQL is the one at ``PEGBOARD_BENCH_DATABASE_URL`` (default
``postgres://postgres@127.0.0.1:5432/pegboard_bench``; a throw-away ``test_`` database is
created and dropped). The load generator runs in this process, on the same cores.

Set-up (untimed): an event of 1,024 checked-in players, entered through the services, game 1
paired and published; before each phase every player opens their page once (as after a
game's publication; the time the server takes to render them all is printed).

1. Burst: game 1's 1,024 card lines are posted to ``POST /api/v1/report/<token>/`` over 60 s,
   arrivals spread evenly in a random order of the seats (both players of a table report the
   same result: every game is verified). Meanwhile 200 spectators each fetch the public
   standings page every 5 s (a full page, no conditional request: the heavier case), and every
   seated player's page polls its live part as ``static/js/live.js`` does (every 3.5-4 s,
   with the last ETag). Measured: submissions' latencies, errors (any answer that is not
   201 for a submission, 200/304 for a page; each 5xx's cause is printed from the response
   and the server log), pages' latencies, and the standings lag: the seconds from the last
   submission's answer until the public standings page shows every verified line. Then the
   database is checked: every line stored, every game verified.
2. Step test: the next games are paired and published in turn; for each rate (submissions a
   second) one game's lines arrive at that rate for ``STEP_SECONDS`` with the same polling
   (every seated player's page, not only those who report in the step) and spectators. The
   knee is the highest rate whose submissions' p99 stays <= 300 ms with no error.

Last line: ``load: submissions=<n> errors=<e> p50_ms=<x> p99_ms=<y> page_p99_ms=<z>
standings_lag_s=<s> knee_per_s=<k>`` (``page_p99_ms``: the spectators' standings page and the
players' polls together, during the burst).

Environment: ``BENCH_PLAYERS`` (1024), ``BENCH_BURST_SECONDS`` (60), ``BENCH_STEPS``
(``30,60,90,120,160,200,250``), ``BENCH_STEP_SECONDS`` (10), ``BENCH_GUNICORN_ARGS`` (extra
arguments, e.g. ``--workers 5``, to compare worker models).
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DEBUG"] = "false"
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
os.environ["DATABASE_URL"] = os.environ.get(
    "PEGBOARD_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pegboard_bench"
)
os.environ.pop("CELERY_BROKER_URL", None)  # the set-up here runs its jobs in this process

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from load_stack import Stack, cpu_by_part, fetch, print_cpu  # noqa: E402  (bench/)

from tournaments.demo import demo_director  # noqa: E402
from tournaments.models import CardLine, Game, Table  # noqa: E402
from tournaments.services.entries import Registration, entry_register  # noqa: E402
from tournaments.services.events import event_close_registration, event_create  # noqa: E402
from tournaments.services.pairings import game_pairings_request, game_publish  # noqa: E402

PLAYERS = int(os.environ.get("BENCH_PLAYERS", 1024))
BURST_SECONDS = float(os.environ.get("BENCH_BURST_SECONDS", 60))
STEPS = [int(r) for r in os.environ.get("BENCH_STEPS", "30,60,90,120,160,200,250").split(",") if r]
STEP_SECONDS = float(os.environ.get("BENCH_STEP_SECONDS", 10))
SPECTATORS, SPECTATOR_EVERY = 200, 5.0
POLL_EVERY, POLL_JITTER = 3.5, 0.5  # as static/js/live.js
TARGET_MS = 300


# The set-up, through the services


def build_event():
    director, _ = demo_director()
    event = event_create(
        user=director, name="Load weekend", preset="acc-main", published=True,
        qualifying_games=len(STEPS) + 2, qualifier_ratio=4,
    )  # fmt: skip
    for n in range(PLAYERS):
        registration = Registration(name=f"Load Player {n:04}", player_id=None, new_player=True)
        entry_register(event=event, registration=registration, check_in=True, user=director)
    event_close_registration(event=event, user=director)
    return event, director


def publish(event, director, number: int) -> list[tuple[str, dict]]:
    """Pair and publish game ``number``; each seat's token and the report it will send, in a
    random order (both players of a table report the same result)."""
    game_pairings_request(event=event, number=number, user=director)
    game_publish(game=Game.objects.get(event=event, number=number), user=director)
    rng = random.Random(number)
    reports = []
    tables = Table.objects.filter(game__event=event, game__number=number).prefetch_related(
        "seats__entry"
    )
    for table in tables:
        first, second = table.seats.all()
        spread = rng.randint(1, 60)
        reports.append((first.entry.report_token, {"result": "won", "margin": spread}))
        reports.append((second.entry.report_token, {"result": "lost", "margin": spread}))
    rng.shuffle(reports)
    return reports


# The load generator


@dataclass
class Record:
    submissions: list[float] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    last_submission_at: float = 0.0


async def _safe(coro, record: Record, what: str):
    try:
        return await coro
    except OSError as exc:
        record.errors.append(f"{what}: connection failed: {exc}")
        return None


async def submit_all(port, reports, seconds: float, record: Record) -> None:
    """Post ``reports`` evenly over ``seconds``."""
    start = time.monotonic()
    gap = seconds / len(reports)

    async def one(i, token, body):
        await asyncio.sleep(max(0.0, start + i * gap - time.monotonic()))
        answer = await _safe(
            fetch(port, "POST", f"/api/v1/report/{token}/", body), record, "submission"
        )
        if answer is None:
            return
        record.submissions.append(answer.ms)
        record.last_submission_at = max(record.last_submission_at, time.monotonic())
        if answer.status != 201:
            record.errors.append(f"submission {answer.status}: {answer.body[:300]!r}")

    await asyncio.gather(*(one(i, t, b) for i, (t, b) in enumerate(reports)))


async def open_pages(port, tokens: list[str]) -> tuple[dict[str, str], float]:
    """Every player opens their page once (a few at a time, as after a game's publication):
    the ETag each then polls with, and how long the server took to render them all."""
    gate = asyncio.Semaphore(8)
    start = time.monotonic()

    async def one(token):
        async with gate:
            answer = await fetch(port, "GET", f"/r/{token}/?part=live")
            return token, answer.headers.get("etag")

    etags = dict(await asyncio.gather(*map(one, tokens)))
    return etags, time.monotonic() - start


async def watch(port, event_id, etags: dict[str, str], record: Record, stop: asyncio.Event):
    """Spectators on the standings page and every player's page polling, until ``stop``."""

    async def spectator(n):
        await asyncio.sleep(random.random() * SPECTATOR_EVERY)
        while not stop.is_set():
            page = fetch(port, "GET", f"/events/{event_id}/standings/")
            answer = await _safe(page, record, "page")
            if answer:
                record.pages.append(answer.ms)
                if answer.status != 200:
                    record.errors.append(f"standings {answer.status}: {answer.body[:300]!r}")
            await asyncio.sleep(SPECTATOR_EVERY)

    async def player(token):
        etag = etags.get(token)
        await asyncio.sleep(random.random() * (POLL_EVERY + POLL_JITTER))
        while not stop.is_set():
            path = f"/r/{token}/?part=live"
            answer = await _safe(fetch(port, "GET", path, etag=etag), record, "poll")
            if answer:
                record.polls.append(answer.ms)
                if answer.status == 200:
                    etag = answer.headers.get("etag")
                elif answer.status != 304:
                    record.errors.append(f"poll {answer.status}: {answer.body[:300]!r}")
            await asyncio.sleep(POLL_EVERY + random.random() * POLL_JITTER)

    await asyncio.gather(*(spectator(n) for n in range(SPECTATORS)), *map(player, etags))


async def standings_lag(port, event_id: int, verified: int, record: Record) -> float:
    """Seconds from the last submission's answer until the public standings show
    ``verified`` verified lines (checked every 0.2 s, for at most 60 s)."""
    wanted = f"After {verified} verified card lines".encode()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        answer = await fetch(port, "GET", f"/events/{event_id}/standings/?part=live")
        if wanted in answer.body:
            return max(0.0, time.monotonic() - record.last_submission_at)
        await asyncio.sleep(0.2)
    return float("inf")


async def phase(port, event_id, reports, seconds, verified_after=None, submitted=None):
    """Every player of the game opens their page and polls it; ``submitted`` (all of
    ``reports`` by default) are posted over ``seconds``."""
    record = Record()
    stop = asyncio.Event()
    etags, opening = await open_pages(port, [token for token, _ in reports])
    print(f"  (untimed: {len(etags)} players' pages opened in {opening:.0f} s)")
    watchers = asyncio.create_task(watch(port, event_id, etags, record, stop))
    await asyncio.sleep(POLL_EVERY + POLL_JITTER)  # every page open and polling first
    await submit_all(port, reports if submitted is None else submitted, seconds, record)
    lag = None
    if verified_after is not None:
        lag = await standings_lag(port, event_id, verified_after, record)
    stop.set()
    await watchers
    return record, lag


def p(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def causes(record: Record, stack: Stack) -> None:
    if not record.errors:
        return
    print(f"  {len(record.errors)} errors; first ones:")
    for error in record.errors[:5]:
        print(f"    {error}")
    tracebacks = [line for line in stack.log("web").splitlines() if "Error" in line]
    for line in tracebacks[-10:]:
        print(f"    server log: {line}")


def main() -> None:
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    stack = Stack()
    try:
        started = time.perf_counter()
        event, director = build_event()
        reports = publish(event, director, 1)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"set-up: {PLAYERS} players, game 1 published ({time.perf_counter() - started:.0f} s,"
              " untimed)")  # fmt: skip
        stack.start()
        gunicorn = os.environ.get("BENCH_GUNICORN_ARGS", "") or "gunicorn.conf.py"
        print(f"stack: gunicorn ({gunicorn}), a Celery worker, Redis, PostgreSQL; "
              f"{os.cpu_count()} cores shared with the load generator")  # fmt: skip

        verified = len(reports)
        cpu_before, clock = cpu_by_part(stack), time.monotonic()
        burst, lag = asyncio.run(phase(stack.web_port, event.pk, reports, BURST_SECONDS, verified))
        print_cpu(cpu_before, cpu_by_part(stack), time.monotonic() - clock)
        pages = burst.pages + burst.polls
        print(
            f"burst: {len(burst.submissions)} submissions in {BURST_SECONDS:.0f} s, "
            f"p50 {p(burst.submissions, 50):.0f} ms, p99 {p(burst.submissions, 99):.0f} ms; "
            f"standings page p99 {p(burst.pages, 99):.0f} ms ({len(burst.pages)}), "
            f"polls p99 {p(burst.polls, 99):.0f} ms ({len(burst.polls)}); "
            f"standings lag {lag:.1f} s"
        )
        causes(burst, stack)
        stored = CardLine.objects.filter(
            seat__game__event=event, seat__game__number=1, kind="reported", current=True
        ).count()
        unverified = (
            Table.objects.filter(game__event=event, game__number=1).exclude(status="verified")
        ).count()
        print(f"  database: {stored} of {len(reports)} lines stored, {unverified} games not "
              "verified")  # fmt: skip
        errors = len(burst.errors) + (len(reports) - stored) + unverified

        knee = 0
        for number, rate in enumerate(STEPS, start=2):
            game_reports = publish(event, director, number)
            count = min(len(game_reports), int(rate * STEP_SECONDS))
            seconds = count / rate
            step, _ = asyncio.run(
                phase(
                    stack.web_port, event.pk, game_reports, seconds, submitted=game_reports[:count]
                )
            )
            p99 = p(step.submissions, 99)
            held = p99 <= TARGET_MS and not step.errors
            print(f"step {rate}/s: {count} submissions, p50 {p(step.submissions, 50):.0f} ms, "
                  f"p99 {p99:.0f} ms, polls p99 {p(step.polls, 99):.0f} ms, "
                  f"{len(step.errors)} errors{'' if held else '  <- not held'}")  # fmt: skip
            causes(step, stack)
            if not held:
                break
            knee = rate
    finally:
        stack.stop()
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(
        f"load: submissions={len(burst.submissions)} errors={errors} "
        f"p50_ms={p(burst.submissions, 50):.0f} p99_ms={p(burst.submissions, 99):.0f} "
        f"page_p99_ms={p(pages, 99):.0f} standings_lag_s={lag:.1f} knee_per_s={knee}"
    )


if __name__ == "__main__":
    main()
