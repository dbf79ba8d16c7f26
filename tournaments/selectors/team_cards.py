"""A doubles partner's running card: the team's results, read from the team's card.

A team writes one card, on its first partner's seat (``core.pairing_teams``): the partner at
position 3 or 4 (or 3 when the team sits out) reads the card seat opposite. The rows and the
current game's lines are those of ``selectors.results.entry_card``, so the player's page and
API show a partner the team's game as they show a player their own; the opponent is the other
team, by its name.
"""

from __future__ import annotations

from tournaments.core.pairing_teams import card_position
from tournaments.models import CardLine, Seat
from tournaments.selectors.results import IN_PLAY, CardRow, RunningCard


def team_entry_card(*, entry) -> RunningCard:
    """``entry_card`` for a partner in a doubles event, in four queries."""
    seats = list(
        Seat.objects.filter(entry=entry, game__status__in=IN_PLAY)
        .select_related("game__event", "table")
        .order_by("game__number")
    )
    current = seats[-1] if seats else None
    games = [seat.game_id for seat in seats]
    card_seats = {
        (seat.game_id, seat.table_id, seat.position): seat
        for seat in Seat.objects.filter(game_id__in=games, position__lte=2).select_related(
            "entry__team"
        )
    }
    lines: dict[int, dict[str, CardLine]] = {}
    for line in CardLine.objects.filter(seat__in=list(card_seats.values()), current=True):
        lines.setdefault(line.seat_id, {})[line.kind] = line
    rows, mine, theirs = [], {}, {}
    for seat in seats:
        position = card_position(seat.position) or 1
        card = card_seats.get((seat.game_id, seat.table_id, position))
        other = (
            card_seats.get((seat.game_id, seat.table_id, 3 - position)) if seat.table_id else None
        )
        kinds = lines.get(card.pk, {}) if card else {}
        line = kinds.get("verified") or kinds.get("reported")
        opponent = _entrant_name(other) if other else "Sits out"
        number = seat.table.number if seat.table else None
        rows.append(CardRow(seat.game.number, number, opponent, line, "verified" in kinds))
        if seat is current:
            mine = kinds
            theirs = lines.get(other.pk, {}) if other else {}
    if current is not None:
        current.entry = entry
        current.game.event = entry.event
    return RunningCard(rows, current, mine, theirs)


def _entrant_name(seat: Seat) -> str:
    team = seat.entry.team
    return team.name if team is not None else seat.entry.name
