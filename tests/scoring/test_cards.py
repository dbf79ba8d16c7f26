"""Card notation: every accepted spelling, canonical text, and clear errors."""

from __future__ import annotations

import pytest

from scoring.cards import DECK, Card, CardError, parse_card, parse_cards


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("10S", 10, "S"),
        ("TS", 10, "S"),
        ("ts", 10, "S"),
        ("JD", 11, "D"),
        ("Jd", 11, "D"),
        ("jd", 11, "D"),
        ("AC", 1, "C"),
        ("ac", 1, "C"),
        ("KH", 13, "H"),
        ("5♥", 5, "H"),
        ("5♦", 5, "D"),
        ("5♣", 5, "C"),
        ("5♠", 5, "S"),
        ("q♡", 12, "H"),
        (" 7C ", 7, "C"),
    ],
)
def test_parse_card_accepts_usual_notations(token: str, rank: int, suit: str) -> None:
    card = parse_card(token)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize(
    ("token", "text"), [("TS", "10S"), ("jd", "JD"), ("a♥", "AH"), ("9c", "9C")]
)
def test_str_is_canonical(token: str, text: str) -> None:
    assert str(parse_card(token)) == text


def test_every_card_round_trips_through_its_text() -> None:
    assert [parse_card(str(card)) for card in DECK] == list(DECK)
    assert len(set(DECK)) == 52


def test_pip_values() -> None:
    assert [parse_card(t).pip for t in ["AS", "2S", "9S", "10S", "JS", "QS", "KS"]] == [
        1,
        2,
        9,
        10,
        10,
        10,
        10,
    ]


def test_cards_are_frozen_hashable_and_interned() -> None:
    card = Card(5, "H")
    assert card == parse_card("5h") and hash(card) == hash(parse_card("5H"))
    assert parse_card(card) is parse_card("5H")
    with pytest.raises(AttributeError):
        card.rank = 6  # type: ignore[misc]


@pytest.mark.parametrize("token", ["5X", "11S", "1S", "", "JDD", "S5", "10", "♥5", "0H"])
def test_bad_token_error_names_it(token: str) -> None:
    with pytest.raises(CardError, match=repr(token).replace("[", r"\[")):
        parse_card(token)


@pytest.mark.parametrize(("rank", "suit"), [(0, "H"), (14, "S"), (5, "X"), (5, "h"), ("5", "H")])
def test_card_constructor_validates(rank: object, suit: object) -> None:
    with pytest.raises(CardError):
        Card(rank, suit)  # type: ignore[arg-type]


def test_parse_cards_from_text_and_lists() -> None:
    expected = tuple(Card(r, s) for r, s in [(5, "H"), (5, "D"), (5, "S"), (11, "C")])
    assert parse_cards("5H 5D 5S JC") == expected
    assert parse_cards("5h,5d, 5s jc") == expected
    assert parse_cards(["5♥", "5♦", Card(5, "S"), "JC"]) == expected
    assert parse_cards("") == ()


def test_parse_cards_bad_token_is_named() -> None:
    with pytest.raises(CardError, match="'5Z'"):
        parse_cards("5H 5Z 5S")


@pytest.mark.parametrize("cards", ["5H 5D 5h", ["TS", "10S"], ["5♥", "5H"]])
def test_duplicated_card_is_an_error(cards: str | list[str]) -> None:
    with pytest.raises(CardError, match="duplicate card"):
        parse_cards(cards)


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)
    with pytest.raises(CardError, match="not a list of cards"):
        parse_cards(5)  # type: ignore[arg-type]
