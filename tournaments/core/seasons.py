"""Grass Roots club seasons: which season a night belongs to, the points a card earns, and the
season standings with the club's champion.

Terms:
- season: from ``start_month`` (September) to ``end_month`` (May), named by the year it
  starts in. A night outside every season (a summer night, by default) counts for none.
- card: one player's results at one club night: game points, games won and played, net
  spread.
- Grass Roots rule: how many points a card earns, named with its version, and switchable per
  club. ``acc-12:2024``: documented ACC club practice (the ACC manual's own text was not
  found): a card of 12 or more game points earns its game points (12-27 a night), a card
  below 12 earns nothing. ``every-card:2024``: every card earns its game points. A player's
  national season total also adds their best regional and best national Grass Roots
  tournament card; Pegboard does not hold those tournaments, so they are not added here.
- worst nights dropped: a club may leave each player's ``drop`` lowest nights (by Grass Roots
  points, then game points) out of their season total; nights played still counts them all.
- standings order: Grass Roots points, then games won, then net spread; equal records share a
  rank. The champion is the player alone at the top at the season's end (none while tied).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from itertools import groupby


@dataclass(frozen=True)
class GrassRootsRule:
    code: str
    threshold: int
    description: str

    def points(self, game_points: int) -> int:
        return game_points if game_points >= self.threshold else 0


RULES = {
    rule.code: rule
    for rule in (
        GrassRootsRule(
            "acc-12:2024", 12, "A card of 12 or more game points earns its game points."
        ),
        GrassRootsRule("every-card:2024", 0, "Every card earns its game points."),
    )
}


def season_of(day: date, start_month: int = 9, end_month: int = 5) -> int | None:
    """The season (its starting year) ``day`` falls in, or None between seasons."""
    if start_month <= end_month:  # a season within one calendar year
        return day.year if start_month <= day.month <= end_month else None
    if day.month >= start_month:
        return day.year
    return day.year - 1 if day.month <= end_month else None


@dataclass(frozen=True)
class Card:
    player_id: int
    night: int  # the club night (event) id
    grass_roots_points: int
    game_points: int
    games_won: int
    games_played: int
    net_spread: int


@dataclass(frozen=True)
class SeasonRow:
    rank: int
    player_id: int
    grass_roots_points: int
    nights: int
    games_won: int
    games_played: int
    net_spread: int
    dropped: tuple[int, ...]  # the nights left out of the total


def _row(player_id: int, cards: list[Card], drop: int) -> SeasonRow:
    worst = sorted(cards, key=lambda c: (c.grass_roots_points, c.game_points, c.night))
    left_out = worst[:drop] if len(cards) > drop else []
    kept = [c for c in cards if c not in left_out]
    return SeasonRow(
        rank=0,
        player_id=player_id,
        grass_roots_points=sum(c.grass_roots_points for c in kept),
        nights=len(cards),
        games_won=sum(c.games_won for c in kept),
        games_played=sum(c.games_played for c in kept),
        net_spread=sum(c.net_spread for c in kept),
        dropped=tuple(sorted(c.night for c in left_out)),
    )


def season_standings(cards: Iterable[Card], *, drop: int = 0) -> list[SeasonRow]:
    """Every player's season, best first, ranks shared on equal records."""
    by_player: dict[int, list[Card]] = {}
    for card in cards:
        by_player.setdefault(card.player_id, []).append(card)
    return ranked([_row(player, cards, drop) for player, cards in by_player.items()])


def record(row: SeasonRow) -> tuple[int, int, int]:
    """The standings order, best first: Grass Roots points, then games won, then net spread."""
    return (-row.grass_roots_points, -row.games_won, -row.net_spread)


def ranked(rows: Iterable[SeasonRow]) -> list[SeasonRow]:
    """``rows`` best first with their ranks: the one ranking of a club's season and of the
    national table. Equal records share a rank; the next rank skips (1, 1, 3)."""
    ordered = sorted(rows, key=lambda row: (record(row), row.player_id))
    out, position = [], 1
    for _, same in groupby(ordered, key=record):
        group = list(same)
        out += [replace(row, rank=position) for row in group]
        position += len(group)
    return out


def champion(rows: list[SeasonRow]) -> int | None:
    """The player alone at the top, or None (no cards, or a tie at the top)."""
    top = [row for row in rows if row.rank == 1]
    return top[0].player_id if len(top) == 1 else None
