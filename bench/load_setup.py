"""The set-up of bench/load.py, through the services (untimed), and its planner statistics."""

from __future__ import annotations

import os
import random

from django.db import DatabaseError, connection, transaction

from tournaments.demo import demo_director
from tournaments.models import Game, Table
from tournaments.services.entries_import import entries_import_csv
from tournaments.services.events import event_close_registration, event_create
from tournaments.services.pairings import game_pairings_request, game_publish

CHUNK = 2000  # rows per CSV import (a file holds at most 5,000)


def event_with_game(director, name: str, players: int, tables: int | None = None):
    """An event of ``players`` checked-in players (entered from CSV files) with game 1 paired
    and published. Returns it, the reports of its first ``tables`` tables (all by default:
    both cards of each, the same result, in a random order) and every player's token."""
    director = director or demo_director()[0]
    event = event_create(user=director, name=name, preset="acc-main", published=True,
                         qualifying_games=2, qualifier_ratio=4)  # fmt: skip
    event.director = director
    for first in range(0, players, CHUNK):
        numbers = range(first, min(players, first + CHUNK))
        text = "name\n" + "".join(f"{name} Player {n:05}\n" for n in numbers)
        matches = {row: "new" for row in range(2, len(numbers) + 2)}
        entries_import_csv(event=event, text=text, user=director, check_in=True, matches=matches)
    event_close_registration(event=event, user=director)
    game_pairings_request(event=event, number=1, user=director)
    game_publish(game=Game.objects.get(event=event, number=1), user=director)
    rng = random.Random(name)
    reports, everyone = [], []
    seated = Table.objects.filter(game__event=event, game__number=1).order_by("number")
    for n, table in enumerate(seated.prefetch_related("seats__entry")):
        first, second = (seat.entry.report_token for seat in table.seats.all())
        everyone += [first, second]
        if tables is None or n < tables:
            spread = rng.randint(1, 60)
            reports += [(first, {"result": "won", "margin": spread}),
                        (second, {"result": "lost", "margin": spread})]  # fmt: skip
    rng.shuffle(reports)
    return event, reports, everyone


def step_events(director, rate: int, count: int, players: int):
    """A step's fresh events, each of ``players`` players with game 1 published, enough of them
    for ``count`` reports (whole tables): a weekend's events running side by side, as a field
    past the burst's size would not be one event (an ACC event has 50 to 1,024 players, and
    the spectators' standings page, re-rendered at each snapshot, grew with it to 5,000 rows at
    250 a second). Returns the events, the reports (interleaved at random) and every token."""
    events, reports, everyone = [], [], []
    left = count
    while left > 0:
        tables = min(players // 2, left // 2)
        event, its_reports, its_tokens = event_with_game(
            director, f"Load step {rate} #{len(events) + 1}", players, tables=tables
        )
        events.append(event)
        reports += its_reports
        everyone += its_tokens
        left -= 2 * tables
    random.Random(rate).shuffle(reports)
    return events, reports, everyone


def polled(reports, everyone, players: int) -> list[str]:
    """The phones that poll: the reporters first, then the others, ``players`` in all."""
    reporters = [token for token, _ in reports]
    reporting = set(reporters)
    rest = [token for token in everyone if token not in reporting]
    return (reporters + rest)[:players]


def statistics_mode(argv: list[str]) -> str:
    if "--no-analyze" in argv or os.environ.get("BENCH_STATISTICS", "") == "none":
        return "none"
    return "analyzed"


_OURS = "SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace"


def statistics_settle(mode: str, *, before_setup: bool = False) -> None:
    """``analyzed``: ``ANALYZE`` after a set-up. ``none``: autovacuum off on every table before
    the set-up, and every table's statistics erased after it (``ANALYZE`` included, which the
    import and the pairing job run): the planner sees tables never analyzed. Erasing needs a
    superuser (the default ``postgres``); otherwise the run says it could not."""
    with connection.cursor() as cursor:
        if mode == "analyzed":
            if not before_setup:
                cursor.execute("ANALYZE")
            return
        if before_setup:
            cursor.execute(f"SELECT relname FROM pg_class WHERE oid IN ({_OURS}) AND relkind = 'r'")
            for (table,) in cursor.fetchall():
                cursor.execute(f'ALTER TABLE "{table}" SET (autovacuum_enabled = false)')
            return
        try:
            with transaction.atomic():
                cursor.execute(f"DELETE FROM pg_statistic WHERE starelid IN ({_OURS})")
                cursor.execute(f"UPDATE pg_class SET reltuples = -1, relpages = 0 WHERE oid IN "
                               f"({_OURS}) AND relkind IN ('r', 'i')")  # fmt: skip
        except DatabaseError as exc:
            print(f"  (planner statistics could NOT be erased: {exc}; the figures are not "
                  "'without statistics')")  # fmt: skip
