"""A deal for three or four seats, recorded and scored in the order points are pegged.

Terms (see also ``scoring.pegging`` for seats and the play):
- style: ``THREE_HANDED`` (three seats, each on their own: five cards each, one card from the
  pack straight to the crib, each seat discards one), ``FOUR_HANDED`` (four seats as partners:
  five cards each, each discards one) or ``CANADIAN_DOUBLES`` (four seats as partners: the
  dealer and seat 0, on the dealer's left, get ten cards each and the partners none; each of
  the two keeps four, passes four to their partner and discards two to the crib).
- seats are numbered in the order of play, the dealer last. Partners sit opposite: seats 0 and
  2 are side 0, seats 1 and 3 (the dealer and the dealer's partner) side 1. With three seats
  each seat is its own side.
- table deal record: everything needed to replay one deal: the cards each seat was dealt,
  discards, passes (Canadian Doubles), the crib card from the pack (three-handed), the starter,
  every card of the play in order, each side's score before the deal and the target.
- counting order: his heels (dealer), the play card by card, the shows from seat 0 round to
  the dealer, then the dealer's crib. The deal stops the moment a side reaches the target.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.cards import JACK, Card, CardError, format_cards, parse_card, parse_cards
from scoring.deal import DEFAULT_TARGET
from scoring.hand import HandScore, score_cards
from scoring.pegging import PeggingResult, score_pegging

THREE_HANDED = "three_handed"
FOUR_HANDED = "four_handed"
CANADIAN_DOUBLES = "canadian_doubles"
# style: (seats, cards dealt per seat, discards per seat, cards passed per seat)
SHAPES = {
    THREE_HANDED: (3, (5, 5, 5), (1, 1, 1), (0, 0, 0)),
    FOUR_HANDED: (4, (5, 5, 5, 5), (1, 1, 1, 1), (0, 0, 0, 0)),
    CANADIAN_DOUBLES: (4, (10, 0, 0, 10), (2, 0, 0, 2), (4, 0, 0, 4)),
}
STYLES = tuple(SHAPES)


def sides_of(seats: int) -> int:
    """How many sides ``seats`` seats make: three alone, four as two pairs of partners."""
    return 2 if seats == 4 else seats


def side_of(seat: int, seats: int) -> int:
    return seat % 2 if seats == 4 else seat


def _cards_per_seat(value: object) -> tuple[tuple[Card, ...], ...]:
    return tuple(parse_cards(cards) for cards in value)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class TableDealRecord:
    """One deal for three or four seats as it happened. Per-seat fields hold one group of
    cards per seat in seat order (empty for a seat that gets none); card text is accepted and
    stored as ``Card``s. ``passes[seat]`` is the hand that seat passed to its partner."""

    style: str
    dealt: tuple[tuple[Card, ...], ...]
    discards: tuple[tuple[Card, ...], ...]
    starter: Card
    plays: tuple[Card, ...]
    crib_card: Card | None = None
    passes: tuple[tuple[Card, ...], ...] = ()
    scores_before: tuple[int, ...] = ()
    target: int = DEFAULT_TARGET
    seats: int = field(init=False)

    def __post_init__(self) -> None:
        if self.style not in SHAPES:
            raise ValueError(f"unknown style {self.style!r}; one of {', '.join(STYLES)}")
        seats = SHAPES[self.style][0]
        object.__setattr__(self, "seats", seats)
        passes = self.passes or ((),) * seats
        scores = self.scores_before or (0,) * sides_of(seats)
        object.__setattr__(self, "dealt", _cards_per_seat(self.dealt))
        object.__setattr__(self, "discards", _cards_per_seat(self.discards))
        object.__setattr__(self, "passes", _cards_per_seat(passes))
        object.__setattr__(self, "scores_before", tuple(scores))
        object.__setattr__(self, "plays", parse_cards(self.plays))
        object.__setattr__(self, "starter", parse_card(self.starter))
        if self.crib_card is not None:
            object.__setattr__(self, "crib_card", parse_card(self.crib_card))
        self._check_cards()
        self._check_scores()

    def _check_cards(self) -> None:
        _, dealt, discards, passes = SHAPES[self.style]
        for name, sizes in (("dealt", dealt), ("discards", discards), ("passes", passes)):
            groups = getattr(self, name)
            if len(groups) != self.seats:
                raise CardError(f"{name} has {len(groups)} seats, not {self.seats}")
            for seat, (cards, size) in enumerate(zip(groups, sizes, strict=True)):
                if len(cards) != size:
                    raise CardError(f"{name} of seat {seat} has {len(cards)} cards, not {size}")
        for seat in range(self.seats):
            laid_away = (*self.discards[seat], *self.passes[seat])
            stray = [card for card in laid_away if card not in self.dealt[seat]]
            if stray:
                raise CardError(f"seat {seat}: {format_cards(stray)} not in the cards dealt")
            if len(set(laid_away)) != len(laid_away):
                raise CardError(f"seat {seat} both passes and discards {format_cards(laid_away)}")
        if (self.crib_card is None) != (self.style != THREE_HANDED):
            need = "needs" if self.style == THREE_HANDED else "has no"
            raise CardError(f"a {self.style.replace('_', '-')} deal {need} crib card from the pack")
        extra = (self.crib_card,) if self.crib_card else ()
        parse_cards((*(card for cards in self.dealt for card in cards), *extra, self.starter))

    def _check_scores(self) -> None:
        if self.target < 1:
            raise ValueError(f"target must be positive, not {self.target}")
        sides = sides_of(self.seats)
        if len(self.scores_before) != sides:
            raise ValueError(f"scores_before needs {sides} scores, one per side")
        for side, score in enumerate(self.scores_before):
            if not 0 <= score < self.target:
                raise ValueError(f"side {side}'s score must be 0..{self.target - 1}, not {score}")

    def held(self, seat: int) -> tuple[Card, ...]:
        """The four cards ``seat`` holds for the play and the show."""
        if self.style == CANADIAN_DOUBLES and not self.dealt[seat]:
            return self.passes[(seat + 2) % 4]  # the partner opposite passed them
        laid_away = (*self.discards[seat], *self.passes[seat])
        return tuple(card for card in self.dealt[seat] if card not in laid_away)

    @property
    def crib(self) -> tuple[Card, ...]:
        extra = (self.crib_card,) if self.crib_card else ()
        return (*(card for cards in self.discards for card in cards), *extra)


@dataclass(frozen=True, slots=True)
class TableEvent:
    """Points pegged by one seat for one reason, with every side's score after (capped)."""

    seat: int
    side: int
    source: str
    points: int
    detail: str
    scores: tuple[int, ...]
    show: HandScore | None = None


