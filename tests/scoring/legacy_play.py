"""scoring/play.py as it was before the play took 3 and 4 seats (commit b866d77), kept
verbatim below this note so the tests can show ``score_play`` answers exactly as it did,
messages included."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.cards import Card, CardError, format_cards, parse_card, parse_cards

PONE = "pone"
DEALER = "dealer"
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


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """One card of the play: who laid it, the count after it, and what it pegged."""

    card: Card
    player: str
    count: int
    points: int
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PlayResult:
    """Every card of the play in order, and each player's pegging total."""

    plays: tuple[PlayedCard, ...]
    pone_points: int
    dealer_points: int


def other(player: str) -> str:
    return DEALER if player == PONE else PONE


class Pegging:
    """The state of the play: hands still held, the count, the series and whose turn it is.

    Hands are distinct parsed cards of any size (four in a real deal; the plausibility search
    and its tests use fewer). ``turn`` is always a player who must lay a card now: the state
    moves past goes and series ends by itself.
    """

    def __init__(self, pone_hand: Sequence[Card], dealer_hand: Sequence[Card]) -> None:
        self.dealt = frozenset((*pone_hand, *dealer_hand))
        self.held: dict[str, list[Card]] = {PONE: list(pone_hand), DEALER: list(dealer_hand)}
        self.count = 0
        self.series: list[Card] = []
        self.turn = PONE

    @property
    def finished(self) -> bool:
        return not self.held[PONE] and not self.held[DEALER]

    def playable(self, player: str) -> list[Card]:
        """Cards ``player`` could lay now without passing 31."""
        room = 31 - self.count
        return [card for card in self.held[player] if card.pip <= room]

    def preview(self, card: Card) -> SeriesScore:
        """What ``card`` would score for the series if laid now (go and last card aside)."""
        return series_points((*self.series, card), self.count + card.pip)

    def play(self, card: Card) -> PlayedCard:
        """Lay ``card`` and move the turn on; ``IllegalPlay`` if the rules forbid it."""
        player = self._check(card)
        self.held[player].remove(card)
        self.count += card.pip
        self.series.append(card)
        scored = series_points(self.series, self.count)
        points, reasons, count = scored.points, list(scored.reasons), self.count
        opponent = other(player)
        if self.count < 31 and self.playable(opponent):
            self.turn = opponent
        elif self.count < 31 and self.playable(player):
            self.turn = player
        else:
            if self.count < 31:
                reasons.append("last card for 1" if self.finished else "go for 1")
                points += 1
            self.count = 0
            self.series = []
            self.turn = opponent if self.held[opponent] else player
        return PlayedCard(card, player, count, points, tuple(reasons))

    def _check(self, card: Card) -> str:
        """The player laying ``card``, once it is shown to be legal."""
        if card in self.held[PONE]:
            player = PONE
        elif card in self.held[DEALER]:
            player = DEALER
        elif card in self.dealt:
            raise IllegalPlay(f"{card} has already been played")
        else:
            raise IllegalPlay(f"{card} is in neither hand")
        if player != self.turn:
            if not self.series:
                raise IllegalPlay(f"{card}: wrong leader, the {self.turn} leads this series")
            playable = format_cards(self.playable(self.turn))
            raise IllegalPlay(
                f"{card}: renege, the {self.turn} could play ({playable}) at count {self.count}"
            )
        if self.count + card.pip > 31:
            raise IllegalPlay(f"{card} makes the count {self.count + card.pip}, above 31")
        return player


def score_play(
    pone_hand: str | Sequence[str | Card],
    dealer_hand: str | Sequence[str | Card],
    plays: str | Sequence[str | Card],
) -> PlayResult:
    """Check and score a whole play: both four-card hands and the eight cards in order laid."""
    pone, dealer = parse_cards(pone_hand), parse_cards(dealer_hand)
    for name, hand in ((PONE, pone), (DEALER, dealer)):
        if len(hand) != 4:
            raise CardError(f"the {name}'s hand has {len(hand)} cards, not 4")
    shared = set(pone) & set(dealer)
    if shared:
        raise CardError(f"duplicate card: {format_cards(sorted(shared))} is in both hands")
    tokens = plays.replace(",", " ").split() if isinstance(plays, str) else plays
    # Parsed one by one, not with parse_cards: a card laid twice is an illegal play, reported
    # as such in order, rather than a duplicate in a list.
    laid = [parse_card(token) for token in tokens]
    if len(laid) != 8:
        raise IllegalPlay(f"the play has {len(laid)} cards; all 8 must be laid")
    state = Pegging(pone, dealer)
    return play_result(tuple(state.play(card) for card in laid))


def play_result(plays: tuple[PlayedCard, ...]) -> PlayResult:
    """The result of a play from its cards as ``Pegging`` laid them."""
    return PlayResult(
        plays=plays,
        pone_points=sum(p.points for p in plays if p.player == PONE),
        dealer_points=sum(p.points for p in plays if p.player == DEALER),
    )
