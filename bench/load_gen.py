"""The open-loop load generator of bench/load.py: every request is sent at its scheduled time
whatever the server does, and timed from that time (a slow answer never delays or hides the
next request: a queue in front of the server counts in the latency, as the phones feel it).

Reports arrive as a Poisson process (exponential gaps) at a given rate; spectators and polling
phones each fire on their own clock (a phone's next poll is due 3.5-4 s after the previous one
was DUE, not answered; or, as static/js/live.js does, after the seconds the server's last
answer gave in ``X-Poll-Seconds``, plus up to a seventh) and what is still unanswered when the
next one is due is counted late.

A phone's first request opens its page, as a player does: the whole page (``/r/<link>/``),
which says which version of its live part it holds (``data-live-version``, as static/js/live.js
reads it); its polls then send that version as their ETag. A phone that has been on its page
since an earlier round (``Watchers(held=...)``) opens nothing: its first request is the poll
live.js makes at the pace the server gave it, with the version of that earlier round, and the
new round's part comes back (200); its polls go on from there."""

from __future__ import annotations

import asyncio
import random
import re
import statistics
import time
import uuid
from dataclasses import dataclass, field

from load_stack import FETCH_ACCEPT, NAVIGATION_ACCEPT, fetch

TIMEOUT = 30.0  # seconds; then the request counts as an error (gunicorn's own timeout)
SPECTATOR_EVERY = 5.0
POLL_EVERY = 3.5  # as static/js/live.js: until the server says otherwise, then up to a 7th later
HELD_VERSION = re.compile(rb'data-live-version="([^"]+)"')
PAGE_PACE = re.compile(rb'data-live-seconds="([0-9.]+)"')


@dataclass
class Record:
    submissions: list[float] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    late: int = 0  # page or poll answers that came after the same client's next one was due
    outstanding: int = 0  # page or poll requests unanswered when the phase ended
    last_submission_at: float = 0.0
    loop_lag: list[float] = field(default_factory=list)  # ms the generator's own loop ran late
    sent_at: list[float] = field(default_factory=list)  # s from the phase's start, per submission


async def loop_lag(record: Record, every: float = 0.02) -> None:
    """How late the generator's event loop wakes (ms), every ``every`` s until cancelled: the
    generator shares the cores with the server, and a late loop reads answers late."""
    while True:
        due = time.perf_counter() + every
        await asyncio.sleep(every)
        record.loop_lag.append((time.perf_counter() - due) * 1000)


def arrivals(count: int, rate: float, rng: random.Random) -> list[float]:
    """``count`` offsets (s) of a Poisson process of ``rate`` a second."""
    at, offsets = 0.0, []
    for _ in range(count):
        at += rng.expovariate(rate)
        offsets.append(at)
    return offsets


async def timed(port, method, path, due: float, record: Record, what: str, **kwargs):
    """Send at ``due`` (perf_counter), return (answer or None, ms since ``due``)."""
    await asyncio.sleep(max(0.0, due - time.perf_counter()))
    try:
        answer = await asyncio.wait_for(fetch(port, method, path, **kwargs), TIMEOUT)
    except (TimeoutError, OSError) as exc:
        record.errors.append(f"{what}: {type(exc).__name__}: {exc}")
        return None, None
    return answer, (time.perf_counter() - due) * 1000


async def submit(
    port, reports, offsets, record: Record, *, path="/api/v1/report/{}/", keyed: bool = True
):
    """Post ``reports`` ((token, body)) at ``offsets`` from now; 201 expected. ``keyed``: each
    with its own ``Idempotency-Key``, as the player's page sends every report (its queue)."""
    start = time.perf_counter() + 0.05

    async def one(offset, token, body):
        headers = {"Idempotency-Key": str(uuid.uuid4())} if keyed else None
        answer, ms = await timed(
            port,
            "POST",
            path.format(token),
            start + offset,
            record,
            "submission",
            body=body,
            headers=headers,
        )
        if answer is None:
            return
        record.submissions.append(ms)
        record.sent_at.append(offset)
        record.last_submission_at = max(record.last_submission_at, time.monotonic())
        if answer.status != 201:
            record.errors.append(f"submission {answer.status}: {answer.body[:300]!r}")

    await asyncio.gather(*(one(o, t, b) for o, (t, b) in zip(offsets, reports, strict=True)))


