"""One series of the play: the points the card just laid scores within it.

Terms:
- count: the running total of pips in the current series; it may never pass 31.
- series: the cards laid since the count was last reset to 0. Pairs and runs count only
  within a series, whoever laid the earlier cards (two, three or four seats alike).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.cards import Card, parse_cards

_SAME_RANK = {
    2: ("a pair for 2", 2),
    3: ("three of a kind for 6", 6),
    4: ("four of a kind for 12", 12),
}


class IllegalPlay(ValueError):
    """A play that breaks the rules; the message names the card and the rule."""


@dataclass(frozen=True, slots=True)
class SeriesScore:
    """Points the last card of a series scores, with a reason per scoring item."""

    points: int
    reasons: tuple[str, ...]


def series_points(series: Sequence[Card], count: int) -> SeriesScore:
    """What the last card of ``series`` scores, for parsed cards whose pips total ``count``
    (callers keep the count, so it is not summed again). ``score_series`` checks its input."""
    reasons: list[str] = []
    points = 0
    if count == 15 or count == 31:
        reasons.append("fifteen for 2" if count == 15 else "thirty-one for 2")
        points = 2
    last_rank = series[-1].rank
    same = 1
    while same < len(series) and series[-1 - same].rank == last_rank:
        same += 1
    if same > 1:
        reason, value = _SAME_RANK[same]
        reasons.append(reason)
        points += value
    else:  # the last two cards differ, so a run is possible
        run = _run_length(series)
        if run:
            reasons.append(f"a run of {run} for {run}")
            points += run
    return SeriesScore(points, tuple(reasons))


def _run_length(series: Sequence[Card]) -> int:
    """The longest run (3 or more) made by the last cards of ``series``, or 0. Walking back
    from the last card, the cards seen form a run when their ranks are distinct and span
    exactly as many ranks as there are cards; a repeated rank ends every longer run."""
    low = high = series[-1].rank
    seen = {low}
    best = 0
    for card in reversed(series[:-1]):
        rank = card.rank
        if rank in seen:
            break
        seen.add(rank)
        low, high = min(low, rank), max(high, rank)
        if len(seen) >= 3 and high - low == len(seen) - 1:
            best = len(seen)
    return best


def score_series(cards: str | Sequence[str | Card]) -> SeriesScore:
    """Points the last of ``cards`` (one series, in the order laid) scores: fifteen 2,
    thirty-one 2, pairs 2/6/12, runs one per card. No go or last-card point."""
    series = parse_cards(cards)
    if not series:
        raise IllegalPlay("a series needs at least one card")
    count = sum(card.pip for card in series)
    if count > 31:
        raise IllegalPlay(f"{series[-1]} makes the count {count}, above 31")
    return series_points(series, count)
