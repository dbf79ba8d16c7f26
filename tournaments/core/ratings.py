"""Skill ratings from game results: OpenSkill's Plackett-Luce model, tuned for cribbage.

Terms:
- rating: a player's estimated skill ``mu`` and its uncertainty ``sigma`` (one standard
  deviation), after ``games`` rated games. Shown as ``mu`` with the band ``mu +- 2 sigma``.
- rated game: a game won at a table: a verified result with a winner and a loser. Sit-outs
  and administrative results (forfeits, no-shows) say nothing about skill and are not rated.
- skunk: ``RatingParams.skunk_as_two_wins`` decides whether a skunk counts as two wins in a
  row (a bigger win) or as one. The backtest (``bench/ratings.py``) chooses it: by default a
  skunk counts as two wins, which predicted a little better there (weaker players are
  skunked more often).
- team game: a doubles game, two partners against two (``RatedTeamGame``), rated by
  OpenSkill's team model: each team's skill is its partners' summed, and each partner's rating
  moves by their share of the team's surprise. Whether the site rates such games is the
  backtest's decision (``bench/ratings_doubles.py``; see ``services.ratings``).
- provisional: fewer than ``provisional_games`` rated games: the rating is shown marked and
  left out of leaderboards. 60 by default: in the backtest a rating only tracks true skill
  well (correlation at least sqrt(1/2)) after about 60 games. Sigma cannot tell, as with this
  ``beta`` it barely falls in a season.
- luck: a single game of cribbage is mostly luck (an expert beats an average player about 59%
  of the time), so the model's performance noise ``beta`` is 16 times OpenSkill's default;
  with the default the ratings overreact and predict worse than a coin flip. ``tau`` made no
  measurable difference and stays at the library's. These are the values the backtest chose.

Pure: plain data in and out, no database. The service loads games in play order and stores
what comes out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce

SYSTEM = "openskill-plackett-luce"


@dataclass(frozen=True)
class RatingParams:
    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 16 * 25.0 / 6.0  # 16x OpenSkill's default (see the module)
    tau: float = 25.0 / 300.0
    skunk_as_two_wins: bool = True
    provisional_games: int = 60


DEFAULT_PARAMS = RatingParams()


@dataclass(frozen=True)
class RatedGame:
    winner: int
    loser: int
    skunk: bool = False


@dataclass(frozen=True)
class RatedTeamGame:
    """A doubles game: the partners of the winning team beat those of the losing team."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    skunk: bool = False


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def low(self) -> float:
        return self.mu - 2 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + 2 * self.sigma

    def provisional(self, params: RatingParams = DEFAULT_PARAMS) -> bool:
        return self.games < params.provisional_games


class RatingBook:
    """Ratings kept up to date game by game (``apply``), from ``start`` ratings if given."""

    def __init__(
        self, params: RatingParams = DEFAULT_PARAMS, start: dict[int, Rating] | None = None
    ):
        self.params = params
        self.model = PlackettLuce(
            mu=params.mu, sigma=params.sigma, beta=params.beta, tau=params.tau
        )
        self._ratings = {
            player: (self.model.rating(mu=r.mu, sigma=r.sigma), r.games)
            for player, r in (start or {}).items()
        }

    def _get(self, player: int):
        found = self._ratings.get(player)
        return found if found is not None else (self.model.rating(), 0)

    def apply(self, game: RatedGame | RatedTeamGame) -> None:
        if isinstance(game, RatedTeamGame):
            self._apply_team(game)
            return
        (winner, won), (loser, lost) = self._get(game.winner), self._get(game.loser)
        for _ in range(2 if game.skunk and self.params.skunk_as_two_wins else 1):
            [[winner], [loser]] = self.model.rate([[winner], [loser]])
        self._ratings[game.winner] = (winner, won + 1)
        self._ratings[game.loser] = (loser, lost + 1)

    def _apply_team(self, game: RatedTeamGame) -> None:
        winners = [self._get(player) for player in game.winners]
        losers = [self._get(player) for player in game.losers]
        teams = [[rating for rating, _ in winners], [rating for rating, _ in losers]]
        for _ in range(2 if game.skunk and self.params.skunk_as_two_wins else 1):
            teams = self.model.rate(teams)
        for players, before, after in (
            (game.winners, winners, teams[0]),
            (game.losers, losers, teams[1]),
        ):
            for player, (_, games), rating in zip(players, before, after, strict=True):
                self._ratings[player] = (rating, games + 1)

    def apply_all(self, games: Iterable[RatedGame | RatedTeamGame]) -> None:
        for game in games:
            self.apply(game)

    def rating(self, player: int) -> Rating:
        found, games = self._get(player)
        return Rating(found.mu, found.sigma, games)

    def ratings(self) -> dict[int, Rating]:
        return {player: self.rating(player) for player in self._ratings}

    def win_probability(self, player: int, opponent: int) -> float:
        """The chance ``player`` beats ``opponent`` in one game, by the model."""
        a, b = self._get(player)[0], self._get(opponent)[0]
        return self.model.predict_win([[a], [b]])[0]

    def team_win_probability(self, team: tuple[int, ...], opponents: tuple[int, ...]) -> float:
        """The chance the partners ``team`` beat the partners ``opponents`` in one game."""
        sides = [[self._get(p)[0] for p in team], [self._get(p)[0] for p in opponents]]
        return self.model.predict_win(sides)[0]


def win_probability(a: Rating, b: Rating, params: RatingParams = DEFAULT_PARAMS) -> float:
    """The chance a player rated ``a`` beats one rated ``b`` in one game."""
    book = RatingBook(params, {1: a, 2: b})
    return book.win_probability(1, 2)
