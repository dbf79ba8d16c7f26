"""A player's report by their private link, in as few statements as the rules allow.

During a weekend's burst a thousand phones report within a minute or two, and each report is a
transaction that holds its table's row lock: its cost is the event's ceiling. ``report_by_link``
is the same report as ``services.results.card_line_report`` (the same rules: ``report_refusal``,
the engine's line, ``agreed_lines``; the same lock), run as:

1. one statement finds the link's entry, its current seat, the game, the event and the table, and
   locks the table's row (``FOR UPDATE OF`` the table);
2. one reads the table's seats, their players' names and current lines (after the lock, so a
   report that was waiting sees the line the other one saved);
3. one inserts the new line, and the two verified lines when the cards now agree, returning their
   ids (a line reported again first retires the old one: one more);
4. when the game is verified, the table's update goes in that same statement on PostgreSQL (a
   data-modifying ``WITH``; a second statement elsewhere); the standings job is asked for
   after the commit, outside the transaction, and without a database round trip while one is
   known to be waiting (``standings_follow``);
5. with an ``Idempotency-Key``, (link, key) is kept with the answer (``services.idempotency``)
   in that same statement on PostgreSQL (a second data-modifying ``WITH``), in one of its own
   elsewhere.

Plus BEGIN and COMMIT: 5 statements on PostgreSQL, for a keyed report that verifies its table
too. The answer is built from what the transaction holds (``selectors.report.report_saved``),
before the insert that keeps it, and is never read again. Anything else (an unknown link, no game,
a sit-out, a doubles table, where a report goes on the team's card) is not a report this path
takes: ``report_by_link`` returns None and the caller takes the general path.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.db import IntegrityError, connection
from django.db.models import FilteredRelation, OuterRef, Q, Subquery
from django.db.models.sql import InsertQuery
from django.utils import timezone

from scoring.games import CardLine as EngineLine
from tournaments.errors import ServiceError
from tournaments.models import ENTRANT_NAME, CardLine, Entry, KeptAnswer, Seat, Table
from tournaments.selectors.access import entry_link_used
from tournaments.selectors.compiled import Compiled, prepared_rows
from tournaments.selectors.report import report_saved
from tournaments.selectors.results import IN_PLAY
from tournaments.services.conflicts import retry_on_conflict
from tournaments.services.idempotency import (
    Answer,
    kept_answer_new,
    kept_as_replay,
    kept_replay,
)
from tournaments.services.results import agreed_lines, line_checked, line_preview, report_allowed
from tournaments.services.standings import standings_follow

REPORTED, VERIFIED = CardLine.Kind.REPORTED, CardLine.Kind.VERIFIED


def _locked_seat(token: str, key: str):
    latest = (
        Seat.objects.filter(entry_id=OuterRef("entry_id"), game__status__in=IN_PLAY)
        .order_by("-game__number")
        .values("pk")[:1]
    )
    return (
        Seat.objects.filter(entry__report_token=token, table__isnull=False, pk=Subquery(latest))
        .annotate(kept=Subquery(_kept(key).values("pk")[:1]))
        .select_related("entry", "game__event", "table")
        .select_for_update(of=("table",))
        .order_by()
    )


def _kept(key: str):
    """The answer kept for this link and key (a report sent again): read in the same statement,
    so a phone's second try costs one statement, not a write rolled back."""
    return KeptAnswer.objects.filter(entry_id=OuterRef("entry_id"), key=key)


def _table_cards(table_id: int):
    return (
        Seat.objects.filter(table_id=table_id)
        .annotate(now=FilteredRelation("card_lines", condition=Q(card_lines__current=True)))
        .order_by("position", "now__id")
        .values_list(
            "pk",
            f"entry__{ENTRANT_NAME}",
            "now__id",
            "now__kind",
            "now__game_points",
            "now__plus",
            "now__minus",
        )
    )


