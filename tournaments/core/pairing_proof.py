"""Exhaustive search over every plan of the remaining games: proof that none exists.

Terms (the tournament ones are defined in ``pairing.py``, plans in ``pairing_plan_types.py``):
- vertex: a player, numbered 0..n-1, or for an odd field the bye vertex n: meeting the bye
  vertex in a game means sitting that game out. Players who must still sit out have a sit-out
  minimum as well as the maximum their bye capacity gives.
- cell: one vertex in one planned game, still waiting for an opponent.
- short vertex: one whose empty cells outnumber the meetings it can still have in them.

The search fills the cell with the fewest possible opponents first, tries opponents sharing the
fewest open games with it first (they are the hardest to place later) and undoes any choice
that leaves a vertex short. Planned games after game 0 are interchangeable, so it only builds
plans in which vertex 0 (the anchor) meets its opponents in increasing order over games 1..;
a search that runs to the end without a plan is therefore a proof that none exists. It is
bounded by a work budget (cells looked at plus opponents tried: deterministic, unlike a clock).
Finding plans is the hill-climb's job; this search earns its keep on small fields, where it
either finds a plan or proves there is none within a few thousand steps.
"""

from __future__ import annotations

import random

from tournaments.core.pairing_plan_types import FirstGame, PlanNotFound, PlanRequest


class _OutOfBudget(Exception):
    pass