@dataclass(frozen=True, slots=True)
class TableDealResult:
    """Each side's score after the deal, the events in order, and the winning side if any."""

    scores: tuple[int, ...]
    events: tuple[TableEvent, ...]
    game_over: bool
    winner: int | None
    play: PeggingResult


def score_table_deal(record: TableDealRecord) -> TableDealResult:
    """Score a three- or four-seat deal in counting order; ``IllegalPlay`` if the play breaks
    the rules (``score_pegging`` checks it)."""
    hands = [record.held(seat) for seat in range(record.seats)]
    return table_deal_result(record, score_pegging(hands, record.plays))


def table_deal_result(record: TableDealRecord, play: PeggingResult) -> TableDealResult:
    """Score a deal whose play (``play``, the result of ``record.plays``) is already checked."""
    seats, dealer = record.seats, record.seats - 1
    scores = list(record.scores_before)
    events: list[TableEvent] = []
    winner: int | None = None

    def peg(
        seat: int, source: str, points: int, detail: str, show: HandScore | None = None
    ) -> None:
        nonlocal winner
        if winner is not None:
            return
        side = side_of(seat, seats)
        scores[side] = min(scores[side] + points, record.target)
        events.append(TableEvent(seat, side, source, points, detail, tuple(scores), show))
        if scores[side] == record.target:
            winner = side

    if record.starter.rank == JACK:
        peg(dealer, "his heels", 2, f"starter {record.starter}")
    for laid in play.plays:
        if laid.points and winner is None:
            peg(laid.seat, "play", laid.points, f"{laid.card}: {', '.join(laid.reasons)}")
    shows = [(seat, "hand", record.held(seat)) for seat in range(seats)]
    for seat, source, cards in (*shows, (dealer, "crib", record.crib)):
        if winner is not None:
            break
        show = score_cards(cards, record.starter, source == "crib")
        peg(seat, source, show.total, format_cards(cards), show)
    return TableDealResult(tuple(scores), tuple(events), winner is not None, winner, play)
