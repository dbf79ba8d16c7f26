"""A slow, readable scorer for the show, kept to check the table-driven one.

It follows the rules table of the domain page literally, over the five actual cards:
every combination of two or more cards totalling 15 scores 2; every two cards of one rank
score 2; runs are found by trying five-card, then four-card, then three-card combinations
of distinct consecutive ranks, stopping at the first length that has any (so a run of four
does not also count its runs of three); flush and nobs as in ``scoring.hand``.

It shares nothing with ``scoring.tables`` but the card type, so the tests can compare the
two on every rank multiset.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import NamedTuple

from scoring.cards import Card


class ReferenceScore(NamedTuple):
    """Points by category and the scoring groups as ``(kind, frozenset of cards, points)``."""

    fifteens: int
    pairs: int
    runs: int
    flush: int
    nobs: int
    groups: frozenset[tuple[str, frozenset[Card], int]]

    @property
    def total(self) -> int:
        return self.fifteens + self.pairs + self.runs + self.flush + self.nobs


def _is_run(cards: Sequence[Card]) -> bool:
    """Distinct ranks with no gap: as many ranks as cards, spanning exactly that many."""
    ranks = {card.rank for card in cards}
    return len(ranks) == len(cards) and max(ranks) - min(ranks) == len(cards) - 1


def reference_score(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> ReferenceScore:
    """Score four cards and a starter by brute force over card combinations."""
    five = [*hand, starter]
    groups: set[tuple[str, frozenset[Card], int]] = set()
    for size in range(2, 6):
        for combo in combinations(five, size):
            if sum(card.pip for card in combo) == 15:
                groups.add(("fifteen", frozenset(combo), 2))
    for a, b in combinations(five, 2):
        if a.rank == b.rank:
            groups.add(("pair", frozenset((a, b)), 2))
    for size in (5, 4, 3):
        runs = [combo for combo in combinations(five, size) if _is_run(combo)]
        groups.update(("run", frozenset(combo), size) for combo in runs)
        if runs:
            break
    flush = 0
    if len({card.suit for card in five}) == 1:
        flush = 5
    elif len({card.suit for card in hand}) == 1 and not crib:
        flush = 4
    if flush:
        groups.add(("flush", frozenset(five if flush == 5 else hand), flush))
    for card in hand:
        if card.rank == 11 and card.suit == starter.suit:
            groups.add(("nobs", frozenset((card, starter)), 1))

    def points(kind: str) -> int:
        return sum(p for k, _, p in groups if k == kind)

    return ReferenceScore(
        points("fifteen"), points("pair"), points("run"), flush, points("nobs"), frozenset(groups)
    )
