"""The two unique indexes that keep one current report and one current verified line per seat,
again. Migration 0023 took the card line's own seat index away (``AlterField`` to
``db_index=False``), and Django then drops every single-column btree index on the column,
these two partial unique indexes included, while its migration state keeps them: PostgreSQL
databases migrated through 0023 lost them (SQLite rebuilt the table with them).

Made again where missing. Lines saved while they were missing could break them: on a seat with
more than one current line of a kind, the newest stays current and the older are retired
(``current`` false, as a report sent again or a correction retires the line before it), and
each seat so fixed is printed."""

from django.db import migrations

_KINDS = {"one_verified_line_per_seat": "verified", "one_current_report_per_seat": "reported"}
_RETIRE_OLDER = """
    WITH retired AS (
        UPDATE {table} SET current = false WHERE id IN (
            SELECT id FROM (
                SELECT id, row_number() OVER (
                    PARTITION BY seat_id ORDER BY created_at DESC, id DESC) AS newer
                FROM {table} WHERE kind = %s AND current
            ) ranked WHERE newer > 1
        ) RETURNING seat_id
    )
    SELECT seat_id, count(*) FROM retired GROUP BY seat_id ORDER BY seat_id"""


def _restore(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return  # SQLite rebuilt the table in 0023 with both
    CardLine = apps.get_model("tournaments", "CardLine")
    with connection.cursor() as cursor:
        present = set(connection.introspection.get_constraints(cursor, CardLine._meta.db_table))
    for constraint in CardLine._meta.constraints:
        kind = _KINDS.get(constraint.name)
        if kind is None or constraint.name in present:
            continue
        table = schema_editor.quote_name(CardLine._meta.db_table)
        with connection.cursor() as cursor:  # all but the newest current line of each seat
            cursor.execute(_RETIRE_OLDER.format(table=table), [kind])
            for seat_id, retired in cursor.fetchall():
                print(f"\n  seat {seat_id}: {retired} older current {kind} line(s) retired")
        schema_editor.add_constraint(CardLine, constraint)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0023_report_indexes"),
    ]

    operations = [migrations.RunPython(_restore, migrations.RunPython.noop)]
