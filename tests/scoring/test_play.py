"""The play: series scoring, the domain page's pegging examples, goes and legality."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.cards import DECK, Card, CardError, parse_cards
from scoring.play import DEALER, PONE, IllegalPlay, Pegging, score_play, score_series


def series_points(cards: str) -> list[int]:
    """Points of each card of one series, in order."""
    laid = cards.split()
    return [score_series(laid[: i + 1]).points for i in range(len(laid))]


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("4C 2D 3H 5S 6C", [0, 0, 3, 4, 5]),
        ("4C 2D 3H 4S 3C", [0, 0, 3, 3, 0]),
        ("4C 2D 6H 5S 3C", [0, 0, 0, 0, 5]),
        ("8C 7D 7H 6S", [0, 2, 2, 0]),
        ("9C 6D 8H 7S", [0, 2, 0, 4]),
        ("KC 5D 8H 8S", [0, 2, 0, 4]),
        ("4C 6D 5H 3S", [0, 0, 5, 4]),
    ],
)
def test_domain_pegging_examples(cards: str, points: list[int]) -> None:
    assert series_points(cards) == points


def test_same_rank_in_a_row_scores_2_6_12() -> None:
    assert series_points("3C 3D 3H 3S") == [0, 2, 6, 12]
    assert series_points("7C 7D 7H 7S") == [0, 2, 6, 12]
    assert score_series("7C 7D 7H").reasons == ("three of a kind for 6",)


def test_fifteen_and_thirty_one_and_reasons() -> None:
    assert score_series("KC 5D").reasons == ("fifteen for 2",)
    assert score_series("KC 5D 8H 8S").reasons == ("thirty-one for 2", "a pair for 2")
    assert score_series(["5C", "5D", "5H"]).points == 8  # fifteen and three of a kind


def test_run_in_any_order_and_broken_by_a_duplicate() -> None:
    assert series_points("2C 3D 3H 4S") == [0, 0, 2, 0]
    assert score_series("AC 3D 2H").reasons == ("a run of 3 for 3",)
    assert series_points("AC 2D 3H 4S 5C 6D 7H")[-1] == 7


def test_series_above_31_is_illegal() -> None:
    with pytest.raises(IllegalPlay, match="count 32"):
        score_series("KC QD JH 2S")
    with pytest.raises(IllegalPlay):
        score_series([])


def test_whole_play_from_the_domain_page() -> None:
    result = score_play("KC 8C 4C 5C", "5D 8D 6D 3D", "KC 5D 8C 8D 4C 6D 5C 3D")
    assert [p.player for p in result.plays] == [PONE, DEALER] * 4
    assert [p.count for p in result.plays] == [10, 15, 23, 31, 4, 10, 15, 18]
    assert [p.points for p in result.plays] == [0, 2, 0, 4, 0, 0, 5, 5]
    assert result.plays[-1].reasons == ("a run of 4 for 4", "last card for 1")
    assert (result.pone_points, result.dealer_points) == (5, 11)


def test_go_gives_one_and_the_other_player_leads_next() -> None:
    # 10 + 10 + 10 = 30: neither can lay a card, the pone (last card) pegs a go.
    result = score_play("10C 10D 2C 2D", "10H 7C 2H 2S", "10C 10H 10D 7C 2C 2H 2D 2S")
    third = result.plays[2]
    assert (third.player, third.count, third.points) == (PONE, 30, 7)
    assert third.reasons == ("three of a kind for 6", "go for 1")
    assert result.plays[3].player == DEALER  # the dealer did not lay the last card: leads
    last = result.plays[-1]
    assert last.reasons == ("fifteen for 2", "four of a kind for 12", "last card for 1")
    assert last.points == 15


def test_player_keeps_laying_after_opponent_says_go() -> None:
    # Pone K, dealer Q (20), pone 9 (29): the dealer cannot lay, pone lays A (30) and pegs go.
    result = score_play("KC 9C AC 5C", "QD JD 10D 5D", "KC QD 9C AC JD 5C 10D 5D")
    assert [p.player for p in result.plays[:4]] == [PONE, DEALER, PONE, PONE]
    assert result.plays[3].points == 1 and result.plays[3].reasons == ("go for 1",)
    assert result.plays[4].player == DEALER
    # The pone has no cards left, so the dealer lays the last two in a row.
    assert [p.player for p in result.plays[-2:]] == [DEALER, DEALER]
    assert result.plays[-1].reasons == ("last card for 1",)


def test_thirty_one_scores_two_and_no_go() -> None:
    result = score_play("KC QC 6C 2C", "5D 9D 3D 4D", "KC 5D QC 4D 2C 9D 6C 3D")
    thirty_one = result.plays[4]
    assert (thirty_one.player, thirty_one.count) == (PONE, 31)
    assert (thirty_one.points, thirty_one.reasons) == (2, ("thirty-one for 2",))
    assert result.plays[5].player == DEALER and result.plays[5].count == 9


def test_last_card_making_31_scores_two_not_three() -> None:
    result = score_play("KC QC 8C 4C", "KD 9D 7D 3D", "KC KD QC 9D 8C 7D 4C 3D")
    assert result.plays[2].reasons == ("go for 1",)
    last = result.plays[-1]
    assert (last.player, last.count, last.points) == (DEALER, 31, 2)
    assert last.reasons == ("thirty-one for 2",)


def test_renege_is_named() -> None:
    # After a go at 30 the dealer leads: Q, J (20), 3 (23); the pone holds 5C, which fits,
    # but the dealer lays JD.
    with pytest.raises(IllegalPlay, match=r"JD: renege, the pone could play \(5C\) at count 23"):
        score_play("KC QC JC 5C", "KD QD JD 3D", "KC KD QC QD JC 3D JD 5C")


def test_count_above_31_is_illegal() -> None:
    with pytest.raises(IllegalPlay, match=r"QC makes the count 36, above 31"):
        score_play("KC QC 2C 3C", "KD QD 4D AD", "KC KD 2C 4D QC QD 3C AD")


def test_wrong_leader_is_illegal() -> None:
    with pytest.raises(IllegalPlay, match="5D: wrong leader, the pone leads"):
        score_play("KC 8C 4C 5C", "5D 8D 6D 3D", "5D KC 8C 8D 4C 6D 5C 3D")
    # After the dealer's 31 the pone must lead the next series.
    with pytest.raises(IllegalPlay, match="6D: wrong leader, the pone leads"):
        score_play("KC 8C 4C 5C", "5D 8D 6D 3D", "KC 5D 8C 8D 6D 4C 5C 3D")


@pytest.mark.parametrize(
    ("plays", "message"),
    [
        ("KC 5D 8C 8D 4C 6D 5C", "the play has 7 cards"),
        ("KC 5D 8C 8D 4C 6D 5C 3D 2S", "the play has 9 cards"),
        ("KC 5D 8C 8D 4C 6D 5C 3H", "3H is in neither hand"),
        ("KC 5D 8C 8D 4C 6D 5C 5D", "5D has already been played"),
    ],
)
def test_incomplete_or_foreign_cards(plays: str, message: str) -> None:
    with pytest.raises(IllegalPlay, match=message):
        score_play("KC 8C 4C 5C", "5D 8D 6D 3D", plays)


def test_bad_hands() -> None:
    with pytest.raises(CardError, match="pone's hand has 3 cards"):
        score_play("KC 8C 4C", "5D 8D 6D 3D", "KC 5D 8C 8D 4C 6D 3D")
    with pytest.raises(CardError, match="8C is in both hands"):
        score_play("KC 8C 4C 5C", "5D 8C 6D 3D", "KC 5D 8C 8D 4C 6D 5C 3D")


def test_illegal_play_is_a_value_error() -> None:
    assert issubclass(IllegalPlay, ValueError)


@given(st.permutations(DECK).map(lambda deck: deck[:8]), st.randoms(use_true_random=False))
def test_any_legal_play_replays_with_the_same_points(cards: list[Card], rng: object) -> None:
    """Drive the state machine with random legal choices; score_play must agree on replay."""
    pone, dealer = cards[:4], cards[4:]
    state = Pegging(pone, dealer)
    laid, points = [], {PONE: 0, DEALER: 0}
    while not state.finished:
        card = rng.choice(state.playable(state.turn))  # type: ignore[attr-defined]
        played = state.play(card)
        laid.append(card)
        points[played.player] += played.points
    result = score_play(pone, dealer, laid)
    assert (result.pone_points, result.dealer_points) == (points[PONE], points[DEALER])
    assert all(0 < p.count <= 31 for p in result.plays)
    last_points = sum("last card for 1" in p.reasons for p in result.plays)
    assert last_points == (0 if result.plays[-1].count == 31 else 1)
    assert "last card for 1" in result.plays[-1].reasons or result.plays[-1].count == 31
    assert parse_cards(laid) == tuple(p.card for p in result.plays)
