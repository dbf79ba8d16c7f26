"""The play for 2, 3 or 4 seats: the domain page's examples, each impossible order, and
score_pegging against a second implementation (tests/scoring/pegging_reference.py) and, for two
seats, against score_play as it was before (tests/scoring/legacy_play.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import DECK, Card, CardError, parse_card, parse_cards
from scoring.pegging import (
    HAD_TO_GO,
    NOT_IN_HAND,
    OUT_OF_TURN,
    PAST_31,
    IllegalOrder,
    PeggingResult,
    score_pegging,
)
from scoring.play import IllegalPlay, score_play
from tests.scoring import legacy_play
from tests.scoring.pegging_reference import Refused, random_legal_order, reference_play

# The domain page's three-seat example, played to the end (A leads, C deals).
THREE = ("KC 5C 9C 8C", "5D 9D 8D 7D", "10H 9H 8H 7H")
THREE_PLAY = "KC 5D 10H 5C  9D 9H 9C  8D 8H 8C 7D  7H"


def test_three_seats_domain_example() -> None:
    result = score_pegging(THREE, THREE_PLAY)
    assert [p.seat for p in result.plays[:5]] == [0, 1, 2, 0, 1]  # B leads after A's go
    assert [p.count for p in result.plays] == [10, 15, 25, 30, 9, 18, 27, 8, 16, 24, 31, 7]
    assert [p.points for p in result.plays] == [0, 2, 0, 1, 0, 2, 7, 0, 2, 6, 2, 1]
    assert result.plays[1].reasons == ("fifteen for 2",)
    assert result.plays[3].reasons == ("go for 1",)
    assert result.plays[6].reasons == ("three of a kind for 6", "go for 1")
    assert result.plays[10].reasons == ("thirty-one for 2",)
    assert (result.plays[11].player, result.plays[11].reasons) == ("seat 2", ("last card for 1",))
    assert result.points == (14, 4, 5)


def test_four_seats_as_partners() -> None:
    # Seat 0 leads; seat 3 deals. Runs and pairs score whoever laid the earlier cards.
    hands = ("4C 9C KC AC", "2D 9D KD QD", "3H 9H KH JH", "5S 9S KS 10S")
    order = "4C 2D 3H 5S 9C AC  9D 9H 9S  KC KD KH  KS QD JH  10S"
    result = score_pegging(hands, order)
    # At 23 only seat 0 can lay a card, so it lays again (A, 24) and pegs the go.
    assert [p.seat for p in result.plays] == [0, 1, 2, 3, 0, 0, 1, 2, 3, 0, 1, 2, 3, 1, 2, 3]
    counts = [4, 6, 9, 14, 23, 24, 9, 18, 27, 10, 20, 30, 10, 20, 30, 10]
    assert [p.count for p in result.plays] == counts
    # 4 2 3 5: runs of 3 and 4; 9 9 9 and K K K: pair, three of a kind and the go; seat 0 has
    # no cards left in the fourth series, so seat 1 follows seat 3; K Q J: a run of 3 and
    # the go; the 10 is the last card.
    assert [p.points for p in result.plays] == [0, 0, 3, 4, 0, 1, 0, 2, 7, 0, 2, 7, 0, 0, 4, 1]
    assert result.points == (1, 2, 16, 12)
    assert result.team_points() == (17, 14)


@pytest.mark.parametrize(
    ("order", "rule", "message", "position"),
    [
        ("KC 5D 10H 5C  9D 9H 9C  8D 8H 8C 7D  7S", NOT_IN_HAND, "7S is in no seat's hand", 11),
        ("KC 5D 10H 5C  9D 9H 9C  8D 8H 8C 7D  KC", NOT_IN_HAND, "KC has already been played", 11),
        (
            "5D KC 10H 5C  9D 9H 9C  8D 8H 8C 7D  7H",
            OUT_OF_TURN,
            "5D: out of turn, seat 0 leads",
            0,
        ),
        (
            "KC 10H 5D 5C  9D 9H 9C  8D 8H 8C 7D  7H",
            OUT_OF_TURN,
            r"10H: out of turn, seat 1 could play \(5D 9D 8D 7D\) at count 10",
            1,
        ),
        (
            "KC 5D 10H 7D  5C 9D 9H 9C  8D 8H 8C  7H",
            HAD_TO_GO,
            r"7D: seat 1 had to say go \(no card fits under 31\); seat 0 could play \(5C\) at "
            "count 25",
            3,
        ),
        ("KC 5D 10H 9C  5C 9D 9H  8D 8H 8C 7D  7H", PAST_31, "9C makes the count 34, above 31", 3),
    ],
)
def test_impossible_three_seat_orders(order: str, rule: str, message: str, position: int) -> None:
    with pytest.raises(IllegalOrder, match=message) as raised:
        score_pegging(THREE, order)
    assert (raised.value.rule, raised.value.position) == (rule, position)
    assert raised.value.card == parse_card(raised.value.args[0].split()[0].rstrip(":"))
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, IllegalPlay)


def test_bad_hands_and_lengths() -> None:
    with pytest.raises(CardError, match="2, 3 or 4 hands, not 1"):
        score_pegging(["KC 5C 9C 8C"], "KC 5C 9C 8C")
    with pytest.raises(CardError, match="2, 3 or 4 hands, not 5"):
        score_pegging([*THREE, "AS 2S 3S 4S", "5S 6S 7S 8S"], "")
    with pytest.raises(CardError, match="seat 2's hand has 3 cards, not 4"):
        score_pegging((*THREE[:2], "10H 9H 8H"), THREE_PLAY)
    with pytest.raises(CardError, match="duplicate card: 5D is in more than one hand"):
        score_pegging(("KC 5C 9C 5D", *THREE[1:]), THREE_PLAY)
    with pytest.raises(IllegalPlay, match="the play has 11 cards; all 12 must be laid"):
        score_pegging(THREE, THREE_PLAY[:-3])


def test_two_seats_are_score_play() -> None:
    result = score_pegging(("KC 8C 4C 5C", "5D 8D 6D 3D"), "KC 5D 8C 8D 4C 6D 5C 3D")
    assert isinstance(result, PeggingResult) and result.points == (5, 11)
    assert result.plays == score_play("KC 8C 4C 5C", "5D 8D 6D 3D", "KC 5D 8C 8D 4C 6D 5C 3D").plays


# Comparison over many random rounds --------------------------------------------------------


def _deal(rng: random.Random, seats: int) -> list[list[Card]]:
    cards = rng.sample(DECK, 4 * seats)
    return [cards[4 * seat : 4 * seat + 4] for seat in range(seats)]


def _spoil(order: list[Card], hands: list[list[Card]], rng: random.Random) -> list[Card]:
    """``order`` with one random mistake: two cards swapped, a card moved earlier, a card
    replaced by one nobody holds, or a card laid twice."""
    order = list(order)
    i, j = sorted(rng.sample(range(len(order)), 2))
    kind = rng.randrange(4)
    if kind == 0:
        order[i], order[j] = order[j], order[i]
    elif kind == 1:
        order.insert(i, order.pop(j))
    elif kind == 2:
        held = {card for hand in hands for card in hand}
        order[j] = rng.choice([card for card in DECK if card not in held])
    else:
        order[j] = order[i]
    return order


def _engine(hands: list[list[Card]], order: list[Card]) -> list[tuple[int, int, int]] | Refused:
    try:
        result = score_pegging(hands, order)
    except IllegalOrder as error:
        assert error.card == order[error.position]
        assert str(error.card) in str(error)
        return Refused(error.position, error.rule)
    assert result.points == tuple(
        sum(p.points for p in result.plays if p.seat == seat) for seat in range(len(hands))
    )
    return [(p.seat, p.count, p.points) for p in result.plays]


def _reference(hands: list[list[Card]], order: list[Card]) -> list[tuple[int, int, int]] | Refused:
    answer = reference_play(hands, order)
    if isinstance(answer, Refused):
        return answer
    return [(laid.seat, laid.count, laid.points) for laid in answer]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_engine_agrees_with_the_reference_on_thousands_of_rounds(seats: int) -> None:
    rng = random.Random(f"pegging {seats}")
    rules: Counter[str] = Counter()
    for _ in range(3000):
        hands = _deal(rng, seats)
        order = random_legal_order(hands, rng)
        assert _engine(hands, order) == _reference(hands, order)
        spoiled = _spoil(order, hands, rng)
        expected = _reference(hands, spoiled)
        assert _engine(hands, spoiled) == expected, (hands, spoiled)
        rules[expected.rule if isinstance(expected, Refused) else "legal"] += 1
    # The mistakes reach every rule (two seats cannot say go out of turn and be a renege
    # only: both are there too).
    assert all(rules[rule] >= 50 for rule in (NOT_IN_HAND, OUT_OF_TURN, HAD_TO_GO, PAST_31))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.randoms(use_true_random=False), st.booleans())
def test_engine_agrees_with_the_reference_hypothesis(seats: int, rng, spoil: bool) -> None:  # noqa: ANN001
    hands = _deal(rng, seats)
    order = random_legal_order(hands, rng)
    if spoil:
        order = _spoil(order, hands, rng)
    assert _engine(hands, order) == _reference(hands, order)


def _legacy(pone: list[Card], dealer: list[Card], order: list[Card]) -> object:
    try:
        result = legacy_play.score_play(pone, dealer, order)
    except ValueError as error:
        return (type(error).__name__, str(error))
    plays = [(p.card, p.player, p.count, p.points, p.reasons) for p in result.plays]
    return (result.pone_points, result.dealer_points, plays)


def _current(pone: list[Card], dealer: list[Card], order: list[Card]) -> object:
    try:
        result = score_play(pone, dealer, order)
    except ValueError as error:
        name = "IllegalPlay" if isinstance(error, IllegalPlay) else type(error).__name__
        return (name, str(error))
    plays = [(p.card, p.player, p.count, p.points, p.reasons) for p in result.plays]
    return (result.pone_points, result.dealer_points, plays)


def test_score_play_answers_exactly_as_before() -> None:
    rng = random.Random("two seats as before")
    for _ in range(3000):
        pone, dealer = _deal(rng, 2)
        order = random_legal_order([pone, dealer], rng)
        for laid in (order, _spoil(order, [pone, dealer], rng), order[:-1]):
            assert _current(pone, dealer, laid) == _legacy(pone, dealer, laid)
    for bad in (("KC 8C 4C", "5D 8D 6D 3D"), ("KC 8C 4C 5C", "5D 8C 6D 3D")):
        hands = [parse_cards(hand) for hand in bad]
        assert _current(*hands, []) == _legacy(*hands, [])
