"""The show: the domain page's worked answers, the breakdown, errors and properties."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.cards import DECK, SUITS, Card, CardError, parse_card, parse_cards
from scoring.hand import score_hand, spoken_count
from scoring.reference import reference_score

RANK_WORDS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def plain(ranks: str) -> tuple[list[Card], Card]:
    """Hand and starter (the last rank) with suits chosen so there is no flush and no nobs."""
    values = [RANK_WORDS.get(word) or int(word) for word in ranks.split("-")]
    hand = [Card(rank, SUITS[i]) for i, rank in enumerate(values[:4])]
    taken = {card.suit for card in hand if card.rank in (values[4], 11)}
    return hand, Card(values[4], next(s for s in SUITS if s not in taken))


@pytest.mark.parametrize(
    ("ranks", "total"),
    [
        ("8-7-7-6-2", 16),
        ("4-4-5-6-6", 24),
        ("4-5-5-5-6", 23),
        ("3-4-5-6-6", 16),
        ("A-2-2-3-K", 14),
        ("3-4-4-4-7", 14),
        ("A-3-4-7-7", 8),
        ("A-7-7-7-7", 24),
        ("5-5-5-10-10", 22),
        ("5-5-5-5-K", 28),
        ("2-5-6-7-8", 10),
        ("3-3-3-6-6", 18),
        ("A-A-6-7-8", 13),
        # The seed pages' known errors, corrected by the domain page.
        ("2-3-3-4-4", 16),
        ("2-2-3-4-4", 18),
        ("A-A-A-2-3", 15),
        ("6-7-7-8-8", 24),
    ],
)
def test_worked_answers(ranks: str, total: int) -> None:
    hand, starter = plain(ranks)
    assert score_hand(hand, starter).total == total
    assert score_hand(hand, starter, crib=True).total == total


def test_twenty_nine() -> None:
    score = score_hand("5H 5D 5S JC", "5C")
    assert (score.total, score.fifteens, score.pairs, score.nobs) == (29, 16, 12, 1)
    assert score_hand("5H 5D 5S JC", "5H".replace("H", "C")).total == 29
    assert score_hand("5H 5D 5S JC", "5C", crib=True).total == 29


def test_twenty_eight_without_nobs() -> None:
    assert score_hand("5H 5D 5S JH", "5C").total == 28


@pytest.mark.parametrize(
    ("ranks", "runs_and_pairs"),
    [("A-A-2-3-7", 8), ("A-A-2-3-4-", 10), ("A-A-A-2-3", 15), ("A-A-2-2-3", 16)],
)
def test_multiple_runs_before_fifteens(ranks: str, runs_and_pairs: int) -> None:
    hand, starter = plain(ranks.rstrip("-"))
    score = score_hand(hand, starter)
    assert score.runs + score.pairs == runs_and_pairs


def test_triple_run_error_in_seeds_a_a_2_3_is_a_double_run() -> None:
    score = score_hand("AC AD 2H 3S", "7C")
    kinds = Counter(combo.kind for combo in score.combinations)
    assert kinds == {"run": 2, "pair": 1}
    assert (score.runs, score.pairs, score.fifteens, score.total) == (6, 2, 0, 8)
    run_cards = {frozenset(str(c) for c in combo.cards) for combo in score.combinations[1:]}
    assert run_cards == {frozenset({"AC", "2H", "3S"}), frozenset({"AD", "2H", "3S"})}


def test_run_of_four_does_not_count_its_runs_of_three() -> None:
    score = score_hand("3C 4D 5H 6S", "KC")
    assert [c.kind for c in score.combinations].count("run") == 1 and score.runs == 4


def test_flush_rules_hand_and_crib() -> None:
    assert score_hand("2H 4H 6H 8H", "KS").flush == 4
    assert score_hand("2H 4H 6H 8H", "KH").flush == 5
    assert score_hand("2H 4H 6H 8H", "KS", crib=True).flush == 0
    assert score_hand("2H 4H 6H 8H", "KH", crib=True).flush == 5
    assert score_hand("2H 4H 6H 8S", "KH").flush == 0


def test_nobs_needs_the_jack_in_hand_of_starter_suit() -> None:
    assert score_hand("JH 2C 4D 9S", "KH").nobs == 1
    assert score_hand("JH 2C 4D 9S", "KS").nobs == 0
    assert score_hand("2C 4D 9S KH", "JH").nobs == 0  # a jack starter is his heels, not nobs


def test_breakdown_adds_up_and_combinations_name_cards() -> None:
    score = score_hand("4H 4D 5S 6C", "6D")
    assert score.total == 24 == sum(c.points for c in score.combinations)
    assert (score.fifteens, score.pairs, score.runs) == (8, 4, 12)
    for combo in score.combinations:
        if combo.kind == "fifteen":
            assert sum(card.pip for card in combo.cards) == 15
    assert str(score.combinations[0]).startswith("fifteen ")


def test_spoken_count() -> None:
    assert (
        score_hand("5H 5D 5S JC", "5C")
        .spoken()
        .endswith("four of a kind is twenty-eight, and nobs is twenty-nine")
    )
    assert spoken_count(score_hand("5H 5D 2C 9S", "KH")) == (
        "fifteen two, fifteen four, and a pair is six"
    )
    assert score_hand("2C 4D 6H 8S", "QS").spoken() == "no score"
    assert score_hand("AC 2D 3H 8S", "8H").spoken() == "a pair is two, and a run of three is five"
    assert score_hand("2C 4C 6C 8C", "QD").spoken() == "a flush is four"


@pytest.mark.parametrize(
    ("hand", "starter", "message"),
    [
        ("5H 5D 5S", "5C", "4 cards, not 3"),
        ("5H 5D 5S JC 2C", "5C", "4 cards, not 5"),
        ("5H 5D 5S 5H", "5C", "duplicate card: 5H"),
        ("5H 5D 5S JC", "5H", "duplicate card: 5H"),
        ("5H 5D 5S JC", "5Q", "'5Q'"),
        ("5H 5D XX JC", "5C", "'XX'"),
    ],
)
def test_bad_hands_are_card_errors(hand: str, starter: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        score_hand(hand, starter)
    with pytest.raises(CardError, match=message):
        score_hand(hand.split(), starter)


@pytest.mark.parametrize(
    ("hand", "message"),
    [(5, "not a list of cards: 5"), ([["5H"], "5D", "5S", "JC"], "not a card: \\['5H'\\]")],
)
def test_hands_that_are_not_card_lists_are_card_errors(hand: object, message: str) -> None:
    with pytest.raises(CardError, match=message):
        score_hand(hand, "5C")  # type: ignore[arg-type]


def test_accepts_cards_lists_and_text() -> None:
    cards = parse_cards("4H 4D 5S 6C")
    assert score_hand(cards, parse_card("6D")) == score_hand(["4h", "4d", "5s", "6c"], "6d")
    assert score_hand(list(cards), "6D").total == 24


five_cards = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@given(five_cards, st.permutations(range(4)), st.booleans())
def test_order_of_hand_does_not_matter(cards: list[Card], order: list[int], crib: bool) -> None:
    hand, starter = cards[:4], cards[4]
    first = score_hand(hand, starter, crib=crib)
    second = score_hand([hand[i] for i in order], starter, crib=crib)
    assert first[:6] == second[:6]
    assert Counter((c.kind, frozenset(c.cards)) for c in first.combinations) == Counter(
        (c.kind, frozenset(c.cards)) for c in second.combinations
    )


@given(five_cards, st.permutations(SUITS), st.booleans())
def test_renaming_suits_does_not_change_the_score(
    cards: list[Card], suits: list[str], crib: bool
) -> None:
    rename = dict(zip(SUITS, suits, strict=True))
    renamed = [Card(card.rank, rename[card.suit]) for card in cards]
    before = score_hand(cards[:4], cards[4], crib=crib)
    after = score_hand(renamed[:4], renamed[4], crib=crib)
    assert before[:6] == after[:6]


@given(five_cards)
def test_hand_and_crib_differ_only_in_the_flush(cards: list[Card]) -> None:
    hand = score_hand(cards[:4], cards[4])
    crib = score_hand(cards[:4], cards[4], crib=True)
    assert hand[1:4] == crib[1:4] and hand.nobs == crib.nobs
    four_flush_only = len({c.suit for c in cards[:4]}) == 1 and cards[4].suit != cards[0].suit
    assert hand.total - crib.total == (4 if four_flush_only else 0)


@given(five_cards, st.booleans())
def test_matches_the_reference_scorer(cards: list[Card], crib: bool) -> None:
    score = score_hand(cards[:4], cards[4], crib=crib)
    expected = reference_score(cards[:4], cards[4], crib=crib)
    assert score[1:6] == expected[:5]
    assert score.total == expected.total
