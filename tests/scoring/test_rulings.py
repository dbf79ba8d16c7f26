"""Rulings that change the board (scoring.rulings)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.games import CardLine, ScoringSettings, sixty_one_point_settings
from scoring.rulings import (
    CATALOGUE,
    Position,
    Ruling,
    RulingError,
    administrative_result,
    apply_ruling,
    result_lines,
)

TABLE_CODES = {
    "false_claim_of_game",
    "overpeg",
    "renege",
    "muggins",
    "exposed_bottom_card",
    "no_cut_offered",
    "crib_examined",
    "starter_misplaced",
    "opponents_pegs",
    "wrong_hand_size_refused_check",
    "late_from_lunch",
    "refusal_to_conform",
    "playoff_no_show",
}
PROCEDURAL = ["exposed_bottom_card", "no_cut_offered", "crib_examined", "starter_misplaced"]
PROCEDURAL += ["opponents_pegs"]
ADMINISTRATIVE = ["late_from_lunch", "refusal_to_conform", "playoff_no_show"]


# The catalogue


def test_catalogue_holds_exactly_the_table():
    assert set(CATALOGUE) == TABLE_CODES
    assert all(code == entry.code for code, entry in CATALOGUE.items())


@pytest.mark.parametrize(
    ("code", "direction", "points", "penalty"),
    [
        ("false_claim_of_game", "backward", 15, True),
        ("overpeg", "correction", None, False),
        ("renege", "opponent_pegs", 2, True),
        ("muggins", "opponent_pegs", None, False),
        *[(code, "opponent_pegs", 2, True) for code in PROCEDURAL],
        ("wrong_hand_size_refused_check", "backward", 10, True),
        *[(code, "administrative", None, False) for code in ADMINISTRATIVE],
    ],
)
def test_catalogue_entries(code, direction, points, penalty):
    entry = CATALOGUE[code]
    assert (entry.direction, entry.default_points, entry.is_penalty) == (direction, points, penalty)
    assert entry.judges_required == (code == "false_claim_of_game")


def test_rule_citations_are_blank_until_the_event_gives_them():
    assert {(e.rulebook_edition, e.rule) for e in CATALOGUE.values()} == {("", "")}
    cited = CATALOGUE["renege"].cited("2020", "7.3")
    assert (cited.rulebook_edition, cited.rule, cited.code) == ("2020", "7.3", "renege")
    assert CATALOGUE["renege"].rule == ""


# Positions


def test_position_winner_and_over():
    assert Position(100, 90).winner is None
    assert not Position(100, 90).over
    assert Position(121, 90).winner == "a"
    assert Position(50, 121).winner == "b"
    forfeit = Position(120, 3, forfeited_by="a")
    assert (forfeit.over, forfeit.winner) == (True, "b")


@pytest.mark.parametrize(
    "fields",
    [
        {"score_a": -1, "score_b": 0},
        {"score_a": 122, "score_b": 0},
        {"score_a": 121, "score_b": 121},
        {"score_a": 10, "score_b": 70, "target": 61},
        {"score_a": 1, "score_b": 2, "forfeited_by": "c"},
        {"score_a": 1.0, "score_b": 2},
        {"score_a": 1, "score_b": 2, "target": 0},
    ],
)
def test_position_rejects_impossible_boards(fields):
    with pytest.raises(ValueError):
        Position(**fields)


# False claim of game


def test_false_claim_of_game_worked_example():
    # a pegged into the game hole from 115 but was entitled to 2 points: true score 117.
    # Over-claimed 4 to b (100 -> 104), then a pegs 15 backward (117 -> 102).
    after = apply_ruling(Position(121, 100), Ruling("false_claim_of_game", "a", true_score=117))
    assert after == Position(102, 104)
    assert not after.over


def test_false_claim_written_without_pegging_out():
    # b wrote a win while on 110: the whole 11 to the target was over-claimed.
    after = apply_ruling(Position(60, 110), Ruling("false_claim_of_game", "b", true_score=110))
    assert after == Position(71, 95)


def test_false_claim_over_claimed_points_stop_at_the_target_and_win():
    after = apply_ruling(Position(121, 118), Ruling("false_claim_of_game", "a", true_score=117))
    assert after == Position(102, 121)
    assert after.winner == "b"


def test_false_claim_backward_penalty_stops_at_zero():
    after = apply_ruling(Position(121, 0), Ruling("false_claim_of_game", "a", true_score=10))
    assert after == Position(0, 111)


def test_false_claim_needs_a_true_score_below_the_target():
    with pytest.raises(RulingError, match="not false"):
        apply_ruling(Position(121, 0), Ruling("false_claim_of_game", "a", true_score=121))


def test_false_claim_never_moves_the_offender_forward():
    with pytest.raises(RulingError, match="never moves the offender forward"):
        apply_ruling(Position(100, 0), Ruling("false_claim_of_game", "a", true_score=105))


def test_false_claim_after_the_opponent_won_is_refused():
    with pytest.raises(RulingError, match="already over"):
        apply_ruling(Position(100, 121), Ruling("false_claim_of_game", "a", true_score=100))


# Overpegging


def test_overpeg_back_to_true_score_and_opponent_pegs_the_difference():
    after = apply_ruling(Position(80, 96), Ruling("overpeg", "b", true_score=90))
    assert after == Position(86, 90)


def test_overpeg_difference_can_win_the_game_but_not_pass_the_target():
    after = apply_ruling(Position(118, 60), Ruling("overpeg", "b", true_score=50))
    assert after == Position(121, 50)
    assert after.winner == "a"


def test_overpeg_needs_an_overpeg():
    with pytest.raises(RulingError, match="nothing was overpegged"):
        apply_ruling(Position(80, 90), Ruling("overpeg", "b", true_score=90))


def test_overpeg_into_the_game_hole_is_a_false_claim_not_an_overpeg():
    with pytest.raises(RulingError, match="already over"):
        apply_ruling(Position(121, 90), Ruling("overpeg", "a", true_score=110))


# Renege


@pytest.mark.parametrize(("cards", "b_after"), [(1, 52), (2, 54), (3, 56)])
def test_renege_two_per_card_to_the_opponent(cards, b_after):
    after = apply_ruling(Position(70, 50), Ruling("renege", "a", reneged_cards=cards))
    assert after == Position(70, b_after)


def test_renege_with_retraction_of_points_pegged_from_it():
    after = apply_ruling(Position(73, 50), Ruling("renege", "a", reneged_cards=1, true_score=70))
    assert after == Position(70, 52)


def test_renege_penalty_stops_at_the_target():
    after = apply_ruling(Position(70, 120), Ruling("renege", "a", reneged_cards=2))
    assert after == Position(70, 121)


# Muggins


def test_muggins_opponent_pegs_the_lesser_of_claimed_and_true():
    ruling = Ruling("muggins", "a", claimed_missed=6, true_missed=4, muggins_in_effect=True)
    assert apply_ruling(Position(40, 40), ruling) == Position(40, 44)
    ruling = Ruling("muggins", "a", claimed_missed=2, true_missed=4, muggins_in_effect=True)
    assert apply_ruling(Position(40, 40), ruling) == Position(40, 42)
    assert ruling.beneficiary == "b"


def test_wrong_muggins_call_gives_the_claimed_points_to_the_other_player():
    ruling = Ruling("muggins", "a", claimed_missed=6, true_missed=0, muggins_in_effect=True)
    assert apply_ruling(Position(40, 40), ruling) == Position(46, 40)
    assert ruling.beneficiary == "a"


def test_muggins_only_where_in_effect():
    with pytest.raises(RulingError, match="not in effect"):
        apply_ruling(Position(40, 40), Ruling("muggins", "a", claimed_missed=2, true_missed=2))


# Fixed penalties


@pytest.mark.parametrize("code", PROCEDURAL)
def test_procedural_errors_give_two_to_the_opponent(code):
    assert apply_ruling(Position(30, 45), Ruling(code, "b")) == Position(32, 45)
    assert apply_ruling(Position(120, 45), Ruling(code, "b")) == Position(121, 45)


def test_wrong_hand_size_refused_check_is_ten_backward_not_below_zero():
    ruling = Ruling("wrong_hand_size_refused_check", "a")
    assert apply_ruling(Position(30, 45), ruling) == Position(20, 45)
    assert apply_ruling(Position(6, 45), ruling) == Position(0, 45)


# Administrative results


@pytest.mark.parametrize("code", ADMINISTRATIVE)
def test_administrative_codes_end_the_game_against_the_offender(code):
    after = apply_ruling(Position(110, 40), Ruling(code, "a"))
    assert (after.over, after.winner, after.forfeited_by) == (True, "b", "a")
    assert (after.score_a, after.score_b) == (110, 40)
    assert result_lines(after) == (CardLine(0, minus=10), CardLine(2, plus=10))


def test_administrative_result_follows_settings_and_is_never_a_skunk():
    assert administrative_result("b") == (CardLine(2, plus=10), CardLine(0, minus=10))
    settings = ScoringSettings(admin_win_points=3, admin_spread=12)
    assert administrative_result("a", settings) == (CardLine(0, minus=12), CardLine(3, plus=12))


# Results of finished games


def test_result_lines_from_the_board():
    assert result_lines(Position(121, 86)) == (CardLine(3, plus=35), CardLine(0, minus=35))
    assert result_lines(Position(100, 121)) == (CardLine(0, minus=21), CardLine(2, plus=21))
    sixty_one = sixty_one_point_settings()
    assert result_lines(Position(30, 61, target=61), sixty_one)[1] == CardLine(3, plus=31)


def test_result_lines_need_a_finished_game_of_the_event_length():
    with pytest.raises(RulingError, match="not over"):
        result_lines(Position(100, 90))
    with pytest.raises(RulingError, match="61-point game"):
        result_lines(Position(61, 0, target=61))


# Refusals


@pytest.mark.parametrize("position", [Position(121, 90), Position(5, 5, forfeited_by="b")])
@pytest.mark.parametrize("code", ["renege", "exposed_bottom_card", "late_from_lunch"])
def test_a_finished_game_takes_no_ruling(position, code):
    ruling = Ruling(code, "a", reneged_cards=1 if code == "renege" else None)
    with pytest.raises(RulingError, match="already over"):
        apply_ruling(position, ruling)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"code": "slow_play", "offender": "a"}, "Unknown infraction"),
        ({"code": "renege", "offender": "c", "reneged_cards": 1}, "offender"),
        ({"code": "renege", "offender": "a"}, "needs reneged_cards"),
        ({"code": "renege", "offender": "a", "reneged_cards": 0}, "at least 1"),
        ({"code": "overpeg", "offender": "a"}, "needs true_score"),
        ({"code": "overpeg", "offender": "a", "true_score": -2}, "at least 0"),
        ({"code": "false_claim_of_game", "offender": "a"}, "needs true_score"),
        ({"code": "muggins", "offender": "a", "claimed_missed": 2}, "needs true_missed"),
        ({"code": "muggins", "offender": "a", "claimed_missed": 0, "true_missed": 2}, "at least 1"),
        ({"code": "crib_examined", "offender": "a", "true_score": 5}, "does not apply"),
        ({"code": "overpeg", "offender": "a", "true_score": 5, "reneged_cards": 1}, "not apply"),
        ({"code": "renege", "offender": "a", "reneged_cards": True}, "whole number"),
    ],
)
def test_bad_ruling_parameters_are_refused(fields, message):
    with pytest.raises(RulingError, match=message):
        Ruling(**fields)


# Properties


def positions():
    return st.tuples(st.integers(0, 120), st.integers(0, 120)).map(lambda s: Position(*s))


def rulings():
    fixed = st.sampled_from(PROCEDURAL + ADMINISTRATIVE + ["wrong_hand_size_refused_check"])
    return st.one_of(
        st.builds(Ruling, code=fixed, offender=st.sampled_from("ab")),
        st.builds(
            Ruling,
            code=st.just("renege"),
            offender=st.sampled_from("ab"),
            reneged_cards=st.integers(1, 4),
        ),
        st.builds(
            Ruling,
            code=st.just("muggins"),
            offender=st.sampled_from("ab"),
            claimed_missed=st.integers(1, 29),
            true_missed=st.integers(0, 29),
            muggins_in_effect=st.just(True),
        ),
    )


@given(positions(), rulings())
def test_a_ruling_never_carries_past_the_target_or_below_zero(position, ruling):
    after = apply_ruling(position, ruling)
    for side in "ab":
        assert 0 <= after.score(side) <= after.target


@given(positions(), rulings())
def test_only_the_beneficiary_gains_and_only_the_offender_loses(position, ruling):
    after = apply_ruling(position, ruling)
    loser = "b" if ruling.beneficiary == "a" else "a"
    assert after.score(ruling.beneficiary) >= position.score(ruling.beneficiary)
    assert after.score(loser) <= position.score(loser)
    if after.score(loser) < position.score(loser):
        assert loser == ruling.offender


@given(st.integers(0, 119), st.integers(0, 120), st.sampled_from("ab"))
def test_false_claim_leaves_the_offender_15_under_the_true_score(true_score, other, side):
    board = Position(121, other) if side == "a" else Position(other, 121)
    after = apply_ruling(board, Ruling("false_claim_of_game", side, true_score=true_score))
    assert after.score(side) == max(0, true_score - 15)
    opponent = "b" if side == "a" else "a"
    assert after.score(opponent) == min(121, other + 121 - true_score)
