"""What a player's page says about a table the director closed without agreed cards: "your
cards disagree" only when both cards are in and differ; with one card or none, that the game
was closed before both cards agreed (a player who reported was told their cards disagreed)."""

import pytest

from tournaments.models import Game, Table
from tournaments.selectors.report import player_state
from tournaments.services.results import card_line_report, game_close

pytestmark = pytest.mark.django_db

CLOSED = "The game was closed before both cards agreed: a cross-checker will settle your table."


def _words(seat) -> tuple[str, str]:
    current = player_state(entry=seat.entry).current
    return current.state, current.words


def test_a_closed_table_says_disagree_only_when_both_cards_differ(event_in_play):
    event = event_in_play(10)
    tables = Table.objects.filter(game__event=event, game__number=1).order_by("number")
    one, two, none = (t.seats.select_related("entry").order_by("position") for t in tables[:3])
    card_line_report(seat=one[0], won=True, spread=20)  # only one card in
    card_line_report(seat=two[0], won=True, spread=20)  # both claim the win
    card_line_report(seat=two[1], won=True, spread=25)
    game_close(game=Game.objects.get(event=event, number=1), user=event.director)

    assert _words(one[0]) == _words(one[1]) == ("flagged", CLOSED)
    assert _words(none[0]) == ("flagged", CLOSED)
    disagree = ("flagged", "Your cards disagree: a cross-checker will settle it.")
    assert _words(two[0]) == _words(two[1]) == disagree
