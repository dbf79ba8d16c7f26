"""Seeded games for three and four players (four-handed and Canadian Doubles as partners)."""

from __future__ import annotations

import pytest

from scoring.cards import DECK
from scoring.hand import score_hand
from scoring.simulate_table import best_keep, keep_value, simulate_table_game
from scoring.table_deal import (
    CANADIAN_DOUBLES,
    FOUR_HANDED,
    THREE_HANDED,
    score_table_deal,
    side_of,
)

GAMES = [(style, target) for style in (THREE_HANDED, FOUR_HANDED, CANADIAN_DOUBLES)
         for target in (121, 61)]  # fmt: skip


@pytest.mark.parametrize(("style", "target"), GAMES)
def test_games_replay_and_add_up(style: str, target: int) -> None:
    for seed in range(15):
        game = simulate_table_game(seed, style=style, target=target)
        assert game == simulate_table_game(seed, style=style, target=target)
        players = game.players
        sides = 2 if players == 4 else 3
        scores = [0] * sides  # by team (players p and p + 2) or by player
        for number, (deal, result) in enumerate(zip(game.deals, game.results, strict=True)):
            # Record side r is seat r's team: seat 0 is the player left of the dealer.
            team = [game.player_at(number, side) % sides for side in range(sides)]
            assert deal.scores_before == tuple(scores[t] for t in team)
            assert score_table_deal(deal) == result  # the cards alone give the same deal
            gained = [0] * sides
            for event in result.events:
                assert event.side == side_of(event.seat, players)
                gained[event.side] += event.points
            for side in range(sides):
                scores[team[side]] = min(scores[team[side]] + gained[side], target)
            assert tuple(scores[t] for t in team) == result.scores
            assert result.game_over == (number == len(game.deals) - 1)
            assert len(deal.crib) == 4 and all(len(deal.held(s)) == 4 for s in range(players))
        assert tuple(scores) == game.final_scores
        assert game.final_scores[game.winner] == target
        assert sorted(game.final_scores)[-2] < target  # only one side reaches the target


def test_partners_share_the_dealers_crib_and_the_game() -> None:
    game = simulate_table_game(3, style=FOUR_HANDED)
    assert len(game.final_scores) == 2
    cribs = [e for result in game.results for e in result.events if e.source == "crib"]
    assert cribs and all((e.seat, e.side) == (3, 1) for e in cribs)  # the dealer's side
    hands = [e for result in game.results for e in result.events if e.source == "hand"]
    assert {(e.seat, e.side) for e in hands} == {(0, 0), (1, 1), (2, 0), (3, 1)}


def test_the_same_seed_gives_different_games_per_style() -> None:
    three = simulate_table_game(5, style=THREE_HANDED)
    four = simulate_table_game(5, style=FOUR_HANDED)
    assert three.deals[0].dealt != four.deals[0].dealt[:3]
    with pytest.raises(ValueError, match="unknown style"):
        simulate_table_game(5, style="two_handed")


def test_keep_value_is_the_show_summed_over_unseen_starters() -> None:
    cards = DECK[:5] + DECK[20:25]  # ten cards, as Canadian Doubles deals
    keep = best_keep(cards, cards)
    unseen = [card for card in DECK if card not in cards]
    brute = sum(score_hand(keep, starter).total for starter in unseen)
    assert keep_value(keep, cards) == brute
    others = [k for k in __import__("itertools").combinations(cards, 4)]
    assert all(keep_value(k, cards) <= keep_value(keep, cards) for k in others)


@pytest.mark.parametrize("style", [FOUR_HANDED, CANADIAN_DOUBLES, THREE_HANDED])
def test_players_of_lower_skill_still_play_legal_deals(style: str) -> None:
    skills = (0.3, 0.9, 0.5, 0.7)[: 3 if style == THREE_HANDED else 4]
    for seed in range(6):
        game = simulate_table_game(seed, style=style, skills=skills)
        assert game == simulate_table_game(seed, style=style, skills=skills)
        assert game.skills == skills
        for deal, result in zip(game.deals, game.results, strict=True):
            assert score_table_deal(deal) == result


def test_experts_play_the_same_game_with_or_without_skills() -> None:
    for seed in range(4):
        plain = simulate_table_game(seed, style=FOUR_HANDED)
        given = simulate_table_game(seed, style=FOUR_HANDED, skills=(1.0,) * 4)
        assert given.deals == plain.deals and given.final_scores == plain.final_scores


def test_skill_decides_more_four_handed_games_than_chance() -> None:
    # Players 0 and 2 (team 0) are experts, players 1 and 3 often choose at random.
    wins = sum(
        simulate_table_game(seed, style=FOUR_HANDED, skills=(1.0, 0.4, 1.0, 0.4)).winner == 0
        for seed in range(120)
    )
    assert wins >= 75  # about 60 by chance; far more when skill counts


def test_a_skill_for_each_player() -> None:
    with pytest.raises(ValueError, match="give 4 skills, not 2"):
        simulate_table_game(1, style=FOUR_HANDED, skills=(1.0, 0.5))
