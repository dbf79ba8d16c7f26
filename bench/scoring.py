"""Speed of the rules engine on one core: ``python bench/scoring.py`` from the repository root.

Figures (the last line prints them in a fixed format):
- exhaustive_s: seconds to score all 12,994,800 (hand, starter) pairs as hand and as crib
  (25,989,600 scorings, totals only) through the production tables with NumPy; best of 3.
- hands_per_s: those 25,989,600 scorings divided by exhaustive_s.
- breakdown_calls_per_s: ``score_hand`` calls per second with card strings in and the full
  breakdown out, cycling through 4,000 different random deals (hands and cribs), starting
  with an empty cache, so the first pass is computed and later passes are served from it.
- games_per_s: complete simulated games to 121 per second.

Times are the CPU time of this single-threaded process (``time.process_time``), that is the
work done on one core, which other programs sharing the machine do not inflate. The lines
before the last give the same figures by wall-clock time, and the rate of ``score_hand``
without its cache (every call parsed, checked and scored afresh), so the cache's share of
the headline figure is visible.
"""

from __future__ import annotations

import os

# One core: the engine is single-threaded Python; keep any threaded NumPy back end to one
# thread too, so no figure borrows a second core.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.cards import DECK  # noqa: E402
from scoring.exhaustive import PAIR_COUNT, score_frequencies  # noqa: E402
from scoring.hand import clear_score_cache, score_hand, score_hand_uncached  # noqa: E402
from scoring.simulate import simulate_game  # noqa: E402
from scoring.tables import entry_by_ranks, keep_table, numpy_tables  # noqa: E402

DEALS = 4_000
CALLS = 1_000_000
UNCACHED_CALLS = 40_000
GAMES = 300


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) that ``work`` takes."""
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    return time.process_time() - cpu, time.perf_counter() - wall


def random_deals(seed: int) -> list[tuple[list[str], str, bool]]:
    rng = random.Random(seed)
    deals = []
    for _ in range(DEALS):
        cards = [str(card) for card in rng.sample(DECK, 5)]
        deals.append((cards[:4], cards[4], rng.random() < 0.25))
    return deals


def exhaustive() -> tuple[float, float]:
    numpy_tables()  # building the table is start-up, not enumeration
    runs = [timed(score_frequencies) for _ in range(3)]
    return min(cpu for cpu, _ in runs), min(wall for _, wall in runs)


def breakdown_calls() -> tuple[float, float]:
    deals = random_deals(1)
    entry_by_ranks()
    clear_score_cache()

    def work() -> None:
        for _ in range(CALLS // DEALS):
            for hand, starter, crib in deals:
                score_hand(hand, starter, crib=crib)

    return timed(work)


def uncached_calls() -> tuple[float, float]:
    deals = random_deals(2) * (UNCACHED_CALLS // DEALS)

    def work() -> None:
        for hand, starter, crib in deals:
            score_hand_uncached(hand, starter, crib)

    return timed(work)


def games() -> tuple[float, float]:
    keep_table()
    simulate_game(0)
    return timed(lambda: [simulate_game(seed) for seed in range(1, GAMES + 1)])


def figures(exhaustive_s: float, calls_s: float, games_s: float) -> str:
    return (
        f"exhaustive_s={exhaustive_s:.3f} hands_per_s={2 * PAIR_COUNT / exhaustive_s:.0f} "
        f"breakdown_calls_per_s={CALLS // DEALS * DEALS / calls_s:.0f} "
        f"games_per_s={GAMES / games_s:.1f}"
    )


def main() -> None:
    times = [exhaustive(), breakdown_calls(), games()]
    uncached_cpu, _ = uncached_calls()
    print(f"score_hand without its cache: {UNCACHED_CALLS / uncached_cpu:,.0f} calls/s (CPU)")
    print(f"wall clock: {figures(*(wall for _, wall in times))}")
    print(f"scoring: {figures(*(cpu for cpu, _ in times))}")


if __name__ == "__main__":
    main()
