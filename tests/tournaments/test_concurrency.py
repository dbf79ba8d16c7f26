"""Two phones report the same game at the same moment: nothing is lost, and the game is
verified exactly once. Needs PostgreSQL: SQLite serialises writers for the whole file."""

import threading

import pytest
from django.db import connection, connections

from tournaments.models import CardLine, Table
from tournaments.services.results import card_line_report

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _race(*calls):
    """Run each call in its own thread, each on its own database connection, all at once."""
    barrier = threading.Barrier(len(calls))
    errors = []

    def run(call):
        try:
            barrier.wait(timeout=10)
            call()
        except Exception as exc:  # reported below; a thread cannot fail the test itself
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return errors


@pytest.mark.parametrize("attempt", range(5))
def test_both_players_reporting_at_once_verify_the_game_once(event_in_play, attempt):
    assert connection.vendor == "postgresql"
    event = event_in_play(10)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    a, b = table.seats.order_by("position")
    errors = _race(
        lambda: card_line_report(seat=a, won=True, spread=17),
        lambda: card_line_report(seat=b, won=False, spread=17),
    )
    assert not errors
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    assert CardLine.objects.filter(seat__table=table, kind="reported").count() == 2
    verified = CardLine.objects.filter(seat__table=table, kind="verified")
    assert verified.count() == 2 and all(line.current for line in verified)


def test_the_same_player_reporting_twice_at_once_keeps_both_lines(event_in_play):
    event = event_in_play(10)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    a, _ = table.seats.order_by("position")
    errors = _race(
        lambda: card_line_report(seat=a, won=True, spread=17),
        lambda: card_line_report(seat=a, won=True, spread=18),
    )
    assert not errors
    lines = CardLine.objects.filter(seat=a, kind="reported")
    assert lines.count() == 2
    assert lines.filter(current=True).count() == 1
