"""The stack's own limit in bench/load.py: its minimal endpoints (``bench/limit_app``) started
with what the product's burst answered, and one of its step test's steps."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable

from load_gen import Record, arrivals, p, submit
from load_stack import (
    NAVIGATION_ACCEPT,
    Stack,
    causes,
    cpu_by_part,
    fetch,
    print_cpu,
    quiet,
)


def limit_step(stack: Stack, step_count: Callable[[int], int], target_ms: float):
    """A function that runs one of the limit's steps at a rate (``step_count(rate)`` reports,
    one fresh token each, on the minimal endpoint alone) and says whether its p99 stayed
    within ``target_ms`` with no error."""
    used = [0]

    def held_at(rate: int) -> bool:
        count = step_count(rate)
        reports = [
            (f"limit-{used[0] + n}", {"result": "won" if n % 2 else "lost", "margin": 1 + n % 60})
            for n in range(count)
        ]
        used[0] += count
        waited = quiet(stack)
        record, cpu_before, clock = Record(), cpu_by_part(stack), time.monotonic()
        offsets = arrivals(count, rate, random.Random(rate))
        asyncio.run(
            submit(stack.limit_port, reports, offsets, record, path="/limit/{}/", keyed=False)
        )
        print_cpu(cpu_before, cpu_by_part(stack), time.monotonic() - clock, count)
        p99 = p(record.submissions, 99)
        held = p99 <= target_ms and not record.errors
        print(f"limit step {rate}/s: {count} reports, p50 {p(record.submissions, 50):.0f} ms, "
              f"p99 {p99:.0f} ms, {len(record.errors)} errors (the stack quiet {waited:.1f} s "
              f"before it){'' if held else '  <- not held'}")  # fmt: skip
        causes(record, stack, "limit")
        return held

    return held_at


LIMIT_PATHS = {
    "page": "/limit/standings/",
    "open": "/limit/open/{token}/",
    "poll": "/limit/poll/{token}/",
}


def limit_start(stack: Stack, event, everyone) -> None:
    """The minimal endpoints' gunicorn, told what the product's burst answered: the phones'
    pace for this field and the sizes of a live part and of the full standings page."""
    from tournaments.selectors.live import poll_seconds

    page = asyncio.run(fetch(stack.web_port, "GET", f"/events/{event.pk}/standings/",
                             accept=NAVIGATION_ACCEPT))  # fmt: skip
    live = asyncio.run(fetch(stack.web_port, "GET", f"/r/{everyone[0]}/?part=live"))
    opened = asyncio.run(fetch(stack.web_port, "GET", f"/r/{everyone[0]}/",
                               accept=NAVIGATION_ACCEPT))  # fmt: skip
    stack.env.update(
        LIMIT_POLL_SECONDS=str(poll_seconds(event_id=event.pk)),
        LIMIT_PAGE_BYTES=str(len(page.payload)),
        LIMIT_LIVE_BYTES=str(len(live.payload)),
        LIMIT_OPEN_BYTES=str(len(opened.payload)),
    )
    print(f"limit: paced every {stack.env['LIMIT_POLL_SECONDS']} s, a standings page of "
          f"{len(page.payload):,} bytes as sent ({len(page.body):,} unpacked), a live part of "
          f"{len(live.payload):,}, a player's page of {len(opened.payload):,}")  # fmt: skip
    stack.start_limit()
