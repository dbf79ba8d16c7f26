"""Doubles in the ratings backtest (issue 26 item 5): does rating a doubles game as two against
two (OpenSkill's team model, ``RatingBook`` with ``RatedTeamGame``) beat leaving doubles out of
the ratings? Run by ``python bench/ratings.py`` after its singles figures; seeded like them.

The doubles league: the same 200 players, skills, clubs and singles games as the singles
backtest (its figures do not change), and on top of them:
- club doubles nights: every fourth week (weeks 2, 6, 10...) each club has a second night, in
  pairs, the day after its singles night: 18 to 22 of its players come, partners are drawn at
  random for the night (the blind draw), and the teams play 9 games, two teams a table
  (partners opposite), seated at random each game; with an odd number of teams one sits out.
- doubles satellites: on the Friday of each weekend event, 32 to 40 teams of two from the
  whole league (partners fixed for the event) play 9 games.
Every doubles game is played out card by card by the engine's four-handed simulator
(``scoring.simulate_table_game``) with the four players' skills; a skunk is a win by 31 or more.

The test period starts at the singles backtest's first test game: every game before it (singles
and doubles) is learnt first, then each test game is predicted online, as in the singles
backtest, with its chosen OpenSkill setting, by two rating books:
- left out: learns only the singles games (what the site does with doubles left out);
- 2v2: learns every game, a doubles game as two against two.

Figures:
- calibration: how often two experts beat two players of ``AVERAGE_SKILL`` four-handed.
- singles test games: log-loss and Brier score of each book, and 2v2 minus left out with a
  paired bootstrap 95% interval (does rating doubles help or hurt singles prediction?).
- doubles test games: log-loss of each book predicting the team's win (OpenSkill's team
  prediction; the left-out book from singles alone), of a coin flip, and 2v2 minus coin flip.
- decision, fixed before the run: rate doubles 2v2 when it does not make singles prediction
  worse (upper bound of 2v2 minus left out at most ``PASS_BOUND``, the bound the singles
  backtest uses) and it predicts doubles better than a coin flip (upper bound of 2v2 minus
  coin flip below 0); otherwise leave doubles out.
The line it returns: ``doubles: decision=<rate_2v2|leave_out> singles_2v2=<x>
singles_left_out=<y> singles_diff=<mean> singles_diff_hi=<hi> doubles_2v2=<z>
doubles_left_out=<w> doubles_coin_diff_hi=<hi>``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from multiprocessing import Pool

from ratings import (
    CLUBS,
    NIGHT_GAMES,
    NIGHT_SIZES,
    PASS_BOUND,
    PLAYERS,
    PROCESSES,
    SEED,
    START,
    WEEKEND_WEEKS,
    WEEKS,
    Seating,
    bootstrap_diff,
    brier,
    club_pools,
    log_loss,
)

from scoring.games import win_kind
from scoring.simulate import AVERAGE_SKILL, EXPERT_SKILL
from scoring.simulate_table import simulate_table_game
from scoring.table_deal import FOUR_HANDED
from tournaments.core.ratings import RatedGame, RatedTeamGame, RatingBook, RatingParams

DOUBLES_EVERY, DOUBLES_FIRST_WEEK = 4, 2
SATELLITE_TEAMS, SATELLITE_GAMES = (32, 36, 40), 9
CALIBRATION_GAMES = 1_000
Team = tuple[int, int]
Key = tuple[date, int, int, int]


@dataclass(frozen=True)
class TeamSeating:
    """Two teams at a table for one game; sessions are numbered after the singles ones."""

    day: date
    game_no: int
    session: int
    table: int
    a: Team
    b: Team
    seed: int

    @property
    def key(self) -> Key:
        return (self.day, self.game_no, self.session, self.table)


def seat_teams(
    rng: random.Random, teams: list[Team], day: date, session: int, games: int
) -> list[TeamSeating]:
    """Random tables of two teams for ``games`` games; an odd team sits out."""
    seatings = []
    for game_no in range(1, games + 1):
        order = rng.sample(teams, len(teams))
        for table in range(len(order) // 2):
            a, b = order[2 * table], order[2 * table + 1]
            seatings.append(TeamSeating(day, game_no, session, table, a, b, rng.getrandbits(62)))
    return seatings


def drawn_teams(rng: random.Random, players: Sequence[int]) -> list[Team]:
    order = rng.sample(list(players), len(players) - len(players) % 2)
    return [(order[i], order[i + 1]) for i in range(0, len(order), 2)]


def doubles_schedule() -> list[TeamSeating]:
    """Every doubles game of the season (its own random stream: the singles are unchanged)."""
    pools = club_pools(random.Random(SEED))  # the singles backtest's clubs
    rng = random.Random(SEED + 2)
    seatings: list[TeamSeating] = []
    for week in range(WEEKS):
        monday = START + timedelta(weeks=week)
        if week % DOUBLES_EVERY == DOUBLES_FIRST_WEEK:
            for club, pool in enumerate(pools):
                present = rng.sample(pool, rng.choice(NIGHT_SIZES))
                day = monday + timedelta(days=club % 5 + 1)
                teams = drawn_teams(rng, present)
                seatings += seat_teams(rng, teams, day, CLUBS + 1 + club, NIGHT_GAMES)
        if week in WEEKEND_WEEKS:
            teams = drawn_teams(rng, rng.sample(range(PLAYERS), 2 * rng.choice(SATELLITE_TEAMS)))
            friday = monday + timedelta(days=4)
            seatings += seat_teams(rng, teams, friday, 2 * CLUBS + 1, SATELLITE_GAMES)
    return sorted(seatings, key=lambda s: s.key)


def play_doubles(job: tuple[int, tuple[float, float, float, float]]) -> tuple[bool, bool]:
    """(team 0 won, it was a skunk): players 0 and 2 (team 0) against players 1 and 3."""
    seed, skills = job
    game = simulate_table_game(seed, style=FOUR_HANDED, skills=skills)
    return game.winner == 0, win_kind(game.target - min(game.final_scores)) != "plain win"


def play_all_doubles(
    pool, seatings: Sequence[TeamSeating], skills: Sequence[float]
) -> list[RatedTeamGame]:
    jobs = [
        (s.seed, (skills[s.a[0]], skills[s.b[0]], skills[s.a[1]], skills[s.b[1]])) for s in seatings
    ]
    outcomes = pool.map(play_doubles, jobs, chunksize=50)
    return [
        RatedTeamGame(s.a, s.b, skunk) if a_won else RatedTeamGame(s.b, s.a, skunk)
        for s, (a_won, skunk) in zip(seatings, outcomes, strict=True)
    ]


def calibrate_doubles(pool) -> float:
    """How often two experts beat two players of AVERAGE_SKILL four-handed."""
    rng = random.Random(SEED + 3)
    pair = (EXPERT_SKILL, AVERAGE_SKILL, EXPERT_SKILL, AVERAGE_SKILL)
    jobs = [(rng.getrandbits(62), pair) for _ in range(CALIBRATION_GAMES)]
    return sum(won for won, _ in pool.map(play_doubles, jobs, chunksize=50)) / CALIBRATION_GAMES


@dataclass
class Book:
    """A rating book, whether it learns doubles games, and the chances it gave test winners."""

    ratings: RatingBook
    learns_doubles: bool
    singles: list[float]
    doubles: list[float]

    def learn(self, game: RatedGame | RatedTeamGame) -> None:
        if self.learns_doubles or isinstance(game, RatedGame):
            self.ratings.apply(game)

    def predict_then_learn(self, game: RatedGame | RatedTeamGame) -> None:
        if isinstance(game, RatedTeamGame):
            self.doubles.append(self.ratings.team_win_probability(game.winners, game.losers))
        else:
            self.singles.append(self.ratings.win_probability(game.winner, game.loser))
        self.learn(game)


def _figures(name: str, chances: Sequence[float]) -> str:
    return f"logloss={log_loss(chances):.4f} brier={brier(chances):.4f} ({name})"


def doubles_backtest(
    skills: Sequence[float],
    seatings: Sequence[Seating],
    games: Sequence[RatedGame],
    cut: int,
    chosen: RatingParams,
) -> str:
    """Prints the doubles figures (see the module) and returns their one-line summary."""
    schedule = doubles_schedule()
    with Pool(PROCESSES) as pool:
        rate = calibrate_doubles(pool)
        doubles = play_all_doubles(pool, schedule, skills)
    print(
        f"calibration doubles: two experts beat two of skill {AVERAGE_SKILL} in {rate:.1%} of "
        f"{CALIBRATION_GAMES:,} four-handed games"
    )
    singles_keys = [(s.day, s.game_no, s.session, s.table) for s in seatings]
    timeline = sorted(
        [
            *zip(singles_keys, games, strict=True),
            *((s.key, g) for s, g in zip(schedule, doubles, strict=True)),
        ],
        key=lambda item: item[0],
    )
    start = singles_keys[cut]
    books = {
        "left out": Book(RatingBook(chosen), False, [], []),
        "2v2": Book(RatingBook(chosen), True, [], []),
    }
    tested = 0
    for key, game in timeline:
        for book in books.values():
            (book.learn if key < start else book.predict_then_learn)(game)
        tested += key >= start and isinstance(game, RatedTeamGame)
    print(
        f"doubles league: {len(doubles):,} doubles games ({sum(g.skunk for g in doubles):,} "
        f"skunks) on {len({(s.day, s.session) for s in schedule})} nights and satellites; "
        f"test period {len(games) - cut:,} singles and {tested:,} doubles games"
    )
    both, alone = books["2v2"], books["left out"]
    print("test singles: " + _figures("doubles left out", alone.singles))
    print("test singles: " + _figures("doubles rated 2v2", both.singles))
    mean, low, high = bootstrap_diff(both.singles, alone.singles)
    print(
        f"diff singles logloss, 2v2 - left out: {mean:+.4f}, 95% interval {low:+.4f} to {high:+.4f}"
    )
    coin = [0.5] * len(both.doubles)
    print("test doubles: " + _figures("singles ratings only", alone.doubles))
    print("test doubles: " + _figures("rated 2v2", both.doubles))
    print("test doubles: " + _figures("coin flip", coin))
    d_mean, d_low, d_high = bootstrap_diff(both.doubles, coin)
    print(
        f"diff doubles logloss, 2v2 - coin flip: {d_mean:+.4f}, 95% interval {d_low:+.4f} to "
        f"{d_high:+.4f}"
    )
    rate_them = high <= PASS_BOUND and d_high < 0
    decision = "rate_2v2" if rate_them else "leave_out"
    print(f"decision: {decision}")
    return (
        f"doubles: decision={decision} singles_2v2={log_loss(both.singles):.4f} "
        f"singles_left_out={log_loss(alone.singles):.4f} singles_diff={mean:+.4f} "
        f"singles_diff_hi={high:+.4f} doubles_2v2={log_loss(both.doubles):.4f} "
        f"doubles_left_out={log_loss(alone.doubles):.4f} doubles_coin_diff_hi={d_high:+.4f}"
    )
