"""Keeping pairs of players apart in the qualifying round (family, couples who drive together).

Terms (the pairing ones are in ``pairing.py``):
- keep-apart pair: two players who should not meet in the qualifying round.
- honoured: the pairing is made as if each pair had already met as often as the round allows
  (``max_meetings``), so the planner keeps them apart for every game left, not only this one.
- given up: when no schedule of the remaining games keeps every pair apart, the game is paired
  with the meeting rules alone and ``met`` names each pair that meets in it (the director sees
  it in the pairing's result); nothing else is relaxed.
- wish: a player's request, at registration, not to meet someone (a name, perhaps an ACC
  number); ``wish_match`` finds whom it may mean among the event's entrants.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.core.pairing import GamePairing, PairingImpossible, pair_game
from tournaments.core.player_list import name_key


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


@dataclass(frozen=True)
class Entrant:
    """An entry of the event as a keep-apart wish is matched against it."""

    entry: int
    name: str
    acc_number: str


@dataclass(frozen=True)
class WishMatch:
    """Who a wish may mean among an event's entrants. ``sure`` is the one entrant it can only
    mean: the one holding the ACC number the wish gives, or, when it gives none, the one
    entrant of that name. Two entrants of one name, or an ACC number nobody holds, leave the
    choice to the director among ``candidates``: a wish is never settled by a guess."""

    sure: int | None
    candidates: tuple[int, ...]


def wish_match(
    *, name: str, acc_number: str, entrants: Sequence[Entrant], wisher: int
) -> WishMatch:
    """The entrants (other than ``wisher``) that the wish ``name``/``acc_number`` may mean."""
    acc = acc_number.strip().casefold()
    others = [e for e in entrants if e.entry != wisher]
    by_acc = [e.entry for e in others if acc and e.acc_number.strip().casefold() == acc]
    by_name = [e.entry for e in others if name_key(e.name) == name_key(name) and name_key(name)]
    candidates = tuple(dict.fromkeys((*by_acc, *by_name)))
    if acc:
        sure = by_acc[0] if len(by_acc) == 1 else None
    else:
        sure = by_name[0] if len(by_name) == 1 else None
    return WishMatch(sure=sure, candidates=candidates)
