"""The play (pegging) with two, three or four seats: whose turn it is, goes, series ends, and
the points each card earns.

Terms:
- seat: a place at the table, numbered in the order of play: seat 0 sits left of the dealer
  and leads, the dealer is the last seat. With two seats they are the pone and the dealer;
  with three or four they are "seat 0" to "seat 3". Partners (four seats) sit opposite:
  seats 0 and 2 against seats 1 and 3.
- count, series: see ``scoring.series``.
- go: said by a seat that cannot lay a card without passing 31 (or has no cards left); the
  turn goes on to the next seat to the left that can lay one, which must. When no seat can,
  the series ends: the seat that laid its last card pegs 1 for the go, unless the count is
  exactly 31 (that card already pegged 2). The next series starts with the first seat left of
  that player that still holds cards.
- last card: the final card of the whole play pegs 1, or nothing extra if it made 31.

An impossible order raises ``IllegalOrder`` (a ``ValueError``) naming the card and the rule,
checked in this order:
1. ``NOT_IN_HAND``: the card is in no seat's hand (never dealt here, or already laid);
2. the card's seat is not the seat to play: ``HAD_TO_GO`` if that seat holds no card that fits
   under 31 at this count (it had to say go), otherwise ``OUT_OF_TURN`` (a seat leading out of
   turn, or laying while the seat to play could lay a card: a renege);
3. ``PAST_31``: the seat to play laid a card that takes the count above 31.
With two seats the messages are the two-player wording ("wrong leader", "renege").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.cards import Card, CardError, format_cards, parse_card, parse_cards
from scoring.series import IllegalPlay, SeriesScore, series_points

PONE = "pone"
DEALER = "dealer"
SEAT_COUNTS = (2, 3, 4)
CARDS_HELD = 4

NOT_IN_HAND = "not in hand"
OUT_OF_TURN = "out of turn"
HAD_TO_GO = "had to say go"
PAST_31 = "past 31"


class IllegalOrder(IllegalPlay):
    """A card laid against the rules of the play: ``card`` is the card, ``rule`` one of
    ``NOT_IN_HAND``, ``OUT_OF_TURN``, ``HAD_TO_GO`` or ``PAST_31``, and ``position`` the
    card's place in the recorded play (from 0) when ``score_pegging`` raised it."""

    def __init__(self, message: str, *, card: Card, rule: str) -> None:
        super().__init__(message)
        self.card = card
        self.rule = rule
        self.position: int | None = None


def seat_names(seats: int) -> tuple[str, ...]:
    """The names of ``seats`` seats in the order of play."""
    if seats not in SEAT_COUNTS:
        raise CardError(f"the play needs 2, 3 or 4 hands, not {seats}")
    return (PONE, DEALER) if seats == 2 else tuple(f"seat {seat}" for seat in range(seats))


def _the(name: str) -> str:
    """``name`` as a sentence subject: "the pone", "seat 2"."""
    return name if name.startswith("seat") else f"the {name}"


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """One card of the play: who laid it (``player``, the seat's name, and ``seat``, its
    number), the count after it, and what it pegged."""

    card: Card
    player: str
    count: int
    points: int
    reasons: tuple[str, ...]
    seat: int = 0


@dataclass(frozen=True, slots=True)
class PeggingResult:
    """Every card of the play in order, and each seat's pegging total in seat order."""

    plays: tuple[PlayedCard, ...]
    points: tuple[int, ...]

    def team_points(self) -> tuple[int, int]:
        """Four seats as partners: (seats 0 and 2, seats 1 and 3)."""
        if len(self.points) != 4:
            raise ValueError("only four seats play as partners")
        return (self.points[0] + self.points[2], self.points[1] + self.points[3])


