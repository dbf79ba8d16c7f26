"""The blind draw of partners, a common club format: the players who came are paired at
random into teams of two.

Terms:
- pool: the players to draw (checked in, without a partner), as integer ids.
- seed: the draw's randomness: the same pool and seed give the same teams, whatever order the
  pool is listed in, so a draw can be shown again and checked.
- waiting player: with an odd pool, the one player left without a partner; they are told and
  wait for a late partner (the next draw pairs them with one).
Pure: no database.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class PartnerDraw:
    teams: tuple[tuple[int, int], ...]
    waiting: int | None


def draw_partners(pool: Iterable[int], seed: int) -> PartnerDraw:
    """Pair ``pool`` at random by ``seed`` (see the module)."""
    players = sorted(set(pool))
    random.Random(seed).shuffle(players)
    waiting = players.pop() if len(players) % 2 else None
    teams = tuple((players[i], players[i + 1]) for i in range(0, len(players), 2))
    return PartnerDraw(teams=teams, waiting=waiting)
