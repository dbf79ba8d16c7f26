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


def test_a_deadlock_is_run_again_and_both_writes_succeed(event_in_play):
    """Two transactions that lock two tables in opposite orders: PostgreSQL ends one of them
    (deadlock_detected); ``retry_on_conflict`` runs it again and both writes are kept."""
    from tournaments.services.conflicts import retry_on_conflict

    event = event_in_play(10)
    one, two = Table.objects.filter(game__event=event, game__number=1).order_by("number")[:2]
    both_locked_first = threading.Barrier(2)
    runs = []

    @retry_on_conflict
    def lock_in_turn(first, second, note):
        from django.db import transaction

        with transaction.atomic():
            runs.append(note)
            Table.objects.select_for_update().get(pk=first.pk)
            if runs.count(note) == 1:  # the first run of each: meet, then cross
                both_locked_first.wait(timeout=10)
            Table.objects.select_for_update().get(pk=second.pk)
            CardLine.objects.filter(pk=-1).update(reason=note)  # a write in the transaction

    errors = _race(lambda: lock_in_turn(one, two, "a"), lambda: lock_in_turn(two, one, "b"))
    assert not errors, errors
    assert sorted(runs) in (["a", "a", "b"], ["a", "b", "b"]), runs  # one of them ran twice
