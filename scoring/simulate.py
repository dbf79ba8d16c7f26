"""Whole games between two computer players of chosen skill, reproducible from a seed.

Terms:
- player 0 and player 1: the two sides; ``first_dealer`` says who dealt first, then the deal
  alternates.
- skill: the chance, from 0 to 1, that a player makes the strategy's choice (below) at each
  decision: the discard, and each card laid in the play when more than one can be. Otherwise
  the player picks uniformly at random among the legal choices (two of the six cards to the
  crib; any card that can be laid), which may happen to be the strategy's choice too. Skill
  1.0 (``EXPERT_SKILL``, the player ``EXPERT``) always follows the strategy; 0.0 always
  plays at random.
- average skill (``AVERAGE_SKILL``): the skill an expert beats about 59% of the time, which is
  how often an expert beats an average club player (see ``bench/ratings.py``).
- keep: the four cards a player holds after discarding two of the six dealt to the crib.
- expected hand value: the mean show score of a keep over the 46 starters the player cannot
  see (52 cards less the six in hand), flush and nobs included.
- crib value of a discard: what the two discarded cards score on their own, 2 for a pair and
  2 if their pips make fifteen.

Strategy (deliberately simple, deterministic and fast):
- discard: keep the four cards with the best expected hand value, plus the crib value of
  the discard when the crib is the player's own (dealer) and minus it when it is the
  opponent's (pone); ties go to the first discard in rank order.
- play: among the cards that can legally be laid, the one that pegs most at once (go and
  last-card points aside); ties go to a card that does not leave the count at 5 or 21
  (where a ten-card pegs fifteen or thirty-one), then to the highest rank, then suit order.
  When no card can be laid the player says go (``Pegging`` handles it).
- first dealer: both players cut a card from the pack; the lower rank deals, equal ranks
  cut again.

Random numbers: the cards come from ``random.Random(seed)`` exactly as they did before
players had a skill, so games between experts are unchanged; the players' random choices come
from a second stream of their own, seeded from the same seed. The same seed therefore deals
the same cards whatever the skills, and a game is the same whenever seed and skills are.

Each deal is scored by the engine (``Pegging`` for the play as it is laid, then
``deal_result`` for the counting order and the target), so the simulator has no rules of its
own; replaying a deal record through ``score_deal`` re-checks the play from the cards alone
and must give the same result.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from operator import attrgetter, mul

from scoring.cards import DECK, JACK, SUITS, Card
from scoring.deal import DEFAULT_TARGET, DealRecord, DealResult, deal_result
from scoring.play import PONE, Pegging, PlayResult, play_result
from scoring.tables import keep_table

STARTERS_UNSEEN = 46
# Each way to split six cards: (positions kept, positions discarded).
_SPLITS = tuple(
    (tuple(i for i in range(6) if i not in pair), pair) for pair in combinations(range(6), 2)
)
_BY_RANK = attrgetter("rank")
EXPERT_SKILL = 1.0
# Measured: an expert beat skill 0.885 in 58.9% of 40,000 games (95% interval 58.4% to 59.3%);
# 0.88 gave 59.7% (20,000 games), 0.89 58.6% (60,000). bench/ratings.py re-checks it.
AVERAGE_SKILL = 0.885


@dataclass(frozen=True)
class SimulatedGame:
    """A finished game: every deal with its scored result, and the final scores by player."""

    seed: int
    target: int
    first_dealer: int
    deals: tuple[DealRecord, ...]
    results: tuple[DealResult, ...]
    final_scores: tuple[int, int]
    winner: int
    skills: tuple[float, float] = (EXPERT_SKILL, EXPERT_SKILL)

    def dealer_of(self, deal_no: int) -> int:
        """The player (0 or 1) who dealt deal ``deal_no`` (counted from 0)."""
        return (self.first_dealer + deal_no) % 2


def crib_value(discards: Sequence[Card]) -> int:
    """What two discards score on their own: 2 for a pair, 2 for fifteen."""
    first, second = discards
    return 2 * (first.rank == second.rank) + 2 * (first.pip + second.pip == 15)


def keep_totals(six: Sequence[Card]) -> list[tuple[tuple[Card, ...], tuple[Card, Card], int]]:
    """Each way to keep four of ``six``: ``(keep, discards, total)``, where total is the sum
    of the keep's show score over the 46 starters not in ``six`` (46 times its expected
    value, kept whole so comparisons are exact). In rank order of the six cards.

    Rank points come from the table by starter rank, weighted by how many of that rank are
    unseen; flush and nobs are counted per unseen starter suit, which is what scoring every
    starter with ``score_hand`` would give (the tests check it does).
    """
    cards = sorted(six, key=_BY_RANK)  # keeps taken in order are then already rank-sorted
    ranks = [card.rank for card in cards]
    ranks_left = [4 - ranks.count(rank) for rank in range(1, 14)]
    suits_left = {suit: 13 - sum(card.suit == suit for card in cards) for suit in SUITS}
    table = keep_table()
    totals = []
    for (a, b, c, d), (x, y) in _SPLITS:
        total = sum(map(mul, ranks_left, table[ranks[a], ranks[b], ranks[c], ranks[d]]))
        suit = cards[a].suit
        if cards[b].suit == suit and cards[c].suit == suit and cards[d].suit == suit:
            total += 4 * STARTERS_UNSEEN + suits_left[suit]  # 4 each, 5 with a matching cut
        for i in (a, b, c, d):
            if ranks[i] == JACK:
                total += suits_left[cards[i].suit]  # nobs with each unseen starter of its suit
        totals.append(((cards[a], cards[b], cards[c], cards[d]), (cards[x], cards[y]), total))
    return totals


def choose_discards(six: Sequence[Card], *, dealer: bool) -> tuple[Card, Card]:
    """The two cards the strategy lays away to the crib (see the module docstring)."""
    sign = STARTERS_UNSEEN if dealer else -STARTERS_UNSEEN

    def value(option: tuple[tuple[Card, ...], tuple[Card, Card], int]) -> int:
        return option[2] + sign * crib_value(option[1])

    return max(keep_totals(six), key=value)[1]  # max keeps the first of equal values


def choose_card(state: Pegging) -> Card:
    """The card the player to move lays (see the module docstring); it must have one."""

    def preference(card: Card) -> tuple[int, bool, int, int]:
        count = state.count + card.pip
        return (state.preview(card).points, count not in (5, 21), card.rank, card.index)

    options = state.playable(state.turn)
    return options[0] if len(options) == 1 else max(options, key=preference)


@dataclass(frozen=True)
class Player:
    """One side's decisions: the strategy's choice with probability ``skill``, otherwise a
    uniformly random legal one, drawn from ``decisions``."""

    skill: float = EXPERT_SKILL
    decisions: random.Random | None = None

    def __post_init__(self) -> None:
        if not 0.0 <= self.skill <= 1.0:
            raise ValueError(f"A skill is between 0 and 1, not {self.skill!r}.")
        if self.skill < 1.0 and self.decisions is None:
            raise ValueError("A player below skill 1 needs a random stream for its choices.")

    def follows_strategy(self) -> bool:
        # An expert draws nothing, so expert games use no random numbers for decisions.
        return self.skill >= 1.0 or self.decisions.random() < self.skill

    def discards(self, six: Sequence[Card], *, dealer: bool) -> tuple[Card, Card]:
        """The two cards this player lays away to the crib."""
        if self.follows_strategy():
            return choose_discards(six, dealer=dealer)
        first, second = sorted(self.decisions.sample(range(6), 2))
        return six[first], six[second]

    def card(self, state: Pegging) -> Card:
        """The card this player lays, being the player to move."""
        options = state.playable(state.turn)
        if len(options) == 1 or self.follows_strategy():
            return choose_card(state)
        return self.decisions.choice(options)


EXPERT = Player()


def play_out(
    pone: Sequence[Card], dealer: Sequence[Card], choose: Callable[[Pegging], Card] = choose_card
) -> PlayResult:
    """The play as ``choose`` lays it (the strategy by default), scored card by card."""
    state = Pegging(pone, dealer)
    laid = []
    while not state.finished:
        laid.append(state.play(choose(state)))
    return play_result(tuple(laid))


def _cut_for_deal(rng: random.Random) -> int:
    """Player 0 and player 1 each cut a card; the lower rank deals first."""
    while True:
        first, second = rng.sample(DECK, 2)
        if first.rank != second.rank:
            return 0 if first.rank < second.rank else 1


def deal_once(
    rng: random.Random,
    dealer_score: int,
    pone_score: int,
    target: int,
    players: tuple[Player, Player] = (EXPERT, EXPERT),
) -> tuple[DealRecord, PlayResult]:
    """Deal six each (pone first), discard, cut the starter and play: the deal's record and
    its play as laid. ``players`` are the pone and the dealer, in that order."""
    # Only the thirteen cards that come into play are drawn: the same as shuffling the pack,
    # dealing twelve and cutting one of the rest, for a quarter of the random numbers.
    drawn = rng.sample(DECK, 13)
    pone_six, dealer_six = drawn[0:12:2], drawn[1:12:2]
    pone_player, dealer_player = players
    pone_discards = pone_player.discards(pone_six, dealer=False)
    dealer_discards = dealer_player.discards(dealer_six, dealer=True)
    pone = [card for card in pone_six if card not in pone_discards]
    dealer = [card for card in dealer_six if card not in dealer_discards]

    def choose(state: Pegging) -> Card:
        return (pone_player if state.turn == PONE else dealer_player).card(state)

    play = play_out(pone, dealer, choose)
    record = DealRecord(
        dealer_hand=tuple(dealer_six),
        pone_hand=tuple(pone_six),
        dealer_discards=dealer_discards,
        pone_discards=pone_discards,
        starter=drawn[12],
        plays=tuple(laid.card for laid in play.plays),
        dealer_score_before=dealer_score,
        pone_score_before=pone_score,
        target=target,
    )
    return record, play


def simulate_game(
    seed: int,
    *,
    target: int = DEFAULT_TARGET,
    skills: tuple[float, float] = (EXPERT_SKILL, EXPERT_SKILL),
) -> SimulatedGame:
    """Play one game from ``seed`` to ``target`` between players 0 and 1 of ``skills``; the
    same seed and skills always give the same game."""
    rng = random.Random(seed)
    decisions = random.Random(f"decisions {seed}")
    players = tuple(Player(skill, decisions) for skill in skills)
    first_dealer = dealer = _cut_for_deal(rng)
    scores = [0, 0]
    deals: list[DealRecord] = []
    results: list[DealResult] = []
    while True:
        seated = (players[1 - dealer], players[dealer])
        record, play = deal_once(rng, scores[dealer], scores[1 - dealer], target, seated)
        result = deal_result(record, play)
        deals.append(record)
        results.append(result)
        scores[dealer], scores[1 - dealer] = result.dealer_score, result.pone_score
        if result.game_over:
            break
        dealer = 1 - dealer
    return SimulatedGame(
        seed=seed,
        target=target,
        first_dealer=first_dealer,
        deals=tuple(deals),
        results=tuple(results),
        final_scores=(scores[0], scores[1]),
        winner=0 if scores[0] == target else 1,
        skills=(skills[0], skills[1]),
    )


def simulate_games(
    count: int,
    *,
    first_seed: int = 0,
    target: int = DEFAULT_TARGET,
    skills: tuple[float, float] = (EXPERT_SKILL, EXPERT_SKILL),
) -> list[SimulatedGame]:
    """``count`` games with seeds ``first_seed``, ``first_seed + 1``, ..."""
    last = first_seed + count
    return [simulate_game(seed, target=target, skills=skills) for seed in range(first_seed, last)]
