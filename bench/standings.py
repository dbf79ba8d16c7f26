"""Benchmark: standings of a 1,024-player, 22-game qualifying round, and result submissions.

Run from the repository root: ``python bench/standings.py`` (PostgreSQL at
``PEGBOARD_BENCH_DATABASE_URL``, default ``postgres://postgres@127.0.0.1:5432/pegboard_bench``;
a throw-away ``test_`` database is created and dropped). Builds the event with the pairing core
and the engine's card lines, then measures:
- compute_s: recomputing the standings from the database (read every verified line, rank with
  the ACC tie-breaks, store the snapshot), best of 3, and the number of queries it took;
- submit_median_ms: one player's "I won / I lost by N" through ``card_line_report`` (validated
  by the engine, row lock, cross-check of the two cards, standings job enqueued on Redis when
  ``CELERY_BROKER_URL`` is set, otherwise recorded eagerly), median over 200 submissions.
Last line: ``standings: players=<n> games=<g> compute_s=<s> queries=<q> submit_median_ms=<ms>``.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "true")
os.environ["DATABASE_URL"] = os.environ.get(
    "PEGBOARD_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pegboard_bench"
)

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from scoring.games import ACC_SETTINGS, card_line_for  # noqa: E402
from tournaments.core.pairing import pair_game  # noqa: E402
from tournaments.models import CardLine, Entry, Event, Game, Player, Seat, Table  # noqa: E402
from tournaments.services.events import event_create  # noqa: E402
from tournaments.services.results import card_line_report  # noqa: E402
from tournaments.services.standings import standings_recompute  # noqa: E402

PLAYERS, GAMES, SUBMISSIONS = 1024, 22, 200


def build(rng: random.Random) -> Event:
    from django.contrib.auth import get_user_model

    director = get_user_model().objects.create(username="bench-director")
    event = event_create(user=director, name="Bench Open", preset="acc-main")
    players = Player.objects.bulk_create(Player(name=f"Player {i:04}") for i in range(PLAYERS))
    entries = Entry.objects.bulk_create(
        Entry(event=event, player=p, status="checked_in", report_token=f"bench-{p.pk}")
        for p in players
    )
    Event.objects.filter(pk=event.pk).update(stage="qualifying")
    ids = [e.pk for e in entries]
    history = []
    for number in range(1, GAMES + 1):
        pairing = pair_game(
            active=ids, history=history, games_remaining=GAMES - number + 1, seed=number
        )
        history.append(pairing)
        status = "closed" if number < GAMES else "published"
        game = Game.objects.create(event=event, number=number, seed=number, status=status)
        tables = Table.objects.bulk_create(
            Table(game=game, number=n, status="verified" if number < GAMES else "open")
            for n in range(1, len(pairing.tables) + 1)
        )
        seats = Seat.objects.bulk_create(
            Seat(game=game, entry_id=entry_id, table=table, position=position)
            for table, pair in zip(tables, pairing.tables, strict=True)
            for position, entry_id in enumerate(pair, start=1)
        )
        if number < GAMES:
            CardLine.objects.bulk_create(_verified_lines(seats, rng))
    return event


def _verified_lines(seats: list[Seat], rng: random.Random) -> list[CardLine]:
    lines = []
    for winner, loser in zip(seats[::2], seats[1::2], strict=True):
        spread = rng.randint(1, 60)
        for seat, won in ((winner, True), (loser, False)):
            line = card_line_for(won, spread, ACC_SETTINGS)
            lines.append(
                CardLine(
                    seat=seat,
                    kind="verified",
                    source="agreed",
                    game_points=line.game_points,
                    plus=line.plus,
                    minus=line.minus,
                )
            )
    return lines


def measure_compute(event: Event) -> tuple[float, int]:
    best, queries = float("inf"), 0
    for _ in range(3):
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            standings_recompute(event_id=event.pk)
            best = min(best, time.perf_counter() - start)
        queries = len(captured)
    return best, queries


def measure_submit(event: Event, rng: random.Random) -> float:
    seats = list(
        Seat.objects.filter(game__event=event, game__number=GAMES).order_by("table__number")
    )[:SUBMISSIONS]
    times = []
    for seat in seats:
        won = seat.position == 1
        start = time.perf_counter()
        card_line_report(seat=seat, won=won, spread=rng.randint(1, 60))
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        rng = random.Random(2026)
        event = build(rng)
        # A real event's rows arrive over a weekend and autovacuum keeps the planner's
        # statistics current; rows bulk-inserted a second ago have none until analysed.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        compute_s, queries = measure_compute(event)
        submit_ms = measure_submit(event, rng)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(
        f"standings: players={PLAYERS} games={GAMES} compute_s={compute_s:.3f} "
        f"queries={queries} submit_median_ms={submit_ms:.1f}"
    )


if __name__ == "__main__":
    main()
