"""Pairing a doubles event: the pairing core (``pairing``) pairs teams as it pairs players, and
this turns its units into seats and a doubles game's seats back into units.

Terms:
- unit: what the pairing core pairs: a team's id (any integer standing for two entries).
- partners: a team's two entries, in a fixed order (the first entered first).
- team table: four seats, partners opposite: the first unit's partners at positions 1 and 3,
  the second's at 2 and 4, so position 1 deals or cuts first as at a table of two.
- sitting-out team: both partners sit out, at positions 1 and 3 without a table.
- card seat: a team writes one card, on its first partner's seat (position 1 or 2, the same
  partner every game): either partner reports it, and it is what is checked, cross-checked
  and ranked. ``card_position`` gives a seat's card position.
Pure: plain integers and tuples, no database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tournaments.core.pairing import GamePairing

Partners = tuple[int, int]


def team_table_seats(first: Partners, second: Partners) -> list[tuple[int, int]]:
    """(position, entry) for a table of two teams, partners opposite."""
    return [(1, first[0]), (2, second[0]), (3, first[1]), (4, second[1])]


def team_sit_out_seats(team: Partners) -> list[tuple[int, int]]:
    """(position, entry) for a sitting-out team."""
    return [(1, team[0]), (3, team[1])]


def team_history(
    seats: Iterable[tuple[int, int | None, int | None, int]], team_of: Mapping[int, int]
) -> list[GamePairing]:
    """Earlier games as the core reads them, in units: ``seats`` are (game, table, position,
    entry) rows of a doubles event; an entry's unit is ``team_of[entry]``. A table's first unit
    is the team at position 1; an entry with no team (it never played as one) is left out."""
    tables: dict[int, dict[int, dict[int, int]]] = {}
    sit_outs: dict[int, int] = {}
    for game, table, position, entry in seats:
        unit = team_of.get(entry)
        if unit is None:
            continue
        if table is None:
            sit_outs[game] = unit
        else:
            tables.setdefault(game, {}).setdefault(table, {})[position] = unit
    history = []
    for game in sorted(set(tables) | set(sit_outs)):
        pairs = []
        for _, units in sorted(tables.get(game, {}).items()):
            first, second = units.get(1), units.get(2)
            if first is not None and second is not None and first != second:
                pairs.append((first, second))
        history.append(GamePairing(tables=tuple(pairs), sit_out=sit_outs.get(game)))
    return history


def card_position(position: int | None) -> int | None:
    """The position of the card seat for a seat at ``position``: a partner at 3 or 4 writes
    on the seat opposite (1 or 2); a seat at 1 or 2, or a player's sit-out, is its own."""
    if position is None or position <= 2:
        return position
    return position - 2
