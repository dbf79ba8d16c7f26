"""Pairing one game of a large field greedily, with repair by swaps.

Terms (the tournament ones are defined in ``pairing.py``):
- blocked pair: two players who may not meet again (they used up ``max_meetings``).
- allowed degree: how many of the other seated players a player may still meet.
- dense field: every player's allowed degree is at least half the field plus the games still to
  come (see ``is_dense``). Dirac's theorem then promises a perfect matching in every remaining
  game whatever is chosen now, so one game can be paired on its own without painting later games
  into a corner.
- stuck player: one whom the greedy pass could not seat against anyone still free.

The greedy pass walks the players in the given order (shuffled, or by standings) and seats each
with the first free player after them that they may meet. Stuck players are then seated by a
two-for-one swap: stuck ``u`` and ``w`` take over a table ``(a, b)`` as ``(u, a)`` and ``(w, b)``.
In a dense field such a table always exists: if none did, ``u`` and ``w`` would have at most two
allowed opponents per table, fewer than their allowed degrees add up to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

Table = tuple[int, int]


def is_dense(field_size: int, min_allowed_degree: int, games: int) -> bool:
    """Whether every remaining game of this field is sure to have a perfect matching.

    Each game lowers an allowed degree by at most one, and an odd field also seats one player
    fewer, so the last game still has degree at least ``field_size / 2`` to spare.
    """
    return field_size >= 2 and min_allowed_degree >= (field_size + 1) // 2 + games


def greedy_tables(order: Sequence[int], blocked: Mapping[int, Set[int]]) -> list[Table] | None:
    """Seat every player in ``order`` (an even number of them), or None if repair fails.

    Tables come out in the order they were formed, so with a standings order the best-ranked
    players sit at the first tables.
    """
    free = list(order)
    tables: list[Table] = []
    stuck: list[int] = []
    while free:
        player = free.pop(0)
        barred = blocked.get(player, ())
        partner = next((i for i, other in enumerate(free) if other not in barred), None)
        if partner is None:
            stuck.append(player)
        else:
            tables.append((player, free.pop(partner)))
    return _repair(tables, stuck, blocked)


def _may_meet(blocked: Mapping[int, Set[int]], a: int, b: int) -> bool:
    return b not in blocked.get(a, ())


def _repair(
    tables: list[Table], stuck: list[int], blocked: Mapping[int, Set[int]]
) -> list[Table] | None:
    """Seat stuck players with each other where allowed, else by swapping into a table."""
    while stuck:
        player = stuck.pop()
        mate = next((i for i, other in enumerate(stuck) if _may_meet(blocked, player, other)), None)
        if mate is not None:
            tables.append((player, stuck.pop(mate)))
            continue
        if not stuck or not _swap_in(tables, player, stuck.pop(), blocked):
            return None
    return tables


def _swap_in(tables: list[Table], u: int, w: int, blocked: Mapping[int, Set[int]]) -> bool:
    """Turn one table ``(a, b)`` into ``(u, a)`` and ``(w, b)`` (or crosswise); False if none.

    Tables are tried from the last formed, which in standings order are the lowest ranked, close
    to where stuck players come from.
    """
    for index in range(len(tables) - 1, -1, -1):
        a, b = tables[index]
        for first, second in ((a, b), (b, a)):
            if _may_meet(blocked, u, first) and _may_meet(blocked, w, second):
                tables[index] = (first, u)
                tables.append((second, w))
                return True
    return False
