"""Benchmark: pairing whole qualifying rounds of large fields, with a changing field.

Run from the repository root: ``python bench/pairing.py``. Each scenario pairs every game of a
22-game qualifying round, with a few withdrawals and late entries between games, then counts
repeat meetings from the pairings themselves (not from the pairing code's own bookkeeping).
One line per scenario:
``pairing: players=<n> games=<g> repeats=<r> max_game_s=<s> total_s=<s>``.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.core.pairing import GamePairing, pair_game  # noqa: E402

SCENARIOS = ((1024, 22), (2001, 22))
CHANGES_PER_GAME = 3  # up to this many withdrawals, and as many late entries, between games


def repeats(history: list[GamePairing]) -> int:
    """Meetings beyond the first for every pair, counted from the tables."""
    meetings = Counter(frozenset(table) for game in history for table in game.tables)
    return sum(times - 1 for times in meetings.values())


def change_field(active: list[int], next_id: int, rng: random.Random) -> tuple[list[int], int]:
    """Some players withdraw and some late entries join, keeping the field's parity random."""
    for _ in range(rng.randint(0, CHANGES_PER_GAME)):
        active.remove(rng.choice(active))
    joining = rng.randint(0, CHANGES_PER_GAME)
    active.extend(range(next_id, next_id + joining))
    return active, next_id + joining


def run(players: int, games: int, seed: int = 2024) -> str:
    rng = random.Random(seed)
    active, next_id = list(range(1, players + 1)), players + 1
    history: list[GamePairing] = []
    timings = []
    for game in range(1, games + 1):
        if game > 1:
            active, next_id = change_field(active, next_id, rng)
        started = time.perf_counter()
        pairing = pair_game(
            active=active, history=history, games_remaining=games - game + 1, seed=seed
        )
        timings.append(time.perf_counter() - started)
        history.append(pairing)
    return (
        f"pairing: players={players} games={games} repeats={repeats(history)} "
        f"max_game_s={max(timings):.3f} total_s={sum(timings):.3f}"
    )


def main() -> None:
    for players, games in SCENARIOS:
        print(run(players, games), flush=True)


if __name__ == "__main__":
    main()