_LOCKED_SEAT = Compiled(_locked_seat, str, str)
_TABLE_CARDS = Compiled(_table_cards, int)


@dataclass(frozen=True)
class _Saved:
    answer: dict | None
    line_id: int | None
    replayed: bool = False
    status: int = 201


def report_by_link(
    *,
    token: str,
    won: bool,
    spread: int,
    game_number: int | None = None,
    key: str | None = None,
    print_: str = "",
    status: int = 201,
) -> Answer | None:
    """Save "I won / I lost by ``spread``" for the link ``token`` (see the module's note): the
    answer (``Answer``; a replay when ``key`` was kept before), or None when this is not a
    report of a game at a table (the caller's general path then answers). A refusal is a
    ``ServiceError``, a key used for another report a ``Conflict``."""
    try:
        saved = _report(token, won, spread, game_number, key, print_, status)
    except (IntegrityError, ServiceError):
        replay = kept_replay_by_link(token=token, key=key, print_=print_) if key else None
        if replay is None:
            raise
        return replay
    if saved is None:
        return None
    return Answer(saved.status if saved.replayed else status, saved.answer, saved.replayed)


def kept_replay_by_link(*, token: str, key: str, print_: str) -> Answer | None:
    entry_id = Entry.objects.filter(report_token=token).values_list("pk", flat=True).first()
    return kept_replay(entry_id=entry_id, key=key, print_=print_) if entry_id else None


def _still_saved(saved: _Saved | None) -> _Saved | None:
    """After a commit in doubt: the attempt's answer if its line is stored."""
    if saved is not None and saved.replayed:
        return saved
    if saved is None or not CardLine.objects.filter(pk=saved.line_id).exists():
        return None
    return saved


@retry_on_conflict(saved=_still_saved)
def _report(token, won, spread, game_number, key, print_, status) -> _Saved | None:
    seat = _LOCKED_SEAT.first(token, key or "")
    if seat is None:
        return None
    if seat.kept is not None:  # sent again: the first answer, nothing written
        replay = kept_as_replay(KeptAnswer.objects.get(pk=seat.kept), print_=print_)
        return _Saved(replay.body, None, replayed=True, status=replay.status)
    if seat.game.event.in_teams:  # a doubles table: the team's card (``card_line_report``)
        return None
    table, entry = seat.table, seat.entry
    table.game = seat.game
    report_allowed(seat, table, game_number, by_player=True)
    line, _ = line_preview(event=seat.game.event, won=won, spread=spread)
    line = line_checked(seat, line)
    entry_link_used(entry=entry)
    names, reported, verified, retire = {}, {}, False, None
    for seat_id, name, line_id, kind, points, plus, minus in _TABLE_CARDS.rows(table.pk):
        names[seat_id] = name
        if kind == REPORTED and seat_id == seat.pk:
            retire = line_id
        elif kind == REPORTED:
            reported[seat_id] = EngineLine(points, plus, minus)
        verified = verified or kind == VERIFIED
    if retire is not None:
        CardLine.objects.filter(pk=retire).update(current=False)
    mine = CardLine(
        seat_id=seat.pk,
        kind=REPORTED,
        game_points=line.game_points,
        plus=line.plus,
        minus=line.minus,
        source=CardLine.Source.PLAYER,
        reason="",
    )
    reported[seat.pk] = line
    in_order = dict(sorted(reported.items(), key=lambda item: list(names).index(item[0])))
    agreed = agreed_lines(in_order, verified, seat.game.event)
    if agreed:
        table.status, table.verified_at = Table.Status.VERIFIED, timezone.now()
    theirs = next((r for s, r in reported.items() if s != seat.pk), None)
    opponent = next((n for s, n in names.items() if s != seat.pk), "")
    answer = report_saved(table=table, line=mine, theirs=_as_card_line(theirs), opponent=opponent)
    kept = None
    if key:
        kept = kept_answer_new(
            entry_id=entry.pk, key=key, print_=print_, status=status, answer=answer
        )
        answer = kept.answer
    _lines_insert([mine, *agreed], verified=table if agreed else None, kept=kept)
    if agreed:
        standings_follow(event=seat.game.event)
    return _Saved(answer, mine.pk)


