"""Reading a game's pairings: by table (the director's sheet) and by name (the lobby list)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from tournaments.models import Event, Game, Seat, Table

VISIBLE_TO_ALL = (Game.Status.PUBLISHED, Game.Status.CLOSED)


@dataclass(frozen=True)
class TableRow:
    """One table. At a doubles table ``first`` and ``second`` are the two teams (the entry ids
    are of the partner at position 1 and 2), with each team's id and partners."""

    number: int
    first: str  # deals or cuts first
    first_entry_id: int
    second: str
    second_entry_id: int
    first_team_id: int | None = None
    first_partners: tuple[str, ...] = ()
    second_team_id: int | None = None
    second_partners: tuple[str, ...] = ()


@dataclass(frozen=True)
class NameRow:
    """One player's line: ``opponent`` is the other player, or the other team; in a doubles
    event ``team`` is the player's own team's name."""

    name: str
    entry_id: int
    table: int | None  # None: sits out
    opponent: str
    team: str = ""
    opponent_entry_id: int | None = None  # the other side's card: the player, or the team's
    opponent_partners: tuple[str, ...] = ()  # the other team's partners, in a doubles event
    partner: str = ""  # the player's own partner, in a doubles event


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


def _side(seats: list[Seat]) -> dict:
    """One side of a table: a player (one seat) or a team (the partners' two seats)."""
    team = seats[0].entry.team if len(seats) > 1 else None  # selected with the seats
    if team is None:
        return {"name": seats[0].entry.name, "entry_id": seats[0].entry_id}
    return {
        "name": team.name,
        "entry_id": seats[0].entry_id,
        "team_id": team.pk,
        "partners": tuple(seat.entry.name for seat in seats),
    }


def _table_row(number: int, seats: list[Seat]) -> TableRow:
    first = _side(seats[0::2])  # positions 1 (and 3)
    second = _side(seats[1::2])  # positions 2 (and 4)
    return TableRow(
        number,
        first["name"],
        first["entry_id"],
        second["name"],
        second["entry_id"],
        first.get("team_id"),
        first.get("partners", ()),
        second.get("team_id"),
        second.get("partners", ()),
    )


def _name_rows(table: TableRow, seats: list[Seat]) -> list[NameRow]:
    t = table
    if t.first_team_id is None:
        return [
            NameRow(t.first, t.first_entry_id, t.number, t.second, "", t.second_entry_id),
            NameRow(t.second, t.second_entry_id, t.number, t.first, "", t.first_entry_id),
        ]
    rows = []
    sides = (
        (t.first, t.second, t.second_entry_id, t.second_partners),
        (t.second, t.first, t.first_entry_id, t.first_partners),
    )
    for index, seat in enumerate(seats):
        own, other, other_id, others = sides[index % 2]
        same_side = seats[index % 2 :: 2]  # positions 1 and 3, or 2 and 4
        partner = next((s.entry.name for s in same_side if s is not seat), "")
        rows.append(
            NameRow(seat.entry.name, seat.entry_id, t.number, other, own, other_id, others, partner)
        )
    return rows


def game_pairings(*, game: Game) -> Pairings:
    """Tables in number order and every player alphabetically, in one query. A doubles table
    names its two teams and their partners (``selectors.entrants``)."""
    seats = (
        Seat.objects.filter(game=game)
        .select_related("table", "entry__player", "entry__team")
        .order_by("table__number", "position")
    )
    by_table: dict[int, list[Seat]] = {}
    sitting_out: list[Seat] = []
    for seat in seats:
        if seat.table_id is None:
            sitting_out.append(seat)
        else:
            by_table.setdefault(seat.table.number, []).append(seat)
    tables = [_table_row(n, table_seats) for n, table_seats in sorted(by_table.items())]
    names = [row for t in tables for row in _name_rows(t, by_table[t.number])]
    sit_out = None
    if sitting_out:
        side = _side(sitting_out)
        team = side["name"] if side.get("team_id") else ""  # the team's row is the team
        sit_out = NameRow(side["name"], side["entry_id"], None, "", team)
        if side.get("team_id"):
            names += [
                NameRow(s.entry.name, s.entry_id, None, "", side["name"],
                        partner=next((o.entry.name for o in sitting_out if o is not s), ""))
                for s in sitting_out
            ]  # fmt: skip
        else:
            names.append(sit_out)
    names.sort(key=lambda row: (row.name.casefold(), row.entry_id))
    return Pairings(game=game, tables=tables, sit_out=sit_out, by_name=names)
