"""Bounds on honest scores, for checking what players report.

Terms:
- show score: what a hand or the crib scores with the starter (``scoring.hand``).
- pegging: points scored in the play (``scoring.play``), including go and last card.
- per card: everything one laid card pegs (pairs, runs, fifteen or thirty-one, go or last).
- per deal: everything one player pegs in one play of eight cards.

The figures and where they come from:
- ``POSSIBLE_SHOW_SCORES``: 0..29 except 19, 25, 26 and 27. The exhaustive enumeration of
  all 12,994,800 (hand, starter) pairs (``scoring.exhaustive``) finds exactly these totals,
  both as hand and as crib; the tests check the set against it.
- ``MAX_CARD_PEGGING = 15``. A card's points are at most: pairs 12 (the fourth of a rank in
  a row), or a run of at most 7 (a run of eight needs A-8, 36 pips), never both (a run needs
  its last two cards to differ); plus 2 for fifteen or thirty-one (one or the other); plus 1
  for go or last card, which a thirty-one never gets. So 12 + 2 + 1 = 15 at most, and it
  happens: pone 10 10 2 2, dealer 10 7 2 2, played 10 10 10 (go) 7 2 2 2 2 - the last two
  makes fifteen, four of a kind and last card (``CARD_WITNESS``).
- ``MAX_PEGGING_PONE = 24`` and ``MAX_PEGGING_DEALER = 30`` per deal, found by the exhaustive
  search ``max_pegging()`` over every legal play of every pair of hands, with the opponent
  cooperating, so no real play can peg more (five to ten minutes in CPython for four cards
  each; ``max_pegging(1)`` and ``max_pegging(2)`` take a second and the tests check them
  against brute force over every legal play). Plays that reach the maxima are
  ``PONE_WITNESS`` and ``DEALER_WITNESS``: the pone pegs 24 with 4 5 5 5 against 6 5 7 7
  (fifteen and a run, then three and four of a kind, and a go), the dealer 30 with 7 7 4 4
  against 7 7 4 4 (four of a kind twice, with a go and the last card).

The search: a position is the count, the scoring tail of the series (the cards that can
still be part of a pair or run), whose card was last, cards left per player, how many of
each rank are used, and per player a pip floor. Saying go claims that every card still held
is too big for the count; the claim is kept as that floor, so every card the player lays
later must respect it. Positions repeat a lot, so each is solved once (memoised).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from scoring.cards import DECK, Card
from scoring.play import DEALER, PONE, series_points

POSSIBLE_SHOW_SCORES: frozenset[int] = frozenset(range(30)) - {19, 25, 26, 27}
MAX_SHOW_SCORE = 29
MAX_CARD_PEGGING = 15
MAX_PEGGING_PONE = 24
MAX_PEGGING_DEALER = 30
MAX_PEGGING_PER_DEAL = max(MAX_PEGGING_PONE, MAX_PEGGING_DEALER)

# (pone's hand, dealer's hand, the play) reaching each maximum.
CARD_WITNESS = ("10C 10D 2C 2D", "10H 7C 2H 2S", "10C 10H 10D 7C 2C 2H 2D 2S")
PONE_WITNESS = ("4C 5C 5D 5H", "6C 5S 7C 7D", "4C 6C 5C 5S 5D 5H 7C 7D")
DEALER_WITNESS = ("7C 7D 4C 4D", "7H 7S 4H 4S", "7C 7H 7D 7S 4C 4H 4D 4S")


def is_possible_show_score(points: int) -> bool:
    """Whether a hand or crib can score exactly ``points``."""
    return points in POSSIBLE_SHOW_SCORES


def max_pegging(cards_each: int = 4, ranks: Iterable[int] = range(1, 14)) -> tuple[int, int]:
    """``(most the pone, most the dealer)`` can peg in one play, by exhaustive search over
    hands of ``cards_each`` cards drawn from ``ranks`` (smaller cases are for testing)."""
    allowed = frozenset(ranks)
    return tuple(  # type: ignore[return-value]
        _PeggingSearch(cards_each, player, allowed).best() for player in (PONE, DEALER)
    )


_IMPOSSIBLE = -(10**6)
_PIP = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_RANK_CARD: dict[int, Card] = {card.rank: card for card in DECK if card.suit == "C"}
_PLAYERS = (PONE, DEALER)

Tail = tuple[int, ...]
Pair = tuple[int, int]


def _extend_tail(tail: Tail, rank: int) -> Tail:
    """The scoring tail after ``rank``: the shortest suffix of the series holding both the
    streak of equal ranks at its end and the longest suffix of distinct ranks (a pair needs
    the first, a run cannot reach past a repeated rank)."""
    cards = (*tail, rank)
    streak = 1
    while streak < len(cards) and cards[-1 - streak] == rank:
        streak += 1
    distinct = 1
    while distinct < len(cards) and cards[-1 - distinct] not in cards[-distinct:]:
        distinct += 1
    return cards[-max(streak, distinct) :]


@cache
def _card_points(ranks: Tail, count: int) -> int:
    """What the last of ``ranks`` pegs in the series, by the engine's own rule."""
    return series_points(tuple(_RANK_CARD[rank] for rank in ranks), count).points


