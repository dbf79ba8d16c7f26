"""The rank table: what every five-card rank multiset scores in fifteens, pairs and runs.

Terms:
- rank multiset: the five ranks of a hand plus starter, sorted ascending, as a tuple
  (e.g. ``(5, 5, 5, 5, 11)``). No rank appears more than four times, so there are 6,175.
- position: an index 0..4 into that sorted tuple. A table entry names its scoring groups by
  positions, so the same entry serves every suit assignment of the ranks.
- rank code: ``sum(rank_i * 13**i)`` over the sorted ranks, with ranks counted from 0; the
  NumPy arrays are indexed by it so a vectorised scorer reaches the same entries.

Fifteens, pairs and runs depend only on ranks; flush and nobs depend on suits and are added
by ``scoring.hand``. This module is the single source of rank points: ``score_hand``, the
discard evaluator of the simulator and the exhaustive enumeration all read these entries.
The builder counts runs from rank multiplicities (a maximal stretch of consecutive ranks
times the product of their counts); ``scoring.reference`` recounts everything by brute
force over card combinations, and the tests compare the two.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np

RANKS = range(1, 14)
MULTISET_COUNT = 6175
CODE_SPACE = 13**5

# Every subset of two or more of the five positions, as the candidates for a fifteen, with its
# bit mask (bit i set for position i) so subset sums can be built incrementally.
_SUBSETS = tuple(
    (sum(1 << i for i in s), s) for size in range(2, 6) for s in combinations(range(5), size)
)
_PAIRS = tuple(combinations(range(5), 2))


class Group(NamedTuple):
    """One scoring group of an entry: kind ("fifteen", "pair", "run"), positions, points.

    ``pick`` takes the group's cards, as a tuple, from the five cards sorted by rank.
    """

    kind: str
    positions: tuple[int, ...]
    points: int
    pick: Callable[[Sequence[object]], tuple[object, ...]]


@cache
def _picker(positions: tuple[int, ...]) -> Callable[[Sequence[object]], tuple[object, ...]]:
    return itemgetter(*positions)


def _group(kind: str, positions: tuple[int, ...], points: int) -> Group:
    return Group(kind, positions, points, _picker(positions))


class RankEntry(NamedTuple):
    """Rank points of one multiset, by category, with the groups that make them."""

    ranks: tuple[int, ...]
    fifteens: int
    pairs: int
    runs: int
    groups: tuple[Group, ...]

    @property
    def total(self) -> int:
        return self.fifteens + self.pairs + self.runs


def rank_code(ranks: tuple[int, ...]) -> int:
    """Rank code of sorted ranks (see the module docstring)."""
    return sum((rank - 1) * 13**i for i, rank in enumerate(ranks))


@cache
def _fifteen_groups(pips: tuple[int, ...]) -> tuple[Group, ...]:
    """Fifteens by position, for sorted pips."""
    sums = [0] * 32
    for mask in range(1, 32):
        lowest = mask & -mask
        sums[mask] = sums[mask ^ lowest] + pips[lowest.bit_length() - 1]
    return tuple(_group("fifteen", subset, 2) for mask, subset in _SUBSETS if sums[mask] == 15)


@cache
def _pair_groups(shape: tuple[int, ...]) -> tuple[Group, ...]:
    """Pairs by position, for the shape of sorted ranks (see ``_shape``)."""
    return tuple(_group("pair", (i, j), 2) for i, j in _PAIRS if shape[i] == shape[j])


@cache
def _run_groups(shape: tuple[int, ...]) -> tuple[Group, ...]:
    """Each maximal run of three or more, once per choice of card for every duplicated rank."""
    best: list[int] = []
    stretch: list[int] = []
    for rank in sorted(set(shape)):
        stretch = stretch + [rank] if stretch and rank == stretch[-1] + 1 else [rank]
        if len(stretch) > len(best):
            best = stretch
    if len(best) < 3:
        return ()
    choices = [[i for i, r in enumerate(shape) if r == rank] for rank in best]
    return tuple(_group("run", tuple(p), len(best)) for p in product(*choices))


def _shape(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """Sorted ranks with every gap of two or more closed to two: pairs and runs depend only
    on this, and the 6,175 multisets have only 81 shapes, so their groups are built once."""
    shape = [0]
    for low, high in zip(ranks, ranks[1:], strict=False):
        shape.append(shape[-1] + min(high - low, 2))
    return tuple(shape)


def build_entry(ranks: tuple[int, ...]) -> RankEntry:
    """Table entry of one sorted five-rank multiset."""
    fifteens = _fifteen_groups(tuple(min(rank, 10) for rank in ranks))
    shape = _shape(ranks)
    pairs = _pair_groups(shape)
    runs = _run_groups(shape)
    return RankEntry(
        ranks=ranks,
        fifteens=2 * len(fifteens),
        pairs=2 * len(pairs),
        runs=sum(group.points for group in runs),
        groups=fifteens + pairs + runs,
    )


def _multisets() -> tuple[tuple[int, ...], ...]:
    return tuple(
        ranks
        for ranks in combinations_with_replacement(RANKS, 5)
        if max(ranks.count(rank) for rank in ranks) <= 4
    )


# The table is built on first use (about 0.1 s), so importing the engine stays cheap for code
# that never counts a hand.
@cache
def entries() -> tuple[RankEntry, ...]:
    """Every rank multiset's entry, in ascending order of the sorted ranks."""
    return tuple(build_entry(ranks) for ranks in _multisets())


@cache
def entry_by_ranks() -> dict[tuple[int, ...], RankEntry]:
    """The entries keyed by sorted ranks: the look-up ``score_hand`` uses."""
    return {entry.ranks: entry for entry in entries()}


@cache
def numpy_tables() -> tuple[np.ndarray, np.ndarray]:
    """``(multiset_id_by_code, rank_points_by_id)`` as NumPy arrays built from ``entries()``.

    ``multiset_id_by_code`` has ``CODE_SPACE`` slots, -1 where no multiset has that code.
    """
    import numpy as np  # only the vectorised scorers need NumPy; importing scoring should not

    ids = np.full(CODE_SPACE, -1, dtype=np.int16)
    points = np.zeros(MULTISET_COUNT, dtype=np.int8)
    for multiset_id, entry in enumerate(entries()):
        ids[rank_code(entry.ranks)] = multiset_id
        points[multiset_id] = entry.total
    return ids, points


@cache
def keep_table() -> dict[tuple[int, ...], tuple[int, ...]]:
    """Rank points of each sorted four-rank keep with each starter rank (index 0 = ace).

    A keep that already holds four of a rank gets 0 for that starter rank: it cannot occur.
    """
    table: dict[tuple[int, ...], tuple[int, ...]] = {}
    by_ranks = entry_by_ranks()
    for keep in combinations_with_replacement(RANKS, 4):
        row = []
        for starter in RANKS:
            entry = by_ranks.get(tuple(sorted((*keep, starter))))
            row.append(entry.total if entry else 0)
        table[keep] = tuple(row)
    return table
