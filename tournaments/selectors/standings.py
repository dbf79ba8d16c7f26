"""The live standings: an event's verified card lines ranked this moment.

Pages read the stored snapshot (``StandingsSnapshot``, written by the standings job in
``services/standings.py``); the services that must decide on the lines as they are now (the
cut guard, building the playoff, the ledger) read here. The ranking itself is pure
(``tournaments.core.standings``).

- *line*: one player's verified result of one game, with the opponent at that table.
- *entrant*: a player who started the qualifying round (withdrawals included): the field the
  qualifier ratio is taken of. In a doubles event a team is ranked on its card, kept on its
  first partner's seat (``core.pairing_teams``): its row is that entry's, named by the team.
"""

from __future__ import annotations

from django.db.models import Q

from tournaments.core.standings import Line, Playoff, Standings, compute_standings
from tournaments.models import CardLine, Entry, Event, Seat, TiePlayoff


def standings_lines(*, event: Event) -> list[Line]:
    """Every current verified line with its opponent, in two queries."""
    rows = list(
        CardLine.objects.filter(seat__game__event=event, kind=CardLine.Kind.VERIFIED, current=True)
        .order_by()
        .values_list(
            "seat__entry_id", "seat__game__number", "seat__table_id", "game_points", "plus", "minus"
        )
    )
    opponents = _opponents(event)
    return [
        Line(
            entry_id=entry,
            game=number,
            game_points=points,
            plus=plus,
            minus=minus,
            opponent_id=opponents.get((table, entry)) if table else None,
            won=points > 0,
        )
        for entry, number, table, points, plus, minus in rows
    ]


def _opponents(event: Event) -> dict[tuple[int, int], int]:
    """(table id, entry id) -> the other player at that table."""
    seated: dict[int, list[int]] = {}
    tables = Seat.objects.filter(game__event=event, table__isnull=False, position__lte=2)
    tables = tables.order_by()  # the two cards' seats (a doubles table's teams)
    for table, entry in tables.values_list("table_id", "entry_id"):
        seated.setdefault(table, []).append(entry)
    pairs = {}
    for table, entries in seated.items():
        if len(entries) == 2:
            first, second = entries
            pairs[(table, first)], pairs[(table, second)] = second, first
    return pairs


def standings_entrants(*, event: Event) -> list[int]:
    """Everyone who started the qualifying round, withdrawals included: in a doubles event
    each team once, as its first partner's entry (the team's card seat)."""
    card_seats = Q(seats__position__isnull=True) | Q(seats__position__lte=2)
    return list(
        Entry.objects.filter(card_seats, event=event, seats__isnull=False)
        .distinct()
        .values_list("pk", flat=True)
    )


def standings_live(*, event: Event, lines: list[Line] | None = None) -> Standings:
    """The standings on the verified lines as they are this moment (``lines`` when the caller
    has read them already)."""
    playoffs = [
        Playoff(winner, loser)
        for winner, loser in TiePlayoff.objects.filter(event=event)
        .order_by("created_at")
        .values_list("winner_id", "loser_id")
    ]
    return compute_standings(
        lines=standings_lines(event=event) if lines is None else lines,
        entrants=standings_entrants(event=event),
        qualifier_ratio=event.qualifier_ratio,
        playoffs=playoffs,
    )


def standings_qualifiers(*, event: Event) -> set[int]:
    """Who is above the cut on the verified lines as they are this moment."""
    return {row.entry_id for row in standings_live(event=event).rows if row.qualifies}
