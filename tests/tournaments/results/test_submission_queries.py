"""The player's report by link takes a fixed, small number of statements, the same whatever the
size of the field (issue 24: a report in at most 6 statements; ``services.report``).

Counted as PostgreSQL runs them, without the transaction's own BEGIN and COMMIT (here the test's
SAVEPOINT and RELEASE stand in for them). On PostgreSQL the first card of a table is 2: the
link, seat, game, event and table read with the table's row locked, with the table's seats,
names and current lines in the same statement; then the line inserted, in a statement that also
returns the table's current lines as they are after the lock (a report of the same table that
committed while this one waited for the lock is then seen, and the report decided again:
``test_report_race.py``). 4 with BEGIN and COMMIT. On SQLite the seats and lines are a
statement of their own: 3. The card that verifies the table also writes its two verified lines
in the same INSERT, and on PostgreSQL the table's new status in that same statement (a second
one on SQLite). The standings job is asked for after the commit, outside the transaction
(``standings_follow``: one lookup, and an insert when none waits; none while a job this
process asked for is known to be waiting). A phone's report carries an Idempotency-Key: on
PostgreSQL (link, key) and its answer are kept in that same INSERT (one more statement on
SQLite), so a phone's report is 4 with BEGIN and COMMIT, verifying or not.
"""

from datetime import timedelta

import pytest
from django.db import DatabaseError, connection
from django.test.utils import CaptureQueriesContext

from tournaments.models import CardLine, Job, KeptAnswer, Table
from tournaments.services import standings as standings_service

pytestmark = pytest.mark.django_db


def _first_card() -> int:
    return 2 if connection.vendor == "postgresql" else 3


def _second_card() -> int:
    return 2 if connection.vendor == "postgresql" else 4


def _keyed() -> int:
    """A report sent with an Idempotency-Key also keeps (link, key) with its answer: in the
    lines' INSERT on PostgreSQL, an insert of its own on SQLite."""
    return 0 if connection.vendor == "postgresql" else 1


def _statements(client, seat, body, key=None, status=201) -> list[str]:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(
            f"/api/v1/report/{seat.entry.report_token}/",
            body,
            content_type="application/json",
            **headers,
        )
    assert answer.status_code == status, answer.content
    return [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]


def _seats(event, number=1):
    table = Table.objects.get(game__event=event, game__number=1, number=number)
    return table, *table.seats.select_related("entry").order_by("position")


@pytest.mark.parametrize("players", [10, 40])
def test_a_report_takes_a_fixed_number_of_statements(client, event_in_play, players):
    event = event_in_play(players)
    table, a, b = _seats(event)
    first = _statements(client, a, {"result": "won", "margin": 20})
    assert len(first) == _first_card(), first
    # The locked read selects what a report reads: not the event's money or playoff settings.
    read = first[0]
    assert '"tournaments_event"."target_score"' in read, read
    unread = ("event", "entry_fee_cents"), ("event", "payout_percents"), ("entry", "email")
    assert not [c for t, c in unread if f'"tournaments_{t}"."{c}"' in read], read
    if connection.vendor == "postgresql":  # SQLite has no row locks: Django leaves it out
        assert first[0].endswith('FOR UPDATE OF "tournaments_table"'), first[0]
    insert = first[-1]
    if connection.vendor == "postgresql":  # the table's current lines read again after the lock
        assert insert.startswith("WITH now AS (SELECT array_agg(") and "json_agg(" in first[0]
        insert = insert[insert.index("INSERT") :]
    assert insert.startswith('INSERT INTO "tournaments_cardline"') and "RETURNING" in insert
    second = _statements(client, b, {"result": "lost", "margin": 20})
    assert len(second) == _second_card(), second
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED and table.verified_at is not None
    lines = CardLine.objects.filter(seat__table=table, current=True)
    assert sorted(
        lines.values_list("seat__position", "kind", "game_points", "plus", "minus")
    ) == [(1, "reported", 2, 20, 0), (1, "verified", 2, 20, 0), (2, "reported", 0, 0, 20),
          (2, "verified", 0, 0, 20)]  # fmt: skip


def test_a_report_sent_again_retires_the_first_line_in_one_more(client, event_in_play):
    _, a, _ = _seats(event_in_play(10))
    _statements(client, a, {"result": "won", "margin": 20})
    again = _statements(client, a, {"result": "won", "margin": 25})
    assert len(again) == _first_card() + 1, again
    assert again[-2].startswith('UPDATE "tournaments_cardline"'), again