class Pegging:
    """The state of the play: hands still held, the count, the series and whose turn it is.

    ``hands`` are in seat order (two, three or four), distinct parsed cards of any size (four
    in a real deal; the plausibility search and its tests use fewer). ``turn`` (a seat name)
    and ``seat`` (its number) are always a seat that must lay a card now: the state moves
    past goes and series ends by itself.
    """

    def __init__(self, *hands: Sequence[Card]) -> None:
        self.names = seat_names(len(hands))
        self.dealt = frozenset(card for hand in hands for card in hand)
        self.held: dict[str, list[Card]] = {
            name: list(hand) for name, hand in zip(self.names, hands, strict=True)
        }
        self.count = 0
        self.series: list[Card] = []
        self.seat = 0

    @property
    def turn(self) -> str:
        return self.names[self.seat]

    @property
    def finished(self) -> bool:
        return not any(self.held.values())

    def playable(self, player: str) -> list[Card]:
        """Cards ``player`` could lay now without passing 31."""
        room = 31 - self.count
        return [card for card in self.held[player] if card.pip <= room]

    def preview(self, card: Card) -> SeriesScore:
        """What ``card`` would score for the series if laid now (go and last card aside)."""
        return series_points((*self.series, card), self.count + card.pip)

    def play(self, card: Card) -> PlayedCard:
        """Lay ``card`` and move the turn on; ``IllegalOrder`` if the rules forbid it."""
        seat = self._check(card)
        player = self.names[seat]
        self.held[player].remove(card)
        self.count += card.pip
        self.series.append(card)
        scored = series_points(self.series, self.count)
        points, reasons, count = scored.points, list(scored.reasons), self.count
        following = self._following(seat)
        room = 31 - count
        able = next(
            (s for s in following if any(c.pip <= room for c in self.held[self.names[s]])), None
        )
        if able is not None:  # at 31 nobody can lay a card: room is 0
            self.seat = able
        else:
            if count < 31:
                reasons.append("last card for 1" if self.finished else "go for 1")
                points += 1
            self.count = 0
            self.series = []
            self.seat = next((s for s in following if self.held[self.names[s]]), seat)
        return PlayedCard(card, player, count, points, tuple(reasons), seat)

    def _following(self, seat: int) -> list[int]:
        """Every seat in turn from the left of ``seat``, ending with ``seat`` itself."""
        seats = len(self.names)
        return [(seat + step) % seats for step in range(1, seats + 1)]

    def _check(self, card: Card) -> int:
        """The seat laying ``card``, once it is shown to be legal."""
        owner = next((s for s, name in enumerate(self.names) if card in self.held[name]), None)
        if owner is None:
            if card in self.dealt:
                raise IllegalOrder(f"{card} has already been played", card=card, rule=NOT_IN_HAND)
            where = "neither hand" if len(self.names) == 2 else "no seat's hand"
            raise IllegalOrder(f"{card} is in {where}", card=card, rule=NOT_IN_HAND)
        if owner != self.seat:
            raise self._out_of_turn(card, self.names[owner])
        if self.count + card.pip > 31:
            raise IllegalOrder(
                f"{card} makes the count {self.count + card.pip}, above 31", card=card, rule=PAST_31
            )
        return owner

    def _out_of_turn(self, card: Card, owner: str) -> IllegalOrder:
        """The error for ``card`` laid by ``owner`` when it is not that seat's turn."""
        two, turn = len(self.names) == 2, _the(self.turn)
        if not self.series:
            rule = "wrong leader" if two else "out of turn"
            return IllegalOrder(
                f"{card}: {rule}, {turn} leads this series", card=card, rule=OUT_OF_TURN
            )
        rule = OUT_OF_TURN if self.playable(owner) else HAD_TO_GO
        could = (
            f"{turn} could play ({format_cards(self.playable(self.turn))}) at count {self.count}"
        )
        if two:
            message = f"{card}: renege, {could}"
        elif rule == HAD_TO_GO:
            message = f"{card}: {_the(owner)} had to say go (no card fits under 31); {could}"
        else:
            message = f"{card}: out of turn, {could}"
        return IllegalOrder(message, card=card, rule=rule)


def score_pegging(
    hands: Sequence[str | Sequence[str | Card]], plays: str | Sequence[str | Card]
) -> PeggingResult:
    """Check and score a whole play for 2, 3 or 4 seats: ``hands`` in the order of play (the
    seat left of the dealer first, the dealer last), each the four cards held after the
    discard, and ``plays`` every card in the order laid."""
    names = seat_names(len(hands))
    parsed = [parse_cards(hand) for hand in hands]
    for name, hand in zip(names, parsed, strict=True):
        if len(hand) != CARDS_HELD:
            raise CardError(f"{_the(name)}'s hand has {len(hand)} cards, not {CARDS_HELD}")
    every = [card for hand in parsed for card in hand]
    shared = {card for card in every if every.count(card) > 1}
    if shared:
        where = "both hands" if len(names) == 2 else "more than one hand"
        raise CardError(f"duplicate card: {format_cards(sorted(shared))} is in {where}")
    tokens = plays.replace(",", " ").split() if isinstance(plays, str) else plays
    # Parsed one by one, not with parse_cards: a card laid twice is an illegal play, reported
    # as such in order, rather than a duplicate in a list.
    laid = [parse_card(token) for token in tokens]
    total = CARDS_HELD * len(names)
    if len(laid) != total:
        raise IllegalPlay(f"the play has {len(laid)} cards; all {total} must be laid")
    state = Pegging(*parsed)
    scored = []
    for position, card in enumerate(laid):
        try:
            scored.append(state.play(card))
        except IllegalOrder as error:
            error.position = position
            raise
    return pegging_result(tuple(scored), len(names))


def pegging_result(plays: tuple[PlayedCard, ...], seats: int) -> PeggingResult:
    """The result of a play from its cards as ``Pegging`` laid them."""
    points = [0] * seats
    for laid in plays:
        points[laid.seat] += laid.points
    return PeggingResult(plays, tuple(points))
