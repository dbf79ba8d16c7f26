"""Club nights played through the services, as a club director and the players would."""

from datetime import date

import pytest

from tests.factories import PlayerFactory, UserFactory
from tournaments.models import Game, Table
from tournaments.services.clubs import club_create, club_night_create
from tournaments.services.entries import Registration, entry_register
from tournaments.services.events import event_close_registration
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.results import card_line_report


def play_night(club, director, players, played_on, capture, *, spread=None, winner=None):
    """A whole night: every table reported by both players; the lower player id wins unless
    ``winner`` (a function of the two player ids) says otherwise. Returns the event."""
    event = club_night_create(club=club, user=director, played_on=played_on)
    for player in players:
        entry_register(
            event=event,
            registration=Registration(
                name=player.name, acc_number=player.acc_number, player_id=player.pk
            ),
            check_in=True,
            user=director,
        )
    event_close_registration(event=event, user=director)
    for number in range(1, event.qualifying_games + 1):
        with capture(execute=True):
            game_pairings_request(event=event, number=number, user=director)
        with capture(execute=True):
            game_publish(game=Game.objects.get(event=event, number=number), user=director)
        with capture(execute=True):
            for table in Table.objects.filter(game__event=event, game__number=number):
                a, b = table.seats.select_related("entry").order_by("position")
                pa, pb = a.entry.player_id, b.entry.player_id
                first = (winner or min)(pa, pb)
                won, lost = (a, b) if first == pa else (b, a)
                margin = spread(number, table.number) if spread else 10 + table.number
                card_line_report(seat=won, won=True, spread=margin)
                card_line_report(seat=lost, won=False, spread=margin)
    event.refresh_from_db()
    return event


@pytest.fixture
def club_world(django_capture_on_commit_callbacks):
    """A club with its director and ten players with ACC numbers."""

    class World:
        director = UserFactory(first_name="Cleo", last_name="Club")
        club = club_create(name="Tuesday Pegs", user=director)
        players = [PlayerFactory(name=f"Member {i:02}") for i in range(10)]

        @classmethod
        def night(cls, day: date, players=None, **kwargs):
            return play_night(
                cls.club, cls.director, players or cls.players, day,
                django_capture_on_commit_callbacks, **kwargs,
            )  # fmt: skip

    return World