def test_a_keyed_report_keeps_its_answer_and_its_replay_writes_nothing(client, event_in_play):
    table, a, b = _seats(event_in_play(10))
    key = "c0ffee00-1111-4222-8333-444455556666"
    first = _statements(client, a, {"result": "won", "margin": 20}, key)
    assert len(first) == _first_card() + _keyed(), first
    if connection.vendor == "postgresql":
        assert first[-1].startswith("WITH now AS"), first[-1]
        assert ', kept AS (INSERT INTO "tournaments_keptanswer"' in first[-1], first[-1]
    second = _statements(client, b, {"result": "lost", "margin": 20}, key)
    assert len(second) == _second_card() + _keyed(), second
    if connection.vendor == "postgresql":  # the table's status, the key and the lines: one
        assert second[-1].startswith("WITH now AS"), second[-1]
        assert ", verified AS (UPDATE" in second[-1], second[-1]
        assert 'kept AS (INSERT INTO "tournaments_keptanswer"' in second[-1], second[-1]
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    kept = KeptAnswer.objects.get(entry=b.entry, key=key)
    assert kept.status_code == 201 and kept.answer["verified"] is True
    assert KeptAnswer.objects.get(entry=a.entry, key=key).answer["verified"] is False
    # Sent again: the locked read, which finds the key kept, and the kept answer; nothing
    # written (a phone's second try costs 2 statements, not a write rolled back).
    replay = _statements(client, a, {"result": "won", "margin": 20}, key)
    assert len(replay) == 2, replay
    assert not any(sql.startswith(("INSERT", "UPDATE", "DELETE")) for sql in replay)


def test_the_standings_are_asked_for_after_the_commit_and_once_while_the_job_waits(
    event_in_play, django_capture_on_commit_callbacks, monkeypatch, settings
):
    """The write that verified a table asks nothing inside its transaction (which holds the
    table's lock): once it commits, a job that waits then starts after it and reads it. With a
    broker, the job waits GATHER_SECONDS before it starts: verified tables meanwhile are read
    by it, so this process asks no more until then; after, it asks again."""
    event = event_in_play(10)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    now = [1000.0]
    monkeypatch.setattr(standings_service.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(standings_service, "_waiting_until", {})
    with (
        django_capture_on_commit_callbacks() as callbacks,
        CaptureQueriesContext(connection) as inside,
    ):
        standings_service.standings_follow(event=event)
    assert inside.captured_queries == []
    assert not Job.objects.filter(kind="standings").exists()
    with CaptureQueriesContext(connection) as asked:
        callbacks[-1]()  # the write committed: a job is made and noted (not sent: no broker)
    assert any('"tournaments_job"' in q["sql"] for q in asked.captured_queries)
    job = Job.objects.get(kind="standings", key=f"event:{event.pk}")
    assert job.status == Job.Status.PENDING
    with (
        CaptureQueriesContext(connection) as skipped,  # the callbacks run inside it
        django_capture_on_commit_callbacks(execute=True),
    ):
        standings_service.standings_follow(event=event)
    assert skipped.captured_queries == []
    now[0] += 2.0  # past the job's countdown (less the margin): it may have started
    with (
        CaptureQueriesContext(connection) as again,  # the callbacks run inside it
        django_capture_on_commit_callbacks(execute=True),
    ):
        standings_service.standings_follow(event=event)
    assert len(again.captured_queries) >= 1
    assert Job.objects.filter(kind="standings").count() == 1  # the waiting one, joined


def test_a_job_past_its_countdown_is_never_counted_on(
    event_in_play, django_capture_on_commit_callbacks, monkeypatch, settings
):
    """A waiting job asked for long ago (the broker was down: it waits for the sweeper) may
    start any moment: a result verified now asks again, every time."""
    event = event_in_play(10)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(standings_service, "_waiting_until", {})
    old = standings_service.standings_request(event=event)
    Job.objects.filter(pk=old.pk).update(created_at=old.created_at - timedelta(seconds=10))
    for _ in range(2):
        with (
            CaptureQueriesContext(connection) as asked,  # the callbacks run inside it
            django_capture_on_commit_callbacks(execute=True),
        ):
            standings_service.standings_follow(event=event)
        assert len(asked.captured_queries) >= 1
    assert standings_service._waiting_until == {}


@pytest.mark.parametrize("count", [1, 3])
def test_the_report_insert_is_djangos_own(count, monkeypatch):
    """The report's INSERT (``services.report_write._insert_sql``: Django's SQL made once, the
    values prepared as ``save`` prepares them) is what Django's compiler makes for the same rows, in
    its ``VALUES`` form (one value a field and row) on every database."""
    from django.db.models.sql import InsertQuery
    from django.db.models.sql.compiler import SQLInsertCompiler
    from django.utils import timezone

    from tournaments.models import KeptAnswer
    from tournaments.services.report_write import _insert_sql

    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)  # auto_now_add: one instant for both

    def rows(seat_id):
        return [
            CardLine(
                seat_id=seat_id + n,
                kind=kind,
                game_points=2 - n % 2 * 2,
                plus=20 * (n % 2),
                minus=20 * (1 - n % 2),
                source="player",
                reason="",
            )  # fmt: skip
            for n, kind in enumerate(["reported", "verified", "verified"][:count])
        ]

    def djangos(objs, returning):
        query = InsertQuery(type(objs[0]))
        meta = type(objs[0])._meta
        query.insert_values([f for f in meta.local_concrete_fields if not f.primary_key], objs)
        compiler = SQLInsertCompiler(query, connection, connection.alias)
        if returning:
            compiler.returning_fields = [meta.pk]
        ((sql, params),) = compiler.as_sql()
        assert "UNNEST" not in sql and len(params) == len(objs) * len(query.fields)
        return sql, list(params)

    for seat_id in (7, 70):  # the SQL is made once; the values are each call's own
        assert _insert_sql(rows(seat_id), returning=True) == djangos(rows(seat_id), True)
    kept = KeptAnswer(entry_id=5, key="k-1", fingerprint="f" * 64, status_code=201,
                      answer={"verified": True, "words": "Both cards agree"})  # fmt: skip
    sql, params = _insert_sql([kept])
    expected_sql, expected = djangos([kept], False)
    assert sql == expected_sql
    assert [getattr(p, "obj", p) for p in params] == [getattr(p, "obj", p) for p in expected]


