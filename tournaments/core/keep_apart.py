"""Keeping pairs of players apart in the qualifying round (family, couples who drive together).

Terms (the pairing ones are in ``pairing.py``):
- keep-apart pair: two players who should not meet in the qualifying round.
- honoured: the pairing is made as if each pair had already met as often as the round allows
  (``max_meetings``), so the planner keeps them apart for every game left, not only this one.
- given up: when no schedule of the remaining games keeps every pair apart, the game is paired
  with the meeting rules alone and ``met`` names each pair that meets in it (the director sees
  it in the pairing's result); nothing else is relaxed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.core.pairing import GamePairing, PairingImpossible, pair_game


@dataclass(frozen=True)
class KeptApart:
    pairing: GamePairing
    honoured: bool
    met: tuple[tuple[int, int], ...]  # keep-apart pairs seated together in this game


def pair_game_keeping_apart(
    *,
    keep_apart: Sequence[tuple[int, int]],
    active: Sequence[int],
    history: Sequence[GamePairing],
    max_meetings: int = 1,
    **rules,
) -> KeptApart:
    """``pair_game`` that honours ``keep_apart`` when the field allows it (see the module)."""
    field = set(active)
    pairs = sorted({tuple(sorted(p)) for p in keep_apart if set(p) <= field and p[0] != p[1]})
    if pairs:
        as_met = tuple(GamePairing(tables=(pair,)) for pair in pairs for _ in range(max_meetings))
        try:
            pairing = pair_game(
                active=active,
                history=(*as_met, *history),
                max_meetings=max_meetings,
                **rules,
            )
        except PairingImpossible:
            pass
        else:
            return KeptApart(pairing, honoured=True, met=())
    pairing = pair_game(active=active, history=history, max_meetings=max_meetings, **rules)
    seated = {tuple(sorted(table)) for table in pairing.tables}
    met = tuple(pair for pair in pairs if pair in seated)
    return KeptApart(pairing, honoured=not met, met=met)
