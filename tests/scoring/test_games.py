"""Game points, spread, card lines and matches (scoring.games)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.games import (
    ACC_SETTINGS,
    CardLine,
    CardLineError,
    MatchError,
    ScoringSettings,
    administrative_lines,
    card_line_for,
    describe_card_line,
    game_points_for,
    game_result,
    lines_reciprocal,
    match_state,
    next_first_dealer,
    other_side,
    sixty_one_point_settings,
    validate_card_line,
    win_kind,
)

SIXTY_ONE = sixty_one_point_settings()
CLUB_1_2_4 = ScoringSettings(win_points=1, skunk_points=2, double_skunk_points=4)


# Settings


def test_acc_defaults():
    s = ACC_SETTINGS
    assert (s.target, s.skunk_margin, s.double_skunk_margin) == (121, 31, 61)
    assert (s.win_points, s.skunk_points, s.double_skunk_points) == (2, 3, 3)
    assert (s.admin_win_points, s.admin_spread) == (2, 10)


def test_sixty_one_point_settings_have_the_lurch_and_no_double_skunk():
    assert (SIXTY_ONE.target, SIXTY_ONE.skunk_margin, SIXTY_ONE.double_skunk_margin) == (
        61,
        31,
        None,
    )
    assert sixty_one_point_settings(skunk_points=4).skunk_points == 4
    with pytest.raises(ValueError, match="skunk_margin"):
        sixty_one_point_settings(skunk_margin=62)


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"target": 0}, "target"),
        ({"target": True}, "target"),
        ({"target": "121"}, "target"),
        ({"skunk_margin": 0}, "skunk_margin"),
        ({"skunk_margin": 122}, "skunk_margin"),
        ({"double_skunk_margin": 31}, "double_skunk_margin"),
        ({"double_skunk_margin": 122}, "double_skunk_margin"),
        ({"win_points": 0}, "win_points"),
        ({"skunk_points": 1}, "skunk_points"),
        ({"double_skunk_points": 2}, "double_skunk_points"),
        ({"admin_win_points": 0}, "admin_win_points"),
        ({"admin_spread": 0}, "admin_spread"),
        ({"admin_spread": 31}, "admin_spread"),
        ({"target": 61, "skunk_margin": 62, "double_skunk_margin": None}, "skunk_margin"),
        ({"target": 50}, "double_skunk_margin"),  # 121's double skunk line past the target
    ],
)
def test_settings_reject_inconsistent_values(overrides, named):
    with pytest.raises(ValueError, match=named):
        ScoringSettings(**overrides)


def test_settings_accept_a_61_point_game_with_a_double_skunk_at_zero():
    settings = ScoringSettings(target=61, skunk_margin=31, double_skunk_margin=61)
    assert game_result(0, settings).double_skunk


# Game points and results


@pytest.mark.parametrize(
    ("loser_score", "spread", "points", "skunk", "double"),
    [
        (120, 1, 2, False, False),
        (91, 30, 2, False, False),
        (90, 31, 3, True, False),
        (61, 60, 3, True, False),
        (60, 61, 3, True, True),
        (0, 121, 3, True, True),
    ],
)
def test_game_result_acc(loser_score, spread, points, skunk, double):
    result = game_result(loser_score)
    assert result.spread == spread
    assert (result.winner_game_points, result.loser_game_points) == (points, 0)
    assert (result.skunk, result.double_skunk) == (skunk, double)
    assert result.winner_line == CardLine(points, plus=spread)
    assert result.loser_line == CardLine(0, minus=spread)


@pytest.mark.parametrize("loser_score", [-1, 121, 200])
def test_game_result_rejects_impossible_loser_scores(loser_score):
    with pytest.raises(ValueError, match="loser_score"):
        game_result(loser_score)


def test_sixty_one_point_game_lurch():
    assert game_result(31, SIXTY_ONE).skunk is False
    lurch = game_result(30, SIXTY_ONE)
    assert (lurch.spread, lurch.winner_game_points, lurch.skunk) == (31, 3, True)
    assert game_result(0, SIXTY_ONE).double_skunk is False


def test_club_points_come_from_settings():
    assert [game_points_for(True, s, CLUB_1_2_4) for s in (30, 31, 60, 61)] == [1, 2, 2, 4]
    assert game_points_for(False, 100, CLUB_1_2_4) == 0


def test_win_kind():
    assert [win_kind(s) for s in (30, 31, 61)] == ["plain win", "skunk", "double skunk"]
    assert win_kind(61, SIXTY_ONE) == "skunk"


@pytest.mark.parametrize("spread", [0, 122, -5])
def test_game_points_for_rejects_impossible_spreads(spread):
    with pytest.raises(CardLineError) as error:
        game_points_for(True, spread)
    assert error.value.field == "spread"


# Card lines


def test_card_line_properties():
    win, loss = CardLine(3, plus=35), CardLine(0, minus=12)
    assert (win.won, win.spread, win.net) == (True, 35, 35)
    assert (loss.won, loss.spread, loss.net) == (False, 12, -12)


@pytest.mark.parametrize("fields", [{"game_points": -1}, {"plus": -3}, {"minus": True}])
def test_card_line_rejects_negative_or_non_numbers(fields):
    values = {"game_points": 0, "plus": 0, "minus": 5} | fields
    with pytest.raises(CardLineError) as error:
        CardLine(**values)
    assert error.value.field == next(iter(fields))


@pytest.mark.parametrize(
    "line",
    [
        CardLine(2, plus=1),
        CardLine(2, plus=30),
        CardLine(3, plus=31),
        CardLine(3, plus=121),
        CardLine(0, minus=1),
        CardLine(0, minus=121),
    ],
)
def test_valid_acc_lines(line):
    assert validate_card_line(line) is line


@pytest.mark.parametrize(
    ("line", "field", "message"),
    [
        (CardLine(2, plus=35), "game_points", "A win by 35 is a skunk: 3 game points, not 2."),
        (CardLine(3, plus=30), "game_points", "A skunk needs a win by 31 or more"),
        (CardLine(0, plus=20), "game_points", "write the spread in the minus column"),
        (CardLine(2, minus=20), "game_points", "A loss by 20 scores 0 game points, not 2"),
        (CardLine(4, plus=70), "game_points", "is a double skunk: 3 game points, not 4"),
        (CardLine(2, plus=122), "plus", "1 to 121"),
        (CardLine(0, minus=122), "minus", "1 to 121"),
        (CardLine(2), "plus", "spread is missing"),
        (CardLine(0), "minus", "spread is missing"),
        (CardLine(2, plus=10, minus=10), "minus", "one column only"),
        (CardLine(0, plus=10, minus=10), "plus", "one column only"),
    ],
)
def test_invalid_acc_lines_name_the_field_and_rule(line, field, message):
    with pytest.raises(CardLineError, match=message) as error:
        validate_card_line(line)
    assert error.value.field == field


def test_validation_follows_sixty_one_point_settings():
    assert validate_card_line(CardLine(2, plus=30), SIXTY_ONE)
    assert validate_card_line(CardLine(3, plus=61), SIXTY_ONE)
    with pytest.raises(CardLineError, match="1 to 61"):
        validate_card_line(CardLine(3, plus=62), SIXTY_ONE)
    with pytest.raises(CardLineError, match="skunk: 3 game points, not 2"):
        validate_card_line(CardLine(2, plus=31), SIXTY_ONE)


def test_card_line_for_works_out_game_points():
    assert card_line_for(True, 35) == CardLine(3, plus=35)
    assert card_line_for(True, 30) == CardLine(2, plus=30)
    assert card_line_for(False, 35) == CardLine(0, minus=35)
    assert card_line_for(True, 61, CLUB_1_2_4) == CardLine(4, plus=61)


@given(won=st.booleans(), spread=st.integers(1, 121))
def test_every_constructed_line_validates_and_round_trips(won, spread):
    line = validate_card_line(card_line_for(won, spread))
    assert (line.won, line.spread, line.net) == (won, spread, spread if won else -spread)


@given(gp=st.integers(0, 5), plus=st.integers(0, 130), minus=st.integers(0, 130))
def test_validation_accepts_exactly_the_acc_table(gp, plus, minus):
    line = CardLine(gp, plus=plus, minus=minus)
    in_table = (
        (gp == 2 and 1 <= plus <= 30 and minus == 0)
        or (gp == 3 and 31 <= plus <= 121 and minus == 0)
        or (gp == 0 and plus == 0 and 1 <= minus <= 121)
    )
    try:
        validate_card_line(line)
    except CardLineError:
        assert not in_table
    else:
        assert in_table


# Describing a line (python -m scoring line --won --by 35)


@pytest.mark.parametrize(
    ("kwargs", "text"),
    [
        (
            {"won": True, "spread": 35},
            "A win by 35 is a skunk: 3 game points, plus 35 spread (the loser finished on 86).",
        ),
        (
            {"won": True, "spread": 20, "game_points": 2},
            "A win by 20: 2 game points, plus 20 spread (the loser finished on 101).",
        ),
        (
            {"won": False, "spread": 35},
            "A loss by 35 is a skunk against you: 0 game points, minus 35 spread "
            "(you finished on 86).",
        ),
        (
            {"won": True, "spread": 70},
            "A win by 70 is a double skunk: 3 game points, plus 70 spread "
            "(the loser finished on 51).",
        ),
        (
            {"won": True, "spread": 31, "settings": SIXTY_ONE},
            "A win by 31 is a skunk: 3 game points, plus 31 spread (the loser finished on 30).",
        ),
    ],
)
def test_describe_card_line(kwargs, text):
    assert describe_card_line(**kwargs) == text


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"won": True, "spread": 35, "game_points": 2}, "game_points", "skunk: 3 game points"),
        ({"won": False, "spread": 12, "game_points": 2}, "game_points", "0 game points, not 2"),
        ({"won": True, "spread": 0}, "spread", "1 to 121"),
        ({"won": True, "spread": 122}, "spread", "1 to 121"),
    ],
)
def test_describe_card_line_refuses_wrong_lines(kwargs, field, message):
    with pytest.raises(CardLineError, match=message) as error:
        describe_card_line(**kwargs)
    assert error.value.field == field


# Reciprocal lines and administrative results


def test_lines_reciprocal():
    assert lines_reciprocal(CardLine(3, plus=35), CardLine(0, minus=35))
    assert lines_reciprocal(CardLine(0, minus=5), CardLine(2, plus=5))
    assert not lines_reciprocal(CardLine(2, plus=20), CardLine(0, minus=21))
    assert not lines_reciprocal(CardLine(2, plus=20), CardLine(2, plus=20))
    assert not lines_reciprocal(CardLine(0, minus=20), CardLine(0, minus=20))
    assert not lines_reciprocal(CardLine(2, plus=35), CardLine(0, minus=35))  # GP wrong


def test_administrative_lines_default_and_setting():
    assert administrative_lines() == (CardLine(2, plus=10), CardLine(0, minus=10))
    custom = ScoringSettings(admin_win_points=3, admin_spread=15)
    assert administrative_lines(custom) == (CardLine(3, plus=15), CardLine(0, minus=15))
    assert lines_reciprocal(*administrative_lines())


# Matches


def test_best_of_five_in_progress_and_decided():
    state = match_state(5, ["a", "b", "a"])
    assert (state.games_needed, state.wins_a, state.wins_b) == (3, 2, 1)
    assert (state.decided, state.winner) == (False, None)
    done = match_state(5, ["a", "b", "a", "b", "b"])
    assert (done.decided, done.winner, done.wins_b) == (True, "b", 3)


@pytest.mark.parametrize(("best_of", "needed"), [(1, 1), (3, 2), (5, 3), (7, 4)])
def test_games_needed(best_of, needed):
    assert match_state(best_of).games_needed == needed
    assert match_state(best_of, ["a"] * needed).winner == "a"
    assert match_state(best_of, ["a"] * (needed - 1)).winner is None


@pytest.mark.parametrize("best_of", [0, 2, 4, -3, "5"])
def test_match_must_be_best_of_an_odd_number(best_of):
    with pytest.raises(MatchError, match="odd number"):
        match_state(best_of)


def test_no_game_after_the_match_is_decided():
    with pytest.raises(MatchError, match="Game 4 was recorded after the match was decided"):
        match_state(5, ["a", "a", "a", "b"])


def test_winner_must_be_a_side():
    with pytest.raises(MatchError, match="Game 2"):
        match_state(3, ["a", "c"])


def test_next_first_dealer():
    state = match_state(5, ["a", "b", "a"])
    assert next_first_dealer(state) is None
    assert next_first_dealer(state, "cut") is None
    assert next_first_dealer(state, "loser_deals") == "b"
    assert next_first_dealer(match_state(5, ["a", "b"]), "loser_deals") == "a"
    assert next_first_dealer(match_state(5), "loser_deals") is None


def test_next_first_dealer_refuses_unknown_rules_and_finished_matches():
    with pytest.raises(MatchError, match="first_deal"):
        next_first_dealer(match_state(3), "winner_deals")
    with pytest.raises(MatchError, match="over"):
        next_first_dealer(match_state(3, ["b", "b"]), "loser_deals")


def test_other_side():
    assert (other_side("a"), other_side("b")) == ("b", "a")
    with pytest.raises(ValueError, match="side"):
        other_side("c")
