"""The database holds every constraint and index the models declare (issue 24's review):
migration 0023 took the card line's seat index away with Django's ``AlterField(db_index=False)``,
which drops every single-column btree index on that column, and so also dropped the two unique
indexes that keep one current report and one current verified line per seat. Django's own
migration state still listed them, so no ``makemigrations`` check could tell."""

import importlib
import re

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, transaction

pytestmark = pytest.mark.django_db


def _declared():
    for model in apps.get_app_config("tournaments").get_models():
        meta = model._meta
        if not meta.managed or meta.proxy:
            continue
        for item in [*meta.constraints, *meta.indexes]:
            yield meta.db_table, item.name


def _names(cursor, table: str) -> set[str]:
    if connection.vendor != "sqlite":
        return set(connection.introspection.get_constraints(cursor, table))
    # Django's SQLite introspection fails on some of these tables' SQL: read it directly.
    cursor.execute("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = %s", [table])
    names = set()
    for kind, name, sql in cursor.fetchall():
        if kind == "index":
            names.add(name)
        elif kind == "table":
            names.update(re.findall(r'CONSTRAINT "([^"]+)"', sql))
    return names


def test_every_declared_constraint_and_index_is_in_the_database():
    missing = []
    with connection.cursor() as cursor:
        found = {}
        for table, name in _declared():
            if table not in found:
                found[table] = _names(cursor, table)
            if name not in found[table]:
                missing.append(f"{table}.{name}")
    where = f"the {connection.vendor} database"
    assert not missing, f"declared by the models, not in {where}: {missing}"


@pytest.mark.django_db(transaction=True)
def test_0024_makes_the_indexes_again_and_keeps_each_seats_newest_line(event_in_play, capsys):
    """On a database that 0023 left without them, with a seat holding two current reports."""
    if connection.vendor != "postgresql":
        pytest.skip("0023 dropped them on PostgreSQL only; SQLite rebuilt the table with them")
    from tournaments.models import CardLine, Seat

    restore = importlib.import_module(
        "tournaments.migrations.0024_card_line_unique_per_seat_again"
    )._restore

    def migrate_0024():
        with connection.schema_editor() as editor:
            restore(apps, editor)

    event = event_in_play(10)
    seat = Seat.objects.filter(game__event=event, table__isnull=False).first()
    try:
        with connection.cursor() as cursor:
            cursor.execute("DROP INDEX one_current_report_per_seat")
            cursor.execute("DROP INDEX one_verified_line_per_seat")
        older, newer = (
            CardLine.objects.create(
                seat=seat, kind="reported", game_points=2, plus=plus, source="player"
            )  # fmt: skip
            for plus in (20, 25)
        )
        migrate_0024()
    finally:
        migrate_0024()  # never leave the database without them for the next tests
    assert list(CardLine.objects.filter(seat=seat, current=True)) == [newer]
    assert f"seat {seat.pk}: 1 older current reported line(s) retired" in capsys.readouterr().out
    with connection.cursor() as cursor:
        names = _names(cursor, CardLine._meta.db_table)
    assert {"one_current_report_per_seat", "one_verified_line_per_seat"} <= names
    with pytest.raises(IntegrityError), transaction.atomic():
        CardLine.objects.create(seat=seat, kind="reported", game_points=0, minus=3, source="player")
    older.refresh_from_db()
    assert older.current is False
