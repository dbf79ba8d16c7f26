"""A whole deal scored in the order points are pegged, stopping at the target.

Terms:
- deal record: everything needed to replay one deal: both six-card hands as dealt, each
  side's two discards to the crib, the starter, the eight cards of the play in order, both
  scores before the deal and the game's target (121, or 61 in short games).
- his heels: a jack turned as the starter; the dealer pegs 2 at once.
- scoring event: one step that pegs points: his heels, a card of the play that scores, or
  one of the three shows (pone's hand, dealer's hand, the crib). Shows appear even when they
  score nothing, so the counting order is visible; play cards appear only when they score.
- target: the game ends the moment a player reaches it, whatever is left to count (the pone
  can count out before the dealer shows). The winner's score is the target exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.cards import JACK, Card, CardError, format_cards, parse_card, parse_cards
from scoring.hand import HandScore, score_cards
from scoring.play import DEALER, PONE, PlayResult, score_play

DEFAULT_TARGET = 121


@dataclass(frozen=True)
class DealRecord:
    """One deal as it happened. Card fields accept card text; they are stored as ``Card``s."""

    dealer_hand: tuple[Card, ...]
    pone_hand: tuple[Card, ...]
    dealer_discards: tuple[Card, ...]
    pone_discards: tuple[Card, ...]
    starter: Card
    plays: tuple[Card, ...]
    dealer_score_before: int = 0
    pone_score_before: int = 0
    target: int = DEFAULT_TARGET

    def __post_init__(self) -> None:
        for name in ("dealer_hand", "pone_hand", "dealer_discards", "pone_discards", "plays"):
            object.__setattr__(self, name, parse_cards(getattr(self, name)))
        object.__setattr__(self, "starter", parse_card(self.starter))
        self._check_cards()
        self._check_scores()

    def _check_cards(self) -> None:
        for name, size in (("dealer_hand", 6), ("pone_hand", 6)):
            hand = getattr(self, name)
            if len(hand) != size:
                raise CardError(f"{name} has {len(hand)} cards, not {size}")
        for side in ("dealer", "pone"):
            discards, hand = getattr(self, f"{side}_discards"), getattr(self, f"{side}_hand")
            if len(discards) != 2:
                raise CardError(f"{side}_discards has {len(discards)} cards, not 2")
            stray = [card for card in discards if card not in hand]
            if stray:
                raise CardError(f"{side}_discards: {format_cards(stray)} not in the {side}'s hand")
        parse_cards((*self.dealer_hand, *self.pone_hand, self.starter))

    def _check_scores(self) -> None:
        if self.target < 1:
            raise ValueError(f"target must be positive, not {self.target}")
        for name in ("dealer_score_before", "pone_score_before"):
            score = getattr(self, name)
            if not 0 <= score < self.target:
                raise ValueError(f"{name} must be 0..{self.target - 1}, not {score}")

    def kept(self, side: str) -> tuple[Card, ...]:
        """The four cards ``side`` ("dealer" or "pone") kept after discarding."""
        hand, discards = (
            (self.dealer_hand, self.dealer_discards)
            if side == DEALER
            else (self.pone_hand, self.pone_discards)
        )
        return tuple(card for card in hand if card not in discards)

    @property
    def crib(self) -> tuple[Card, ...]:
        return (*self.pone_discards, *self.dealer_discards)


@dataclass(frozen=True, slots=True)
class ScoringEvent:
    """Points pegged by one player for one reason, with both scores after (capped at target).

    ``detail`` says what scored in a few words; a show event also carries the full ``show``
    (the ``HandScore``, with its combinations and spoken count).
    """

    player: str
    source: str
    points: int
    detail: str
    dealer_score: int
    pone_score: int
    show: HandScore | None = None


@dataclass(frozen=True, slots=True)
class DealResult:
    """Scores after the deal, the events in order, and whether (and by whom) the game ended."""

    dealer_score: int
    pone_score: int
    events: tuple[ScoringEvent, ...]
    game_over: bool
    winner: str | None


class _Board:
    """Both scores during the deal; stops accepting points once someone reaches the target."""

    def __init__(self, record: DealRecord) -> None:
        self.target = record.target
        self.scores = {DEALER: record.dealer_score_before, PONE: record.pone_score_before}
        self.events: list[ScoringEvent] = []
        self.winner: str | None = None

    def peg(
        self, player: str, source: str, points: int, detail: str, show: HandScore | None = None
    ) -> None:
        if self.winner is not None:
            return
        self.scores[player] = min(self.scores[player] + points, self.target)
        dealer, pone = self.scores[DEALER], self.scores[PONE]
        self.events.append(ScoringEvent(player, source, points, detail, dealer, pone, show))
        if self.scores[player] == self.target:
            self.winner = player


def score_deal(record: DealRecord) -> DealResult:
    """Score a deal in pegging order: his heels, the play card by card, pone's hand, dealer's
    hand, crib. ``IllegalPlay`` if the play breaks the rules."""
    return deal_result(record, score_play(record.kept(PONE), record.kept(DEALER), record.plays))


def deal_result(record: DealRecord, play: PlayResult) -> DealResult:
    """Score a deal whose play is already checked and scored (``play`` must be the result of
    ``record.plays``: the simulator passes the one it produced while choosing the cards)."""
    pone, dealer = record.kept(PONE), record.kept(DEALER)
    board = _Board(record)
    if record.starter.rank == JACK:
        board.peg(DEALER, "his heels", 2, f"starter {record.starter}")
    for laid in play.plays:
        if laid.points:
            board.peg(laid.player, "play", laid.points, f"{laid.card}: {', '.join(laid.reasons)}")
    shows = ((PONE, "hand", pone, False), (DEALER, "hand", dealer, False))
    for player, source, cards, crib in (*shows, (DEALER, "crib", record.crib, True)):
        if board.winner is not None:
            break
        score = score_cards(cards, record.starter, crib)
        board.peg(player, source, score.total, format_cards(cards), score)
    return DealResult(
        dealer_score=board.scores[DEALER],
        pone_score=board.scores[PONE],
        events=tuple(board.events),
        game_over=board.winner is not None,
        winner=board.winner,
    )
