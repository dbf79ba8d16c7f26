"""A finished qualifying round played through the services, ready for the cut."""

import pytest

from tournaments.models import Entry, Game, Table
from tournaments.selectors.standings import standings_live
from tournaments.services.corrections import tie_playoff_record
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.results import card_line_report, game_close


def play_game(event, number, *, strength):
    """Every table of game ``number``: the stronger player (lower ``strength``) wins."""
    for table in Table.objects.filter(game__event=event, game__number=number):
        a, b = table.seats.order_by("position")
        winner, loser = sorted((a, b), key=lambda seat: strength[seat.entry_id])
        spread = 30 - strength[winner.entry_id] * 2 + number % 2  # never a skunk, rarely equal
        card_line_report(seat=winner, won=True, spread=spread)
        card_line_report(seat=loser, won=False, spread=spread)
    game_close(game=Game.objects.get(event=event, number=number), user=event.director)


def break_cut_ties(event):
    """Tie playoffs won by the stronger player until no tie straddles the cut."""
    for _ in range(20):
        standings = standings_live(event=event)
        if not standings.cut_tie:
            return
        first, second = sorted(standings.cut_tie)[:2]
        winner, loser = Entry.objects.get(pk=first), Entry.objects.get(pk=second)
        tie_playoff_record(event=event, winner=winner, loser=loser, user=event.director)
    raise AssertionError("the cut tie would not break")


@pytest.fixture
def qualified_event(event_in_play, django_capture_on_commit_callbacks):
    """``make(players=12, games=5, **settings)``: every game played, closed and verified."""

    def make(players=12, games=5, *, last_open=False, break_ties=True, **settings):
        settings.setdefault("qualifier_ratio", 4)
        event = event_in_play(players, qualifying_games=games, **settings)
        strength = {
            e: i
            for i, e in enumerate(
                Entry.objects.filter(event=event).order_by("pk").values_list("pk", flat=True)
            )
        }
        for number in range(1, games + 1):
            if number > 1:
                with django_capture_on_commit_callbacks(execute=True):
                    game_pairings_request(event=event, number=number, user=event.director)
                with django_capture_on_commit_callbacks(execute=True):
                    game_publish(
                        game=Game.objects.get(event=event, number=number), user=event.director
                    )
            if last_open and number == games:
                break
            with django_capture_on_commit_callbacks(execute=True):
                play_game(event, number, strength=strength)
        if break_ties and not last_open:
            break_cut_ties(event)
        event.refresh_from_db()
        event.strength = strength
        return event

    return make
