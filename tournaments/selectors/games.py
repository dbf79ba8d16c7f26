"""Reading a game's pairings: by table (the director's sheet) and by name (the lobby list)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from tournaments.models import Event, Game, Seat, Table

VISIBLE_TO_ALL = (Game.Status.PUBLISHED, Game.Status.CLOSED)


@dataclass(frozen=True)
class TableRow:
    number: int
    first: str  # deals or cuts first
    first_entry_id: int
    second: str
    second_entry_id: int


@dataclass(frozen=True)
class NameRow:
    name: str
    entry_id: int
    table: int | None  # None: sits out
    opponent: str


@dataclass(frozen=True)
class Pairings:
    game: Game
    tables: list[TableRow]
    sit_out: NameRow | None
    by_name: list[NameRow]


def games_of_event(*, event: Event) -> QuerySet[Game]:
    return event.games.select_related("job").order_by("number")


def game_get(*, event: Event, number: int) -> Game | None:
    return event.games.select_related("job").filter(number=number).first()


def game_current(*, event: Event) -> Game | None:
    """The event's current game: the latest one visitors may see (published or closed)."""
    return event.games.filter(status__in=VISIBLE_TO_ALL).order_by("-number").first()


def table_get(*, event: Event, number: int, table_number: int) -> Table | None:
    """Table ``table_number`` of game ``number`` of the event, if there is one."""
    return (
        Table.objects.select_related("game__event")
        .filter(game__event=event, game__number=number, number=table_number)
        .first()
    )


def game_pairings(*, game: Game) -> Pairings:
    """Tables in number order and every player alphabetically, in one query."""
    seats = (
        Seat.objects.filter(game=game)
        .select_related("table", "entry__player")
        .order_by("table__number", "position")
    )
    by_table: dict[int, list[Seat]] = {}
    sit_out = None
    for seat in seats:
        if seat.table_id is None:
            sit_out = NameRow(seat.entry.name, seat.entry_id, None, "")
        else:
            by_table.setdefault(seat.table.number, []).append(seat)
    tables = [
        TableRow(n, a.entry.name, a.entry_id, b.entry.name, b.entry_id)
        for n, (a, b) in sorted(by_table.items())
    ]
    names = [NameRow(t.first, t.first_entry_id, t.number, t.second) for t in tables]
    names += [NameRow(t.second, t.second_entry_id, t.number, t.first) for t in tables]
    if sit_out:
        names.append(sit_out)
    names.sort(key=lambda row: (row.name.casefold(), row.entry_id))
    return Pairings(game=game, tables=tables, sit_out=sit_out, by_name=names)
