"""Benchmark: a 1,024-player weekend burst on the production stack, against the stack's own
limit, in one run. ``make bench-load`` (``--no-analyze``: without planner statistics).

Starts, on this machine: gunicorn with production settings (DEBUG off, ``gunicorn.conf.py``:
the worker model and count the production image uses), a Celery worker, a Redis server of its
own, and a second gunicorn with the same settings serving the minimal endpoint of
``bench/limit_app`` (token lookup, one insert in a transaction, a small JSON 201); PostgreSQL
is the one at ``PEGBOARD_BENCH_DATABASE_URL`` (default
``postgres://postgres@127.0.0.1:5432/pegboard_bench``; a throw-away ``test_`` database is
created and dropped; the temporary directory of logs and static files is removed, even after a
failure). The load generator (``bench/load_gen.py``) runs in this process, on the same cores.
It is open-loop: every request is sent when it is due whatever the server does, timed from
that moment, and arrivals are random (Poisson). No page is opened before a phase: a phone's
first request, within its first 3.5-4 s, opens its whole page.

Planner statistics: by default ``ANALYZE`` runs after each set-up (as the CSV import and the
pairing job do in production). ``--no-analyze`` (or ``BENCH_STATISTICS=none``) turns
autovacuum off on the bench's tables and erases their statistics after each set-up (as on a
database whose statistics were never gathered); the run prints which.

1. Burst: game 1's card lines (both cards of every table) are posted to
   ``POST /api/v1/report/<token>/``, each with its own ``Idempotency-Key`` as the player's page
   sends it, at random over ``BENCH_BURST_SECONDS``, while 200 spectators each fetch the public
   standings page every 5 s (a full page, the heavier case; every request says, as Chromium's
   do, that it unpacks gzip, and the page comes compressed; the bench unpacks only the bodies
   it reads) and every player's phone opens its page (the whole page, which says which version
   of its live part it holds) and then polls that part as ``static/js/live.js`` does (at the
   pace the server gives, with the last ETag it got). Measured: latencies, errors (an answer
   that is not 201 for a report, 200/304 for a page, or none within 30 s), pages and polls
   answered after the same client's next one was due (late) or not answered when the phase
   ended (outstanding), and the standings lag (from the last report's answer until the public
   standings show every verified line). Then the database: every line stored, every table
   verified.
2. Burst, the limit: the same phase on the minimal endpoints of ``bench/limit_app`` (a report,
   a phone's poll and a spectator's page at their least, paced and sized as the product's
   answers were): as many phones polling from their first second, one report each, the same
   spectators. Its p99 is what this machine's stack itself gives under the same storm of page
   openings (``limit_burst_p99_ms``), to read Pegboard's burst p99 against.
3. Step test, Pegboard: for each rate of ``BENCH_STEPS`` fresh events (untimed set-up) of
   ``BENCH_PLAYERS`` players each, as many as ``rate x BENCH_STEP_SECONDS`` reports need
   (whole tables: both cards, so every table verifies; a weekend's events side by side, not
   one event of 5,000 players); ``BENCH_PLAYERS`` of their players' phones poll
   (``BENCH_POLLING=0``: none), 200 spectators watch the first event's standings, and the
   reports arrive at random at that rate. A step is a new round of events under way: each
   phone has been on its page since an earlier round (``BENCH_STEP_PHONES=round``, the
   default), so it opens nothing; its first request is the poll live.js makes at the pace the
   server gave it, with that earlier round's version, which brings the new round's part (a
   200, rendered for the step's fresh tables, timed); ``BENCH_STEP_PHONES=open``: every phone
   opens its whole page in its first 3.5-4 s of every step, as in the burst (a storm of 1,024
   openings that no round but a weekend's first makes). The knee is the highest rate whose p99 stays
   <= 300 ms with no error and every table verified: the grid's rates until one fails, then
   ``BENCH_REFINE`` steps halfway between the last that held and the first that failed. A step
   that fails is run ``BENCH_AGAIN`` more times: a rate fails when every run of it fails.
4. Step test, the limit: the same rates and seconds, the same generator, one fresh token per
   report, on the minimal endpoint alone.

Steps 3 and 4 run in turn: a step of Pegboard's, then one of the limit's, each search following
its own rates (the one that ends first leaves the other to go on alone), so that a drift of the
machine's speed during the run falls on both knees alike (``BENCH_INTERLEAVE=0``: all of
Pegboard's steps, then all of the limit's). Before each step the bench waits, at most 20 s,
until the stack's servers have been quiet (under 0.05 of a core) for 2.5 s: what the last step
or set-up left running (the standings job, WAL, statistics) is not measured in the next one.

Last line: ``load: statistics=<analyzed|none> submissions=<n> errors=<e> p50_ms=<x>
p99_ms=<y> page_p99_ms=<z> standings_lag_s=<s> limit_burst_p99_ms=<b> knee_per_s=<k>
limit_knee_per_s=<l> knee_ratio=<k/l>``.

Environment: ``BENCH_PLAYERS`` (1024), ``BENCH_BURST_SECONDS`` (60), ``BENCH_STEPS``
(``30,60,90,120,160,200,250``), ``BENCH_STEP_SECONDS`` (20; less only to try the bench out),
``BENCH_MAX_RATE`` (1000: the steps go on past ``BENCH_STEPS`` by a quarter each until one
fails), ``BENCH_REFINE`` (2: then that many steps halfway between the last rate that held and
the first that failed, to 10/s, for Pegboard and the limit alike), ``BENCH_AGAIN`` (1: a
failed step is run once more before its rate counts as failed), ``BENCH_SPECTATORS``
(200), ``BENCH_POLLING`` (1), ``BENCH_STATISTICS`` (``analyzed``),
``BENCH_GUNICORN_ARGS`` (extra arguments for both gunicorns, e.g. ``--workers 5``),
``BENCH_STEP_PHONES`` (``round``; ``open``), ``BENCH_INTERLEAVE`` (1), ``BENCH_PHASES``
(``all``; ``burst``: phases 1 and 2 alone, about 3 minutes, to compare two commits' bursts
run in turn; last line ``load-burst: statistics submissions errors p50_ms p99_ms page_p99_ms
standings_lag_s limit_burst_p99_ms``).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import time

import production_django  # noqa: F401  (bench/: Django set up first)

# isort: split
from django.db import connection  # noqa: E402
from load_gen import (  # noqa: E402  (bench/)
    Record,
    Watchers,
    arrivals,
    capped,
    interleaved,
    knee_steps,
    loop_lag,
    p,
    settled_p99,
    submit,
)
from load_limit import LIMIT_PATHS, limit_start, limit_step  # noqa: E402  (bench/)
from load_setup import (  # noqa: E402  (bench/)
    event_with_game,
    polled,
    statistics_mode,
    statistics_settle,
    step_events,
)
from load_stack import (  # noqa: E402
    Stack,
    causes,
    cpu_by_part,
    fetch,
    print_cpu,
    print_waits,
    processor,
    quiet,
    stop_on_terminate,
)

from bench.limit_app import tables_create  # noqa: E402
from tournaments.models import CardLine, Table  # noqa: E402

PLAYERS = int(os.environ.get("BENCH_PLAYERS", 1024))
BURST_SECONDS = float(os.environ.get("BENCH_BURST_SECONDS", 60))
STEPS = [int(r) for r in os.environ.get("BENCH_STEPS", "30,60,90,120,160,200,250").split(",") if r]
STEP_SECONDS = float(os.environ.get("BENCH_STEP_SECONDS", 20))
MAX_RATE = int(os.environ.get("BENCH_MAX_RATE", 1000))
REFINE = int(os.environ.get("BENCH_REFINE", 2))
AGAIN = int(os.environ.get("BENCH_AGAIN", 1))
SPECTATORS = int(os.environ.get("BENCH_SPECTATORS", 200))
POLLING = os.environ.get("BENCH_POLLING", "1") not in ("0", "false", "no")
STEP_PHONES = os.environ.get("BENCH_STEP_PHONES", "round")
INTERLEAVE = os.environ.get("BENCH_INTERLEAVE", "1") not in ("0", "false", "no")
PHASES = os.environ.get("BENCH_PHASES", "all")
STEP_WORDS = {"round": "are on their pages since an earlier round", "open": "open their pages"}
if STEP_PHONES not in STEP_WORDS:
    sys.exit(f"BENCH_STEP_PHONES is 'round' or 'open', not {STEP_PHONES!r}")
if PHASES not in ("all", "burst"):
    sys.exit(f"BENCH_PHASES is 'all' or 'burst', not {PHASES!r}")
TARGET_MS = 300
# Every phone opens its page within its first poll's 3.5-4 s: what the burst's reports sent
# after this many seconds met is printed apart (the headline p99 counts every report).
OPENED_SECONDS = 10.0


def step_count(rate: int) -> int:
    """Reports in a step: ``rate x STEP_SECONDS``, whole tables."""
    return max(2, round(rate * STEP_SECONDS / 2) * 2)


async def standings_lag(port, event_id: int, verified: int, record: Record) -> float:
    """Seconds from the last report's answer until the public standings show ``verified``
    verified lines (checked every 0.2 s, for at most 60 s)."""
    wanted = f"After {verified} verified card lines".encode()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        answer = await fetch(port, "GET", f"/events/{event_id}/standings/?part=live")
        if wanted in answer.body:
            return max(0.0, time.monotonic() - record.last_submission_at)
        await asyncio.sleep(0.2)
    return float("inf")


async def phase(port, event_id, reports, rate, pollers, lag_after=None, limit=False, held=None):
    """``reports`` posted at random at ``rate`` a second while ``pollers`` poll and the
    spectators watch; the standings lag when ``lag_after`` (verified lines) is given.
    ``limit``: the same phase on the minimal endpoints (``bench/limit_app``). ``held``: the
    phones are on their pages since an earlier round, paced every ``held`` s (``Watchers``)."""
    record = Record()
    paths = LIMIT_PATHS if limit else None
    pollers = pollers if POLLING else []
    watchers = Watchers(port, event_id, pollers, record, SPECTATORS, paths, held=held)
    clients = watchers.start()
    lagging = asyncio.ensure_future(loop_lag(record))
    offsets = arrivals(len(reports), rate, random.Random(event_id * 7919 + rate))
    if limit:
        await submit(port, reports, offsets, record, path="/limit/{}/", keyed=False)
    else:
        await submit(port, reports, offsets, record)
    lag = None
    if lag_after is not None:
        lag = await standings_lag(port, event_id, lag_after, record)
    await watchers.stop(clients)
    lagging.cancel()
    return record, lag


def stored(event) -> tuple[int, int]:
    """Reported lines stored, and tables not verified, in ``event``'s game 1."""
    lines = CardLine.objects.filter(
        seat__game__event=event, seat__game__number=1, kind="reported", current=True
    ).count()
    tables = Table.objects.filter(game__event=event, game__number=1, status="verified").count()
    return lines, tables


