"""Bounds on honest scores: the witnesses reach them and the search agrees with brute force."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement, permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.cards import DECK, SUITS, Card
from scoring.plausibility import (
    CARD_WITNESS,
    DEALER_WITNESS,
    MAX_CARD_PEGGING,
    MAX_PEGGING_DEALER,
    MAX_PEGGING_PONE,
    MAX_SHOW_SCORE,
    PONE_WITNESS,
    POSSIBLE_SHOW_SCORES,
    _PeggingSearch,
    is_possible_show_score,
    max_pegging,
)
from scoring.play import DEALER, PONE, IllegalPlay, Pegging, score_play


def test_show_scores() -> None:
    assert MAX_SHOW_SCORE == max(POSSIBLE_SHOW_SCORES) == 29
    assert sorted(set(range(30)) - POSSIBLE_SHOW_SCORES) == [19, 25, 26, 27]
    assert is_possible_show_score(28) and not is_possible_show_score(19)
    assert not is_possible_show_score(-1) and not is_possible_show_score(30)


def test_witnesses_reach_the_bounds() -> None:
    card = score_play(*CARD_WITNESS)
    assert max(p.points for p in card.plays) == MAX_CARD_PEGGING == 15
    assert score_play(*PONE_WITNESS).pone_points == MAX_PEGGING_PONE == 24
    assert score_play(*DEALER_WITNESS).dealer_points == MAX_PEGGING_DEALER == 30


def _best_by_brute_force(cards_each: int, allowed: Sequence[int]) -> tuple[int, int]:
    """Most each player pegs over every pair of hands (by rank) and every legal play."""
    best = {PONE: 0, DEALER: 0}
    for pone_ranks in combinations_with_replacement(allowed, cards_each):
        for dealer_ranks in combinations_with_replacement(allowed, cards_each):
            ranks = pone_ranks + dealer_ranks
            if any(ranks.count(r) > 4 for r in ranks):
                continue
            # Suits only keep the cards distinct: the k-th copy of a rank gets the k-th suit.
            cards = [Card(r, SUITS[ranks[:i].count(r)]) for i, r in enumerate(ranks)]
            for points in _every_play(cards[:cards_each], cards[cards_each:]):
                for player in best:
                    best[player] = max(best[player], points[player])
    return best[PONE], best[DEALER]


def _every_play(pone: list[Card], dealer: list[Card]) -> Iterator[dict[str, int]]:
    """Points of every legal play. Each legal play is one order of each player's cards: the
    player to move lays their next card, and an order whose next card does not fit while
    another does is not a legal play."""
    for pone_order in permutations(pone):
        for dealer_order in permutations(dealer):
            queues = {PONE: list(pone_order), DEALER: list(dealer_order)}
            state = Pegging(pone, dealer)
            points = {PONE: 0, DEALER: 0}
            while not state.finished:
                card = queues[state.turn][0]
                if card not in state.playable(state.turn):
                    break
                queues[state.turn].pop(0)
                played = state.play(card)
                points[played.player] += played.points
            else:
                yield points


@pytest.mark.parametrize(
    ("cards_each", "ranks"),
    [
        (1, range(1, 14)),
        (2, range(1, 14)),
        (3, (1, 5, 10)),  # goes at 30 and 31 on the last card
        (3, (3, 4, 5, 6)),  # runs broken and rebuilt
        (4, (1, 10)),  # four cards each: series of 31, goes, four of a kind
        (4, (2, 9)),
    ],
)
def test_search_agrees_with_brute_force(cards_each: int, ranks: Sequence[int]) -> None:
    assert max_pegging(cards_each, ranks) == _best_by_brute_force(cards_each, ranks)


@given(st.permutations(DECK).map(lambda deck: deck[:8]), st.randoms(use_true_random=False))
def test_random_legal_plays_stay_within_bounds(cards: list[Card], rng: object) -> None:
    state = Pegging(cards[:4], cards[4:])
    totals = {PONE: 0, DEALER: 0}
    while not state.finished:
        played = state.play(rng.choice(state.playable(state.turn)))  # type: ignore[attr-defined]
        assert played.points <= MAX_CARD_PEGGING
        totals[played.player] += played.points
    assert totals[PONE] <= MAX_PEGGING_PONE and totals[DEALER] <= MAX_PEGGING_DEALER


def test_state_machine_refuses_what_the_search_forbids() -> None:
    state = Pegging([Card(10, "C"), Card(5, "C")], [Card(10, "D"), Card(9, "D")])
    state.play(Card(10, "C"))
    with pytest.raises(IllegalPlay):
        state.play(Card(5, "C"))  # the dealer can lay: it is not the pone's turn


def test_search_scores_a_last_card_that_makes_thirty_one() -> None:
    # The small searches above never need it, so check the position directly: the pone lays
    # the last card of the play, a king on 21 after a king, for 31 and a pair; nothing follows.
    search = _PeggingSearch(1, PONE, frozenset(range(1, 14)))
    assert search._lay(21, (13,), 0, (1, 0), (0, 0), (0,) * 13, 13) == 4
