"""Backtest of the skill ratings on a simulated league: ``python bench/ratings.py`` from the
repository root. Seeded: two runs print the same figures (only the seconds differ).

The league:
- 200 players with known true skills (``scoring.simulate``'s skill: the chance of making the
  strategy's choice at each decision). Skills are evenly spread from ``2 * AVERAGE_SKILL - 1``
  to 1.0, so the median player has ``AVERAGE_SKILL``, the skill an expert beats about 59% of
  the time (research on real play: an expert beats an average player about 59%), and the
  weakest are as far below the median as the experts are above it.
- 8 clubs of 25 players. Every week each club has a club night on its own weekday: 18 to 22
  of its players come, and play 9 games, seated at random each game.
- Weekend events in 3 weeks: 64 to 80 players from the whole league, 9 games on Saturday and
  9 on Sunday, seated at random each game.
- Every game is played out card by card by ``simulate_game`` with the two players' skills; a
  skunk is a win by 31 or more (``scoring.games.win_kind``). Games are ordered by date, then
  game number; the first 80% are the fit period, the last 20% the test period.

Prediction is online: before each test game the system gives the winner's chance from the
ratings as they stand (after every earlier game, fit and test), then learns the result.
Tuning uses the fit period only, the same way: learn its first 75%, predict its last 25%
online, keep the setting with the lowest log-loss. The chosen setting then learns the whole
fit period and predicts the test period.

Figures:
- calibration: how often an expert (skill 1.0) beats ``AVERAGE_SKILL`` in 4,000 games, with
  its 95% interval.
- league: the number of games and skunks, and the dates of the two periods.
- tuning tables: fit-period log-loss of OpenSkill for each beta (as a multiple of the
  library's 25/6), tau (as a multiple of its 25/300) and skunk setting (a skunk as one win |
  as two), and of Elo for each K. Settings equal to four decimals count as equal; the tie goes
  to the tau nearest the library's.
- test: log-loss (the mean of -ln p, p the chance given to the actual winner; a coin flip
  scores ln 2 = 0.6931) and Brier score (the mean of (1 - p)^2; a coin flip scores 0.25) of
  the chosen OpenSkill (through ``tournaments.core.ratings.RatingBook``), of OpenSkill with the
  library's defaults, of Elo with the tuned K (400-point logistic scale, everyone starts at
  1500, skunks not counted), of a coin flip, and of the true skills (a logistic curve in the
  skill difference through the calibration point: roughly the best any rating could do).
- diff: the chosen system's log-loss minus Elo's, with a paired bootstrap 95% interval (2,000
  resamples of the test games). The chosen system passes if the upper bound is <= 0.005.
- after n games: for players' ratings just after their n-th game (n up to the count 90% of
  players reach), the median sigma, and the correlation of mu with true skill.
  ``provisional_games`` is the n from which that correlation stays at or above sqrt(1/2):
  the rating accounts for at least half the spread of true skill. Sigma is no guide here:
  with a beta this large OpenSkill's sigma barely falls in a season.
- seconds: wall-clock time of the whole run (the only figure that differs between runs).
- doubles: rating doubles games two against two, or leaving them out (``ratings_doubles``),
  printed before the last two lines; its summary line is the one but last.
The last line: ``ratings: system=<name> logloss=<x> elo_logloss=<y> brier=<z> elo_brier=<w>
diff_hi=<upper bound of logloss minus elo_logloss>``.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scoring.games import win_kind  # noqa: E402
from scoring.simulate import AVERAGE_SKILL, EXPERT_SKILL, simulate_game  # noqa: E402
from tournaments.core.ratings import SYSTEM, RatedGame, RatingBook, RatingParams  # noqa: E402

SEED = 2026
PLAYERS, CLUBS, WEEKS = 200, 8, 26
NIGHT_SIZES, NIGHT_GAMES = (18, 20, 22), 9
WEEKEND_WEEKS, WEEKEND_SIZES, WEEKEND_DAY_GAMES = (8, 17, 25), (64, 72, 80), 9
START = date(2025, 1, 6)  # a Monday
FIT_SHARE, TUNE_WARM_SHARE = 0.8, 0.75
CALIBRATION_GAMES, RESAMPLES, PASS_BOUND = 4_000, 2_000, 0.005
DEFAULT_BETA, DEFAULT_TAU = 25.0 / 6.0, 25.0 / 300.0
BETA_MULTIPLES = (1, 2, 4, 7, 10, 12, 14, 16, 18, 20, 24, 28, 32, 40)
TAU_MULTIPLES = (0.25, 1, 4)
ELO_KS = (1, 1.5, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 32)
SIGMA_CHECKPOINTS = (5, 10, 20, 30, 40, 50, 60, 80, 100, 120, 150)
INFORMED_CORRELATION = math.sqrt(0.5)
PROCESSES = max(1, min(2, os.cpu_count() or 1))


@dataclass(frozen=True)
class Seating:
    """Two players at a table for one game; ``session`` is the club, or CLUBS for an event."""

    day: date
    game_no: int
    session: int
    table: int
    a: int
    b: int
    seed: int


def true_skills() -> list[float]:
    """Player i's skill: evenly spread, with AVERAGE_SKILL in the middle and 1.0 at the top."""
    low = 2 * AVERAGE_SKILL - EXPERT_SKILL
    return [low + (EXPERT_SKILL - low) * (i + 0.5) / PLAYERS for i in range(PLAYERS)]


