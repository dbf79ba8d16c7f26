"""What the planners of the remaining games take and give back.

Terms (the tournament ones are defined in ``pairing.py``):
- plan: a pairing for every remaining game, the field unchanged; game 0 is the next game. Only
  game 0 is played: the next call plans again from what really happened.
- vertex: a player numbered 0..n-1 in the caller's order (standings order in standings mode,
  shuffled otherwise).
- capacity: how many more times two players may meet.
- sit-out minimum and maximum: how many of the remaining games each player must and may sit out
  (see ``pairing_rules.SitOutQuota``); both are empty for an even field.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlanRequest:
    """The remaining games to plan."""

    games: int
    capacity: tuple[tuple[int, ...], ...]
    sit_out_max: tuple[int, ...] = ()
    sit_out_min: tuple[int, ...] = ()
    first_sit_outs: frozenset[int] = frozenset()  # who may sit out game 0
    by_rank: bool = False  # vertex number is standing: pair game 0 with near numbers

    @property
    def players(self) -> int:
        return len(self.capacity)


@dataclass(frozen=True)
class FirstGame:
    """Game 0 of a plan, in vertex numbers."""

    tables: tuple[tuple[int, int], ...]
    sit_out: int | None


class PlanNotFound(Exception):
    """No plan: ``proven`` says whether every possibility was checked."""

    def __init__(self, proven: bool) -> None:
        super().__init__("no plan exists" if proven else "no plan found within the budget")
        self.proven = proven
