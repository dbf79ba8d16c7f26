"""The simulator: reproducible, legal games that replay exactly through the engine."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scoring.cards import DECK, Card, parse_cards
from scoring.deal import score_deal
from scoring.hand import score_hand
from scoring.play import DEALER, PONE, Pegging, score_play
from scoring.simulate import (
    SimulatedGame,
    choose_card,
    choose_discards,
    crib_value,
    keep_totals,
    simulate_game,
    simulate_games,
)


def check_game(game: SimulatedGame) -> None:
    """Replay every deal through the engine and check the game's bookkeeping."""
    scores = [0, 0]
    for number, (record, stored) in enumerate(zip(game.deals, game.results, strict=True)):
        dealer = game.dealer_of(number)
        assert (record.dealer_score_before, record.pone_score_before) == (
            scores[dealer],
            scores[1 - dealer],
        )
        replayed = score_deal(record)
        assert replayed == stored
        pone, kept = record.kept(PONE), record.kept(DEALER)
        play = score_play(pone, kept, record.plays)  # legal, or this raises
        shows = [
            score_hand(pone, record.starter).total,
            score_hand(kept, record.starter).total,
            score_hand(record.crib, record.starter, crib=True).total,
        ]
        heels = 2 if record.starter.rank == 11 else 0
        if not replayed.game_over:
            # Nothing was cut short, so the deal's points are exactly the parts' points.
            assert replayed.pone_score - scores[1 - dealer] == play.pone_points + shows[0]
            assert replayed.dealer_score - scores[dealer] == (
                heels + play.dealer_points + shows[1] + shows[2]
            )
        assert replayed.game_over == (number == len(game.deals) - 1)
        scores[dealer], scores[1 - dealer] = replayed.dealer_score, replayed.pone_score
    assert tuple(scores) == game.final_scores
    assert scores[game.winner] == game.target and scores[1 - game.winner] < game.target


@given(st.integers(min_value=0, max_value=2**32))
@settings(max_examples=30, deadline=None)
def test_every_simulated_game_is_legal_and_replays(seed: int) -> None:
    check_game(simulate_game(seed))


def test_games_to_61_end_at_61() -> None:
    for game in simulate_games(10, first_seed=500, target=61):
        check_game(game)
        assert max(game.final_scores) == 61


def test_same_seed_same_game_and_seeds_differ() -> None:
    assert simulate_game(7) == simulate_game(7)
    games = simulate_games(5, first_seed=7)
    assert games[0] == simulate_game(7)
    assert len({(g.final_scores, g.deals[0].starter) for g in games}) > 1


def test_first_dealer_alternates_and_both_players_win_sometimes() -> None:
    games = simulate_games(40, first_seed=1000)
    assert {g.first_dealer for g in games} == {0, 1}
    assert {g.winner for g in games} == {0, 1}
    for game in games:
        assert 5 <= len(game.deals) <= 20


def test_discards_keep_the_best_hand() -> None:
    # Dealt 5 5 5 J with two rags: keep the 5 5 5 J, whoever's crib it is.
    six = parse_cards("5H 5D 5S JC 2C 9D")
    assert set(choose_discards(six, dealer=False)) == set(parse_cards("2C 9D"))
    # With a pair of kings to spare, the dealer salts his crib with the pair and the pone does
    # not: 7 8 8 9 keeps either way, K K goes to the dealer's own crib.
    six = parse_cards("7H 8D 8S 9C KC KD")
    assert set(choose_discards(six, dealer=True)) == set(parse_cards("KC KD"))


def test_crib_value() -> None:
    assert crib_value(parse_cards("5H 10D")) == 2
    assert crib_value(parse_cards("KH KD")) == 2
    assert crib_value(parse_cards("AH 9D")) == 0


def test_greedy_play_takes_points_then_avoids_5_and_21_then_plays_high() -> None:
    state = Pegging(parse_cards("KC 9C 5C 2C"), parse_cards("6D 5D 3D 4D"))
    expected = parse_cards("KC 5D 5C 6D")
    # KC: no lead scores and 5C would leave the count at 5, so the highest card.
    # 5D: fifteen. 5C: a pair. 6D: nothing scores, nothing leaves 21, highest card.
    for card in expected:
        assert choose_card(state) == card
        state.play(card)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pegging_choices_are_legal(seed: int) -> None:
    for record in simulate_game(seed).deals:
        state = Pegging(record.kept(PONE), record.kept(DEALER))
        for card in record.plays:
            assert card == choose_card(state)
            state.play(card)


@given(st.lists(st.sampled_from(DECK), min_size=6, max_size=6, unique=True))
@example(list(parse_cards("2H 5H 9H JH JS 3C")))  # flushes with and without a jack
@example(list(parse_cards("5H 5D 5S JC 5C JD")))
@settings(max_examples=40, deadline=None)
def test_keep_totals_equal_scoring_every_starter(six: list[Card]) -> None:
    unseen = [card for card in DECK if card not in six]
    assert len(unseen) == 46
    options = keep_totals(six)
    assert len(options) == 15
    for keep, discards, total in options:
        assert set(keep) | set(discards) == set(six)
        assert total == sum(score_hand(keep, starter).total for starter in unseen)
