"""One misbehaving client, for bench/throttle.py: run as its own process so its work does not
slow the load generator's clock. It never waits for ``Retry-After`` (a bad client does not).

    python bench/flood.py read --port P --path /api/v1/events/1/standings/ --connections 40
    python bench/flood.py guess --port P --connections 1

``read`` asks ``--path`` again and again on each connection; ``guess`` asks made-up private
links (192 bits, as real ones), on the page (``/r/<link>/``) and the API
(``/api/v1/report/<link>/``) in turn. Both come from ``--source`` (a loopback address of its
own). Runs ``--seconds`` or until stopped (SIGTERM), then prints one line of JSON: requests,
answers by status, the seconds until the first 429.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import signal
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))  # load_stack imports tests/
from load_stack import fetch  # noqa: E402  (bench/)


def _guess(n: int) -> str:
    link = secrets.token_urlsafe(24)
    return f"/r/{link}/" if n % 2 else f"/api/v1/report/{link}/"


async def run(args) -> dict:
    statuses: Counter = Counter()
    first_429: list[float] = []
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.call_later(args.seconds, stop.set)
    start = time.monotonic()

    async def connection(n: int) -> None:
        sent = n
        while not stop.is_set():
            path = _guess(sent) if args.kind == "guess" else args.path
            sent += args.connections
            try:
                answer = await fetch(args.port, "GET", path, source=args.source)
            except OSError:
                statuses["failed"] += 1
                await asyncio.sleep(0.01)
                continue
            statuses[str(answer.status)] += 1
            if answer.status == 429 and not first_429:
                first_429.append(time.monotonic() - start)

    tasks = [asyncio.create_task(connection(n)) for n in range(args.connections)]
    await stop.wait()
    for task in tasks:  # requests still waiting for their answer are not counted
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    seconds = time.monotonic() - start
    return {
        "kind": args.kind,
        "requests": sum(statuses.values()),
        "seconds": round(seconds, 1),
        "statuses": dict(statuses),
        "first_429_s": round(first_429[0], 2) if first_429 else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["read", "guess"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--path", default="")
    parser.add_argument("--connections", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--source", default="127.0.0.2")
    print(json.dumps(asyncio.run(run(parser.parse_args()))), flush=True)


if __name__ == "__main__":
    main()
