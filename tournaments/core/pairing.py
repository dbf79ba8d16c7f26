"""Pairing the games of an ACC-style qualifying round: who plays whom, at which table.

Terms:
- player: an integer id. The field of a game is the players active in it: entrants who have not
  withdrawn, including late entries from the game they join.
- game: one of the G games of the qualifying round. Each seats every active player exactly once.
- table: two players; tables are numbered 1..T in the order listed. The first player listed at a
  table deals (or cuts) first.
- pairing: the tables of one game, plus its sit-out.
- sit-out: with an odd field, the one player not seated in a game (a floating bye). Fairness:
  the sit-out is always one of the active players who have sat out the fewest times, so nobody
  sits out twice while an active player has not sat out yet.
- meeting: one game between two players. No pair meets more than ``max_meetings`` times over the
  qualifying round (default once; "two games per opponent" events use 2).
- schedule: pairings for all remaining games. A pairing is only handed out if a full schedule of
  the remaining games (field unchanged, meetings capped, sit-outs fair) still exists after it.
- mode: "random" seats players at random; "standings" (club nights) pairs players next to each
  other in the standings, given each player's record (higher sorts better), and the sit-out is
  the lowest-ranked player due one. Tables are numbered at random in both modes.
- first deal: random, except that a pair meeting again (``max_meetings`` above 1) alternates who
  deals first.

Randomness comes from ``seed`` alone: the same inputs and seed give the same pairing, whatever
order ``active`` lists the players in.

How a game is found. Counting rules come first (``pairing_rules``): too many games for the
field, a player with too few possible opponents, an odd group who can only meet each other; each
gives the director a reason. Then the cheapest safe method: a field where nobody has met is
paired straight off (any first game extends to a round robin by the circle method); a large
field is paired greedily (``pairing_greedy``, safe by Dirac's theorem); a small one has all its
remaining games planned (``pairing_plan``) and only the first is played.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from tournaments.core.pairing_greedy import greedy_tables, is_dense
from tournaments.core.pairing_plan import plan_first_game
from tournaments.core.pairing_plan_types import PlanNotFound, PlanRequest
from tournaments.core.pairing_rules import (
    SitOutQuota,
    count_problem,
    demand_problem,
    group_problem,
    meeting_ledger,
    player_problem,
    sit_out_counts,
    sit_out_quota,
)

PairingMode = Literal["random", "standings"]
MODES: tuple[PairingMode, ...] = ("random", "standings")


@dataclass(frozen=True)
class GamePairing:
    """One game: ``tables[i]`` is table ``i + 1``; ``sit_out`` is None for an even field."""

    tables: tuple[tuple[int, int], ...]
    sit_out: int | None = None

    def __post_init__(self) -> None:
        seated = [player for table in self.tables for player in table]
        if any(len(table) != 2 for table in self.tables):
            raise ValueError("every table seats exactly two players")
        if self.sit_out is not None:
            seated.append(self.sit_out)
        if len(set(seated)) != len(seated):
            twice = next(p for p in seated if seated.count(p) > 1)
            raise ValueError(f"player {twice} appears more than once in one game")

    @property
    def players(self) -> frozenset[int]:
        """Everyone in the game's field, seated or sitting out."""
        seated = {player for table in self.tables for player in table}
        return frozenset(seated if self.sit_out is None else seated | {self.sit_out})


class PairingImpossible(ValueError):
    """No pairing keeps the rules for the rest of the round; the message tells the director why."""


def schedule_feasibility(players: int, games: int, max_meetings: int = 1) -> str | None:
    """Whether ``players`` entrants can play ``games`` games: None if so, else why not.

    With each pair meeting at most once, an even field plays at most ``players - 1`` games (a
    round robin) and an odd one at most ``players`` (a round robin with a bye: fairness makes the
    sit-outs distinct until everyone has sat out once). ``max_meetings`` multiplies both.
    """
    _check_counts(games, max_meetings)
    if players < 0:
        raise ValueError(f"players must not be negative (got {players})")
    return count_problem(players, games, max_meetings, remaining=False)


def pair_game(
    *,
    active: Sequence[int],
    history: Sequence[GamePairing],
    games_remaining: int,
    seed: int,
    max_meetings: int = 1,
    mode: PairingMode = "random",
    records: Mapping[int, tuple] | None = None,
) -> GamePairing:
    """Pair the next game of a qualifying round.

    ``active`` is the field for this game, ``history`` the games played so far (withdrawn players
    included), ``games_remaining`` counts this game and those after it, planned with the same
    field. ``records`` (standings mode) maps each active player to a sortable record such as
    ``(game_points, net_spread)``. Raises ``PairingImpossible`` when no schedule of the remaining
    games keeps the meeting cap and sit-out fairness, ``ValueError`` for malformed input.
    """
    field = _checked_field(active, games_remaining, max_meetings, mode, records)
    rng = random.Random(f"pegboard-pairing:{seed}:{len(history)}")
    order = _standings(field, records or {}, rng) if mode == "standings" else _shuffled(field, rng)
    problem = count_problem(len(field), games_remaining, max_meetings, remaining=True)
    if problem:
        raise PairingImpossible(problem)
    ledger = meeting_ledger(history, field)
    quota = None
    if len(field) % 2:
        quota = sit_out_quota(sit_out_counts(history, field), games_remaining)
    for rule in (player_problem, demand_problem):
        problem = rule(field, ledger, quota, games_remaining, max_meetings)
        if problem:
            raise PairingImpossible(problem)
    tables, sit_out = _choose(order, ledger, quota, games_remaining, max_meetings, mode, rng)
    return GamePairing(tables=_seated(tables, history, rng), sit_out=sit_out)


