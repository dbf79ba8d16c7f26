"""A dropped database connection, on PostgreSQL: a report's transaction is run again (and
never saved twice when its COMMIT's answer was lost), reads are read again, a connection the
server ended while idle is replaced at the next query (CONN_HEALTH_CHECKS, compiled queries
too), and a job whose connection drops runs again instead of failing for good.

The server ends sessions as ``pg_terminate_backend`` does (``tests.helpers``)."""

from __future__ import annotations

import psycopg
import pytest
from django.conf import settings
from django.db import OperationalError, connection

from tests.helpers import commit_answer_lost, connection_terminate
from tournaments.errors import ServiceError
from tournaments.models import CardLine, Entry, Job, Table
from tournaments.selectors.access import entry_get_by_token
from tournaments.services import jobs, results
from tournaments.services.conflicts import DROP_RETRIES, read_again_on_drop, retry_on_conflict
from tournaments.services.jobs import job_run
from tournaments.services.results import card_line_report

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def closed_after(transactional_db):
    """A test may leave its connection ended: the database's cleanup opens a new one."""
    yield
    connection.close()


@pytest.fixture
def table(event_in_play):
    """Game 1's first table and its two seats."""
    event = event_in_play(4, qualifying_games=3)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    return (table, *table.seats.order_by("position"))


@pytest.fixture
def writes(monkeypatch):
    """Counts ``line_replace`` (each stored line); ``writes.drop_after(n)`` ends the session
    right after the n-th one, in the middle of the report's transaction."""

    class Writes(list):
        drops = ()

        def drop_after(self, *numbers):
            self.drops = numbers

    calls = Writes()
    real = results.line_replace

    def line_replace(*args, **kwargs):
        line = real(*args, **kwargs)
        calls.append(line.pk)
        if len(calls) in calls.drops:
            connection_terminate()
        return line

    monkeypatch.setattr(results, "line_replace", line_replace)
    return calls


@pytest.fixture
def commit_drops(monkeypatch):
    return lambda *, saved: commit_answer_lost(monkeypatch, saved=saved)


def _reported(seat) -> list[tuple]:
    lines = CardLine.objects.filter(seat=seat, kind="reported").order_by("pk")
    return list(lines.values_list("current", "game_points", "plus", "minus"))


def test_settings_check_the_connection_at_each_request():
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
    assert settings.DATABASES["default"]["CONN_MAX_AGE"] == 60


def test_a_report_whose_connection_drops_mid_transaction_is_run_again(table, writes):
    table_, a, b = table
    writes.drop_after(1)
    line = card_line_report(seat=a, won=True, spread=20)
    assert len(writes) == 2  # the first run's line was rolled back with its transaction
    assert _reported(a) == [(True, line.game_points, 20, 0)]
    assert CardLine.objects.filter(pk=writes[0]).count() == 0


def test_a_connection_found_gone_before_the_transaction_began_does_not_count(table, writes):
    table_, a, b = table
    connection_terminate()
    with pytest.raises(psycopg.OperationalError):  # the driver now knows; Django does not
        connection.connection.execute("SELECT 1")
    writes.drop_after(1)  # and the report's own run is ended mid-way: it still runs again
    line = card_line_report(seat=a, won=True, spread=20)
    assert len(writes) == 2 and line.pk == writes[1]
    assert _reported(a) == [(True, line.game_points, 20, 0)]


def test_a_second_drop_is_run_again_too(table, writes):
    table_, a, b = table
    writes.drop_after(1, 2)
    line = card_line_report(seat=a, won=True, spread=20)
    assert len(writes) == 3 and line.pk == writes[2]
    assert _reported(a) == [(True, line.game_points, 20, 0)]


def test_a_drop_past_the_retries_is_an_error_and_saves_nothing(table, writes):
    table_, a, b = table
    writes.drop_after(*range(1, DROP_RETRIES + 2))
    with pytest.raises(OperationalError):
        card_line_report(seat=a, won=True, spread=20)
    assert len(writes) == DROP_RETRIES + 1
    assert _reported(a) == []


def test_a_commit_in_doubt_that_saved_is_answered_without_writing_again(
    table, writes, commit_drops
):
    table_, a, b = table
    commit_drops(saved=True)
    first = card_line_report(seat=a, won=True, spread=20)
    assert len(writes) == 1 and first.pk == writes[0]  # run again, it would store two lines
    assert _reported(a) == [(True, first.game_points, 20, 0)]
    commit_drops(saved=True)
    # The second card verifies the table: run again, it would be refused ("already verified").
    line = card_line_report(seat=b, won=False, spread=20)
    assert len(writes) == 2 and line.pk == writes[1]
    assert _reported(b) == [(True, 0, 0, 20)]
    table_.refresh_from_db()
    assert table_.status == Table.Status.VERIFIED
    assert CardLine.objects.filter(seat__table=table_, kind="verified").count() == 2


