"""Pegboard's shared cribbage rules engine. Pure Python (standard library and NumPy): never
imports Django.

Modules, each defining its own terms:
- ``cards``: cards and their notation (``Card``, ``parse_card``, ``parse_cards``).
- ``hand``: the show, a hand or crib with the starter (``score_hand``), backed by the rank
  table in ``tables``; ``reference`` is the slow brute-force scorer the tests compare it with.
- ``series``: one series of the play (``score_series``).
- ``pegging``: the play for 2, 3 or 4 seats (``score_pegging``, the ``Pegging`` state).
- ``play``: the two-player play, pone and dealer (``score_play``).
- ``deal``: a whole deal in counting order, stopping at the target (``score_deal``).
- ``table_deal``: a deal for three or four seats (three-handed, four-handed, Canadian Doubles),
  ``TableDealRecord`` and ``score_table_deal``.
- ``simulate``: seeded computer games (``simulate_game``).
- ``simulate_table``: seeded games for three or four players (``simulate_table_game``).
- ``plausibility``: bounds on honest scores (possible show scores, most pegged per card/deal).
- ``exhaustive``: every (hand, starter) pair scored at once with NumPy.
- ``cli``: ``python -m scoring``.
"""

from scoring.cards import Card, CardError, format_cards, parse_card, parse_cards
from scoring.deal import DealRecord, DealResult, ScoringEvent, score_deal
from scoring.hand import Combination, HandScore, score_hand, spoken_count
from scoring.pegging import IllegalOrder, PeggingResult, score_pegging
from scoring.plausibility import (
    MAX_CARD_PEGGING,
    MAX_PEGGING_DEALER,
    MAX_PEGGING_PER_DEAL,
    MAX_PEGGING_PONE,
    MAX_SHOW_SCORE,
    POSSIBLE_SHOW_SCORES,
    is_possible_show_score,
)
from scoring.play import (
    DEALER,
    PONE,
    IllegalPlay,
    PlayedCard,
    PlayResult,
    SeriesScore,
    score_play,
    score_series,
)
from scoring.simulate import SimulatedGame, simulate_game, simulate_games
from scoring.simulate_table import SimulatedTableGame, simulate_table_game
from scoring.table_deal import TableDealRecord, TableDealResult, score_table_deal

__all__ = [
    "DEALER",
    "MAX_CARD_PEGGING",
    "MAX_PEGGING_DEALER",
    "MAX_PEGGING_PER_DEAL",
    "MAX_PEGGING_PONE",
    "MAX_SHOW_SCORE",
    "PONE",
    "POSSIBLE_SHOW_SCORES",
    "Card",
    "CardError",
    "Combination",
    "DealRecord",
    "DealResult",
    "HandScore",
    "IllegalOrder",
    "IllegalPlay",
    "PeggingResult",
    "PlayResult",
    "PlayedCard",
    "ScoringEvent",
    "SeriesScore",
    "SimulatedGame",
    "SimulatedTableGame",
    "TableDealRecord",
    "TableDealResult",
    "format_cards",
    "is_possible_show_score",
    "parse_card",
    "parse_cards",
    "score_deal",
    "score_hand",
    "score_pegging",
    "score_play",
    "score_series",
    "score_table_deal",
    "simulate_game",
    "simulate_games",
    "simulate_table_game",
    "spoken_count",
]
