"""The play (pegging) between two players: the pone and the dealer.

Terms:
- pone: the non-dealer, who leads the play; dealer: the other player.
- count, series: see ``scoring.series``; go, last card and the turn: see ``scoring.pegging``,
  whose ``Pegging`` is the one state machine for whose turn it is and when a series ends, for
  two, three or four seats. Two players are its two-seat case.
- renege: not playing a card that could be played (here: the other player laid a card while
  the player whose turn it was still held a playable one).

``score_play`` checks a recorded two-player play; it is ``score_pegging`` with two hands,
answered as pone and dealer totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.cards import Card
from scoring.pegging import (
    DEALER,
    PONE,
    IllegalOrder,
    Pegging,
    PeggingResult,
    PlayedCard,
    score_pegging,
)
from scoring.series import IllegalPlay, SeriesScore, score_series, series_points

__all__ = [
    "DEALER",
    "PONE",
    "IllegalOrder",
    "IllegalPlay",
    "Pegging",
    "PeggingResult",
    "PlayResult",
    "PlayedCard",
    "SeriesScore",
    "other",
    "play_result",
    "score_pegging",
    "score_play",
    "score_series",
    "series_points",
]


@dataclass(frozen=True, slots=True)
class PlayResult:
    """Every card of the play in order, and each player's pegging total."""

    plays: tuple[PlayedCard, ...]
    pone_points: int
    dealer_points: int


def other(player: str) -> str:
    return DEALER if player == PONE else PONE


def score_play(
    pone_hand: str | Sequence[str | Card],
    dealer_hand: str | Sequence[str | Card],
    plays: str | Sequence[str | Card],
) -> PlayResult:
    """Check and score a whole play: both four-card hands and the eight cards in order laid."""
    return _two_players(score_pegging((pone_hand, dealer_hand), plays))


def _two_players(result: PeggingResult) -> PlayResult:
    pone, dealer = result.points
    return PlayResult(plays=result.plays, pone_points=pone, dealer_points=dealer)


def play_result(plays: tuple[PlayedCard, ...]) -> PlayResult:
    """The result of a play from its cards as ``Pegging`` laid them."""
    return PlayResult(
        plays=plays,
        pone_points=sum(p.points for p in plays if p.player == PONE),
        dealer_points=sum(p.points for p in plays if p.player == DEALER),
    )
