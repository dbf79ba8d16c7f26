"""Benchmark: a national year of the MRP ledger.

Run from the repository root: ``python bench/ledger.py`` (PostgreSQL at
``PEGBOARD_BENCH_DATABASE_URL``, default ``postgres://postgres@127.0.0.1:5432/pegboard_bench``;
a throw-away ``test_`` database is created and dropped). Loads in bulk, untimed: 6,000
players in 100 clubs of 8 regions, and 50 finalised sanctioned events (Mains and
Consolations of tabled lengths) of 100-500 entrants each, every qualifying game with verified
card lines and every playoff match decided. Then measures:
- rebuild_s: the whole ledger rebuilt from the stored results with an empty ledger (what
  ``ledger_rebuild`` does after a disaster or a schedule change), and again with the ledger
  already right (``recheck_s``: nothing is written);
- leaderboard_ms: the median of 20 renders of the leaderboard page (``/players/``) for the
  year, through Django's test client; ``leaderboard_cold_ms`` is its first render (its
  template compiled, its query's data not yet cached), after the process's own first request
  (``first_request_ms``: imports and URL loading, paid once per worker process); and the
  queries the page takes for the year, for a club and for a region (they must be equal).
Last line: ``ledger: players=<n> events=<e> lines=<l> awards=<a> rebuild_s=<s>
recheck_s=<s> first_request_ms=<ms> leaderboard_cold_ms=<ms> leaderboard_ms=<ms>
queries=<q>``.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from datetime import date
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
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring.games import ACC_SETTINGS, card_line_for  # noqa: E402
from tournaments.core.bracket import build_bracket  # noqa: E402
from tournaments.core.standings import Line, compute_standings  # noqa: E402
from tournaments.models import (  # noqa: E402
    CardLine,
    Club,
    Entry,
    Event,
    Game,
    Match,
    MrpAward,
    Player,
    Playoff,
    PlayoffSeed,
    Seat,
    Table,
)
from tournaments.services.ledger import ledger_rebuild  # noqa: E402

PLAYERS, EVENTS, YEAR = 6000, 50, 2026
LENGTHS = {"main": (12, 14, 16, 18, 20, 21, 22), "consolation": (7, 8, 9, 10, 12)}


def load_people(rng: random.Random) -> list[Player]:
    regions = [f"Region {n}" for n in range(1, 9)]
    clubs = Club.objects.bulk_create(
        Club(name=f"Club {n:03}", region=regions[n % len(regions)]) for n in range(100)
    )
    return Player.objects.bulk_create(
        Player(
            name=f"Player {i:05}",
            acc_number="" if rng.random() < 0.05 else f"B{i:06}",
            home_club=rng.choice(clubs),
        )
        for i in range(PLAYERS)
    )


def load_event(number: int, players: list[Player], rng: random.Random) -> int:
    kind = "main" if number % 3 else "consolation"
    games = rng.choice(LENGTHS[kind])
    event = Event.objects.create(
        name=f"Bench event {number}", kind=kind, preset=f"acc-{kind}", sanctioned=True,
        published=True, stage="finished", qualifying_games=games,
        starts_on=date(YEAR, 1 + number % 12, 1 + number % 28),
    )  # fmt: skip
    field = rng.sample(players, rng.randint(100, 500))
    entries = Entry.objects.bulk_create(
        Entry(event=event, player=p, status="checked_in", report_token=f"b{number}-{p.pk}")
        for p in field
    )
    ids = [e.pk for e in entries]
    lines = _play_qualifying(event, ids, games, rng)
    _play_playoffs(event, ids, lines, rng)
    return len(lines)


def _play_qualifying(event: Event, ids: list[int], games: int, rng) -> list[Line]:
    core_lines: list[Line] = []
    for number in range(1, games + 1):
        game = Game.objects.create(event=event, number=number, status="closed")
        order = ids[:]
        rng.shuffle(order)
        sit_out = order.pop() if len(order) % 2 else None
        tables = Table.objects.bulk_create(
            Table(game=game, number=n, status="verified") for n in range(1, len(order) // 2 + 1)
        )
        seats = Seat.objects.bulk_create(
            [
                Seat(game=game, entry_id=entry, table=tables[i // 2], position=1 + i % 2)
                for i, entry in enumerate(order)
            ]
            + ([Seat(game=game, entry_id=sit_out)] if sit_out else [])
        )
        card_lines = []
        for a, b in zip(seats[: len(order) : 2], seats[1 : len(order) : 2], strict=True):
            spread = rng.randint(1, 70)
            for seat, other, won in ((a, b, True), (b, a, False)):
                line = card_line_for(won, spread, ACC_SETTINGS)
                card_lines.append(_card(seat, line))
                core_lines.append(
                    Line(seat.entry_id, number, line.game_points, line.plus, line.minus,
                         other.entry_id, won)
                )  # fmt: skip
        if sit_out:
            line = card_line_for(True, 10, ACC_SETTINGS)
            card_lines.append(_card(seats[-1], line))
            core_lines.append(Line(sit_out, number, 2, 10, 0, None, True))
        CardLine.objects.bulk_create(card_lines)
    return core_lines


def _card(seat: Seat, line) -> CardLine:
    return CardLine(
        seat=seat, kind="verified", source="agreed", game_points=line.game_points,
        plus=line.plus, minus=line.minus,
    )  # fmt: skip


def _play_playoffs(event: Event, ids: list[int], lines: list[Line], rng) -> None:
    standings = compute_standings(lines=lines, entrants=ids, qualifier_ratio=4)
    rows = standings.rows[: standings.qualifiers]
    playoff = Playoff.objects.create(event=event, entrants=len(ids), qualifiers=len(rows))
    PlayoffSeed.objects.bulk_create(
        PlayoffSeed(playoff=playoff, seed=n, entry_id=row.entry_id, qualifying_rank=row.rank)
        for n, row in enumerate(rows, start=1)
    )
    qualifiers = [row.entry_id for row in rows]
    results: dict = {}
    bracket = build_bracket(qualifiers)
    for round_index in range(bracket.rounds):  # each round once the one before is decided
        for m in bracket.matches[round_index]:
            if not m.bye:
                results[(m.round, m.slot)] = rng.choice((m.player_a, m.player_b))
        bracket = build_bracket(qualifiers, results)
    Match.objects.bulk_create(
        Match(
            playoff=playoff, round=m.round, slot=m.slot, best_of=5, seed_a=m.seed_a,
            seed_b=m.seed_b, entry_a_id=m.player_a, entry_b_id=m.player_b, bye=m.bye,
            status="decided", winner_id=m.winner,
        )
        for round_matches in bracket.matches
        for m in round_matches
    )  # fmt: skip


def measure_leaderboard() -> tuple[float, float, float, int]:
    client = Client()
    start = time.perf_counter()
    client.get("/")  # the process's own first request: imports, URLs, the base template
    process_start = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    assert client.get("/players/", {"year": YEAR}).status_code == 200
    cold = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(20):
        start = time.perf_counter()
        client.get("/players/", {"year": YEAR})
        times.append((time.perf_counter() - start) * 1000)
    counts = set()
    for query in ({"year": YEAR}, {"club": Club.objects.first().pk}, {"region": "Region 3"}):
        with CaptureQueriesContext(connection) as captured:
            client.get("/players/", query)
        counts.add(len(captured))
    if len(counts) != 1:
        raise AssertionError(f"the leaderboard's queries vary with the filter: {counts}")
    return process_start, cold, statistics.median(times), counts.pop()


def main() -> None:
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        rng = random.Random(2026)
        players = load_people(rng)
        lines = sum(load_event(n, players, rng) for n in range(1, EVENTS + 1))
        Event.objects.update(finalised_at=timezone.now())
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        start = time.perf_counter()
        rebuilt = ledger_rebuild()
        rebuild_s = time.perf_counter() - start
        start = time.perf_counter()
        again = ledger_rebuild()
        recheck_s = time.perf_counter() - start
        if rebuilt["changed"] != EVENTS or again["changed"] != 0:
            raise AssertionError(f"rebuild {rebuilt}, then {again}: not idempotent")
        awards = MrpAward.objects.filter(current=True).count()
        first, cold, warm, queries = measure_leaderboard()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(
        f"ledger: players={PLAYERS} events={EVENTS} lines={lines} awards={awards} "
        f"rebuild_s={rebuild_s:.2f} recheck_s={recheck_s:.2f} first_request_ms={first:.0f} "
        f"leaderboard_cold_ms={cold:.1f} leaderboard_ms={warm:.1f} queries={queries}"
    )


if __name__ == "__main__":
    main()
