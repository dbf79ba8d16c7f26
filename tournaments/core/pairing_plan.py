"""Planning every remaining game of a small field, so the next game never paints later games
into a corner.

Terms (the tournament ones are defined in ``pairing.py``, plans in ``pairing_plan_types.py``):
- slot: one player in one planned game; a hole is a slot with no opponent yet.
- live pair: two players who may still meet in the plan (capacity not used up by it).
- bye vertex: in an odd field, vertex n; meeting it in a planned game means sitting that game
  out. The sit-outs fairness requires get planned games of their own; the optional ones go to
  whoever meets the bye vertex in the other games, so the climb chooses who takes them.

The planner is a hill-climb after Dinitz and Stinson's one for one-factorizations: pick a hole
(player u in game g) and a live partner v of u; if v is free in g they meet, else v leaves
their opponent w, who becomes the hole. The number of holes never grows, and a random walk of
this kind finishes quickly. Alone it can trap itself when the last holes sit in one game whose
completion needs other games changed, so sometimes the hole instead takes a partner v it has
already met in another game and moves that meeting into g. When v is free in g that costs
nothing; when v must leave w it adds a hole, and is done only rarely (``KICK_CHANCE``): rare
enough not to slow the climb, often enough to escape the traps. Each attempt is bounded by a
step count (deterministic, unlike a clock) and retried with a larger one.

A small field is first given to the exhaustive search (``pairing_proof``), which either finds
a plan or proves there is none in a few thousand steps; larger ones fall through to the climb.
If the climb fails too, a small field gets a long exhaustive run, to tell the director whether
a plan is proven impossible or only not found.
In standings mode, game 0 is first paired greedily by standings and the climb asked to finish
the plan; if it cannot, the whole plan is climbed and the planned game that pairs players
closest in the standings becomes game 0.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tournaments.core.pairing_greedy import greedy_tables
from tournaments.core.pairing_plan_types import FirstGame, PlanNotFound, PlanRequest
from tournaments.core.pairing_proof import exhaustive_first_game

LIVE_MOVE_SHARE = 0.5  # the rest of the moves try shifting a meeting between games
KICK_CHANCE = 0.003  # measured: 0.01 already slows a 46-player plan several times over
PROOF_BUDGET = 30_000  # exhaustive-search work units, ~0.1 s
FINAL_PROOF_BUDGET = 1_000_000  # ~2 s, once the climb has failed too
PROOF_MAX_SLOTS = 2_000  # beyond this one pass over the cells eats the budget
FIRST_STEPS_PER_SLOT = 100  # a climb usually needs 10-70 steps per slot
STEP_BUDGET_PER_SLOT = 2_000
MAX_STEP_BUDGET = 1_500_000  # about four seconds


def plan_first_game(request: PlanRequest, rng: random.Random) -> FirstGame:
    """Game 0 of some complete plan; raises ``PlanNotFound`` when none is found."""
    small = request.players * request.games <= PROOF_MAX_SLOTS
    found = exhaustive_first_game(request, rng, PROOF_BUDGET) if small else None
    if found is None and request.by_rank:
        found = _ranked_first_game(request, rng)
    if found is None:
        found = _climbed_first_game(request, rng)
    if found is None and small:
        # The climb cannot tell a missing plan from a hard one; a long exhaustive run can.
        found = exhaustive_first_game(request, rng, FINAL_PROOF_BUDGET)
    if found is None:
        raise PlanNotFound(proven=False)
    return found


def _climbed_first_game(request: PlanRequest, rng: random.Random) -> FirstGame | None:
    slots = request.players * request.games
    budget = min(MAX_STEP_BUDGET, STEP_BUDGET_PER_SLOT * slots)
    steps = FIRST_STEPS_PER_SLOT * slots
    while budget > 0:
        capacity, absent = _layout(request, rng)
        climb = _Climb(capacity, absent, rng)
        if climb.run(min(steps, budget)):
            return _best_game(climb, request)
        budget -= steps
        steps *= 2
    return None


def _ranked_first_game(request: PlanRequest, rng: random.Random) -> FirstGame | None:
    """Game 0 paired greedily by standings, if the climb can plan the other games around it."""
    first_sit_out = None
    if request.sit_out_max:
        first_sit_out = max(request.first_sit_outs)  # the lowest ranked of those due
    blocked = {
        p: {q for q, left in enumerate(row) if not left} for p, row in enumerate(request.capacity)
    }
    order = [p for p in range(request.players) if p != first_sit_out]
    tables = greedy_tables(order, blocked)
    if tables is None:
        return None
    game_zero = FirstGame(tables=tuple(tables), sit_out=first_sit_out)
    if request.games == 1:
        return game_zero
    capacity, absent = _layout(request, rng, first_sit_out)
    for a, b in tables:
        capacity[a][b] -= 1
        capacity[b][a] -= 1
    climb = _Climb(capacity, absent[1:], rng)
    slots = request.players * request.games
    return game_zero if climb.run(FIRST_STEPS_PER_SLOT * slots) else None


def _layout(
    request: PlanRequest, rng: random.Random, first_sit_out: int | None = None
) -> tuple[list[list[int]], list[frozenset[int]]]:
    """Capacities between vertices, and who is absent from each planned game.

    The sit-outs fairness requires are placed in games of their own, game 0 getting one due
    now (``first_sit_out`` if given). The other games seat a bye vertex (number n), whose
    partner sits out: it may meet each player once who may take an optional sit-out, so the
    climb itself chooses who takes them. When no sit-out is required, every player who may sit
    out is due now, so game 0 is fair whoever meets the bye vertex.
    """
    capacity = [list(row) for row in request.capacity]
    if not request.sit_out_max:
        return capacity, [frozenset()] * request.games
    least, most = request.sit_out_min, request.sit_out_max
    bye = request.players
    optional = [most[p] - least[p] for p in range(bye)]
    if first_sit_out is not None and not least[first_sit_out]:
        optional[first_sit_out] = 0  # game 0 hands them their optional sit-out
    for p, row in enumerate(capacity):
        row.append(optional[p])
    capacity.append([*optional, 0])
    required = [p for p, times in enumerate(least) for _ in range(times)]
    rng.shuffle(required)
    due = [i for i, p in enumerate(required) if p in request.first_sit_outs]
    if due:
        lead = required.index(first_sit_out) if first_sit_out in required else rng.choice(due)
        required[0], required[lead] = required[lead], required[0]
    absent = [frozenset((p, bye)) for p in required]
    return capacity, absent + [frozenset()] * (request.games - len(required))


def _best_game(climb: _Climb, request: PlanRequest) -> FirstGame:
    """Game 0 of the climbed plan; in standings mode the due game pairing closest standings."""
    sit_outs = [climb.sit_out(game, request.players) for game in range(climb.games)]
    candidates = [0]
    if request.by_rank:
        candidates = [g for g, s in enumerate(sit_outs) if s is None or s in request.first_sit_outs]
    tables = [climb.tables(game, request.players) for game in range(climb.games)]
    game = min(candidates, key=lambda g: sum(abs(a - b) for a, b in tables[g]))
    return FirstGame(tables=tables[game], sit_out=sit_outs[game])


class _Climb:
    """One hill-climb over the plan: opponents per game, holes, live pairs."""

    def __init__(
        self,
        capacity: Sequence[Sequence[int]],
        absent: Sequence[frozenset[int]],
        rng: random.Random,
    ) -> None:
        size = self.size = len(capacity)
        self.games = len(absent)
        self.cap = capacity
        self.absent = absent
        self.rand = rng.random
        self.used = [[0] * size for _ in range(size)]
        self.opp = [[-1] * size for _ in range(self.games)]
        self.holes = [
            g * size + p for g in range(self.games) for p in range(size) if p not in absent[g]
        ]
        self.hole_at = [-1] * (self.games * size)
        for index, hole in enumerate(self.holes):
            self.hole_at[hole] = index
        self.partners = [[q for q in range(size) if capacity[p][q] > 0] for p in range(size)]
        self.live = [list(row) for row in self.partners]
        self.live_at = [{q: i for i, q in enumerate(row)} for row in self.live]

    def tables(self, game: int, players: int) -> tuple[tuple[int, int], ...]:
        """The game's tables among players 0..players-1 (leaving out the bye vertex)."""
        return tuple((p, q) for p, q in enumerate(self.opp[game][:players]) if p < q < players)

    def sit_out(self, game: int, players: int) -> int | None:
        """Who sits out the game: the player absent from it, or the bye vertex's partner."""
        if players == self.size:
            return None
        away = [p for p in self.absent[game] if p < players]
        return away[0] if away else self.opp[game][players]

    def run(self, max_steps: int) -> bool:
        """Climb until every slot is filled (True) or the steps run out (False)."""
        for _ in range(max_steps):
            if not self.holes:
                return True
            hole = self.holes[int(self.rand() * len(self.holes))]
            game, player = divmod(hole, self.size)
            if self.rand() < LIVE_MOVE_SHARE:
                options = self.live[player]
                if options:
                    self._meet_live(game, player, options[int(self.rand() * len(options))])
            else:
                options = self.partners[player]
                if options:
                    self._shift_in(game, player, options[int(self.rand() * len(options))])
        return not self.holes

    def _meet_live(self, game: int, u: int, v: int) -> None:
        if v in self.absent[game]:
            return
        w = self.opp[game][v]
        if w >= 0:
            self._unpair(game, v, w)
            self._add_hole(game, w)
        else:
            self._drop_hole(game, v)
        self._drop_hole(game, u)
        self._pair(game, u, v)

    def _shift_in(self, game: int, u: int, v: int) -> None:
        """Move a meeting of u and v from another game into this one."""
        if v in self.absent[game] or self.used[u][v] < self.cap[u][v]:
            return
        w = self.opp[game][v]
        if w >= 0 and self.rand() >= KICK_CHANCE:
            return
        other = next(g for g in range(self.games) if self.opp[g][u] == v)
        self._unpair(other, u, v)
        self._add_hole(other, u)
        self._add_hole(other, v)
        self._meet_live(game, u, v)

    def _pair(self, game: int, a: int, b: int) -> None:
        self.opp[game][a], self.opp[game][b] = b, a
        self.used[a][b] += 1
        self.used[b][a] += 1
        if self.used[a][b] == self.cap[a][b]:
            self._drop_live(a, b)
            self._drop_live(b, a)

    def _unpair(self, game: int, a: int, b: int) -> None:
        self.opp[game][a] = self.opp[game][b] = -1
        if self.used[a][b] == self.cap[a][b]:
            self.live_at[a][b] = len(self.live[a])
            self.live[a].append(b)
            self.live_at[b][a] = len(self.live[b])
            self.live[b].append(a)
        self.used[a][b] -= 1
        self.used[b][a] -= 1

    def _drop_live(self, a: int, b: int) -> None:
        row, at = self.live[a], self.live_at[a]
        index, last = at.pop(b), row.pop()
        if last != b:
            row[index] = last
            at[last] = index

    def _add_hole(self, game: int, player: int) -> None:
        hole = game * self.size + player
        self.hole_at[hole] = len(self.holes)
        self.holes.append(hole)

    def _drop_hole(self, game: int, player: int) -> None:
        hole = game * self.size + player
        index, last = self.hole_at[hole], self.holes.pop()
        if last != hole:
            self.holes[index] = last
            self.hole_at[last] = index
        self.hole_at[hole] = -1
