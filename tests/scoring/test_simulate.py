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
    AVERAGE_SKILL,
    Player,
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


skills = st.floats(min_value=0.0, max_value=1.0)


@given(st.integers(min_value=0, max_value=2**32), skills, skills)
@settings(max_examples=30, deadline=None)
def test_games_of_any_skill_are_legal_replay_and_repeat(seed: int, a: float, b: float) -> None:
    game = simulate_game(seed, skills=(a, b))
    check_game(game)
    assert game.skills == (a, b)
    assert simulate_game(seed, skills=(a, b)) == game


def test_experts_play_the_same_games_as_before_skills() -> None:
    # Recorded from the simulator before players had a skill: the cards, the choices and the
    # results of expert games must not move.
    game = simulate_game(7, skills=(1.0, 1.0))
    assert game == simulate_game(7)
    assert (game.first_dealer, game.final_scores, len(game.deals)) == (1, (121, 110), 9)
    first = game.deals[0]
    assert first.dealer_hand == tuple(parse_cards("JD 2C 2H 10D 9C AH"))
    assert first.pone_discards == tuple(parse_cards("7D KD"))
    assert first.plays == tuple(parse_cards("9H 9C 6S AH AS 4D JD 10D"))
    game = simulate_game(2024)
    assert (game.first_dealer, game.final_scores, len(game.deals)) == (1, (121, 107), 9)
    assert game.deals[-1].plays == tuple(parse_cards("JH 8H 5C 7S 4S 7H 4C 2C"))
    assert simulate_games(3, first_seed=5, skills=(1.0, 1.0)) == simulate_games(3, first_seed=5)


def test_skill_changes_the_choices_not_the_cards() -> None:
    expert, novice = simulate_game(11), simulate_game(11, skills=(0.0, 0.0))
    assert expert.deals[0].dealer_hand == novice.deals[0].dealer_hand
    assert expert.deals[0].pone_hand == novice.deals[0].pone_hand
    assert expert.deals[0].starter == novice.deals[0].starter
    assert simulate_game(11, skills=(0.5, 0.5)) != simulate_game(11, skills=(0.5, 0.6))


def test_each_side_plays_at_its_own_skill() -> None:
    """Player 0 is an expert and player 1 plays at random, whoever deals."""
    off_strategy = 0
    for game in simulate_games(4, first_seed=300, skills=(1.0, 0.0)):
        for number, record in enumerate(game.deals):
            dealer = game.dealer_of(number)
            sides = (
                (dealer, record.dealer_hand, record.dealer_discards, True),
                (1 - dealer, record.pone_hand, record.pone_discards, False),
            )
            for player, six, chosen, dealt in sides:
                best = choose_discards(six, dealer=dealt)
                if player == 0:
                    assert set(chosen) == set(best)
                else:
                    off_strategy += set(chosen) != set(best)
            state = Pegging(record.kept(PONE), record.kept(DEALER))
            for card in record.plays:
                expert_to_move = (state.turn == DEALER) == (dealer == 0)
                assert not expert_to_move or card == choose_card(state)
                state.play(card)
    assert off_strategy > 10


def test_an_expert_clearly_beats_a_random_player() -> None:
    games = simulate_games(300, first_seed=20_000, skills=(1.0, 0.0))
    wins = sum(game.winner == 0 for game in games)
    # An expert won 99.1% of 1,000 such games. 240 of 300 (80%) is 10 standard deviations
    # above a fair coin's 150 and 12 below 285, the mean even at a 95% win rate, so this
    # fails only if skill stops mattering, never by chance.
    assert wins >= 240


def test_average_skill_is_a_skill() -> None:
    assert 0.0 < AVERAGE_SKILL < 1.0


@pytest.mark.parametrize("skill", [-0.1, 1.5, float("nan")])
def test_a_skill_is_between_0_and_1(skill: float) -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        simulate_game(1, skills=(1.0, skill))


def test_a_player_below_skill_1_needs_a_random_stream() -> None:
    with pytest.raises(ValueError, match="random stream"):
        Player(0.5)
