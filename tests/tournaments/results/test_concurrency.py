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


def test_a_report_that_waited_for_its_table_sees_the_line_saved_meanwhile(
    event_in_play, monkeypatch
):
    """``report_by_link`` reads the table's lines in the statement that locks the table, whose
    snapshot is taken before the lock is granted (``services.report``). Here the other
    player's report holds the lock when this one starts and commits while it waits: the
    insert, which reads the lines again, sees that line, and the report is decided again on
    it, so the game is verified (without that check it stayed "waiting for the other card")."""
    from django.db import transaction

    from tournaments.services import report as report_service

    event = event_in_play(10)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    a, b = table.seats.select_related("entry").order_by("position")
    changed = []
    insert = report_service.lines_insert

    def watched(*args, **kwargs):
        try:
            return insert(*args, **kwargs)
        except report_service.TableChanged:
            changed.append(True)
            raise

    monkeypatch.setattr(report_service, "lines_insert", watched)
    holding, mine_waits, answers, errors = threading.Event(), threading.Event(), [], []

    def other():  # b's card, its transaction open until a's report waits for the table
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(pk=table.pk)
                CardLine.objects.create(seat=b, kind="reported", game_points=0, plus=0,
                                        minus=17, source="player", reason="")  # fmt: skip
                holding.set()
                assert mine_waits.wait(timeout=10), "a's report never waited for the lock"
        except Exception as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    def mine():
        try:
            assert holding.wait(timeout=10)
            answers.append(
                report_service.report_by_link(token=a.entry.report_token, won=True, spread=17)
            )
        except Exception as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=other), threading.Thread(target=mine)]
    for thread in threads:
        thread.start()
    with connection.cursor() as cursor:  # until a's report waits for the table's lock
        for _ in range(500):
            # This test's database only: another test run in parallel (pytest -n) may wait for
            # a lock of its own, and seen here it let b's card commit before a's report began.
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                mine_waits.set()
                break
            threading.Event().wait(0.02)
    mine_waits.set()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors
    assert answers[0].body["verified"] is True
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    assert CardLine.objects.filter(seat__table=table, kind="verified", current=True).count() == 2
    assert changed == [True]  # the lines read before the lock were stale, and it was seen