def _check_counts(games: int, max_meetings: int, games_name: str = "games") -> None:
    if games < 1:
        raise ValueError(f"{games_name} must be at least 1 (got {games})")
    if max_meetings < 1:
        raise ValueError(f"max_meetings must be at least 1 (got {max_meetings})")


def _checked_field(
    active: Sequence[int],
    games_remaining: int,
    max_meetings: int,
    mode: str,
    records: Mapping[int, tuple] | None,
) -> list[int]:
    """The field in a canonical order, so the caller's listing order cannot change the result."""
    _check_counts(games_remaining, max_meetings, "games_remaining")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)} (got {mode!r})")
    seen: set[int] = set()
    for player in active:
        if not isinstance(player, int) or isinstance(player, bool):
            raise ValueError(f"active players are integer ids (got {player!r})")
        if player in seen:
            raise ValueError(f"active lists player {player} more than once")
        seen.add(player)
    if mode == "standings":
        missing = sorted(seen - set(records or {}))
        if missing:
            raise ValueError(f"standings mode needs a record for every player; none for {missing}")
    return sorted(seen)


def _shuffled(field: list[int], rng: random.Random) -> list[int]:
    order = list(field)
    rng.shuffle(order)
    return order


def _standings(field: list[int], records: Mapping[int, tuple], rng: random.Random) -> list[int]:
    """Best record first; equal records in random order, never by id."""
    return sorted(_shuffled(field, rng), key=lambda p: records[p], reverse=True)


def _choose(
    order: list[int],
    ledger: Mapping[int, Mapping[int, int]],
    quota: SitOutQuota | None,
    games: int,
    max_meetings: int,
    mode: str,
    rng: random.Random,
) -> tuple[list[tuple[int, int]], int | None]:
    """Tables (in order) and sit-out for the next game, by the cheapest method that is safe."""
    blocked = {
        p: {q for q, times in met.items() if times >= max_meetings} for p, met in ledger.items()
    }
    fresh = not any(ledger.values()) and (quota is None or len(quota.first) == len(order))
    fewest_allowed = len(order) - 1 - max((len(b) for b in blocked.values()), default=0)
    if fresh or is_dense(len(order), fewest_allowed, games):
        sit_out = None
        if quota is not None:
            eligible = [p for p in order if p in quota.first]
            sit_out = eligible[-1] if mode == "standings" else rng.choice(eligible)
        seated = [p for p in order if p != sit_out]
        tables = greedy_tables(seated, blocked)
        if tables is not None:
            return tables, sit_out
    problem = group_problem(order, blocked)
    if problem:
        raise PairingImpossible(problem)
    return _planned(order, ledger, quota, games, max_meetings, mode, rng)


def _planned(
    order: list[int],
    ledger: Mapping[int, Mapping[int, int]],
    quota: SitOutQuota | None,
    games: int,
    max_meetings: int,
    mode: str,
    rng: random.Random,
) -> tuple[list[tuple[int, int]], int | None]:
    """Game 0 of a full plan of the remaining games, found by search."""
    met = [ledger.get(p, {}) for p in order]
    capacity = tuple(
        tuple(0 if p == q else max(0, max_meetings - met[i].get(q, 0)) for q in order)
        for i, p in enumerate(order)
    )
    sit_outs = {}
    if quota is not None:
        sit_outs = {
            "sit_out_max": tuple(quota.most(p) for p in order),
            "sit_out_min": tuple(quota.least(p) for p in order),
            "first_sit_outs": frozenset(i for i, p in enumerate(order) if p in quota.first),
        }
    request = PlanRequest(games=games, capacity=capacity, by_rank=mode == "standings", **sit_outs)
    try:
        first = plan_first_game(request, rng)
    except PlanNotFound as failure:
        message = _no_plan_message(len(order), games, max_meetings, failure.proven)
        raise PairingImpossible(message) from None
    sit_out = None if first.sit_out is None else order[first.sit_out]
    return [(order[u], order[v]) for u, v in first.tables], sit_out


def _no_plan_message(players: int, games: int, max_meetings: int, proven: bool) -> str:
    cap = "once" if max_meetings == 1 else f"at most {max_meetings} times"
    what = f"the remaining {games} games" if games > 1 else "the last game"
    how = (
        "every possibility was checked"
        if proven
        else "a long search found none, though one may exist"
    )
    return (
        f"No schedule for {what} lets each pair of the {players} active players meet {cap} "
        f"with fair sit-outs ({how}). Allow {max_meetings + 1} meetings per pair, shorten the "
        "qualifying round, or pair this game by hand."
    )


def _seated(
    tables: list[tuple[int, int]], history: Sequence[GamePairing], rng: random.Random
) -> tuple[tuple[int, int], ...]:
    """Tables in random order; who deals first alternates for a repeat meeting, else random."""
    last_first: dict[frozenset[int], int] = {}
    for game in history:
        for a, b in game.tables:
            last_first[frozenset((a, b))] = a
    seated = []
    for a, b in tables:
        before = last_first.get(frozenset((a, b)))
        first_a = rng.random() < 0.5 if before is None else before == b
        seated.append((a, b) if first_a else (b, a))
    rng.shuffle(seated)
    return tuple(seated)
