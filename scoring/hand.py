"""The show: scoring a hand or the crib with the starter.

Terms:
- hand: the four cards a player keeps; crib: the dealer's four extra cards. Either scores
  with the starter (the cut card) as a fifth card.
- combination: one scoring group, e.g. a fifteen (2), a pair (2), a run (1 per card),
  a flush (4 or 5), nobs (1: a jack in the hand of the starter's suit).
- flush: in a hand, the four hand cards of one suit (4, or 5 when the starter matches);
  in the crib only all five cards of one suit count (5).
- spoken count: the count as a player says it aloud, "fifteen two, fifteen four, a pair is
  six, and nobs is seven".

Rank points (fifteens, pairs, runs) come from ``scoring.tables``; flush and nobs are added
from the suits. Nothing is cached: every caller counts a hand once (a ruling, an award, the
command line), and a cache on the inputs made hands it had not seen twice as slow (issue 15).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import NamedTuple

from scoring.cards import JACK, Card, CardError, format_cards, parse_card, parse_cards
from scoring.tables import entry_by_ranks

_BY_RANK = attrgetter("rank")
_WORDS_TO_TWENTY = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
_NUMBER_WORDS = tuple(_WORDS_TO_TWENTY.split())


def number_words(n: int) -> str:
    """``n`` in words, as counts are spoken ("twenty-nine")."""
    if n <= 20:
        return _NUMBER_WORDS[n]
    tens, units = divmod(n, 10)
    word = {2: "twenty", 3: "thirty"}[tens]
    return word if units == 0 else f"{word}-{_NUMBER_WORDS[units]}"


# The results are NamedTuples rather than frozen dataclasses: both are immutable, but a
# NamedTuple is built several times faster, and score_hand builds one per scoring group.
class Combination(NamedTuple):
    """One scoring group: ``kind`` is "fifteen", "pair", "run", "flush" or "nobs"."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    def __str__(self) -> str:
        return f"{self.kind} {format_cards(self.cards)} for {self.points}"


class HandScore(NamedTuple):
    """The score of one hand or crib: the total, points by category, and the combinations."""

    total: int
    fifteens: int
    pairs: int
    runs: int
    flush: int
    nobs: int
    combinations: tuple[Combination, ...]
    hand: tuple[Card, ...]
    starter: Card
    crib: bool

    def spoken(self) -> str:
        """The count as spoken aloud (see ``spoken_count``)."""
        return spoken_count(self)


def score_hand(
    hand: str | Sequence[str | Card], starter: str | Card, *, crib: bool = False
) -> HandScore:
    """Score four cards with the starter; ``crib=True`` applies the crib's flush rule.

    Raises ``CardError`` for a bad token, a count other than four, or a repeated card.
    """
    cards = parse_cards(hand)
    if len(cards) != 4:
        raise CardError(f"a hand has 4 cards, not {len(cards)}: {format_cards(cards)}")
    cut = parse_card(starter)
    if cut is cards[0] or cut is cards[1] or cut is cards[2] or cut is cards[3]:
        raise CardError(f"duplicate card: {cut} is the starter and in the hand")
    return score_cards(cards, cut, bool(crib))


def score_cards(hand: tuple[Card, ...], starter: Card, crib: bool) -> HandScore:
    """Score four distinct interned cards and a starter not among them (no validation)."""
    five = sorted((*hand, starter), key=_BY_RANK)
    ranks = (five[0].rank, five[1].rank, five[2].rank, five[3].rank, five[4].rank)
    entry = entry_by_ranks()[ranks]
    combinations = [Combination(kind, pick(five), points) for kind, _, points, pick in entry.groups]
    flush = flush_points(hand, starter, crib)
    if flush:
        combinations.append(Combination("flush", (*hand, starter) if flush == 5 else hand, flush))
    nobs = 0
    for card in hand:
        if card.rank == JACK and card.suit == starter.suit:
            nobs = 1
            combinations.append(Combination("nobs", (card, starter), 1))
    total = entry.fifteens + entry.pairs + entry.runs + flush + nobs
    return HandScore(
        total, entry.fifteens, entry.pairs, entry.runs, flush, nobs, tuple(combinations),
        hand, starter, crib,
    )  # fmt: skip


def flush_points(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    """Flush points: hand 4 (5 with the starter's suit); crib only 5 for all five cards."""
    suit = hand[0].suit
    if hand[1].suit != suit or hand[2].suit != suit or hand[3].suit != suit:
        return 0
    if starter.suit == suit:
        return 5
    return 0 if crib else 4


_SAME_RANK_PHRASES = {2: "a pair", 6: "three of a kind", 12: "four of a kind"}


def _phrases(score: HandScore) -> list[tuple[str, int]]:
    """Spoken items in counting order (fifteens, pairs, runs, flush, nobs) with their points."""
    items = [("fifteen", 2)] * (score.fifteens // 2)
    same_rank: dict[int, int] = {}
    for combo in score.combinations:
        if combo.kind == "pair":
            same_rank[combo.cards[0].rank] = same_rank.get(combo.cards[0].rank, 0) + 2
    items += [(_SAME_RANK_PHRASES[points], points) for points in same_rank.values()]
    runs = [combo.points for combo in score.combinations if combo.kind == "run"]
    items += [
        (f"{'a' if n == 0 else 'another'} run of {number_words(length)}", length)
        for n, length in enumerate(runs)
    ]
    if score.flush:
        items.append(("a flush", score.flush))
    if score.nobs:
        items.append(("nobs", score.nobs))
    return items


def spoken_count(score: HandScore) -> str:
    """The count as a player says it: "fifteen two, fifteen four, a pair is six, and nobs is
    seven". A hand with no points is spoken "nineteen" by players; this says "no score"."""
    items = _phrases(score)
    if not items:
        return "no score"
    spoken: list[str] = []
    running = 0
    for label, points in items:
        running += points
        joiner = " " if label == "fifteen" else " is "
        spoken.append(f"{label}{joiner}{number_words(running)}")
    if len(spoken) > 1:
        spoken[-1] = "and " + spoken[-1]
    return ", ".join(spoken)
