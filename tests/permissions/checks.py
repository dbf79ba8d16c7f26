"""Checks of an allowed response beyond its status: that it is about side A's object.

Game and table numbers are the same in every event, so a lookup that lost its event filter
finds table 1 of another event (B's, or another of A's): the status alone cannot tell.
"""

from __future__ import annotations

from tests.permissions.recipes import table_one
from tournaments.models import CardLine


def _names(w, side: str) -> list[str]:
    seats = table_one(w, side).seats.select_related("entry__player")
    return [seat.entry.player.name for seat in seats]


def shows_table_one(w, response) -> None:
    """Table 1 of game 1 of A's event in play, not of B's (the numbers are the same)."""
    text = response.content.decode()
    missing = [name for name in _names(w, "A") if name not in text]
    foreign = [name for name in _names(w, "B") if name in text]
    assert not missing and not foreign, (
        f"the answer is not about A's table 1: A's players missing {missing}, "
        f"B's players shown {foreign}"
    )


def wrote_at_table_one(w, response) -> None:
    """The line just entered (a paper card, a correction, a cross-check) is at table 1 of
    game 1 of A's event in play."""
    newest = CardLine.objects.select_related("seat__table").order_by("-pk").first()
    assert newest.seat.table_id == table_one(w, "A").pk, (
        f"the newest line is at table {newest.seat.table.number} of another game "
        f"(game {newest.seat.game_id}), not at A's table 1"
    )
