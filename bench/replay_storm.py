"""The storm of bench/replay.py, apart from its set-up so tests can run it against any server.

Terms:

- **held report**: a report a phone kept while the server was unreachable, with the
  ``Idempotency-Key`` it made for it (a random 128-bit value, as the page makes).
- **release**: the network returns; every phone sends what it held at a random moment within
  ``release_seconds``. Each report is sent twice with the same key and body, both within the
  release: the phone did not get the first answer (lost on the way back) and sends again, at
  once or a little later, sometimes while the first is still being answered.
- **lost**: a report sent whose player has no reported line in the database afterwards.
- **duplicated**: reported lines beyond the first for one player and game (a resend stored
  again).
- **settled**: the public standings say they are built from every verified line.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field

from django.db.models import Count
from load_gen import Record, timed  # (bench/)
from load_stack import fetch

from tournaments.models import CardLine, Entry, Table

PATH = "/api/v1/report/{}/"


@dataclass(frozen=True)
class Send:
    due: float  # seconds after the release starts
    token: str
    body: dict
    key: str
    copy: int  # 1: the first try, 2: the resend


@dataclass
class Storm:
    record: Record = field(default_factory=Record)
    answers: dict[tuple[str, int], tuple[int, object]] = field(default_factory=dict)
    started_at: float = 0.0  # time.monotonic() when the release began

    def replay_errors(self) -> list[str]:
        """Each report's two answers must be the same 201 (the resend gets the first answer)."""
        keys = {key for key, _ in self.answers}
        wrong = []
        for key in sorted(keys):
            first, second = self.answers.get((key, 1)), self.answers.get((key, 2))
            if first is None or second is None:
                continue  # no answer at all: counted in record.errors already
            if first[0] != 201 or first != second:
                wrong.append(f"key {key}: first {first[0]}, resend {second[0]}, bodies differ: "
                             f"{first[1] != second[1]}")  # fmt: skip
        return wrong


def schedule(reports: list[tuple[str, dict]], release_seconds: float, seed: int) -> list[Send]:
    """Two sends of each report (same key and body), both at random within the release."""
    rng = random.Random(seed)
    sends = []
    for token, body in reports:
        key = f"{rng.getrandbits(128):032x}"
        first, second = sorted(rng.uniform(0, release_seconds) for _ in range(2))
        sends += [Send(first, token, body, key, 1), Send(second, token, body, key, 2)]
    return sorted(sends, key=lambda send: send.due)


async def storm(port: int, sends: list[Send]) -> Storm:
    """Every send at its moment (open loop: timed from when it was due, never waiting for an
    earlier answer)."""
    result = Storm(started_at=time.monotonic())
    start = time.perf_counter() + 0.05

    async def one(send: Send) -> None:
        answer, ms = await timed(
            port, "POST", PATH.format(send.token), start + send.due, result.record, "report",
            body=send.body, headers={"Idempotency-Key": send.key},
        )  # fmt: skip
        if answer is None:
            return
        result.record.submissions.append(ms)
        result.record.last_submission_at = max(result.record.last_submission_at, time.monotonic())
        try:
            body = json.loads(answer.body)
        except ValueError:
            body = answer.body[:300]
        result.answers[(send.key, send.copy)] = (answer.status, body)
        if answer.status != 201:
            result.record.errors.append(f"report {answer.status}: {answer.body[:300]!r}")

    await asyncio.gather(*(one(send) for send in sends))
    return result


def tally(event, tokens: list[str]) -> tuple[int, int, int]:
    """(lost, duplicated, tables not verified) in ``event``'s game 1, for the reports of
    ``tokens``."""
    entries = dict(Entry.objects.filter(event=event, report_token__in=tokens).values_list(
        "report_token", "pk"))  # fmt: skip
    counts = dict(
        CardLine.objects.filter(
            kind=CardLine.Kind.REPORTED, seat__game__event=event, seat__game__number=1
        )
        .values_list("seat__entry_id")
        .annotate(n=Count("pk"))
        .values_list("seat__entry_id", "n")
    )
    lost = sum(counts.get(entries.get(token), 0) == 0 for token in tokens)
    duplicated = sum(max(0, n - 1) for n in counts.values())
    unverified = (
        Table.objects.filter(game__event=event, game__number=1)
        .exclude(status=Table.Status.VERIFIED)
        .count()
    )
    return lost, duplicated, unverified


async def settled(port: int, event_id: int, verified: int, since: float, limit=120.0) -> float:
    """Seconds from ``since`` (time.monotonic()) until the public standings are built from
    ``verified`` verified lines (asked every 0.2 s, for at most ``limit`` seconds)."""
    wanted = f"After {verified} verified card lines".encode()
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        answer = await fetch(port, "GET", f"/events/{event_id}/standings/?part=live")
        if wanted in answer.body:
            return time.monotonic() - since
        await asyncio.sleep(0.2)
    return float("inf")