class _PeggingSearch:
    """Most points ``scorer`` can peg; see the module docstring. Players are 0 pone, 1 dealer."""

    def __init__(self, cards_each: int, scorer: str, ranks: frozenset[int]) -> None:
        self.cards_each = cards_each
        self.scorer = _PLAYERS.index(scorer)
        self.ranks = ranks
        self.after_memo: dict[tuple[object, ...], int] = {}
        self.series_memo: dict[tuple[object, ...], int] = {}

    def best(self) -> int:
        n = self.cards_each
        # Ranks left out count as used up, so the search never lays them.
        used = tuple(0 if rank in self.ranks else 4 for rank in range(1, 14))
        return self._series(0, (n, n), (0, 0), used)

    def _options(self, player: int, count: int, floors: Pair, used: Tail) -> list[int]:
        room = 31 - count
        return [r for r in range(1, 14) if used[r - 1] < 4 and floors[player] <= _PIP[r] <= room]

    def _feasible(self, left: Pair, floors: Pair, used: Tail) -> bool:
        """Whether each player can still be holding cards that respect their floor (a floor
        of f pips allows ranks f..K; with no floor some rank is always left)."""
        return all(
            not left[p] or not floors[p] or any(used[r - 1] < 4 for r in range(floors[p], 14))
            for p in (0, 1)
        )

    def _lay(self, count: int, tail: Tail, player: int, left: Pair, floors: Pair, used: Tail,
             rank: int) -> int:  # fmt: skip
        held = (left[0] - (player == 0), left[1] - (player == 1))
        still = held[0] + held[1]
        counts = list(used)
        counts[rank - 1] += 1
        if still < 4:
            # A rank can only run short if fewer copies remain than cards still to be laid.
            floor = 4 - still
            counts = [n if n > floor else floor for n in counts]
        count += _PIP[rank]
        value = self._after(count, _extend_tail(tail, rank), player, held, floors, tuple(counts))
        if value == _IMPOSSIBLE or player != self.scorer:
            return value
        return value + _card_points((*tail, rank), count)

    def _after(self, count: int, tail: Tail, player: int, left: Pair, floors: Pair,
               used: Tail) -> int:  # fmt: skip
        """Best future points once ``player`` has laid the last card of ``tail``."""
        key = (count, tail, player, left, floors, used)
        if key not in self.after_memo:
            self.after_memo[key] = self._solve_after(count, tail, player, left, floors, used)
        return self.after_memo[key]

    def _solve_after(self, count: int, tail: Tail, player: int, left: Pair, floors: Pair,
                     used: Tail) -> int:  # fmt: skip
        if not self._feasible(left, floors, used):
            return _IMPOSSIBLE
        opponent = 1 - player
        if count == 31:
            return self._series(opponent if left[opponent] else player, left, floors, used)
        best = _IMPOSSIBLE
        for rank in self._options(opponent, count, floors, used) if left[opponent] else ():
            best = max(best, self._lay(count, tail, opponent, left, floors, used, rank))
        floors = self._say_go(opponent, count, left, floors)
        if floors is None or not self._feasible(left, floors, used):
            return best
        for rank in self._options(player, count, floors, used) if left[player] else ():
            best = max(best, self._lay(count, tail, player, left, floors, used, rank))
        floors = self._say_go(player, count, left, floors)
        if floors is None or not self._feasible(left, floors, used):
            return best
        go = int(player == self.scorer)
        if not left[0] and not left[1]:
            return max(best, go)
        leader = opponent if left[opponent] else player
        return max(best, go + self._series(leader, left, floors, used))

    def _say_go(self, player: int, count: int, left: Pair, floors: Pair) -> Pair | None:
        """Floors after ``player`` says go, or None when some card of theirs would fit."""
        if not left[player]:
            return floors
        if 32 - count > 10:
            return None
        raised = list(floors)
        raised[player] = max(raised[player], 32 - count)
        return raised[0], raised[1]

    def _series(self, leader: int, left: Pair, floors: Pair, used: Tail) -> int:
        """Best future points when ``leader`` leads a new series (none once all are laid)."""
        if not left[0] and not left[1]:
            return 0
        key = (leader, left, floors, used)
        if key not in self.series_memo:
            self.series_memo[key] = max(
                (
                    self._lay(0, (), leader, left, floors, used, rank)
                    for rank in self._options(leader, 0, floors, used)
                ),
                default=_IMPOSSIBLE,
            )
        return self.series_memo[key]
