"""ACC Master Rating Points: what a qualifier of a sanctioned event earns.

Terms:
- award: one qualifier's points at one event, from their ``QualifierResult``.
- MRP: ACC Master Rating Points (schedule effective 2016-08-01, ``MRP_SCHEDULE``), earned by
  qualifiers of sanctioned Main and Consolation events. Qualifying: top half by rank
  (``rank <= ceil(Q / 2)``) get ``scale * (GP - T + 1)``, never less than ``scale``; the bottom
  half get ``scale``. T depends on the number of qualifying games, and only tabled lengths are
  sanctioned. Playoffs: ``pscale * r * (r + 1) / 2`` with ``r = rounds won + 1`` (rounds won
  count a bye, ``bracket.Finish.rounds_won``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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


class MrpUnavailable(ValueError):
    """No published MRP table covers this event: its points are reported by hand."""


@dataclass(frozen=True)
class QualifierResult:
    """What a qualifier's award is worked out from."""

    entry_id: int
    rank: int  # qualifying rank (shared when tied)
    game_points: int
    rounds_won: int | None  # playoff rounds won, a bye counting; None while still playing
    round_lost: int | None  # None for the champion (and while still playing)


@dataclass(frozen=True)
class Award:
    result: QualifierResult
    qualifying: int
    playoff: int

    @property
    def points(self) -> int:
        return self.qualifying + self.playoff


def mrp_table_for(kind: str, games: int) -> MrpTable:
    """The table an event of ``kind`` with ``games`` qualifying games earns from."""
    table = MRP_TABLES.get(kind)
    if table is None:
        raise MrpUnavailable(f"a {kind} event earns no MRPs (only Main and Consolation do)")
    if games not in table.thresholds:
        tabled = ", ".join(str(n) for n in sorted(table.thresholds))
        raise MrpUnavailable(
            f"no published {kind} MRP table for {games} qualifying games (tabled: {tabled}): "
            "report this event by hand"
        )
    return table


def mrp_length_note(kind: str, games: int) -> str:
    """What a director must know at setup when no published table covers a sanctionable
    event's length, with the two choices; "" when one does (or the kind earns no MRPs)."""
    table = MRP_TABLES.get(kind)
    if table is None or games in table.thresholds:
        return ""
    tabled = ", ".join(str(n) for n in sorted(table.thresholds))
    return (
        f"No published ACC MRP table covers a {kind} of {games} qualifying games (tabled: "
        f"{tabled}). Either change the qualifying length to one of those, or keep it and report "
        "the Master Rating Points to the ACC by hand: once sanctioned and finalised, the ACC "
        "results package is made without MRPs."
    )


def mrp_awards(kind: str, games: int, qualifiers: Sequence[QualifierResult]) -> list[Award]:
    """Every qualifier's award, best first; raises ``MrpUnavailable`` for an untabled event."""
    mrp_table_for(kind, games)
    count = len(qualifiers)
    awards = [
        Award(
            q,
            mrp_qualifying(q.rank, count, q.game_points, games, kind),
            0 if q.rounds_won is None else mrp_playoff(q.rounds_won, kind),
        )
        for q in qualifiers
    ]
    return sorted(awards, key=lambda a: (-a.points, a.result.rank, a.result.entry_id))
