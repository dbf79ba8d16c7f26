"""The statement that writes a report by link (``services.report``): its new lines, and on
PostgreSQL in the same statement the table's new status, the answer kept for the phone's key
and the check that the table's lines did not change while the report waited for its lock.
Its SQL is made once per shape and process; only the values are made per report."""

from __future__ import annotations

import functools

from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.models.sql import InsertQuery
from django.db.models.sql.compiler import SQLInsertCompiler

from tournaments.models import CardLine, KeptAnswer, Seat, Table
from tournaments.selectors.compiled import prepared_rows


def db_table(model) -> str:
    """``model``'s table, quoted for this database."""
    return connection.ops.quote_name(model._meta.db_table)


class TableChanged(Exception):
    """The table's current lines changed between the locked read's start and its lock."""


def lines_insert(
    lines: list[CardLine],
    *,
    verified: Table | None,
    kept: KeptAnswer | None,
    read: tuple[int, list[int]] | None = None,
):
    """The lines in one ``INSERT ... RETURNING`` their ids. With ``verified`` (that table's new
    status) and ``kept`` (the answer kept for the report's key), on PostgreSQL in the same
    statement (data-modifying ``WITH``s: one round trip, not three), run as a prepared
    statement (its shape is one of a few, planned once per connection); elsewhere in
    statements of their own. A key kept meanwhile fails the whole statement.

    ``read``: (table id, the ids of its current lines the report was decided on), when those
    were read by the locked read (PostgreSQL), whose snapshot is taken before its lock is
    granted: a report of the same table committed while this one waited for the lock is not
    in it. The same statement returns the table's current lines as they are now, after the
    lock; if they differ, ``TableChanged`` is raised (the transaction is then rolled back and
    the report decided again on lines read after the lock)."""
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        CardLine.objects.bulk_create(lines)
        if verified is not None:
            verified.save(update_fields=["status", "verified_at"])
        if kept is not None:
            kept.save(force_insert=True)
        return
    values = []
    if read is not None:
        values.append(read[0])
    if verified is not None:
        values += [verified.status, verified.verified_at, verified.pk]
    if kept is not None:
        values += _insert_sql([kept])[1]
    values += _insert_sql(lines, returning=True)[1]
    sql = _write_sql(read is not None, verified is not None, kept is not None, len(lines))
    ids = prepared_rows(sql, tuple(values))
    if read is not None and (ids[0][1] or []) != read[1]:
        raise TableChanged
    for line, (pk, *_) in zip(lines, ids, strict=True):
        line.pk = pk
        line._state.adding, line._state.db = False, db.alias


@functools.cache
def _write_sql(read: bool, verified: bool, kept: bool, lines: int) -> str:
    """``lines_insert``'s statement on PostgreSQL for one shape (whether it checks the lines
    read, writes the table's new status and keeps an answer; how many lines), made once per
    process: building it at every report cost 1.5% of a report's instructions. Its
    parameters, in order: the table's id (``read``); the status, the time and the table's id
    (``verified``); the kept answer's fields; the lines' fields."""
    quote, meta = connection.ops.quote_name, Table._meta
    parts = []
    if read:
        parts.append(
            f"now AS (SELECT array_agg(l.id ORDER BY l.id) AS ids FROM {db_table(CardLine)} l"
            f" JOIN {db_table(Seat)} s ON s.id = l.seat_id WHERE s.table_id = %s AND l.current)"
        )
    if verified:
        parts.append(
            f"verified AS (UPDATE {quote(meta.db_table)} SET "
            f"{quote(meta.get_field('status').column)} = %s, "
            f"{quote(meta.get_field('verified_at').column)} = %s "
            f"WHERE {quote(meta.pk.column)} = %s RETURNING 1)"
        )
    if kept:
        sql, _ = _insert_shape(KeptAnswer, 1, False, connection.vendor)
        parts.append(f"kept AS ({sql} RETURNING 1)")
    sql, _ = _insert_shape(CardLine, lines, True, connection.vendor)
    if read:
        sql += ", (SELECT ids FROM now)"
    return f"WITH {', '.join(parts)} {sql}" if parts else sql


def _insert_sql(rows: list, returning: bool = False) -> tuple[str, list]:
    """Django's ``INSERT`` of new ``rows`` of one model, with ``RETURNING`` their ids; unsent.
    The SQL is Django's, made once per model, row count and ``returning`` (``_insert_shape``);
    the parameters are each field's value prepared as ``save`` prepares it (defaults,
    ``auto_now_add``, JSON): building the whole statement through Django's compiler at every
    report cost more than PostgreSQL took to run it."""
    db = connections[DEFAULT_DB_ALIAS]
    sql, fields = _insert_shape(type(rows[0]), len(rows), returning, db.vendor)
    return sql, [
        getattr(row, f.attname) if plain else f.get_db_prep_save(f.pre_save(row, True), db)
        for row in rows
        for f, plain in fields
    ]


# Fields whose value goes to PostgreSQL as the row holds it: their ``get_db_prep_save`` gives
# back the same value (a report's ints, texts and flags), so a report skips a dozen calls.
_AS_HELD = (models.IntegerField, models.CharField, models.TextField, models.BooleanField)


def _as_held(field, vendor: str) -> bool:
    if vendor != "postgresql" or getattr(field, "auto_now", False):
        return False
    if field.is_relation:
        return _as_held(field.target_field, vendor)
    return isinstance(field, _AS_HELD) and not getattr(field, "auto_now_add", False)


@functools.cache
def _insert_shape(model, count: int, returning: bool, vendor: str) -> tuple[str, tuple]:
    """Django's SQL to insert ``count`` new rows of ``model`` and its fields in the SQL's order,
    each with whether its value is sent as held (``_as_held``): one value a field and row
    (``VALUES (...), (...)``). Not the ``UNNEST`` of one array a column that Django's PostgreSQL
    compiler makes for several rows to spare the planner: this statement is prepared, planned
    once per connection, and dumping a dozen arrays at every verifying report cost more than
    the planning it spared."""
    meta = model._meta
    fields = tuple(f for f in meta.local_concrete_fields if not f.primary_key)
    query = InsertQuery(model)
    query.insert_values(fields, [model() for _ in range(count)])
    compiler = SQLInsertCompiler(query, connection, connection.alias)
    if returning:
        compiler.returning_fields = [meta.pk]
    ((sql, params),) = compiler.as_sql()
    if len(params) != len(fields) * count:
        raise ValueError(f"an INSERT of {model.__name__} that is not one value a field and row")
    return sql, tuple((f, _as_held(f, vendor)) for f in fields)