def seat(
    rng: random.Random, present: list[int], day: date, session: int, first: int, games: int
) -> Iterator[Seating]:
    """Random seating of ``present`` (an even number) for ``games`` games from ``first``."""
    for game_no in range(first, first + games):
        order = rng.sample(present, len(present))
        for table in range(len(order) // 2):
            a, b = order[2 * table], order[2 * table + 1]
            yield Seating(day, game_no, session, table, a, b, rng.getrandbits(62))


def club_pools(rng: random.Random) -> list[list[int]]:
    """The players of each club: the season's first draw from ``rng``."""
    everyone = rng.sample(range(PLAYERS), PLAYERS)
    size = PLAYERS // CLUBS
    return [everyone[club * size : (club + 1) * size] for club in range(CLUBS)]


def schedule(rng: random.Random) -> list[Seating]:
    """Every game of the season, in time order."""
    pools = club_pools(rng)
    seatings: list[Seating] = []
    for week in range(WEEKS):
        monday = START + timedelta(weeks=week)
        for club, pool in enumerate(pools):
            present = rng.sample(pool, rng.choice(NIGHT_SIZES))
            day = monday + timedelta(days=club % 5)
            seatings += seat(rng, present, day, club, 1, NIGHT_GAMES)
        if week in WEEKEND_WEEKS:
            present = rng.sample(range(PLAYERS), rng.choice(WEEKEND_SIZES))
            for day_no in range(2):
                day, first = monday + timedelta(days=5 + day_no), 1 + day_no * WEEKEND_DAY_GAMES
                seatings += seat(rng, present, day, CLUBS, first, WEEKEND_DAY_GAMES)
    return sorted(seatings, key=lambda s: (s.day, s.game_no, s.session, s.table))


def play(job: tuple[int, float, float]) -> tuple[bool, bool]:
    """(player 0 won, it was a skunk) for one game between the two skills from ``seed``."""
    seed, skill_a, skill_b = job
    game = simulate_game(seed, skills=(skill_a, skill_b))
    return game.winner == 0, win_kind(game.target - min(game.final_scores)) != "plain win"


def play_all(pool, seatings: Sequence[Seating], skills: Sequence[float]) -> list[RatedGame]:
    jobs = [(s.seed, skills[s.a], skills[s.b]) for s in seatings]
    outcomes = pool.map(play, jobs, chunksize=200)
    return [
        RatedGame(s.a, s.b, skunk) if a_won else RatedGame(s.b, s.a, skunk)
        for s, (a_won, skunk) in zip(seatings, outcomes, strict=True)
    ]


def calibrate(pool) -> tuple[float, float]:
    """How often an expert beats AVERAGE_SKILL, and the half-width of its 95% interval."""
    rng = random.Random(SEED + 1)
    jobs = [(rng.getrandbits(62), EXPERT_SKILL, AVERAGE_SKILL) for _ in range(CALIBRATION_GAMES)]
    rate = sum(won for won, _ in pool.map(play, jobs, chunksize=200)) / CALIBRATION_GAMES
    return rate, 1.96 * math.sqrt(rate * (1 - rate) / CALIBRATION_GAMES)


class Elo:
    """Plain Elo: expected score on the 400-point logistic scale, everyone starts at 1500."""

    def __init__(self, k: float) -> None:
        self.k = k
        self.points: dict[int, float] = {}

    def win_probability(self, player: int, opponent: int) -> float:
        gap = self.points.get(opponent, 1500.0) - self.points.get(player, 1500.0)
        return 1.0 / (1.0 + 10.0 ** (gap / 400.0))

    def apply(self, game: RatedGame) -> None:
        change = self.k * (1.0 - self.win_probability(game.winner, game.loser))
        self.points[game.winner] = self.points.get(game.winner, 1500.0) + change
        self.points[game.loser] = self.points.get(game.loser, 1500.0) - change


class TrueSkills:
    """The reference: the chance from the true skills, learning nothing."""

    def __init__(self, skills: Sequence[float], slope: float) -> None:
        self.skills, self.slope = skills, slope

    def win_probability(self, player: int, opponent: int) -> float:
        return 1.0 / (1.0 + math.exp(-self.slope * (self.skills[player] - self.skills[opponent])))

    def apply(self, game: RatedGame) -> None:
        pass


def online(system, learn: Iterable[RatedGame], scored: Iterable[RatedGame]) -> list[float]:
    """The chance ``system`` gave each winner of ``scored``, asked just before the game,
    after learning ``learn``."""
    for game in learn:
        system.apply(game)
    chances = []
    for game in scored:
        # Every system here is symmetric (b's chance is 1 minus a's), so asking for the
        # winner's chance is scoring the same forecast as asking in seat order.
        chances.append(system.win_probability(game.winner, game.loser))
        system.apply(game)
    return chances


def log_loss(chances: Sequence[float]) -> float:
    return -sum(map(math.log, chances)) / len(chances)


def brier(chances: Sequence[float]) -> float:
    return sum((1.0 - p) ** 2 for p in chances) / len(chances)


_FIT: list[RatedGame] = []  # the fit period, in each tuning process


def _share_fit(fit: list[RatedGame]) -> None:
    _FIT[:] = fit


def fit_log_loss(make: Callable[[], object]) -> float:
    """Tuning score: learn the fit period's first 75%, predict the rest online."""
    warm = int(len(_FIT) * TUNE_WARM_SHARE)
    return log_loss(online(make(), _FIT[:warm], _FIT[warm:]))


def openskill_fit(params: RatingParams) -> float:
    return fit_log_loss(lambda: RatingBook(params))


def elo_fit(k: float) -> float:
    return fit_log_loss(lambda: Elo(k))


def tune_openskill(pool) -> RatingParams:
    """The OpenSkill setting with the lowest fit-period log-loss; prints the table."""
    grid = [
        RatingParams(beta=DEFAULT_BETA * b, tau=DEFAULT_TAU * t, skunk_as_two_wins=two)
        for b in BETA_MULTIPLES
        for t in TAU_MULTIPLES
        for two in (False, True)
    ]
    scores = pool.map(openskill_fit, grid, chunksize=1)
    print("fit-period log-loss, OpenSkill (rows beta/default, columns tau/default, skunk 1|2):")
    print("  beta" + "".join(f"{t:>15g}" for t in TAU_MULTIPLES))
    width = 2 * len(TAU_MULTIPLES)
    for row, multiple in enumerate(BETA_MULTIPLES):
        cells = scores[row * width : (row + 1) * width]
        pairs = (f"{cells[i]:.4f}|{cells[i + 1]:.4f}" for i in range(0, width, 2))
        print(f"  {multiple:>4g}" + "".join(f"{pair:>15}" for pair in pairs))
    # Equal to four decimals is no evidence: such ties go to the tau nearest the library's.
    best = min(
        range(len(grid)),
        key=lambda i: (round(scores[i], 4), abs(math.log(grid[i].tau / DEFAULT_TAU))),
    )
    return grid[best]


def tune_elo(pool) -> float:
    """The Elo K with the lowest fit-period log-loss; prints the scores."""
    scores = pool.map(elo_fit, ELO_KS, chunksize=1)
    cells = (f"{k:g}:{score:.4f}" for k, score in zip(ELO_KS, scores, strict=True))
    print("fit-period log-loss, Elo K:" + " ".join(cells))
    return ELO_KS[min(range(len(ELO_KS)), key=scores.__getitem__)]


def bootstrap_diff(ours: Sequence[float], theirs: Sequence[float]) -> tuple[float, float, float]:
    """Mean of (our log-loss minus theirs) per test game, and its paired bootstrap 95% interval."""
    diff = np.log(np.asarray(theirs)) - np.log(np.asarray(ours))
    rng = np.random.default_rng(SEED)
    means = diff[rng.integers(0, len(diff), size=(RESAMPLES, len(diff)))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(diff.mean()), float(low), float(high)


def maturity(
    games: Sequence[RatedGame], params: RatingParams, skills: Sequence[float]
) -> tuple[dict[int, tuple[float, float]], int]:
    """At each checkpoint n: the median sigma of players after their n-th game, and how well
    their mu then correlates with true skill; and the provisional count (see above)."""
    book = RatingBook(params)
    after: dict[int, list[tuple[int, float, float]]] = {}
    for game in games:
        book.apply(game)
        for player in (game.winner, game.loser):
            rating = book.rating(player)
            after.setdefault(rating.games, []).append((player, rating.mu, rating.sigma))
    totals = sorted(rating.games for rating in book.ratings().values())
    reached = totals[len(totals) // 10]  # 90% of players play at least this many games
    figures = {}
    for n in range(1, reached + 1):
        players, mus, sigmas = zip(*after[n], strict=True)
        truth = [skills[player] for player in players]
        figures[n] = (statistics.median(sigmas), statistics.correlation(mus, truth))
    informed = [n for n in figures if figures[n][1] < INFORMED_CORRELATION]
    provisional = informed[-1] + 1 if informed else 1
    shown = [n for n in SIGMA_CHECKPOINTS if n < reached] + [reached]
    return {n: figures[n] for n in shown}, provisional


def report(name: str, chances: Sequence[float]) -> None:
    print(f"test {name}: logloss={log_loss(chances):.4f} brier={brier(chances):.4f}")


def league(skills: Sequence[float]) -> tuple[list[RatedGame], float, list[Seating]]:
    """Every game of the season, played out, the calibration rate and the seatings; prints
    the first two."""
    seatings = schedule(random.Random(SEED))
    with Pool(PROCESSES) as pool:
        rate, half = calibrate(pool)
        games = play_all(pool, seatings, skills)
    print(
        f"calibration: an expert beats skill {AVERAGE_SKILL} in {rate:.1%} +- {half:.1%} "
        f"of {CALIBRATION_GAMES:,} games"
    )
    cut = int(len(games) * FIT_SHARE)
    print(
        f"league: {PLAYERS} players, {len(games):,} games ({sum(g.skunk for g in games):,} "
        f"skunks) from {seatings[0].day} to {seatings[-1].day}; fit period {cut:,} games "
        f"to {seatings[cut - 1].day}, test period {len(games) - cut:,} games"
    )
    return games, rate, seatings


def test_period(
    fit: list[RatedGame], test: list[RatedGame], chosen: RatingParams, k: float
) -> tuple[list[float], list[float]]:
    """The chances the chosen OpenSkill and Elo gave each test winner; prints every system."""
    ours = online(RatingBook(chosen), fit, test)
    elo = online(Elo(k), fit, test)
    report(f"{SYSTEM} tuned", ours)
    defaults = RatingParams(beta=DEFAULT_BETA, tau=DEFAULT_TAU, skunk_as_two_wins=False)
    report("openskill library defaults", online(RatingBook(defaults), fit, test))
    report(f"elo K={k:g}", elo)
    report("coin flip", [0.5] * len(test))
    return ours, elo


def main() -> None:
    started = time.perf_counter()
    skills = true_skills()
    games, rate, seatings = league(skills)
    cut = int(len(games) * FIT_SHARE)
    fit, test = games[:cut], games[cut:]
    with Pool(PROCESSES, initializer=_share_fit, initargs=(fit,)) as pool:
        chosen, k = tune_openskill(pool), tune_elo(pool)
    print(
        f"chosen: beta={chosen.beta:.4f} ({chosen.beta / DEFAULT_BETA:g}x default) "
        f"tau={chosen.tau:.4f} skunk_as_two_wins={chosen.skunk_as_two_wins}; Elo K={k:g}"
    )
    ours, elo = test_period(fit, test, chosen, k)
    slope = math.log(rate / (1 - rate)) / (EXPERT_SKILL - AVERAGE_SKILL)
    report("true skills (approx.)", online(TrueSkills(skills, slope), (), test))
    mean, low, high = bootstrap_diff(ours, elo)
    verdict = "pass" if high <= PASS_BOUND else "FAIL"
    print(
        f"diff chosen - elo logloss: {mean:+.4f}, 95% interval {low:+.4f} to {high:+.4f}: {verdict}"
    )
    curve, provisional = maturity(games, chosen, skills)
    print(f"after n games (sigma starts at {chosen.sigma:.2f}): n:median sigma,corr(mu, skill)")
    print("  " + "  ".join(f"{n}:{sigma:.2f},{corr:.2f}" for n, (sigma, corr) in curve.items()))
    print(
        f"provisional_games={provisional}: then on, corr(mu, skill) >= {INFORMED_CORRELATION:.3f}"
    )
    from ratings_doubles import doubles_backtest  # it reads this module's league

    doubles = doubles_backtest(skills, seatings, games, cut, chosen)
    print(f"seconds: {time.perf_counter() - started:.1f}")
    print(doubles)
    print(
        f"ratings: system={SYSTEM} logloss={log_loss(ours):.4f} elo_logloss={log_loss(elo):.4f} "
        f"brier={brier(ours):.4f} elo_brier={brier(elo):.4f} diff_hi={high:.4f}"
    )


if __name__ == "__main__":
    main()
