"""Rating a doubles game as two against two (``RatedTeamGame``): the backtest's 2v2 book. The
site leaves doubles out of the ratings (the backtest's decision), so only the bench uses it."""

from __future__ import annotations

from tournaments.core.ratings import DEFAULT_PARAMS, RatedGame, RatedTeamGame, RatingBook


def test_a_team_win_moves_both_partners_and_counts_a_game_each():
    book = RatingBook()
    book.apply(RatedTeamGame((1, 2), (3, 4)))
    ratings = book.ratings()
    assert ratings[1].mu > DEFAULT_PARAMS.mu and ratings[2].mu > DEFAULT_PARAMS.mu
    assert ratings[3].mu < DEFAULT_PARAMS.mu and ratings[4].mu < DEFAULT_PARAMS.mu
    assert ratings[1].mu == ratings[2].mu  # equal partners share the win alike
    assert all(rating.games == 1 for rating in ratings.values())


def test_a_team_that_keeps_winning_is_given_the_better_chance():
    book = RatingBook()
    assert book.team_win_probability((1, 2), (3, 4)) == 0.5
    for _ in range(10):
        book.apply(RatedTeamGame((1, 2), (3, 4)))
    assert book.team_win_probability((1, 2), (3, 4)) > 0.55
    assert book.team_win_probability((3, 4), (1, 2)) < 0.45
    # What a partner learnt in doubles carries into singles: player 1 is now the favourite.
    assert book.win_probability(1, 3) > 0.5


def test_a_skunk_counts_as_two_wins_for_a_team_too():
    once, skunked = RatingBook(), RatingBook()
    once.apply(RatedTeamGame((1, 2), (3, 4)))
    skunked.apply(RatedTeamGame((1, 2), (3, 4), skunk=True))
    assert skunked.rating(1).mu > once.rating(1).mu
    assert skunked.rating(1).games == once.rating(1).games == 1


def test_singles_games_are_rated_as_before():
    book = RatingBook()
    book.apply_all([RatedGame(1, 2), RatedTeamGame((1, 3), (2, 4)), RatedGame(2, 1)])
    assert book.rating(1).games == 3 and book.rating(3).games == 1
