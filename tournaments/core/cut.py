"""What the bracket depends on in the qualifying standings, and how a correction changes it.

Terms:
- cut state: what the playoff bracket is built from: the qualifiers in seed order (seed 1 is
  the top qualifier), the high non-qualifier (the entry alone just below the cut, or None) and
  any tie straddling the cut. The byes follow from the number of qualifiers.
- change: two cut states that differ in who qualifies, in a qualifier's seed, in the byes, in
  the high non-qualifier, or by a tie across the cut. A correction after the cut that changes
  the cut state cannot be applied without rebuilding the bracket.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.core.bracket import byes
from tournaments.core.standings import Standings


@dataclass(frozen=True)
class CutState:
    seeds: tuple[int, ...]
    high_non_qualifier: int | None
    tie: tuple[int, ...] = ()

    @property
    def byes(self) -> int:
        return byes(len(self.seeds)) if self.seeds else 0


def cut_state(standings: Standings) -> CutState:
    """The cut state the standings give (qualifiers in rank order, as the bracket seeds them)."""
    seeds = tuple(row.entry_id for row in standings.rows if row.qualifies)
    return CutState(seeds, standings.high_non_qualifier, tuple(standings.cut_tie))


@dataclass(frozen=True)
class CutChange:
    """How ``after`` differs from ``before``; empty when the bracket would not change."""

    joined: tuple[int, ...]  # qualify after, not before
    left: tuple[int, ...]  # qualified before, not after
    reseeded: tuple[tuple[int, int, int], ...]  # (entry, seed before, seed after)
    byes: tuple[int, int] | None  # (before, after) when they differ
    high_non_qualifier: tuple[int | None, int | None] | None  # (before, after) when different
    tie: tuple[int, ...]  # a tie across the cut after the change

    def __bool__(self) -> bool:
        return bool(
            self.joined
            or self.left
            or self.reseeded
            or self.byes
            or self.high_non_qualifier
            or self.tie
        )


def cut_change(before: CutState, after: CutState) -> CutChange:
    """What a correction would change in the bracket's inputs (see ``CutChange``)."""
    seed_before = {entry: seed for seed, entry in enumerate(before.seeds, start=1)}
    seed_after = {entry: seed for seed, entry in enumerate(after.seeds, start=1)}
    reseeded = tuple(
        (entry, seed_before[entry], seed)
        for entry, seed in seed_after.items()
        if entry in seed_before and seed_before[entry] != seed
    )
    hnq = (before.high_non_qualifier, after.high_non_qualifier)
    return CutChange(
        joined=tuple(e for e in after.seeds if e not in seed_before),
        left=tuple(e for e in before.seeds if e not in seed_after),
        reseeded=reseeded,
        byes=(before.byes, after.byes) if before.byes != after.byes else None,
        high_non_qualifier=hnq if hnq[0] != hnq[1] else None,
        tie=after.tie,
    )


def describe_cut_change(change: CutChange, names: dict[int, str]) -> str:
    """The change in words a director reads, naming the players."""

    def name(entry: int | None) -> str:
        return "nobody" if entry is None else names.get(entry, f"entry {entry}")

    parts = []
    if change.joined:
        parts.append(", ".join(name(e) for e in change.joined) + " would qualify")
    if change.left:
        parts.append(", ".join(name(e) for e in change.left) + " would no longer qualify")
    if change.reseeded:
        parts.append(
            "seeds would change ("
            + ", ".join(f"{name(e)} {a} to {b}" for e, a, b in change.reseeded)
            + ")"
        )
    if change.byes:
        parts.append(f"the byes would change from {change.byes[0]} to {change.byes[1]}")
    if change.high_non_qualifier:
        before, after = change.high_non_qualifier
        parts.append(f"the high non-qualifier would be {name(after)} instead of {name(before)}")
    if change.tie:
        parts.append(
            "a tie across the cut would need a playoff game ("
            + ", ".join(name(e) for e in change.tie)
            + ")"
        )
    return "; ".join(parts)
