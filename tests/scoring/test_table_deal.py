"""Deals for three-handed, four-handed and Canadian Doubles: checked and scored in order."""

from __future__ import annotations

import pytest

from scoring.cards import CardError, parse_cards
from scoring.hand import score_hand
from scoring.pegging import score_pegging
from scoring.series import IllegalPlay
from scoring.table_deal import (
    CANADIAN_DOUBLES,
    FOUR_HANDED,
    THREE_HANDED,
    TableDealRecord,
    score_table_deal,
)

THREE = {
    "style": THREE_HANDED,
    "dealt": ("KC 5C 9C 8C 2S", "5D 9D 8D 7D 3S", "10H 9H 8H 7H 4S"),
    "discards": ("2S", "3S", "4S"),
    "crib_card": "AS",
    "starter": "QD",
    "plays": "KC 5D 10H 5C 9D 9H 9C 8D 8H 8C 7D 7H",
}
FOUR = {
    "style": FOUR_HANDED,
    "dealt": ("4C 9C KC AC 2S", "2D 9D KD QD 3S", "3H 9H KH JH 4S", "5S 9S KS 10S 6D"),
    "discards": ("2S", "3S", "4S", "6D"),
    "starter": "7C",
    "plays": "4C 2D 3H 5S 9C AC 9D 9H 9S KC KD KH KS QD JH 10S",
}
CANADIAN = {
    "style": CANADIAN_DOUBLES,
    # Seat 0 keeps 4C 9C KC AC, passes 3H 9H KH JH to seat 2; the dealer (seat 3) keeps
    # 5S 9S KS 10S and passes 2D 9D KD QD to seat 1.
    "dealt": ("4C 9C KC AC 3H 9H KH JH 2S 3S", "", "", "5S 9S KS 10S 2D 9D KD QD 4S 6D"),
    "discards": ("2S 3S", "", "", "4S 6D"),
    "passes": ("3H 9H KH JH", "", "", "2D 9D KD QD"),
    "starter": "7C",
    "plays": FOUR["plays"],
}


def record(base: dict, **changes: object) -> TableDealRecord:
    return TableDealRecord(**{**base, **changes})


def test_three_handed_deal_in_counting_order() -> None:
    deal = record(THREE, scores_before=(10, 20, 30))
    assert deal.held(0) == parse_cards("KC 5C 9C 8C")
    assert deal.crib == parse_cards("2S 3S 4S AS")
    result = score_table_deal(deal)
    pegged = score_pegging([deal.held(s) for s in range(3)], THREE["plays"]).points
    shows = [score_hand(deal.held(s), "QD").total for s in range(3)]
    crib = score_hand("2S 3S 4S AS", "QD", crib=True).total
    assert crib == 8
    assert result.scores == (10 + pegged[0] + shows[0], 20 + pegged[1] + shows[1],
                             30 + pegged[2] + shows[2] + crib)  # fmt: skip
    sources = [(e.seat, e.source) for e in result.events]
    assert sources[-4:] == [(0, "hand"), (1, "hand"), (2, "hand"), (2, "crib")]
    assert not result.game_over and result.events[-1].scores == result.scores


def test_three_handed_to_61_stops_when_a_seat_counts_out() -> None:
    # Seat 0 pegs 14 in the play; its hand scores the rest from 44.
    show = score_hand("KC 5C 9C 8C", "QD").total
    result = score_table_deal(record(THREE, scores_before=(61 - 14 - show, 50, 50), target=61))
    assert (result.winner, result.scores[0]) == (0, 61)
    assert result.events[-1].source == "hand" and result.events[-1].seat == 0
    assert all(event.source != "crib" for event in result.events)


def test_four_handed_partners_share_a_score() -> None:
    result = score_table_deal(record(FOUR))
    crib = score_hand("2S 3S 4S 6D", "7C", crib=True).total
    # The play's seat points (1, 2, 16, 12), see test_pegging; partners 0+2 and 1+3.
    hands = [parse_cards(hand)[:4] for hand in FOUR["dealt"]]
    seat_shows = [score_hand(hand, "7C").total for hand in hands]
    assert result.scores == (
        1 + 16 + seat_shows[0] + seat_shows[2],
        2 + 12 + seat_shows[1] + seat_shows[3] + crib,
    )
    assert [e.side for e in result.events if e.source == "hand"] == [0, 1, 0, 1]
    assert result.events[-1].source == "crib" and result.events[-1].seat == 3


def test_canadian_doubles_partners_hold_the_passed_hands() -> None:
    deal = record(CANADIAN)
    assert deal.held(1) == parse_cards("2D 9D KD QD")  # from the dealer opposite
    assert deal.held(2) == parse_cards("3H 9H KH JH")  # from seat 0 opposite
    assert deal.held(3) == parse_cards("5S 9S KS 10S")
    assert deal.crib == parse_cards("2S 3S 4S 6D")
    # The same four hands and crib as the four-handed deal: the same score.
    assert score_table_deal(deal).scores == score_table_deal(record(FOUR)).scores


def test_his_heels_goes_to_the_dealers_side() -> None:
    result = score_table_deal(record(FOUR, starter="JS", scores_before=(0, 119)))
    assert (result.events[0].seat, result.events[0].side, result.events[0].source) == (
        3,
        1,
        "his heels",
    )
    assert result.winner == 1 and len(result.events) == 1


@pytest.mark.parametrize(
    ("base", "changes", "error", "message"),
    [
        (THREE, {"crib_card": None}, CardError, "needs crib card from the pack"),
        (FOUR, {"crib_card": "AH"}, CardError, "has no crib card from the pack"),
        (THREE, {"discards": ("2S", "3S", "4S 7H")}, CardError, "discards of seat 2 has 2"),
        (THREE, {"discards": ("2S", "3S", "KC")}, CardError, "seat 2: KC not in the cards dealt"),
        (THREE, {"crib_card": "KC"}, CardError, "duplicate"),
        (THREE, {"starter": "AS"}, CardError, "duplicate"),
        (FOUR, {"dealt": FOUR["dealt"][:3]}, CardError, "dealt has 3 seats, not 4"),
        (CANADIAN, {"passes": ("2S 3S 3H 9H", "", "", "2D 9D KD QD")}, CardError, "both passes"),
        (CANADIAN, {"passes": ((), (), (), ())}, CardError, "passes of seat 0 has 0"),
        (THREE, {"scores_before": (0, 0)}, ValueError, "needs 3 scores"),
        (FOUR, {"scores_before": (0, 121)}, ValueError, r"side 1's score must be 0..120"),
        (FOUR, {"style": "five_handed"}, ValueError, "unknown style"),
    ],
)
def test_bad_records_are_refused(base: dict, changes: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        record(base, **changes)


def test_an_impossible_play_is_named_when_scored() -> None:
    deal = record(THREE, plays="5D KC 10H 5C 9D 9H 9C 8D 8H 8C 7D 7H")
    with pytest.raises(IllegalPlay, match="5D: out of turn, seat 0 leads"):
        score_table_deal(deal)
