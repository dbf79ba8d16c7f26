"""Speed of the rules engine on one core: ``python bench/scoring.py`` from the repository root.

Figures (the last line prints them in a fixed format):
- exhaustive_s: seconds to score all 12,994,800 (hand, starter) pairs as hand and as crib
  (25,989,600 scorings, totals only) through the production tables with NumPy; best of 3.
- hands_per_s: those 25,989,600 scorings divided by exhaustive_s.
- unseen_breakdown_calls_per_s: ``score_hand`` calls per second with card strings in and the
  full breakdown out, every call a different deal (hand or crib, starter): the speed of
  counting hands the engine has not seen before, which is what a ruling or an award asks for.
  Median of 3 rounds of 100,000 deals; no deal appears twice in the whole run, so a cache, if
  one were ever added, could not serve any call.
- games_per_s: complete simulated games to 121 per second.

Times are the CPU time of this single-threaded process (``time.process_time``), that is the
work done on one core, which other programs sharing the machine do not inflate. The line
before the last gives the same figures by wall-clock time.

``unseen_breakdown_calls_per_s`` replaces ``breakdown_calls_per_s`` (issue 15), which cycled
through 4,000 deals and so mostly counted look-ups in a cache ``score_hand`` no longer has.
"""

from __future__ import annotations

import os

# One core: the engine is single-threaded Python; keep any threaded NumPy back end to one
# thread too, so no figure borrows a second core.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import random  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.cards import DECK  # noqa: E402
from scoring.exhaustive import PAIR_COUNT, score_frequencies  # noqa: E402
from scoring.hand import score_hand  # noqa: E402
from scoring.simulate import simulate_game  # noqa: E402
from scoring.tables import entry_by_ranks, keep_table, numpy_tables  # noqa: E402

DEALS = 100_000
ROUNDS = 3
GAMES = 300


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) that ``work`` takes."""
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    return time.process_time() - cpu, time.perf_counter() - wall


def distinct_deals(count: int, seed: int) -> list[tuple[list[str], str, bool]]:
    """``count`` deals as card strings, no two with the same cards, starter and crib flag."""
    rng = random.Random(seed)
    seen: set[tuple[frozenset[str], str, bool]] = set()
    deals = []
    while len(deals) < count:
        cards = [str(card) for card in rng.sample(DECK, 5)]
        deal = (cards[:4], cards[4], rng.random() < 0.25)
        key = (frozenset(deal[0]), deal[1], deal[2])
        if key not in seen:
            seen.add(key)
            deals.append(deal)
    return deals


def exhaustive() -> tuple[float, float]:
    numpy_tables()  # building the table is start-up, not enumeration
    runs = [timed(score_frequencies) for _ in range(3)]
    return min(cpu for cpu, _ in runs), min(wall for _, wall in runs)


def unseen_breakdown_calls() -> tuple[float, float]:
    """Median (CPU, wall) seconds for one round of ``DEALS`` calls, each on a deal not yet seen."""
    deals = distinct_deals(DEALS * ROUNDS, seed=1)
    entry_by_ranks()  # building the table is start-up, not counting

    def round_of(part: list[tuple[list[str], str, bool]]) -> Callable[[], None]:
        def work() -> None:
            for hand, starter, crib in part:
                score_hand(hand, starter, crib=crib)

        return work

    runs = [timed(round_of(deals[i * DEALS : (i + 1) * DEALS])) for i in range(ROUNDS)]
    return statistics.median(cpu for cpu, _ in runs), statistics.median(wall for _, wall in runs)


def games() -> tuple[float, float]:
    keep_table()
    simulate_game(0)
    return timed(lambda: [simulate_game(seed) for seed in range(1, GAMES + 1)])


def figures(exhaustive_s: float, calls_s: float, games_s: float) -> str:
    return (
        f"exhaustive_s={exhaustive_s:.3f} hands_per_s={2 * PAIR_COUNT / exhaustive_s:.0f} "
        f"unseen_breakdown_calls_per_s={DEALS / calls_s:.0f} "
        f"games_per_s={GAMES / games_s:.1f}"
    )


def main() -> None:
    times = [exhaustive(), unseen_breakdown_calls(), games()]
    print(f"wall clock: {figures(*(wall for _, wall in times))}")
    print(f"scoring: {figures(*(cpu for cpu, _ in times))}")


if __name__ == "__main__":
    main()
