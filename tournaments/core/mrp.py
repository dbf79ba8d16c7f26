"""ACC Master Rating Points: what a qualifier of a sanctioned event earns.

Terms:
- MRP: ACC Master Rating Points (schedule effective 2016-08-01, ``MRP_SCHEDULE``), earned by
  qualifiers of sanctioned Main and Consolation events. Qualifying: top half by rank
  (``rank <= ceil(Q / 2)``) get ``scale * (GP - T + 1)``, never less than ``scale``; the bottom
  half get ``scale``. T depends on the number of qualifying games, and only tabled lengths are
  sanctioned. Playoffs: ``pscale * r * (r + 1) / 2`` with ``r = rounds won + 1`` (rounds won
  count a bye, ``bracket.Finish.rounds_won``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

MRP_SCHEDULE = "2016-08-01"


class MrpTable(NamedTuple):
    """Qualifying ``scale``, playoff ``pscale`` and threshold T by number of games."""

    scale: int
    pscale: int
    thresholds: Mapping[int, int]


MRP_TABLES: Mapping[str, MrpTable] = MappingProxyType(
    {
        "main": MrpTable(
            5, 7, MappingProxyType({12: 14, 14: 17, 16: 20, 18: 22, 20: 25, 21: 26, 22: 27})
        ),
        "consolation": MrpTable(3, 4, MappingProxyType({7: 9, 8: 11, 9: 12, 10: 13, 12: 16})),
    }
)


def _table(kind: str) -> MrpTable:
    table = MRP_TABLES.get(kind)
    if table is None:
        raise ValueError(f"MRP kind must be one of {sorted(MRP_TABLES)} (got {kind!r})")
    return table


def mrp_qualifying(rank: int, qualifiers: int, game_points: int, games: int, kind: str) -> int:
    """MRPs for a qualifier's qualifying round (rank 1 is the top qualifier)."""
    table = _table(kind)
    threshold = table.thresholds.get(games)
    if threshold is None:
        raise ValueError(
            f"{kind} MRPs are tabled only for {sorted(table.thresholds)} games (got {games})"
        )
    if not 1 <= rank <= qualifiers:
        raise ValueError(f"rank must be 1..{qualifiers}, the qualifiers (got {rank})")
    if game_points < 0:
        raise ValueError(f"game points must be 0 or more (got {game_points})")
    if rank > -(-qualifiers // 2):
        return table.scale
    return max(table.scale, table.scale * (game_points - threshold + 1))


def mrp_playoff_points(r: int, pscale: int) -> int:
    """``pscale * r * (r + 1) / 2``, with ``r = rounds won + 1`` (1 for a first-round loser)."""
    if r < 1:
        raise ValueError(f"r must be 1 or more (got {r})")
    return pscale * r * (r + 1) // 2


def mrp_playoff(rounds_won: int, kind: str) -> int:
    """Playoff MRPs for a qualifier who won ``rounds_won`` rounds (byes included)."""
    return mrp_playoff_points(rounds_won + 1, _table(kind).pscale)
