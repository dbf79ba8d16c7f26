"""A CSV import and a pairing leave planner statistics behind them (issue 24, item 4).

Thousands of rows arrive at once; until the tables are analyzed the planner plans for the
tables as they were, and a 1,000-player burst costs several times more. Each job runs
``ANALYZE`` of the tables it grew when its transaction commits (PostgreSQL only)."""

import pytest
from django.db import connection

from tests.factories import EventFactory, UserFactory
from tests.helpers import csv_of
from tournaments.models import Game
from tournaments.services.entries_import import entries_import_csv
from tournaments.services.events import event_close_registration
from tournaments.services.pairings import game_pairings_request

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _analyzed(table: str) -> int:
    """How many times ``table`` was analyzed by hand (autovacuum's own count is apart)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT analyze_count FROM pg_stat_user_tables WHERE relname = %s", [table])
        return cursor.fetchone()[0]


@pytest.fixture
def event():
    director = UserFactory()
    event = EventFactory(director=director)
    event.director = director
    return event


def test_a_csv_import_analyzes_the_entries_and_players_it_added(event):
    before = {table: _analyzed(table) for table in ("tournaments_entry", "tournaments_player")}
    rows = [(f"Player {n:03}", f"A-{n}", "", "", "") for n in range(40)]
    entries_import_csv(event=event, text=csv_of(*rows), user=event.director, check_in=True)
    assert {table: _analyzed(table) for table in before} == {
        table: count + 1 for table, count in before.items()
    }


def test_a_pairing_job_analyzes_the_tables_and_seats_it_added(event):
    rows = [(f"Player {n:03}", f"A-{n}", "", "", "") for n in range(16)]
    entries_import_csv(event=event, text=csv_of(*rows), user=event.director, check_in=True)
    event_close_registration(event=event, user=event.director)
    before = {table: _analyzed(table) for table in ("tournaments_table", "tournaments_seat")}
    game_pairings_request(event=event, number=1, user=event.director)  # the job runs here
    assert Game.objects.get(event=event, number=1).tables.count() == 8
    assert {table: _analyzed(table) for table in before} == {
        table: count + 1 for table, count in before.items()
    }