class Watchers:
    """Spectators reloading the public standings and phones polling their live part, each on
    its own schedule, from ``start()`` until ``stop()``."""

    PATHS = {
        "page": "/events/{event}/standings/",
        "open": "/r/{token}/",
        "poll": "/r/{token}/?part=live",
    }

    # What a phone on its page since an earlier round sends first: that round's version,
    # which is not the new round's (the server answers 200 with the new part).
    EARLIER_ROUND = '"earlier-round"'

    def __init__(self, port, event_id, tokens, record: Record, spectators: int, paths=None,
                 held: float | None = None):  # fmt: skip
        """``held``: the phones have been on their pages since an earlier round, paced by
        the server every ``held`` s (``X-Poll-Seconds``); None: each opens its page first."""
        self.port, self.event_id, self.tokens = port, event_id, tokens
        self.record, self.spectators = record, spectators
        self.paths = paths or self.PATHS  # the limit's burst: its own poll and page
        self.held = held
        self.pending: set[asyncio.Task] = set()
        self.running = True
        self.rng = random.Random(event_id)

    def start(self) -> asyncio.Task:
        clients = [self._spectator() for _ in range(self.spectators)]
        clients += [self._phone(token) for token in self.tokens]
        return asyncio.ensure_future(asyncio.gather(*clients))

    async def stop(self, clients: asyncio.Task) -> None:
        self.running = False
        self.record.outstanding = sum(not task.done() for task in self.pending)
        await clients
        if self.pending:
            await asyncio.wait(self.pending)

    def _fire(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _clock(self, pace: dict, send) -> None:
        """Fire ``send`` every ``pace["every"]`` s plus up to ``pace["jitter"]`` of it (the
        pace is read at each turn: a phone's changes with the server's answers)."""
        due = time.perf_counter() + self.rng.random() * pace["every"] * (1 + pace["jitter"])
        while True:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            if not self.running:
                return
            gap = pace["every"] * (1 + self.rng.random() * pace["jitter"])
            self._fire(send(due, due + gap))
            due += gap

    async def _spectator(self) -> None:
        path = self.paths["page"].format(event=self.event_id)

        async def send(due, next_due):
            answer, ms = await timed(
                self.port, "GET", path, due, self.record, "page", accept=NAVIGATION_ACCEPT
            )
            if answer is not None:
                self._answered(self.record.pages, ms, next_due)
                if answer.status != 200:
                    self.record.errors.append(f"standings {answer.status}: {answer.body[:300]!r}")

        await self._clock({"every": SPECTATOR_EVERY, "jitter": 0.0}, send)

    async def _phone(self, token: str) -> None:
        """No page opened beforehand: the phone's first request opens its page (no ETag), and
        its polls start from the version the page says it holds. With ``held``, the page is
        the one of an earlier round: the first request is a poll, due within the server's
        pace, with that round's version."""
        if self.held:
            etag = {"value": self.EARLIER_ROUND, "opened": True}
            pace = {"every": self.held, "jitter": 1 / 7}
        else:
            etag = {"value": None, "opened": False}
            pace = {"every": POLL_EVERY, "jitter": 1 / 7}
        opening = self.paths["open"].format(token=token)
        path = self.paths["poll"].format(token=token)

        async def send(due, next_due):
            opens = not etag["opened"]
            etag["opened"] = True
            answer, ms = await timed(
                self.port, "GET", opening if opens else path, due, self.record, "poll",
                etag=None if opens else etag["value"],
                accept=NAVIGATION_ACCEPT if opens else FETCH_ACCEPT,
            )  # fmt: skip
            if answer is None:
                return
            self._answered(self.record.polls, ms, next_due)
            paced = float(answer.headers.get("x-poll-seconds") or 0)
            if opens and answer.status == 200:  # the page says it (data-live-seconds)
                said = PAGE_PACE.search(answer.body)
                paced = float(said.group(1)) if said else 0
            if paced >= 1:  # the server paces its phones (as live.js follows it)
                pace["every"] = paced
            if answer.status == 200 and opens:
                held = HELD_VERSION.search(answer.body)
                etag["value"] = f'"{held.group(1).decode()}"' if held else None
            elif answer.status == 200:
                etag["value"] = answer.headers.get("etag")
            elif answer.status != 304:
                self.record.errors.append(f"poll {answer.status}: {answer.body[:300]!r}")

        await self._clock(pace, send)

    def _answered(self, into: list[float], ms: float, next_due: float) -> None:
        into.append(ms)
        if time.perf_counter() > next_due:
            self.record.late += 1


def settled_p99(record: Record, after: float) -> tuple[float, int]:
    """p99 (ms) of the submissions sent ``after`` s or later into the phase (once every phone
    has opened its page), and how many there were."""
    later = [ms for ms, at in zip(record.submissions, record.sent_at, strict=True) if at >= after]
    return p(later, 99), len(later)


def p(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def _holds(rate: int, again: int):
    """Runs of one rate (yielded, each sent whether it held) until one holds, at most
    ``1 + again``: a rate fails only when every run of it fails."""
    for _ in range(1 + again):
        if (yield rate):
            return True
    return False


def knee_steps(rates, refine: int = 2, again: int = 1):
    """The knee search, one step at a time: yields each rate to run and is sent whether that
    step held; its return value is the knee, the highest rate that held. ``rates`` in turn
    until one fails, then up to ``refine`` steps halfway between the last that held and the
    first that failed (to 10/s), so a knee is not read off a grid whose steps are a quarter
    apart: a ratio of two knees on that grid was up to a quarter off. A step that fails is run
    ``again`` more times and the rate fails only if every run fails: on a 2-core machine one
    stall of the whole machine (the limit at 90/s: p99 854 ms, in a run where it held 250/s)
    failed a step whatever the load, and a knee read off one stall measures the stall."""
    knee, failed = 0, None
    for rate in rates:
        if not (yield from _holds(rate, again)):
            failed = rate
            break
        knee = rate
    for _ in range(refine):
        if failed is None:
            break
        rate = (knee + failed) // 20 * 10
        if rate <= knee:
            break
        if (yield from _holds(rate, again)):
            knee = rate
        else:
            failed = rate
    return knee


def interleaved(searches: dict) -> tuple[dict[str, int], list[tuple[str, int, bool]]]:
    """Several knee searches run step by step in turn: ``searches`` maps a name to its
    ``knee_steps`` generator and the function that runs one of its steps (``held_at(rate)``).
    One step of the first, then one of the second, and so on, each following its own rates,
    until every search has ended (one that ends first leaves the others to go on alone).
    Two stacks' searches run one after the other put a drift of the machine's speed during
    one stack's minutes into their ratio (the limit's own server CPU a report at 250/s moved
    from 1.6 to 2.4 ms between runs of the fifteenth session); in turn, it falls on both.
    Returns each search's knee and every (name, rate, held) step, in order."""
    knees, tried, due = {}, [], {}

    def advance(name: str, steps, held: bool | None) -> None:
        try:
            due[name] = next(steps) if held is None else steps.send(held)
        except StopIteration as end:
            knees[name] = end.value
            due.pop(name, None)

    for name, (steps, _) in searches.items():
        advance(name, steps, None)
    while due:
        for name in list(due):
            steps, held_at = searches[name]
            held = bool(held_at(due[name]))
            tried.append((name, due[name], held))
            advance(name, steps, held)
    return knees, tried


def knee_search(
    rates, held_at, refine: int = 2, again: int = 1
) -> tuple[int, list[tuple[int, bool]]]:
    """``knee_steps`` run alone: the knee and every (rate, held) step, in order."""
    knees, tried = interleaved({"": (knee_steps(rates, refine, again), held_at)})
    return knees[""], [(rate, held) for _, rate, held in tried]


def capped(knee: int, limit: int, most: int) -> list[str]:
    """What the last line's ratio is worth when a stack held every step up to ``most``
    (``BENCH_MAX_RATE``): its knee is only "at least" that."""
    if knee >= most and limit >= most:
        return [f"  (both stacks held every step up to BENCH_MAX_RATE={most}/s: knee_ratio is "
                "unknown; run again with a higher BENCH_MAX_RATE)"]  # fmt: skip
    ratio = knee / limit if limit else 0.0
    return [
        f"  ({who} held at BENCH_MAX_RATE={most}/s: its knee is at least that, so knee_ratio is "
        f"{bound} {ratio:.2f}; run again with a higher BENCH_MAX_RATE)"
        for who, held, bound in (("Pegboard", knee, "at least"), ("the limit", limit, "at most"))
        if held >= most
    ]