def _bits(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def exhaustive_first_game(
    request: PlanRequest, rng: random.Random, budget: int
) -> FirstGame | None:
    """Game 0 of a plan; None if the budget ran out; ``PlanNotFound`` when there is no plan."""
    search = _Search(request, rng, budget)
    try:
        found = search.run()
    except _OutOfBudget:
        return None
    if not found:
        raise PlanNotFound(proven=True)
    return search.first_game()


class _Search:
    def __init__(self, request: PlanRequest, rng: random.Random, budget: int) -> None:
        players = len(request.capacity)
        odd = bool(request.sit_out_max)
        size = players + odd
        self.bye = players if odd else -1
        self.cap = [
            list(row) + list(request.sit_out_max[p : p + 1])
            for p, row in enumerate(request.capacity)
        ]
        if odd:
            self.cap.append([*request.sit_out_max, 0])
        self.allowed = [
            sum(1 << v for v in range(size) if v != u and self.cap[u][v] > 0) for u in range(size)
        ]
        self.games = request.games
        everyone = (1 << size) - 1
        self.free = [everyone] * self.games
        self.free_games = [(1 << self.games) - 1] * size
        self.opp = [[-1] * size for _ in range(self.games)]
        self.need = list(request.sit_out_min)
        self.first_mask = [everyone] * size
        if odd:
            eligible = sum(1 << p for p in request.first_sit_outs)
            for p in range(players):
                if not eligible >> p & 1:
                    self.first_mask[p] = everyone & ~(1 << self.bye)
            self.first_mask[self.bye] = eligible
        self.by_rank = request.by_rank
        self.rng = rng
        self.budget = budget
        self.work = 0

    def _domain(self, game: int, vertex: int) -> int:
        mask = self.free[game] & self.allowed[vertex]
        return mask & self.first_mask[vertex] if game == 0 else mask

    def _pick(self) -> tuple[int, int, int] | None:
        """The open cell with the fewest possible opponents, or None when the plan is full."""
        if self.by_rank and self.free[0]:
            open_now = self.free[0]
            vertex = self.bye if self.bye >= 0 and open_now >> self.bye & 1 else _bits(open_now)[0]
            return 0, vertex, self._domain(0, vertex)
        best, best_size = None, 1 << 30
        for game in range(self.games):
            for vertex in _bits(self.free[game]):
                domain = self._domain(game, vertex)
                size = domain.bit_count()
                self.work += 1
                if size < best_size:
                    best, best_size = (game, vertex, domain), size
                    if size <= 1:
                        return best
        if self.work > self.budget:
            raise _OutOfBudget
        return best

    def _order(self, game: int, vertex: int, domain: int) -> list[int]:
        """Opponents to try: near standings in game 0 of a ranked plan, else the hardest first."""
        options = _bits(domain)
        if game == 0 and self.by_rank:
            if vertex == self.bye:
                return options[::-1]  # the lowest-ranked eligible player sits out
            return sorted(options, key=lambda other: abs(other - vertex))
        open_games = self.free_games[vertex]
        keyed = [
            ((open_games & self.free_games[o]).bit_count(), self.rng.random(), o) for o in options
        ]
        keyed.sort()
        return [other for _, _, other in keyed]

    def _assign(self, game: int, u: int, v: int) -> bool:
        """Seat u against v; returns whether a sit-out minimum was used up (for undo)."""
        self.opp[game][u], self.opp[game][v] = v, u
        self.free[game] &= ~((1 << u) | (1 << v))
        self.free_games[u] &= ~(1 << game)
        self.free_games[v] &= ~(1 << game)
        self.cap[u][v] -= 1
        self.cap[v][u] -= 1
        if not self.cap[u][v]:
            self.allowed[u] &= ~(1 << v)
            self.allowed[v] &= ~(1 << u)
        sitter = u if v == self.bye else v if u == self.bye else -1
        if sitter >= 0 and self.need[sitter]:
            self.need[sitter] -= 1
            return True
        return False

    def _undo(self, game: int, u: int, v: int, used_need: bool) -> None:
        self.opp[game][u] = self.opp[game][v] = -1
        self.free[game] |= (1 << u) | (1 << v)
        self.free_games[u] |= 1 << game
        self.free_games[v] |= 1 << game
        if not self.cap[u][v]:
            self.allowed[u] |= 1 << v
            self.allowed[v] |= 1 << u
        self.cap[u][v] += 1
        self.cap[v][u] += 1
        if used_need:
            self.need[u if v == self.bye else v] += 1

    def _short(self, vertex: int) -> bool:
        open_games = self.free_games[vertex]
        wanted = open_games.bit_count()
        row = self.cap[vertex]
        for other in _bits(self.allowed[vertex]):
            if wanted <= 0:
                return False
            shared = (open_games & self.free_games[other]).bit_count()
            wanted -= min(row[other], shared)
        return wanted > 0

    def _sit_outs_short(self) -> bool:
        bye_games = self.free_games[self.bye]
        if sum(self.need) > bye_games.bit_count():
            return True
        return any(
            need and (bye_games & self.free_games[p]).bit_count() < need
            for p, need in enumerate(self.need)
        )

    def _anchor_out_of_order(self, game: int) -> bool:
        """Whether vertex 0's opponents in games 1.. stop increasing around ``game``."""
        mine = self.opp[game][0]
        earlier = [self.opp[g][0] for g in range(1, game) if self.opp[g][0] >= 0]
        later = [self.opp[g][0] for g in range(game + 1, self.games) if self.opp[g][0] >= 0]
        return any(o > mine for o in earlier) or any(o < mine for o in later)

    def _consistent(self, game: int, u: int, v: int) -> bool:
        if game and 0 in (u, v) and self._anchor_out_of_order(game):
            return False
        if self._short(u) or self._short(v):
            return False
        return self.bye < 0 or not self._sit_outs_short()

    def run(self) -> bool:
        """Depth-first search with an explicit stack; True when a full plan is in ``opp``."""
        stack: list[list] = []  # [game, vertex, options, next option, assigned opponent, need]
        descend = True
        while True:
            if descend:
                picked = self._pick()
                if picked is None:
                    return True
                game, vertex, domain = picked
                stack.append([game, vertex, self._order(game, vertex, domain), 0, -1, False])
            frame = stack[-1]
            game, vertex, options = frame[0], frame[1], frame[2]
            if frame[4] >= 0:
                self._undo(game, vertex, frame[4], frame[5])
                frame[4] = -1
            descend = False
            while frame[3] < len(options):
                other = options[frame[3]]
                frame[3] += 1
                self.work += 1
                if self.work > self.budget:
                    raise _OutOfBudget
                used_need = self._assign(game, vertex, other)
                if self._consistent(game, vertex, other):
                    frame[4], frame[5] = other, used_need
                    descend = True
                    break
                self._undo(game, vertex, other, used_need)
            if not descend:
                stack.pop()
                if not stack:
                    return False

    def first_game(self) -> FirstGame:
        row = self.opp[0]
        tables = tuple((u, v) for u, v in enumerate(row) if u < v and self.bye not in (u, v))
        return FirstGame(tables=tables, sit_out=row[self.bye] if self.bye >= 0 else None)
