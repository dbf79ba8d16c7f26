"""A second implementation of the play for 2, 3 or 4 seats, written from the domain page
("The play" and "Three, four and partners") without using scoring.pegging, scoring.series or
scoring.play. The tests compare it with ``score_pegging``.

It differs in shape on purpose: goes are resolved lazily (only when the next card is laid,
walking round the table from the seat whose turn it nominally is), the series' points are
found by brute force (every tail of the series tried for a run), and a series ending at 31
is just a series that nobody can add to.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.cards import Card


@dataclass
class Laid:
    seat: int
    count: int
    points: int


@dataclass
class Refused:
    position: int
    rule: str  # the rule names of scoring.pegging, spelt out here again


def pips(card: Card) -> int:
    return min(card.rank, 10)


def card_points(series: list[Card], count: int) -> int:
    """Points for the last card of ``series`` (fifteen, 31, pairs, runs)."""
    points = 2 if count in (15, 31) else 0
    same = 0
    for card in reversed(series):
        if card.rank != series[-1].rank:
            break
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for length in range(len(series), 2, -1):
        ranks = sorted(card.rank for card in series[-length:])
        if all(b - a == 1 for a, b in zip(ranks, ranks[1:], strict=False)):
            return points + length
    return points


class Table:
    def __init__(self, hands: list[list[Card]]) -> None:
        self.hands = [list(hand) for hand in hands]
        self.seats = len(hands)
        self.count = 0
        self.series: list[Card] = []
        self.nominal = 0  # the next seat in rotation, before goes are taken into account
        self.last: int | None = None
        self.laid: list[Laid] = []

    def fits(self, seat: int) -> bool:
        return any(self.count + pips(card) <= 31 for card in self.hands[seat])

    def to_play(self) -> int:
        """The seat that must lay the next card, closing the series first if nobody can."""
        for step in range(self.seats):
            seat = (self.nominal + step) % self.seats
            if self.fits(seat):
                return seat
        # Everyone said go (or the count is 31): the series is over.
        if self.count < 31:
            self.laid[-1].points += 1
        self.count = 0
        self.series = []
        for step in range(1, self.seats + 1):
            seat = (self.last + step) % self.seats
            if self.hands[seat]:
                self.nominal = seat
                return seat
        raise AssertionError("no cards left")

    def lay(self, card: Card) -> str | None:
        """Lay ``card``; the name of the rule it breaks, or None."""
        owner = next((s for s in range(self.seats) if card in self.hands[s]), None)
        if owner is None:
            return "not in hand"
        seat = self.to_play()
        if owner != seat:
            if self.series and not self.fits(owner):
                return "had to say go"
            return "out of turn"
        if self.count + pips(card) > 31:
            return "past 31"
        self.hands[seat].remove(card)
        self.count += pips(card)
        self.series.append(card)
        self.laid.append(Laid(seat, self.count, card_points(self.series, self.count)))
        self.last = seat
        self.nominal = (seat + 1) % self.seats
        return None

    def finish(self) -> None:
        if self.count != 31:
            self.laid[-1].points += 1  # the last card


def reference_play(hands: list[list[Card]], plays: list[Card]) -> list[Laid] | Refused:
    table = Table(hands)
    for position, card in enumerate(plays):
        rule = table.lay(card)
        if rule is not None:
            return Refused(position, rule)
    table.finish()
    return table.laid


def random_legal_order(hands: list[list[Card]], rng) -> list[Card]:  # noqa: ANN001
    """A legal play chosen at random, laid through the reference table."""
    table = Table(hands)
    order = []
    while any(table.hands):
        seat = table.to_play()
        options = [c for c in table.hands[seat] if table.count + pips(c) <= 31]
        card = rng.choice(options)
        assert table.lay(card) is None
        order.append(card)
    return order
