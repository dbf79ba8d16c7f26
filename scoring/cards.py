"""Playing cards and how players write them.

Terms:
- rank: 1 (ace) to 13 (king). Aces are always low; pairs and runs go by rank.
- suit: one of ``"C"``, ``"D"``, ``"H"``, ``"S"`` (clubs, diamonds, hearts, spades), all equal.
- pip: the value a card adds to a fifteen or to the count in the play: ace 1, two to ten at
  face value, jack, queen and king 10.
- card text: rank then suit, e.g. ``10S``, ``TS``, ``jd``, ``5♥``. The canonical text
  (``str(card)``) is upper case with ``10`` for ten: ``10S``, ``JD``, ``AH``.

Every one of the 52 cards exists once as an interned ``Card`` (``DECK``); the parsers always
return those instances, so scoring code can compare and hash cards cheaply.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import total_ordering

SUITS = "CDHS"
RANK_TEXT = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JACK = 11

_RANK_ALIASES = {"T": 10}
_SUIT_ALIASES = {"♣": "C", "♧": "C", "♦": "D", "♢": "D", "♥": "H", "♡": "H", "♠": "S", "♤": "S"}


class CardError(ValueError):
    """A card token, or a group of cards, that is not valid; the message names the token."""


# Each card is a flyweight: Card(5, "H") always returns the one interned instance, so equality
# and hashing are identity (C speed) and a card is cheap to compare, hash and store.
_INTERNED: dict[tuple[int, str], Card] = {}


@total_ordering
@dataclass(frozen=True, slots=True, eq=False, init=False)
class Card:
    """One playing card. Build with ``parse_card("5H")`` or ``Card(5, "H")``; both give the
    same interned instance. Cards sort by rank, then suit (C, D, H, S)."""

    rank: int
    suit: str
    pip: int = field(init=False, repr=False)
    """Value for fifteens and the count (face cards 10)."""
    index: int = field(init=False, repr=False)
    """Position 0..51 in rank-major order (AC, AD, AH, AS, 2C, ...)."""

    def __new__(cls, rank: int, suit: str) -> Card:
        if type(rank) is int and type(suit) is str:
            interned = _INTERNED.get((rank, suit))
            if interned is not None:
                return interned
        if type(rank) is not int or not 1 <= rank <= 13:
            raise CardError(f"rank must be 1..13, not {rank!r}")
        if type(suit) is not str or len(suit) != 1 or suit not in SUITS:
            raise CardError(f"suit must be one of C, D, H, S, not {suit!r}")
        card = object.__new__(cls)
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("pip", min(rank, 10)),
            ("index", (rank - 1) * 4 + SUITS.index(suit)),
        ):
            object.__setattr__(card, name, value)
        _INTERNED[rank, suit] = card
        return card

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return Card, (self.rank, self.suit)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __str__(self) -> str:
        return RANK_TEXT[self.rank] + self.suit


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, 14) for suit in SUITS)


def _spellings() -> dict[str, Card]:
    """Every accepted spelling of every card, mapped to the interned card."""
    rank_words: dict[int, list[str]] = {r: [RANK_TEXT[r]] for r in range(1, 14)}
    for word, rank in _RANK_ALIASES.items():
        rank_words[rank].append(word)
    suit_words: dict[str, list[str]] = {s: [s] for s in SUITS}
    for word, suit in _SUIT_ALIASES.items():
        suit_words[suit].append(word)
    table: dict[str, Card] = {}
    for card in DECK:
        for rank_word in rank_words[card.rank]:
            for suit_word in suit_words[card.suit]:
                for rank_case in {rank_word, rank_word.lower()}:
                    for suit_case in {suit_word, suit_word.lower()}:
                        table[rank_case + suit_case] = card
    return table


CARD_BY_TEXT: dict[str, Card] = _spellings()


# Interned cards map to themselves, so text and Card tokens share one fast look-up.
_LOOKUP: dict[object, Card] = {**CARD_BY_TEXT, **{card: card for card in DECK}}


def parse_card(token: str | Card) -> Card:
    """The card a token names (``"10S"``, ``"TS"``, ``"jd"``, ``"5♥"``), or a ``Card`` as is."""
    try:
        return _LOOKUP[token]
    except (KeyError, TypeError):
        pass
    card = _LOOKUP.get(token.strip()) if isinstance(token, str) else None
    if card is None:
        example = "write rank then suit, e.g. 10S, TS, JD, AH, 5♥"
        raise CardError(f"not a card: {token!r} ({example})")
    return card


def parse_cards(cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards from ``"5H 5D 5S JC"`` (spaces or commas) or a list of tokens/cards; no duplicates."""
    if isinstance(cards, str):
        tokens: tuple[object, ...] = tuple(cards.replace(",", " ").split())
    else:
        try:
            tokens = tuple(cards)
        except TypeError as error:
            raise CardError(f"not a list of cards: {cards!r}") from error
    try:
        parsed = tuple(map(_LOOKUP.__getitem__, tokens))
    except (KeyError, TypeError):
        parsed = tuple(parse_card(token) for token in tokens)  # type: ignore[arg-type]
    if len(set(parsed)) != len(parsed):
        seen: set[Card] = set()
        for card in parsed:
            if card in seen:
                raise CardError(f"duplicate card: {card}")
            seen.add(card)
    return parsed


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical text of several cards, separated by spaces."""
    return " ".join(str(card) for card in cards)
