"""Benchmark: the limits (tournaments/throttles.py) on the production stack.
``python bench/throttle.py`` (``--unthrottled`` to compare).

The stack and the events are bench/load.py's (gunicorn with production settings, a Celery
worker, a Redis server of its own that also keeps the limits' counts, PostgreSQL at
``PEGBOARD_BENCH_DATABASE_URL``; events of 1,024 checked-in players). The room is one venue: every
phone, the 200 spectators and 5 phones left open on links that do not work (a mistyped or
replaced link, polled every 3.5-4 s like any page) all come from ONE address, 127.0.0.1.

1. Quiet: game 1's 1,024 reports over ``BENCH_BURST_SECONDS`` (60) while every player opens
   their page and polls its live part (``If-None-Match``, 304 while unchanged) and the
   spectators reload the standings page every 5 s, as in bench/load.py's burst.
2. Flood: the same in a second event of 1,024 players, and during the reports two bad
   clients, each a process of its own (bench/flood.py) that never waits for ``Retry-After``:
   40 connections asking the 1,000-row standings API (``/api/v1/events/<id>/standings/``)
   again and again from 127.0.0.2, and one connection guessing private links at full speed
   from 127.0.0.3.

Between the phases, what each kind of request costs the web process in CPU time, limits on and
off (bench/throttle_costs.py): figures a busy machine hardly changes. Printed per phase: the
reports' p50/p99, the room's polls and pages, each bad client's answers
by status and when its first 429 came, the cores each process used. Last line:
``throttle: flood_429=<429s>/<requests> guesses_429=<429s>/<requests>
report_p50_ms_quiet=<x> report_p99_ms_quiet=<y> report_p50_ms_flood=<x> report_p99_ms_flood=<y>
p50_ratio=<flood/quiet> room_429=<n>`` (``room_429``: 429s answered to the venue, any phase;
it must be 0).

``--unthrottled`` runs the same with limits too high to matter, to see what the limits buy.
Environment: as bench/load.py (``BENCH_PLAYERS``, ``BENCH_BURST_SECONDS``,
``BENCH_GUNICORN_ARGS``), ``BENCH_SPECTATORS`` (200), ``THROTTLE_ANON_RATE`` and
``THROTTLE_LINK_MISSES_RATE`` (the limits under test; default the production ones).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: E402  (bench/load.py: sets up Django with production settings)
from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from load import BURST_SECONDS, PLAYERS  # noqa: E402
from load_gen import POLL_EVERY, TIMEOUT, Record, p  # noqa: E402
from load_setup import event_with_game, statistics_settle  # noqa: E402
from load_stack import (  # noqa: E402
    ROOT,
    Stack,
    causes,
    cpu_by_part,
    fetch,
    print_cpu,
    stop_on_terminate,
)
from throttle_costs import measure, print_costs  # noqa: E402

from tournaments.models import CardLine  # noqa: E402

# The room's spectators (bench/load.py's 200 by default): fewer lets a busy machine serve the
# room at all, so that what the flood adds can be seen.
load.SPECTATORS = int(os.environ.get("BENCH_SPECTATORS", load.SPECTATORS))
load.POLLING = True  # the room's phones always poll here (BENCH_POLLING is load.py's)
STALE_PHONES = 5
FLOOD_CONNECTIONS = 40
FLOOD_FROM, GUESS_FROM = "127.0.0.2", "127.0.0.3"


async def stale_phones(port: int, record: Record, stop: asyncio.Event) -> None:
    """Phones left open on a link that does not work: each polls its dead link as live.js
    does (404 every time; a 429 would mean the venue was blocked)."""

    async def phone(link: str) -> None:
        await asyncio.sleep(secrets.randbelow(4000) / 1000)
        while not stop.is_set():
            try:
                answer = await asyncio.wait_for(
                    fetch(port, "GET", f"/r/{link}/?part=live"), TIMEOUT
                )
            except (TimeoutError, OSError) as exc:
                record.errors.append(f"dead link: {type(exc).__name__}: {exc}")
            else:
                if answer.status != 404:
                    record.errors.append(f"dead link {answer.status}: {answer.body[:200]!r}")
            await asyncio.sleep(POLL_EVERY + secrets.randbelow(500) / 1000)

    await asyncio.gather(*(phone(secrets.token_urlsafe(24)) for _ in range(STALE_PHONES)))


def start_bad_clients(stack: Stack, event_id: int) -> None:
    flood = Path(__file__).resolve().parent / "flood.py"
    common = ["--port", str(stack.web_port), "--seconds", str(BURST_SECONDS + 30)]
    commands = {
        "flood": ["read", "--path", f"/api/v1/events/{event_id}/standings/",
                  "--connections", str(FLOOD_CONNECTIONS), "--source", FLOOD_FROM],
        "guesser": ["guess", "--connections", "1", "--source", GUESS_FROM],
    }  # fmt: skip
    for name, args in commands.items():
        stack.procs[name] = subprocess.Popen(
            [sys.executable, str(flood), *args, *common], cwd=ROOT, stdout=subprocess.PIPE
        )


def stop_bad_clients(stack: Stack) -> dict[str, dict]:
    results = {}
    for name in ("flood", "guesser"):
        proc = stack.procs.pop(name)
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
        results[name] = json.loads(out.decode().strip().splitlines()[-1])
    return results


async def phase(stack: Stack, event_id: int, reports, everyone, flood: bool):
    """One game's reports over ``BURST_SECONDS`` with the room as bench/load.py's burst has it
    (every phone opens its page and polls, the spectators reload) and the stale phones; with
    ``flood``, the bad clients too."""
    port, stale, stop = stack.web_port, Record(), asyncio.Event()
    dead = asyncio.create_task(stale_phones(port, stale, stop))
    if flood:
        start_bad_clients(stack, event_id)
        await asyncio.sleep(1)  # the bad clients started (a Python process each)
    cpu_before, clock = cpu_by_part(stack), time.monotonic()
    record, _ = await load.phase(port, event_id, reports, len(reports) / BURST_SECONDS, everyone)
    print_cpu(cpu_before, cpu_by_part(stack), time.monotonic() - clock)
    bad = stop_bad_clients(stack) if flood else {}
    stop.set()
    await dead
    record.errors += stale.errors
    return record, bad


def report_phase(name: str, record: Record, bad: dict, stack: Stack) -> int:
    """Print the phase; the number of 429s the room got."""
    room_429 = sum(" 429" in error for error in record.errors)
    print(
        f"{name}: {len(record.submissions)} reports in {BURST_SECONDS:.0f} s, "
        f"p50 {p(record.submissions, 50):.0f} ms, p99 {p(record.submissions, 99):.0f} ms; "
        f"polls {len(record.polls)} (p99 {p(record.polls, 99):.0f} ms), standings pages "
        f"{len(record.pages)} (p99 {p(record.pages, 99):.0f} ms); 429s to the venue: {room_429}"
    )
    for who, result in bad.items():
        per_s = result["requests"] / max(result["seconds"], 0.1)
        print(f"  {who}: {result['requests']} requests ({per_s:.0f}/s), answers "
              f"{result['statuses']}, first 429 after {result['first_429_s']} s")  # fmt: skip
    causes(record, stack)
    return room_429


def _share(result: dict) -> str:
    return f"{result['statuses'].get('429', 0)}/{result['requests']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unthrottled", action="store_true", help="limits too high to matter")
    args = parser.parse_args()
    if args.unthrottled:
        os.environ["THROTTLE_ANON_RATE"] = os.environ["THROTTLE_LINK_MISSES_RATE"] = "1000000/s"
    defaults = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    rates = {
        "anon": os.environ.get("THROTTLE_ANON_RATE") or defaults["anon_read"],
        "link_misses": os.environ.get("THROTTLE_LINK_MISSES_RATE") or defaults["link_misses"],
    }
    from django.test.utils import setup_test_environment

    stop_on_terminate()  # a kill cleans up as a finished run does
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    stack = Stack()
    try:
        # Two events of the burst's size: the quiet phase's game 1, then the flooded one's.
        rooms = [event_with_game(None, f"Throttle {name}", PLAYERS) for name in ("quiet", "flood")]
        statistics_settle("analyzed")
        stack.start()
        print(f"stack: gunicorn, a Celery worker, Redis (also the limits' counts), PostgreSQL; "
              f"{os.cpu_count()} cores shared with the load generator; limits: anonymous API "
              f"reads {rates['anon']}, unknown links {rates['link_misses']}; room: "
              f"{PLAYERS} players, {load.SPECTATORS} spectators")  # fmt: skip
        (quiet_event, quiet_reports, quiet_everyone), flood_room = rooms
        quiet, _ = asyncio.run(phase(stack, quiet_event.pk, quiet_reports, quiet_everyone, False))
        room_429 = report_phase("quiet", quiet, {}, stack)
        print_costs(measure(stack, quiet_event.pk, quiet_reports[0][0]))
        flood_event, flood_reports, flood_everyone = flood_room
        flooded, bad = asyncio.run(
            phase(stack, flood_event.pk, flood_reports, flood_everyone, True)
        )
        room_429 += report_phase("flood", flooded, bad, stack)
        stored = CardLine.objects.filter(
            seat__game__event__in=[quiet_event, flood_event], seat__game__number=1,
            kind="reported", current=True,
        ).count()  # fmt: skip
        sent = len(quiet_reports) + len(flood_reports)
        print(f"  database: {stored} of {sent} reported lines stored")
    finally:
        for name in ("flood", "guesser"):
            if name in stack.procs:
                stack.procs.pop(name).kill()
        stack.stop()
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)
    quiet_p50, flood_p50 = p(quiet.submissions, 50), p(flooded.submissions, 50)
    print(
        f"throttle: flood_429={_share(bad['flood'])} guesses_429={_share(bad['guesser'])} "
        f"report_p50_ms_quiet={quiet_p50:.0f} report_p99_ms_quiet={p(quiet.submissions, 99):.0f} "
        f"report_p50_ms_flood={flood_p50:.0f} report_p99_ms_flood={p(flooded.submissions, 99):.0f} "
        f"p50_ratio={flood_p50 / max(quiet_p50, 0.1):.1f} room_429={room_429}"
    )


if __name__ == "__main__":
    main()
