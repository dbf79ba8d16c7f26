"""Every row of the tables a request could change, to compare before and after it.

``state()`` reads them all (the world is small: some hundreds of rows, one query a table);
``state(events=..., clubs=...)`` only the rows of those events and clubs: side B's, which a
request about side A must never touch. Accounts, sessions and the API's sign-in tokens are
left out: signing the matrix's clients in writes them (``last_login``).

``rows_written()`` is the database's own count of rows this connection has inserted, updated
or deleted (SQLite's ``total_changes()``; PostgreSQL's counters of the current transaction):
when a refused request leaves it where it was, nothing was written and the tables need not be
read again.
"""

from __future__ import annotations

from django.db import connection

from tournaments.models import (
    AccountLink,
    AuditEntry,
    CardLine,
    Club,
    ClubAward,
    ClubRole,
    Entry,
    Event,
    EventRole,
    Finalisation,
    Game,
    Job,
    JudgeCall,
    Match,
    MatchGame,
    MatchLine,
    MrpAward,
    NightCard,
    Notice,
    Player,
    PlayerMerge,
    Playoff,
    PlayoffSeed,
    RecordChange,
    Ruling,
    Seat,
    StandingsSnapshot,
    Table,
    TiePlayoff,
)

# model: the path from its rows to their event (None: not an event's rows)
BY_EVENT = {
    Event: "pk",
    EventRole: "event",
    Entry: "event",
    Game: "event",
    Table: "game__event",
    Seat: "game__event",
    CardLine: "seat__game__event",
    StandingsSnapshot: "event",
    TiePlayoff: "event",
    Notice: "entry__event",
    JudgeCall: "table__game__event",
    Ruling: "event",
    Playoff: "event",
    PlayoffSeed: "playoff__event",
    Match: "playoff__event",
    MatchGame: "match__playoff__event",
    MatchLine: "match_game__match__playoff__event",
    AuditEntry: "event",
    Finalisation: "event",
    MrpAward: "event",
    NightCard: "event",
}
BY_CLUB = {Club: "pk", ClubRole: "club", ClubAward: "club"}
GLOBAL = (Job, Player, PlayerMerge, AccountLink, RecordChange)


def _rows(model, **where) -> list[tuple]:
    return list(model.objects.filter(**where).order_by("pk").values_list())


def state(*, events=None, clubs=None) -> dict[str, list[tuple]]:
    """The rows of every table (see the module), or only those of ``events`` and ``clubs``."""
    if events is None:
        return {m.__name__: _rows(m) for m in (*BY_EVENT, *BY_CLUB, *GLOBAL)}
    found = {m.__name__: _rows(m, **{f"{path}__in": events}) for m, path in BY_EVENT.items()}
    found.update({m.__name__: _rows(m, **{f"{path}__in": clubs}) for m, path in BY_CLUB.items()})
    return found


ROWS_WRITTEN = {
    "sqlite": "SELECT total_changes()",
    "postgresql": "SELECT COALESCE(SUM(n_tup_ins + n_tup_upd + n_tup_del), 0) "
    "FROM pg_stat_xact_user_tables",
}


def rows_written() -> int | None:
    """Rows written by this connection so far (see the module); None if the database cannot
    say."""
    sql = ROWS_WRITTEN.get(connection.vendor)
    if sql is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


def side_b(world) -> dict[str, list[tuple]]:
    """Side B's rows: its events (a club night's included) and its club."""
    B = world.B
    events = Event.objects.filter(pk__in=[B.reg.pk, B.play.pk, B.cut.pk]) | Event.objects.filter(
        club=B.club
    )
    return state(events=list(events.values_list("pk", flat=True)), clubs=[B.club.pk])


def differences(before: dict, after: dict) -> list[str]:
    """The tables whose rows changed, each with how many rows were added, removed or changed."""
    changed = []
    for name in before:
        if before[name] == after[name]:
            continue
        old, new = set(map(repr, before[name])), set(map(repr, after[name]))
        if old != new:
            changed.append(f"{name} (-{len(old - new)} +{len(new - old)} rows)")
    return changed