def _lines_insert(lines: list[CardLine], *, verified: Table | None, kept: KeptAnswer | None):
    """The lines in one ``INSERT ... RETURNING`` their ids. With ``verified`` (that table's new
    status) and ``kept`` (the answer kept for the report's key), on PostgreSQL in the same
    statement (data-modifying ``WITH``s: one round trip, not three), run as a prepared
    statement (its shape is one of a few, planned once per connection); elsewhere in
    statements of their own. A key kept meanwhile fails the whole statement."""
    if connection.vendor != "postgresql":
        CardLine.objects.bulk_create(lines)
        if verified is not None:
            verified.save(update_fields=["status", "verified_at"])
        if kept is not None:
            kept.save(force_insert=True)
        return
    quote, meta = connection.ops.quote_name, Table._meta
    parts, values = [], []
    if verified is not None:
        parts.append(
            f"verified AS (UPDATE {quote(meta.db_table)} SET "
            f"{quote(meta.get_field('status').column)} = %s, "
            f"{quote(meta.get_field('verified_at').column)} = %s "
            f"WHERE {quote(meta.pk.column)} = %s RETURNING 1)"
        )
        values += [verified.status, verified.verified_at, verified.pk]
    if kept is not None:
        sql, params = _insert_sql([kept])
        parts.append(f"kept AS ({sql} RETURNING 1)")
        values += params
    sql, params = _insert_sql(lines, returning=True)
    if parts:
        sql = f"WITH {', '.join(parts)} {sql}"
    ids = prepared_rows(sql, (*values, *params))
    for line, (pk,) in zip(lines, ids, strict=True):
        line.pk = pk
        line._state.adding, line._state.db = False, connection.alias


def _insert_sql(rows: list, returning: bool = False) -> tuple[str, list]:
    """Django's ``INSERT`` of new ``rows`` of one model, with ``RETURNING`` their ids; unsent.
    The SQL is Django's, made once per model, row count and ``returning`` (``_insert_shape``);
    the parameters are each field's value prepared as ``save`` prepares it (defaults,
    ``auto_now_add``, JSON): building the whole statement through Django's compiler at every
    report cost more than PostgreSQL took to run it."""
    sql, fields, by_column = _insert_shape(type(rows[0]), len(rows), returning)
    values = [
        [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields] for row in rows
    ]
    if by_column:  # PostgreSQL's INSERT ... SELECT * FROM UNNEST(...): one array per column
        return sql, [list(column) for column in zip(*values, strict=True)]
    return sql, [value for row in values for value in row]


@functools.cache
def _insert_shape(model, count: int, returning: bool) -> tuple[str, tuple, bool]:
    """Django's SQL to insert ``count`` new rows of ``model``, its fields in the SQL's order, and
    whether its parameters are one array a column (``UNNEST``) or one value a field and row."""
    meta = model._meta
    fields = tuple(f for f in meta.local_concrete_fields if not f.primary_key)
    query = InsertQuery(model)
    query.insert_values(fields, [model() for _ in range(count)])
    compiler = query.get_compiler(connection=connection)
    if returning:
        compiler.returning_fields = [meta.pk]
    ((sql, params),) = compiler.as_sql()
    by_column = (
        len(params) == len(fields) and count > 1 and all(isinstance(p, list) for p in params)
    )
    if not by_column and len(params) != len(fields) * count:
        raise ValueError(f"an INSERT of {model.__name__} that is not one value a field and row")
    return sql, fields, by_column


def _as_card_line(line: EngineLine | None) -> CardLine | None:
    if line is None:
        return None
    return CardLine(kind=REPORTED, game_points=line.game_points, plus=line.plus, minus=line.minus)