def _both_report(client, winner, loser) -> None:
    for seat, result in ((winner, "won"), (loser, "lost")):
        answer = client.post(
            f"/api/v1/report/{seat.entry.report_token}/",
            {"result": result, "margin": 20},
            content_type="application/json",
        )
        assert answer.status_code == 201, answer.content


@pytest.mark.django_db(transaction=True)
def test_a_standings_request_that_fails_after_the_commit_leaves_the_report_saved(
    client, event_in_play, monkeypatch, settings, caplog
):
    """The database refuses the standings request made once the verifying write committed:
    the report is saved and answered 201, the failure is logged, nothing is noted, and the
    next verified table asks again."""
    event = event_in_play(10)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(standings_service, "_waiting_until", {})
    asked = []

    def refused(**kwargs):
        asked.append(kwargs["key"])
        raise DatabaseError("the server refused the statement")

    monkeypatch.setattr(standings_service, "job_enqueue", refused)
    table, a, b = _seats(event)
    _both_report(client, a, b)
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    assert CardLine.objects.filter(seat__table=table, kind=CardLine.Kind.VERIFIED).count() == 2
    assert asked == [f"event:{event.pk}"]
    assert "the server refused the statement" in caplog.text
    assert standings_service._waiting_until == {}
    _, c, d = _seats(event, number=2)
    _both_report(client, c, d)
    assert asked == [f"event:{event.pk}"] * 2


def test_the_lines_read_with_the_lock_are_the_separate_reads_rows(client, event_in_play):
    """On PostgreSQL the locked read also reads the table's seats, names and current lines
    (``services.report._cards_sql``, SQL of its own): the same rows, in the same order, as the
    separate read other databases run (``_table_cards``, through the ORM)."""
    from tournaments.services.report import _LOCKED_SEAT, _TABLE_CARDS

    if connection.vendor != "postgresql":
        pytest.skip("the lines are read with the lock on PostgreSQL only")
    table, a, b = _seats(event_in_play(10))
    _statements(client, a, {"result": "won", "margin": 20})
    _statements(client, b, {"result": "lost", "margin": 20})  # verified: 4 current lines
    for seat in (a, b):
        cards = _LOCKED_SEAT.first(seat.entry.report_token, "").cards
        assert cards == [list(row) for row in _TABLE_CARDS.rows(table.pk)]
        assert len(cards) == 4 and {row[1] for row in cards} == {
            a.entry.player.name,
            b.entry.player.name,
        }


def test_a_refused_report_commits_and_keeps_the_prepared_statements(client, event_in_play):
    """A refusal decided before any write (here: the page showed another game) ends its
    transaction with a commit, not a rollback: at a ROLLBACK (a ROLLBACK TO SAVEPOINT too)
    psycopg forgets every prepared statement of the connection, and the worker's next reports
    would parse and plan each of them again."""
    _, a, b = _seats(event_in_play(10))
    _statements(client, a, {"result": "won", "margin": 12})  # the locked read is prepared
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(
            f"/api/v1/report/{b.entry.report_token}/",
            {"result": "lost", "margin": 12, "game": 2},
            content_type="application/json",
        )
    assert answer.status_code == 400 and b"game" in answer.content, answer.content
    sql = [q["sql"] for q in queries.captured_queries]
    assert not [s for s in sql if "ROLLBACK" in s], sql
    assert not CardLine.objects.filter(seat=b).exists()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            prepared = [row[0] for row in cursor.fetchall()]
        assert any("FOR UPDATE" in statement for statement in prepared)