def rates():
    """``BENCH_STEPS``, then on by a quarter each time until a step fails (or ``MAX_RATE``): a
    knee at the last step asked for would only say "at least", and the ratio would flatter."""
    yield from STEPS
    rate = STEPS[-1]
    while rate < MAX_RATE:
        rate = min(MAX_RATE, int(rate * 1.25) // 10 * 10)
        yield rate


def pegboard_step(stack: Stack, director, mode: str):
    """A function that runs one of Pegboard's steps at a rate and says whether it held."""
    from tournaments.selectors.live import poll_seconds

    def held_at(rate: int) -> bool:
        count, started = step_count(rate), time.perf_counter()
        events, reports, everyone = step_events(director, rate, count, PLAYERS)
        statistics_settle(mode)
        set_up, waited = time.perf_counter() - started, quiet(stack)
        print(f"step {rate}/s: set-up {len(events)} event(s) of {PLAYERS} players "
              f"({set_up:.0f} s, untimed; the stack quiet {waited:.1f} s after it)")  # fmt: skip
        # A new round: the phones are on their pages since an earlier one, at the pace the
        # server gives a field of this size (BENCH_STEP_PHONES=round), or open them (open).
        held = poll_seconds(event_id=events[0].pk) if STEP_PHONES == "round" else None
        since, cpu_before, clock = time.time(), cpu_by_part(stack), time.monotonic()
        # The spectators watch the first event's standings (a page of the burst's size).
        step, _ = asyncio.run(phase(stack.web_port, events[0].pk, reports, rate,
                                    polled(reports, everyone, PLAYERS), held=held))  # fmt: skip
        print_cpu(cpu_before, cpu_by_part(stack), time.monotonic() - clock, count)
        found = [stored(event) for event in events]
        lines, verified = sum(f[0] for f in found), sum(f[1] for f in found)
        unverified = count // 2 - verified
        p99 = p(step.submissions, 99)
        held = p99 <= TARGET_MS and not step.errors and lines == count and not unverified
        print(f"  {count} reports, p50 {p(step.submissions, 50):.0f} ms, p99 {p99:.0f} ms, "
              f"polls p99 {p(step.polls, 99):.0f} ms, late {step.late}, outstanding "
              f"{step.outstanding}, {len(step.errors)} errors, {count - lines} lines missing, "
              f"{unverified} tables not verified{'' if held else '  <- not held'}")  # fmt: skip
        print_waits(stack.waits(since, time.time()), step)
        causes(step, stack)
        return held

    return held_at


def limit_burst(stack: Stack, first_token: int) -> float:
    """The burst's phase on the minimal endpoints: as many phones polling from their first
    second, each posting one report at random over the same seconds, the same spectators.
    Returns its p99 (ms): what this machine's stack answers under the same storm."""
    tokens = [f"limit-{first_token + n}" for n in range(PLAYERS)]
    rng = random.Random(PLAYERS)
    reports = [(t, {"result": rng.choice(["won", "lost"]), "margin": rng.randint(1, 60)})
               for t in tokens]  # fmt: skip
    rng.shuffle(reports)
    record, _ = asyncio.run(phase(stack.limit_port, 0, reports, PLAYERS / BURST_SECONDS,
                                  tokens, limit=True))  # fmt: skip
    settled, count = settled_p99(record, OPENED_SECONDS)
    print(f"limit burst: {len(record.submissions)} reports, p50 "
          f"{p(record.submissions, 50):.0f} ms, p99 {p(record.submissions, 99):.0f} ms "
          f"(after the first {OPENED_SECONDS:.0f} s: {settled:.0f} ms); standings page p99 "
          f"{p(record.pages, 99):.0f} ms, polls p99 {p(record.polls, 99):.0f} ms; late "
          f"{record.late}, {len(record.errors)} errors")  # fmt: skip
    causes(record, stack, "limit")
    return p(record.submissions, 99)


def burst(stack: Stack, event, reports, everyone):
    cpu_before, clock, since = cpu_by_part(stack), time.monotonic(), time.time()
    rate = len(reports) / BURST_SECONDS
    record, lag = asyncio.run(phase(stack.web_port, event.pk, reports, rate, everyone,
                                    lag_after=len(reports)))  # fmt: skip
    print_cpu(cpu_before, cpu_by_part(stack), time.monotonic() - clock)
    print_waits(stack.waits(since, time.time()))
    print(
        f"burst: {len(record.submissions)} reports over ~{BURST_SECONDS:.0f} s, "
        f"p50 {p(record.submissions, 50):.0f} ms, p99 {p(record.submissions, 99):.0f} ms; "
        f"standings page p99 {p(record.pages, 99):.0f} ms ({len(record.pages)}), "
        f"polls p99 {p(record.polls, 99):.0f} ms ({len(record.polls)}); late {record.late}, "
        f"outstanding {record.outstanding}; standings lag {lag:.1f} s; generator loop late "
        f"p99 {p(record.loop_lag, 99):.0f} ms, max {max(record.loop_lag, default=0):.0f} ms"
    )
    settled, count = settled_p99(record, OPENED_SECONDS)
    print(f"  after the first {OPENED_SECONDS:.0f} s (every phone's page opened): p99 "
          f"{settled:.0f} ms over {count} reports")  # fmt: skip
    causes(record, stack)
    lines, verified = stored(event)
    unverified = len(reports) // 2 - verified
    print(f"  database: {lines} of {len(reports)} lines stored, {unverified} tables not "
          "verified")  # fmt: skip
    return record, lag, len(record.errors) + (len(reports) - lines) + unverified


def main() -> None:
    from django.test.utils import setup_test_environment

    mode = statistics_mode(sys.argv[1:])
    stop_on_terminate()  # a kill cleans up as a finished run does
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    stack = None
    try:
        stack = Stack()
        # The limit's steps: every rate of the grid, and the halfway steps after it.
        # (each failed rate is run 1 + AGAIN times: the first failure and the refined ones)
        most = step_count(MAX_RATE)
        steps_tokens = sum(step_count(r) for r in rates()) + (AGAIN + REFINE * (1 + AGAIN)) * most
        with connection.cursor() as cursor:
            tables_create(cursor, steps_tokens + PLAYERS)  # the limit's steps, then its burst
        started = time.perf_counter()
        statistics_settle(mode, before_setup=True)
        event, reports, everyone = event_with_game(None, "Load weekend", PLAYERS)
        statistics_settle(mode)
        with connection.cursor() as cursor:
            cursor.execute("SHOW autovacuum")
            autovacuum = cursor.fetchone()[0]
        print(f"set-up: {PLAYERS} players, game 1 published ({time.perf_counter() - started:.0f} s,"
              f" untimed); planner statistics: {mode}; PostgreSQL autovacuum "
              f"{autovacuum}")  # fmt: skip
        if autovacuum != "on":
            print(
                "  (autovacuum is off on this server, unlike production (README): the card lines'"
                " statistics come from the standings job alone; see bench/poll_plan.py)"
            )
        if STEP_SECONDS < 20:
            print(f"  (steps of {STEP_SECONDS:.0f} s: too short to measure a knee; a try-out)")
        stack.start()
        gunicorn = os.environ.get("BENCH_GUNICORN_ARGS", "") or "gunicorn.conf.py"
        print(f"stack: gunicorn ({gunicorn}), a Celery worker, Redis, PostgreSQL, the limit's "
              f"gunicorn; {os.cpu_count()} cores ({processor()}) shared with the load generator; "
              f"polling {'on' if POLLING else 'off'}, {SPECTATORS} spectators; in the steps the "
              f"phones {STEP_WORDS[STEP_PHONES]} (BENCH_STEP_PHONES={STEP_PHONES})")  # fmt: skip
        record, lag, errors = burst(stack, event, reports, everyone)
        limit_start(stack, event, everyone)
        limit_p99 = limit_burst(stack, steps_tokens)
        if PHASES == "burst":  # the two bursts alone: their own last line, no knee
            print(
                f"load-burst: statistics={mode} submissions={len(record.submissions)} "
                f"errors={errors} p50_ms={p(record.submissions, 50):.0f} "
                f"p99_ms={p(record.submissions, 99):.0f} "
                f"page_p99_ms={p(record.pages + record.polls, 99):.0f} "
                f"standings_lag_s={lag:.1f} limit_burst_p99_ms={limit_p99:.0f}"
            )
            return
        # The two stacks' steps in turn, each following its own rates until both have ended,
        # so a drift of the machine's speed falls on both (BENCH_INTERLEAVE=0: Pegboard's
        # steps, then the limit's, as up to the fifteenth session).
        searches = {
            "pegboard": (
                knee_steps(rates(), REFINE, AGAIN),
                pegboard_step(stack, event.director, mode),
            ),
            "limit": (
                knee_steps(rates(), REFINE, AGAIN),
                limit_step(stack, step_count, TARGET_MS),
            ),
        }
        if INTERLEAVE:
            knees, _ = interleaved(searches)
        else:
            knees = {
                name: interleaved({name: search})[0][name] for name, search in searches.items()
            }
        knee, limit = knees["pegboard"], knees["limit"]
    finally:
        if stack is not None:
            stack.stop()
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)
    ratio = knee / limit if limit else 0.0
    for note in capped(knee, limit, MAX_RATE):
        print(note)
    print(
        f"load: statistics={mode} submissions={len(record.submissions)} errors={errors} "
        f"p50_ms={p(record.submissions, 50):.0f} p99_ms={p(record.submissions, 99):.0f} "
        f"page_p99_ms={p(record.pages + record.polls, 99):.0f} standings_lag_s={lag:.1f} "
        f"limit_burst_p99_ms={limit_p99:.0f} knee_per_s={knee} limit_knee_per_s={limit} "
        f"knee_ratio={ratio:.2f}"
    )


if __name__ == "__main__":
    main()
