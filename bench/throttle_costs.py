"""What each kind of request costs the web process with the limits, in CPU milliseconds
(``time.process_time``, so other work on the machine hardly changes it): part of
bench/throttle.py, run in its process with production settings against the bench's event, the
limits counting in the stack's Redis as gunicorn's do. Through Django's test client, so
without gunicorn's own share (parsing the request, the access log) and without live_poll's
shortcut; each figure is the median of ``ROUNDS`` rounds of ``n`` requests."""

from __future__ import annotations

import logging
import statistics
import time

from django.conf import settings
from django.core.cache import caches
from django.test import Client, override_settings

ROUNDS = 5
HIGH = {"anon_read": "1000000/s", "link_misses": "1000000/s"}
LOW = {"anon_read": "1/min", "link_misses": "1/min"}
LIMITS = ("tournaments.throttles.PrivateLinkGuard",)


def _limits(rates: dict, *, middleware: tuple[str, ...] = ()):
    """Rates, and which middleware to leave out."""
    return override_settings(
        REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates},
        MIDDLEWARE=[m for m in settings.MIDDLEWARE if m not in middleware],
    )


def measure(stack, event_id: int, token: str) -> list[tuple[str, str, float]]:
    """(what, the answers' statuses, CPU ms) for each kind of request. The kinds are measured
    in turns, round after round, so a busy moment of the machine falls on all of them."""
    throttle = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": f"redis://127.0.0.1:{stack.redis_port}/1",
        "KEY_PREFIX": "pegboard-costs",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
    client = Client(REMOTE_ADDR="127.0.0.9", HTTP_X_FORWARDED_PROTO="https")
    api, report = f"/api/v1/events/{event_id}/standings/", f"/api/v1/report/{token}/"
    poll = f"/r/{token}/?part=live"
    requests_log, blocks_log = (
        logging.getLogger("django.request"),
        logging.getLogger("tournaments.throttles"),
    )
    requests_log.setLevel(logging.ERROR)  # Django logs every 404 and 429 (not counted here)
    blocks_log.setLevel(logging.WARNING)  # and each block, at INFO
    try:
        with override_settings(
            CACHES={**settings.CACHES, "throttle": throttle}, STATIC_ROOT=stack.dir / "static"
        ):
            etag = client.get(poll)["ETag"]
            # (what, request i, requests a round, rates, the request that sets the state up)
            kinds = [
                ("standings API, anonymous, allowed", lambda i: client.get(api), 10, HIGH, None),
                ("  refused (429)", lambda i: client.get(api), 300, LOW, api),
                ("unknown link, page 404", lambda i: client.get(f"/r/g{i}/"), 100, HIGH, None),
                ("  blocked, page 429", lambda i: client.get(f"/r/g{i}/"), 300, LOW, "/r/g/"),
                ("  blocked, API 429", lambda i: client.get(f"/api/v1/report/g{i}/"), 300, LOW,
                 "/r/g/"),
                ("player's state (API)", lambda i: client.get(report), 100, HIGH, None),
                ("  the same, without PrivateLinkGuard", lambda i: client.get(report), 100, None,
                 None),
                ("poll through Django (304)",
                 lambda i: client.get(poll, HTTP_IF_NONE_MATCH=etag), 300, HIGH, None),
                ("  the same poll, without PrivateLinkGuard",
                 lambda i: client.get(poll, HTTP_IF_NONE_MATCH=etag), 300, None, None),
            ]  # fmt: skip
            ms = {what: [] for what, *_ in kinds}
            statuses = {what: set() for what, *_ in kinds}
            for _ in range(ROUNDS):
                for what, send, n, rates, prime in kinds:
                    caches["throttle"].clear()
                    with _limits(rates or HIGH, middleware=LIMITS if rates is None else ()):
                        if prime:
                            client.get(prime)  # the one the rate allows: the rest are refused
                        start = time.process_time()
                        statuses[what] |= {send(i).status_code for i in range(n)}
                        ms[what].append((time.process_time() - start) / n * 1000)
    finally:
        requests_log.setLevel(logging.NOTSET)
        blocks_log.setLevel(logging.NOTSET)
    return [
        (what, ",".join(map(str, sorted(statuses[what]))), statistics.median(ms[what]))
        for what in ms
    ]


def print_costs(rows) -> None:
    print("costs: CPU ms a request in the web process (median of 5 rounds; statuses seen)")
    for what, statuses, ms in rows:
        print(f"  {what:<44} {ms:6.2f} ms  ({statuses})")
