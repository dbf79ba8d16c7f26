"""The table-driven scorer against the brute-force reference scorer.

Every one of the 6,175 rank multisets is scored with each starter rank it allows and each
flush pattern (none, four-card, five-card) and nobs pattern (with, without) its ranks allow,
as hand and as crib; then a large random sample of real deals.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations_with_replacement

from scoring.cards import DECK, JACK, SUITS, Card
from scoring.hand import score_cards
from scoring.reference import reference_score
from scoring.tables import MULTISET_COUNT, entries, entry_by_ranks, numpy_tables, rank_code


def _pattern(hand: list[Card], starter: Card) -> tuple[str, bool]:
    suits = {card.suit for card in hand}
    flush = "none" if len(suits) > 1 else ("five" if starter.suit in suits else "four")
    nobs = any(card.rank == JACK and card.suit == starter.suit for card in hand)
    return flush, nobs


def _deals(ranks: tuple[int, ...]) -> Iterator[tuple[list[Card], Card]]:
    """One deal per (flush pattern, nobs pattern) the multiset allows."""
    seen: set[tuple[str, bool]] = set()
    for position in sorted({ranks.index(rank) for rank in ranks}):
        held = ranks[:position] + ranks[position + 1 :]
        suit_choices = [[SUITS[i] for i in range(4)]]
        if len(set(held)) == 4:
            suit_choices.append(["H"] * 4)
        for suits in suit_choices:
            hand = [Card(rank, suit) for rank, suit in zip(held, suits, strict=True)]
            for suit in SUITS:
                starter = Card(ranks[position], suit)
                if starter in hand:
                    continue
                key = _pattern(hand, starter)
                if key not in seen:
                    seen.add(key)
                    yield hand, starter


def _breakdown(hand: list[Card], starter: Card, crib: bool) -> tuple[object, ...]:
    score = score_cards(tuple(hand), starter, crib)
    groups = frozenset((c.kind, frozenset(c.cards), c.points) for c in score.combinations)
    return (*score[1:6], groups)


def test_there_are_6175_rank_multisets() -> None:
    assert len(entries()) == MULTISET_COUNT == len(entry_by_ranks())
    possible = [
        r for r in combinations_with_replacement(range(1, 14), 5) if max(Counter(r).values()) < 5
    ]
    assert sorted(entry_by_ranks()) == possible


def test_every_multiset_and_pattern_matches_the_reference() -> None:
    patterns: Counter[tuple[str, bool]] = Counter()
    for entry in entries():
        for hand, starter in _deals(entry.ranks):
            patterns[_pattern(hand, starter)] += 1
            for crib in (False, True):
                expected = reference_score(hand, starter, crib=crib)
                got = _breakdown(hand, starter, crib)
                assert got == (*expected[:5], expected.groups), (hand, starter, crib)
    # Every flush and nobs pattern was exercised, on many multisets each (a four-card flush
    # with nobs cannot happen: the jack would share the starter's suit).
    everything = {(f, n) for f in ("none", "four", "five") for n in (False, True)}
    assert set(patterns) == everything - {("four", True)}
    assert min(patterns.values()) > 100


def test_random_deals_match_the_reference() -> None:
    rng = random.Random(20240615)
    for _ in range(25_000):
        cards = rng.sample(DECK, 5)
        crib = rng.random() < 0.5
        expected = reference_score(cards[:4], cards[4], crib=crib)
        got = _breakdown(cards[:4], cards[4], crib)
        assert got == (*expected[:5], expected.groups), (cards, crib)


def test_numpy_tables_hold_the_same_totals() -> None:
    ids, points = numpy_tables()
    assert (ids >= 0).sum() == MULTISET_COUNT
    for multiset_id, entry in enumerate(entries()):
        assert ids[rank_code(entry.ranks)] == multiset_id
        assert points[multiset_id] == entry.total


def test_entry_groups_point_at_the_right_ranks() -> None:
    entry = entry_by_ranks()[(4, 4, 5, 6, 6)]
    runs = [group.positions for group in entry.groups if group.kind == "run"]
    assert sorted(runs) == [(0, 2, 3), (0, 2, 4), (1, 2, 3), (1, 2, 4)]
    assert (entry.fifteens, entry.pairs, entry.runs) == (8, 4, 12)
