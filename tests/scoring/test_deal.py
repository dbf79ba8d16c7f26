"""A whole deal: counting order, his heels, stopping at the target, and bad records."""

from __future__ import annotations

import pytest

from scoring.cards import CardError, parse_card
from scoring.deal import DealRecord, score_deal
from scoring.hand import score_hand
from scoring.play import DEALER, PONE, IllegalPlay, score_play

# The domain page's pegging example as a full deal: pone keeps K 8 4 5 and throws 9 A,
# the dealer keeps 5 8 6 3 and throws Q 2.
BASE = dict(
    pone_hand="KC 8C 4C 5C 9S AH",
    dealer_hand="5D 8D 6D 3D QS 2H",
    pone_discards="9S AH",
    dealer_discards="QS 2H",
    starter="7H",
    plays="KC 5D 8C 8D 4C 6D 5C 3D",
)


def deal(**changes: object) -> DealRecord:
    return DealRecord(**{**BASE, **changes})  # type: ignore[arg-type]


def test_scores_in_order_and_adds_up() -> None:
    result = score_deal(deal(dealer_score_before=10, pone_score_before=20))
    play = score_play("KC 8C 4C 5C", "5D 8D 6D 3D", BASE["plays"])
    pone_hand = score_hand("KC 8C 4C 5C", "7H").total
    dealer_hand = score_hand("5D 8D 6D 3D", "7H").total
    crib = score_hand("9S AH QS 2H", "7H", crib=True).total
    assert result.pone_score == 20 + play.pone_points + pone_hand
    assert result.dealer_score == 10 + play.dealer_points + dealer_hand + crib
    sources = [(e.player, e.source) for e in result.events]
    assert sources[-3:] == [(PONE, "hand"), (DEALER, "hand"), (DEALER, "crib")]
    assert all(source == "play" for _, source in sources[:-3])
    assert not result.game_over and result.winner is None
    assert (result.events[-1].dealer_score, result.events[-1].pone_score) == (
        result.dealer_score,
        result.pone_score,
    )


def test_his_heels_comes_first() -> None:
    result = score_deal(deal(starter="JH"))
    first = result.events[0]
    assert (first.player, first.source, first.points, first.dealer_score) == (
        DEALER,
        "his heels",
        2,
        2,
    )


def test_his_heels_can_end_the_game() -> None:
    result = score_deal(deal(starter="JH", dealer_score_before=119, pone_score_before=118))
    assert result.game_over and result.winner == DEALER
    assert (result.dealer_score, result.pone_score) == (121, 118)
    assert len(result.events) == 1


def test_pegging_stops_the_moment_target_is_reached() -> None:
    # The dealer's 8 makes 31 with a pair (4): from 118 that reaches 121.
    result = score_deal(deal(dealer_score_before=118, pone_score_before=100))
    assert result.winner == DEALER and result.dealer_score == 121
    assert result.events[-1].detail.startswith("8D")
    assert result.pone_score == 100  # pone's later pegging and hand never count


def test_pone_counts_out_before_the_dealer_shows() -> None:
    pone_hand = score_hand("KC 8C 4C 5C", "7H").total
    pone_pegs = score_play("KC 8C 4C 5C", "5D 8D 6D 3D", BASE["plays"]).pone_points
    before = 121 - pone_pegs - pone_hand
    result = score_deal(deal(pone_score_before=before, dealer_score_before=120 - 11))
    assert result.winner == PONE and result.pone_score == 121
    assert result.events[-1].source == "hand" and result.events[-1].player == PONE
    assert result.dealer_score < 121


def test_winner_score_is_capped_at_the_target() -> None:
    result = score_deal(deal(pone_score_before=120, dealer_score_before=0))
    assert result.pone_score == 121 and result.winner == PONE


def test_sixty_one_point_game() -> None:
    result = score_deal(deal(target=61, dealer_score_before=55, pone_score_before=50))
    assert result.winner == DEALER and result.dealer_score == 61


def test_shows_are_listed_even_with_no_points() -> None:
    result = score_deal(deal())
    crib = result.events[-1]
    assert (crib.source, crib.points) == ("crib", score_hand("9S AH QS 2H", "7H", crib=True).total)
    assert crib.detail == "9S AH QS 2H" and crib.show is not None
    assert crib.show.crib and crib.show.total == crib.points


def test_record_normalises_text_to_cards() -> None:
    record = deal()
    assert record.starter is parse_card("7H")
    assert record.kept(PONE) == tuple(parse_card(t) for t in ["KC", "8C", "4C", "5C"])
    assert len(record.crib) == 4


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"pone_hand": "KC 8C 4C 5C 9S"}, CardError, "pone_hand has 5 cards"),
        ({"pone_discards": "9S"}, CardError, "pone_discards has 1 cards"),
        ({"pone_discards": "9S 2H"}, CardError, "2H not in the pone's hand"),
        ({"starter": "KC"}, CardError, "duplicate card: KC"),
        ({"dealer_hand": "5D 8D 6D 3D QS KC", "dealer_discards": "QS KC"}, CardError, "KC"),
        ({"pone_score_before": 121}, ValueError, "pone_score_before must be 0..120"),
        ({"dealer_score_before": -1}, ValueError, "dealer_score_before"),
        ({"starter": "ZZ"}, CardError, "'ZZ'"),
    ],
)
def test_bad_records_are_refused(changes: dict[str, object], error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        deal(**changes)


def test_illegal_play_in_a_deal() -> None:
    with pytest.raises(IllegalPlay, match="wrong leader"):
        score_deal(deal(plays="5D KC 8C 8D 4C 6D 5C 3D"))
    with pytest.raises(IllegalPlay, match="9S is in neither hand"):
        score_deal(deal(plays="KC 5D 8C 8D 4C 6D 9S 3D"))
