"""Benchmark: a national season of Grass Roots club nights: points and skill ratings.

Run from the repository root: ``python bench/clubs.py`` (PostgreSQL at
``PEGBOARD_BENCH_DATABASE_URL``, default ``postgres://postgres@127.0.0.1:5432/pegboard_bench``;
a throw-away ``test_`` database is created and dropped). ``CLUBS`` (default 200) scales it.
Loads in bulk, untimed: 200 clubs, each with 30 members, 36 finished club nights of 20
players and 9 games (10 tables a game): 648,000 rated games and 1,296,000 card lines. Then:
- library_rates_per_s: OpenSkill's update call alone (``PlackettLuce.rate`` for one game),
  so the rest can be read against what the library allows;
- points_s: every night's cards (``night_cards_rebuild_all``) from the stored lines;
- ratings_s: every rating and its history from scratch (``ratings_recompute_all``);
- night_points_ms and night_ratings_ms: one more night, its cards and its ratings, as the
  jobs do when its last game is verified (``night_cards_write``, ``ratings_update_event``).
Last line: ``clubs: clubs=<n> nights=<n> games=<n> library_rates_per_s=<r> points_s=<s>
ratings_s=<s> night_points_ms=<ms> night_ratings_ms=<ms>``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from datetime import date, timedelta
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
from openskill.models import PlackettLuce  # noqa: E402

from scoring.games import ACC_SETTINGS, card_line_for  # noqa: E402
from tournaments.models import (  # noqa: E402
    CardLine,
    Club,
    Entry,
    Event,
    Game,
    Player,
    Seat,
    Table,
)
from tournaments.services.night_cards import (  # noqa: E402
    night_cards_rebuild_all,
    night_cards_write,
)
from tournaments.services.ratings import ratings_recompute_all, ratings_update_event  # noqa: E402

CLUBS = int(os.environ.get("CLUBS", 200))
MEMBERS, NIGHTS, PLAYERS, GAMES = 30, 36, 20, 9
FIRST_NIGHT = date(2026, 9, 1)


def library_rate() -> float:
    model = PlackettLuce(beta=7 * 25 / 6)
    a, b = model.rating(), model.rating()
    start, count = time.perf_counter(), 50_000
    for _ in range(count):
        [[a], [b]] = model.rate([[a], [b]])
    return count / (time.perf_counter() - start)


def load_club(number: int, rng: random.Random) -> None:
    club = Club.objects.create(name=f"Club {number:03}", region=f"Region {number % 8}")
    members = Player.objects.bulk_create(
        Player(name=f"C{number:03} member {i:02}", home_club=club) for i in range(MEMBERS)
    )
    for night in range(NIGHTS):
        load_night(club, rng.sample(members, PLAYERS), FIRST_NIGHT + timedelta(days=7 * night), rng)


def load_night(club: Club, players: list[Player], day: date, rng: random.Random) -> Event:
    event = Event.objects.create(
        name=f"{club.name} {day}", kind="club_night", preset="grass-roots", club=club,
        starts_on=day, stage="qualifying", qualifying_games=GAMES, qualifier_ratio=0,
        published=True,
    )  # fmt: skip
    entries = Entry.objects.bulk_create(
        Entry(event=event, player=p, status="checked_in", report_token=f"{event.pk}-{p.pk}")
        for p in players
    )
    games = Game.objects.bulk_create(
        Game(event=event, number=n, status="closed") for n in range(1, GAMES + 1)
    )
    tables = Table.objects.bulk_create(
        Table(game=game, number=n, status="verified")
        for game in games
        for n in range(1, PLAYERS // 2 + 1)
    )
    seats = []
    for index, game in enumerate(games):
        order = entries[:]
        rng.shuffle(order)
        for n, table in enumerate(tables[index * PLAYERS // 2 : (index + 1) * PLAYERS // 2]):
            seats += [
                Seat(game=game, entry=order[2 * n], table=table, position=1),
                Seat(game=game, entry=order[2 * n + 1], table=table, position=2),
            ]
    seats = Seat.objects.bulk_create(seats)
    lines = []
    for first, second in zip(seats[::2], seats[1::2], strict=True):
        spread = rng.randint(1, 60)
        for seat, won in ((first, True), (second, False)):
            line = card_line_for(won, spread, ACC_SETTINGS)
            lines.append(
                CardLine(seat=seat, kind="verified", source="agreed", game_points=line.game_points,
                         plus=line.plus, minus=line.minus)
            )  # fmt: skip
    CardLine.objects.bulk_create(lines)
    return event


def main() -> None:
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        rate = library_rate()
        rng = random.Random(2026)
        for number in range(CLUBS):
            load_club(number, rng)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        start = time.perf_counter()
        points = night_cards_rebuild_all()
        points_s = time.perf_counter() - start
        start = time.perf_counter()
        rated = ratings_recompute_all()
        ratings_s = time.perf_counter() - start
        club = Club.objects.first()
        night = load_night(club, list(Player.objects.filter(home_club=club)[:PLAYERS]),
                           FIRST_NIGHT + timedelta(days=7 * NIGHTS), rng)  # fmt: skip
        start = time.perf_counter()
        night_cards_write(event=night)
        night_points_ms = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        one = ratings_update_event(event_id=night.pk)
        night_ratings_ms = (time.perf_counter() - start) * 1000
        if one.get("recomputed"):
            raise AssertionError(f"one more night recomputed everything: {one}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"points: {points}; ratings: {rated}")
    print(
        f"clubs: clubs={CLUBS} nights={points['nights']} games={rated['games']} "
        f"library_rates_per_s={rate:.0f} points_s={points_s:.1f} ratings_s={ratings_s:.1f} "
        f"night_points_ms={night_points_ms:.0f} night_ratings_ms={night_ratings_ms:.0f}"
    )


if __name__ == "__main__":
    main()
