"""Whole games for three or four computer players, reproducible from a seed.

Terms (see ``scoring.table_deal`` for styles, seats and sides):
- player: 0, 1, 2 (three-handed) or 0 to 3 (four seats). Players sit in that order round the
  table, so the player left of player p is p + 1; with four, players 0 and 2 are partners
  against players 1 and 3 (team 0 and team 1), and a team's points are one running total.
- the deal passes left: after player d deals, player d + 1 deals. In a deal, seat s (in the
  order of play, the dealer last) is player ``dealer + 1 + s``.
- first dealer: every player cuts a card from the pack; the lowest rank deals, and when the
  lowest rank is shared all cut again.

Strategy (deterministic given the cards; simple and fast), followed by an expert always and by
a player of lower skill (``scoring.simulate``'s skill) with that chance at each decision, the
other times a uniformly random legal choice drawn from the game's own decision stream (experts
draw nothing from it, so a game of experts is the same whether skills are given or not):
- keep: the four cards with the best expected hand value over the starters the player cannot
  see (see ``scoring.simulate``); ties go to the first in rank order. The discards are the
  rest. In Canadian Doubles a player with ten cards keeps the best four, passes the best four
  of the six left to the partner and discards the last two.
- play: ``scoring.simulate.choose_card``, the card that pegs most at once.

Every deal is a ``TableDealRecord`` scored by the engine; replaying one through
``score_table_deal`` re-checks the play from the cards alone and must give the same result.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from operator import attrgetter, mul

from scoring.cards import DECK, JACK, SUITS, Card
from scoring.deal import DEFAULT_TARGET
from scoring.pegging import Pegging, pegging_result
from scoring.simulate import EXPERT, Player
from scoring.table_deal import (
    CANADIAN_DOUBLES,
    SHAPES,
    THREE_HANDED,
    TableDealRecord,
    TableDealResult,
    sides_of,
    table_deal_result,
)
from scoring.tables import keep_table

_BY_RANK = attrgetter("rank")


@dataclass(frozen=True)
class SimulatedTableGame:
    """A finished game: every deal with its result, and the final score of each team (four
    seats) or player (three)."""

    seed: int
    style: str
    target: int
    first_dealer: int
    deals: tuple[TableDealRecord, ...]
    results: tuple[TableDealResult, ...]
    final_scores: tuple[int, ...]
    winner: int
    skills: tuple[float, ...] = ()  # by player; () for experts all round

    @property
    def players(self) -> int:
        return SHAPES[self.style][0]

    def dealer_of(self, deal_no: int) -> int:
        """The player who dealt deal ``deal_no`` (counted from 0)."""
        return (self.first_dealer + deal_no) % self.players

    def player_at(self, deal_no: int, seat: int) -> int:
        """The player in ``seat`` of deal ``deal_no``."""
        return (self.dealer_of(deal_no) + 1 + seat) % self.players


def keep_value(keep: Sequence[Card], seen: Sequence[Card]) -> int:
    """The show score of ``keep`` summed over every starter not in ``seen`` (the cards the
    player holds or has seen), flush and nobs included."""
    ranks = tuple(sorted(card.rank for card in keep))
    seen_ranks = [card.rank for card in seen]
    ranks_left = [4 - seen_ranks.count(rank) for rank in range(1, 14)]
    total = sum(map(mul, ranks_left, keep_table()[ranks]))
    suits_left = {suit: 13 - sum(card.suit == suit for card in seen) for suit in SUITS}
    if len({card.suit for card in keep}) == 1:
        total += 4 * sum(ranks_left) + suits_left[keep[0].suit]
    total += sum(suits_left[card.suit] for card in keep if card.rank == JACK)
    return total


def best_keep(cards: Sequence[Card], seen: Sequence[Card]) -> tuple[Card, ...]:
    """The four of ``cards`` with the best ``keep_value``; the first in rank order on ties."""
    ordered = sorted(cards, key=_BY_RANK)
    return max(combinations(ordered, 4), key=lambda keep: keep_value(keep, seen))


def _cut_for_deal(rng: random.Random, players: int) -> int:
    while True:
        cut = rng.sample(DECK, players)
        low = min(card.rank for card in cut)
        if [card.rank for card in cut].count(low) == 1:
            return next(p for p, card in enumerate(cut) if card.rank == low)


def _keep(player: Player, cards: Sequence[Card], seen: Sequence[Card]) -> tuple[Card, ...]:
    """The four of ``cards`` ``player`` keeps (or passes): the best, or four at random."""
    if player.follows_strategy():
        return best_keep(cards, seen)
    return tuple(player.decisions.sample(list(cards), 4))


def table_deal_once(
    rng: random.Random,
    style: str,
    scores_before: Sequence[int],
    target: int,
    seated: Sequence[Player] | None = None,
) -> tuple[TableDealRecord, TableDealResult]:
    """Deal, lay away, cut and play one deal of ``style``; ``scores_before`` per side;
    ``seated`` the player in each seat, in the order of play (experts when not given)."""
    seats, dealt_sizes, _, _ = SHAPES[style]
    seated = seated or (EXPERT,) * seats
    drawn = rng.sample(DECK, sum(dealt_sizes) + 1 + (style == THREE_HANDED))
    dealt, at = [], 0
    for size in dealt_sizes:
        dealt.append(tuple(drawn[at : at + size]))
        at += size
    crib_card = drawn[at] if style == THREE_HANDED else None
    starter = drawn[-1]
    discards, passes = [], []
    for seat, cards in enumerate(dealt):
        if not cards:
            discards.append(())
            passes.append(())
            continue
        keep = _keep(seated[seat], cards, cards)
        rest = [card for card in cards if card not in keep]
        passed = _keep(seated[seat], rest, cards) if style == CANADIAN_DOUBLES else ()
        passes.append(passed)
        discards.append(tuple(card for card in rest if card not in passed))
    unplayed = TableDealRecord(style, tuple(dealt), tuple(discards), starter, (), crib_card,
                               tuple(passes), tuple(scores_before), target)  # fmt: skip
    state = Pegging(*(unplayed.held(seat) for seat in range(seats)))
    laid = []
    while not state.finished:
        laid.append(state.play(seated[state.seat].card(state)))
    record = replace(unplayed, plays=tuple(p.card for p in laid))
    return record, table_deal_result(record, pegging_result(tuple(laid), seats))


def simulate_table_game(
    seed: int,
    *,
    style: str = THREE_HANDED,
    target: int = DEFAULT_TARGET,
    skills: Sequence[float] | None = None,
) -> SimulatedTableGame:
    """One game of ``style`` from ``seed`` to ``target``, ``skills`` by player (experts when not
    given); the same seed and skills always give the same game."""
    if style not in SHAPES:
        raise ValueError(f"unknown style {style!r}; one of {', '.join(SHAPES)}")
    rng = random.Random(f"{style} {seed}")
    players = SHAPES[style][0]
    if skills is not None and len(skills) != players:
        raise ValueError(
            f"{style} seats {players} players: give {players} skills, not {len(skills)}"
        )
    decisions = random.Random(f"decisions {style} {seed}")
    people = tuple(Player(skill, decisions) for skill in skills) if skills else (EXPERT,) * players
    sides = sides_of(players)
    first_dealer = dealer = _cut_for_deal(rng, players)
    scores = [0] * sides
    deals, results = [], []
    while True:
        # Record side r holds seat r, which is player dealer + 1 + r: their team or self.
        side_at = [(dealer + 1 + side) % sides for side in range(sides)]
        seated = [people[(dealer + 1 + seat) % players] for seat in range(players)]
        record, result = table_deal_once(rng, style, [scores[s] for s in side_at], target, seated)
        deals.append(record)
        results.append(result)
        for side, score in enumerate(result.scores):
            scores[side_at[side]] = score
        if result.game_over:
            break
        dealer = (dealer + 1) % players
    return SimulatedTableGame(
        seed=seed,
        style=style,
        target=target,
        first_dealer=first_dealer,
        deals=tuple(deals),
        results=tuple(results),
        final_scores=tuple(scores),
        winner=scores.index(target),
        skills=tuple(skills) if skills else (),
    )