def test_a_commit_in_doubt_that_did_not_save_is_run_again(table, writes, commit_drops):
    table_, a, b = table
    commit_drops(saved=False)
    line = card_line_report(seat=a, won=True, spread=20)
    assert len(writes) == 2 and line.pk == writes[1]
    assert _reported(a) == [(True, line.game_points, 20, 0)]


def test_a_refusal_is_not_run_again_and_other_database_errors_are_not_retried(table):
    table_, a, b = table
    Table.objects.filter(pk=table_.pk).update(status=Table.Status.VERIFIED)
    with pytest.raises(ServiceError, match="already verified"):
        card_line_report(seat=a, won=True, spread=20)
    runs = []

    @retry_on_conflict(saved=lambda result: None)
    def too_slow():
        runs.append(1)
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL statement_timeout = 10")
            cursor.execute("SELECT pg_sleep(1)")

    with pytest.raises(OperationalError, match="statement timeout"):
        too_slow()
    assert runs == [1]


def test_a_read_whose_connection_dropped_is_read_again(table):
    connection_terminate()
    assert read_again_on_drop(lambda: Entry.objects.count()) == 4
    connection_terminate()
    with pytest.raises(OperationalError):  # without it: the error
        Entry.objects.count()


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled query", "Django's query"])
def test_a_connection_ended_between_requests_is_replaced_at_the_first_query(table, compiled):
    entry = table[1].entry
    connection_terminate()
    connection.close_if_unusable_or_obsolete()  # what a request's start does
    if compiled:  # selectors.compiled runs its own cursor: it checks as Django's cursors do
        assert entry_get_by_token(token=entry.report_token).pk == entry.pk
    else:
        assert Entry.objects.get(report_token=entry.report_token).pk == entry.pk


# Jobs


@pytest.fixture
def no_pauses(monkeypatch):
    monkeypatch.setattr(jobs, "_PAUSES", (0,))


def _dropping_work(drops: int):
    """Work whose connection drops in its first ``drops`` runs (after a query)."""
    runs = []

    def work(job, progress):
        runs.append(Job.objects.count())
        progress(50, "half way")
        if len(runs) <= drops:
            connection_terminate()
            Job.objects.count()
        return {"runs": len(runs)}

    return work, runs


def test_a_job_whose_connection_drops_runs_again_and_succeeds(no_pauses):
    job = Job.objects.create(kind="health")
    work, runs = _dropping_work(drops=2)
    done = job_run(job_id=job.pk, work=work)
    assert (done.status, done.result, done.error) == (Job.Status.SUCCEEDED, {"runs": 3}, "")
    assert len(runs) == 3 and done.attempts == 1


def test_a_job_whose_connection_keeps_dropping_fails_with_the_reason(no_pauses):
    job = Job.objects.create(kind="health")
    work, runs = _dropping_work(drops=99)
    done = job_run(job_id=job.pk, work=work)
    assert len(runs) == jobs.JOB_DATABASE_TRIES
    assert done.status == Job.Status.FAILED
    assert done.error.startswith(f"The database connection failed {jobs.JOB_DATABASE_TRIES} times")


def test_a_job_with_a_real_error_fails_at_once(no_pauses):
    job = Job.objects.create(kind="health")
    runs = []

    def work(job, progress):
        runs.append(1)
        raise ValueError("22 games need at least 23 players")

    done = job_run(job_id=job.pk, work=work)
    assert runs == [1]
    assert (done.status, done.error) == (Job.Status.FAILED, "22 games need at least 23 players")


def test_claiming_and_recording_a_job_survive_a_dropped_connection(no_pauses, monkeypatch):
    job = Job.objects.create(kind="health")
    real_name = jobs._worker_name
    names = []

    def worker_name():  # called inside the claim's transaction: the first one drops
        names.append(real_name())
        if len(names) == 1:
            connection_terminate()
        return names[-1]

    monkeypatch.setattr(jobs, "_worker_name", worker_name)

    def work(job, progress):
        connection_terminate()  # the outcome's record finds the connection gone
        return {"done": True}

    done = job_run(job_id=job.pk, work=work)
    assert len(names) == 2
    assert (done.status, done.result, done.attempts) == (Job.Status.SUCCEEDED, {"done": True}, 1)
