"""Qualifying standings with ACC tie-breaks, and where the cut to the playoffs falls.

Terms:
- entry: an integer id for one player's entry in the event.
- entrants: every entry that started the qualifying round, withdrawals included. Their number
  sets the size of the cut, so an entrant with no card lines still counts there (but has no row).
- card line: one entry's verified line for one game: game points, plus spread (won) or minus
  spread (lost), opponent and whether the game counts as won. A sit-out (no opponent) or an
  administrative win is a game won. The two lines of one game may legitimately differ after
  ACC cross-checking, so every total here is read from the entry's own lines only.
- record: game points, games won, net spread (plus - minus), plus spread. Higher is better, in
  that order of precedence.
- tie: entries with equal records. The tie-breaks after the record are head-to-head (only
  between tied entries who met), then a one-game playoff entered by the director. Name and
  entry order never break a tie: a still-tied group is listed by entry id for display only and
  shares one rank (standard competition ranking: 1, 2, 2, 4).
- head-to-head: for two tied entries who met, more games won between them, then more spread
  between them. For three or more, only when every pair of the group met: more games won
  against the rest of the group; entries still level after that stay tied (the step is not
  repeated on the smaller group).
- playoff: a one-game playoff result, winner above loser. It counts only between entries who
  are still tied after head-to-head; results chain (A beat B, B beat C orders all three), and a
  group splits only where every entry above the split is above every entry below it.
- qualifiers: ``ceil(entrants / ratio)`` (ratio 0: no cut), never more than there are rows.
- cut: the line below position ``qualifiers``. A tie straddles the cut when its group holds
  both position ``qualifiers`` and position ``qualifiers + 1``; only then is a playoff needed.
  Until it is played nobody in that group qualifies.
- high non-qualifier: the entry alone at position ``qualifiers + 1`` once the cut is decided.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import NamedTuple

Group = list[int]


class Line(NamedTuple):
    """One verified card line; ``opponent_id`` is None for a sit-out.

    A named tuple rather than a dataclass: a 1,000-player weekend has 22,000 of them, and they
    are checked in ``compute_standings`` (``_check_line``) in the one pass that totals them.
    """

    entry_id: int
    game: int
    game_points: int
    plus: int
    minus: int
    opponent_id: int | None
    won: bool


def _check_line(line: Line) -> None:
    if line.opponent_id == line.entry_id:
        raise ValueError(f"entry {line.entry_id} cannot be its own opponent (game {line.game})")
    if line.game_points < 0 or line.plus < 0 or line.minus < 0:
        bad = next(n for n in ("game_points", "plus", "minus") if getattr(line, n) < 0)
        raise ValueError(f"{bad} must be 0 or more (entry {line.entry_id}, game {line.game})")


@dataclass(frozen=True, slots=True)
class Playoff:
    """A one-game playoff entered by the director to break a tie."""

    winner_id: int
    loser_id: int

    def __post_init__(self) -> None:
        if self.winner_id == self.loser_id:
            raise ValueError(f"a playoff needs two entries (got {self.winner_id} twice)")


@dataclass(frozen=True)
class Row:
    """One entry's place in the standings.

    ``games_played`` counts every card line, sit-outs and administrative results included.
    ``tied``: the rank is shared. ``playoff_needed``: the tie straddles the cut. ``qualifies``:
    certainly above the cut (False for everyone in a straddling tie until a playoff decides it).
    """

    rank: int
    entry_id: int
    game_points: int
    games_won: int
    games_played: int
    net_spread: int
    plus_spread: int
    minus_spread: int
    tied: bool
    playoff_needed: bool
    qualifies: bool


@dataclass(frozen=True)
class Standings:
    """Rows best first; ``cut_tie`` lists the entries tied across the cut, by entry id."""

    rows: tuple[Row, ...]
    qualifiers: int
    cut_straddled: bool
    cut_tie: tuple[int, ...]
    high_non_qualifier: int | None
    # Playoffs between entries who are not (or no longer) tied: shown so none is lost silently.
    unused_playoffs: tuple[Playoff, ...] = ()


@dataclass(slots=True)
class _Tally:
    game_points: int = 0
    won: int = 0
    played: int = 0
    plus: int = 0
    minus: int = 0

    def key(self) -> tuple[int, int, int, int]:
        """The record, negated so an ascending sort puts the best first."""
        return (-self.game_points, -self.won, self.minus - self.plus, -self.plus)


def qualifier_count(entrants: int, ratio: int) -> int:
    """``ceil(entrants / ratio)``: one qualifier per ``ratio`` entrants, rounded up; 0 = no cut."""
    if entrants < 0:
        raise ValueError(f"entrants must not be negative (got {entrants})")
    if ratio < 0:
        raise ValueError(f"the qualifier ratio must be 0 (no cut) or more (got {ratio})")
    return 0 if ratio == 0 else -(-entrants // ratio)


def compute_standings(
    *,
    lines: Iterable[Line],
    entrants: Iterable[int],
    qualifier_ratio: int = 4,
    playoffs: Iterable[Playoff] = (),
) -> Standings:
    """The qualifying standings from verified card lines.

    Raises ``ValueError`` for a line or playoff naming an entry that is not an entrant, two lines
    for one entry in one game, an entrant listed twice, or a negative ratio.
    """
    field = _entrant_set(entrants)
    lines = tuple(lines)
    playoffs = tuple(playoffs)
    for playoff in playoffs:
        for entry in (playoff.winner_id, playoff.loser_id):
            if entry not in field:
                raise ValueError(f"playoff entry {entry} is not among the entrants")
    qualifiers = qualifier_count(len(field), qualifier_ratio)
    tallies = _tallies(lines, field)
    groups = _split_by_head_to_head(_record_groups(tallies), lines)
    groups, used = _split_by_playoffs(groups, playoffs)
    unused = tuple(sorted(set(playoffs) - used, key=lambda p: (p.winner_id, p.loser_id)))
    return _standings(groups, tallies, min(qualifiers, len(tallies)), unused)


def _entrant_set(entrants: Iterable[int]) -> frozenset[int]:
    counts = Counter(entrants)
    twice = sorted(entry for entry, times in counts.items() if times > 1)
    if twice:
        raise ValueError(f"entrants lists entries more than once: {twice}")
    return frozenset(counts)


def _tallies(lines: Sequence[Line], field: frozenset[int]) -> dict[int, _Tally]:
    """Each entry's totals in one pass over the lines, checking them on the way."""
    tallies: dict[int, _Tally] = {}
    seen: set[tuple[int, int]] = set()
    for line in lines:
        _check_line(line)
        entry = line.entry_id
        if entry not in field:
            raise ValueError(f"card line for game {line.game}: entry {entry} is not an entrant")
        if line.opponent_id is not None and line.opponent_id not in field:
            raise ValueError(
                f"card line of entry {entry}, game {line.game}: "
                f"opponent {line.opponent_id} is not an entrant"
            )
        slot = (entry, line.game)
        if slot in seen:
            raise ValueError(f"entry {entry} has two card lines for game {line.game}")
        seen.add(slot)
        tally = tallies.get(entry)
        if tally is None:
            tally = tallies[entry] = _Tally()
        tally.game_points += line.game_points
        tally.won += line.won
        tally.played += 1
        tally.plus += line.plus
        tally.minus += line.minus
    return tallies


def _record_groups(tallies: dict[int, _Tally]) -> list[Group]:
    """Entries best record first, grouped where the records are equal (each group by id)."""
    keyed = sorted((tally.key(), entry) for entry, tally in tallies.items())
    return [[entry for _, entry in same] for _, same in groupby(keyed, key=lambda item: item[0])]


def _split_by_head_to_head(groups: list[Group], lines: Sequence[Line]) -> list[Group]:
    """Each tied group split by head-to-head, reading only lines between members of one group."""
    group_of = {entry: i for i, group in enumerate(groups) if len(group) > 1 for entry in group}
    if not group_of:
        return groups
    wins: defaultdict[tuple[int, int], int] = defaultdict(int)
    spread: defaultdict[tuple[int, int], int] = defaultdict(int)
    met: set[frozenset[int]] = set()
    for line in lines:
        opponent = line.opponent_id
        index = group_of.get(line.entry_id)
        if opponent is None or index is None or group_of.get(opponent) != index:
            continue
        pair = (line.entry_id, opponent)
        wins[pair] += line.won
        spread[pair] += line.plus - line.minus
        met.add(frozenset(pair))
    split: list[Group] = []
    for group in groups:
        split.extend(_head_to_head(group, wins, spread, met) if len(group) > 1 else [group])
    return split


def _head_to_head(
    group: Group,
    wins: dict[tuple[int, int], int],
    spread: dict[tuple[int, int], int],
    met: set[frozenset[int]],
) -> list[Group]:
    """One tied group as ordered sub-groups; unchanged unless every pair in it met."""
    if any(frozenset((a, b)) not in met for i, a in enumerate(group) for b in group[i + 1 :]):
        return [group]

    def score(entry: int) -> tuple[int, ...]:
        others = [other for other in group if other != entry]
        won = sum(wins.get((entry, other), 0) for other in others)
        if len(group) > 2:
            return (-won,)
        return (-won, -sum(spread.get((entry, other), 0) for other in others))

    ranked = sorted((score(entry), entry) for entry in group)
    return [[entry for _, entry in same] for _, same in groupby(ranked, key=lambda item: item[0])]


def _split_by_playoffs(
    groups: list[Group], playoffs: Sequence[Playoff]
) -> tuple[list[Group], set[Playoff]]:
    """Each still-tied group split by the playoffs among its members; also which ones counted."""
    group_of = {entry: i for i, group in enumerate(groups) if len(group) > 1 for entry in group}
    beaten: dict[int, defaultdict[int, set[int]]] = {}
    used: set[Playoff] = set()
    for playoff in playoffs:
        index = group_of.get(playoff.winner_id)
        if index is not None and group_of.get(playoff.loser_id) == index:
            beaten.setdefault(index, defaultdict(set))[playoff.winner_id].add(playoff.loser_id)
            used.add(playoff)
    split: list[Group] = []
    for index, group in enumerate(groups):
        split.extend(_playoff_order(group, beaten[index]) if index in beaten else [group])
    return split, used


def _playoff_order(group: Group, beaten: dict[int, set[int]]) -> list[Group]:
    """The finest ordered split of ``group`` such that every entry above a split point is above
    every entry below it, where x is above y if a chain of playoff wins leads from x to y and
    none leads back (a circle of results leaves its entries level)."""
    reach = {entry: _reachable(entry, beaten) for entry in group}
    below = {x: {y for y in reach[x] if x not in reach[y]} for x in group}
    # Any valid top part holds exactly the entries above the most others, so only the
    # prefixes of this order need checking.
    order = sorted(group, key=lambda entry: (-len(below[entry]), entry))
    parts: list[Group] = []
    start = 0
    for end in range(1, len(order) + 1):
        rest = order[end:]
        if all(below[x].issuperset(rest) for x in order[start:end]):
            parts.append(sorted(order[start:end]))
            start = end
    return parts


def _reachable(start: int, beaten: dict[int, set[int]]) -> set[int]:
    seen: set[int] = set()
    stack = list(beaten.get(start, ()))
    while stack:
        entry = stack.pop()
        if entry not in seen:
            seen.add(entry)
            stack.extend(beaten.get(entry, ()))
    return seen


def _standings(
    groups: list[Group], tallies: dict[int, _Tally], qualifiers: int, unused: tuple[Playoff, ...]
) -> Standings:
    """Rows with shared ranks, and where the cut falls among the groups."""
    rows: list[Row] = []
    cut_tie: tuple[int, ...] = ()
    high_non_qualifier = None
    for group in groups:
        start, end = len(rows), len(rows) + len(group)
        straddles = start < qualifiers < end
        if straddles:
            cut_tie = tuple(group)
        if start == qualifiers > 0 and len(group) == 1:
            high_non_qualifier = group[0]
        tied, qualifies = len(group) > 1, end <= qualifiers
        rows.extend(_row(e, tallies[e], start + 1, tied, straddles, qualifies) for e in group)
    # A straddled cut leaves no one alone just below it, so no high non-qualifier either.
    return Standings(
        rows=tuple(rows),
        qualifiers=qualifiers,
        cut_straddled=bool(cut_tie),
        cut_tie=cut_tie,
        high_non_qualifier=high_non_qualifier,
        unused_playoffs=unused,
    )


def _row(
    entry: int, tally: _Tally, rank: int, tied: bool, playoff_needed: bool, qualifies: bool
) -> Row:
    return Row(
        rank=rank,
        entry_id=entry,
        game_points=tally.game_points,
        games_won=tally.won,
        games_played=tally.played,
        net_spread=tally.plus - tally.minus,
        plus_spread=tally.plus,
        minus_spread=tally.minus,
        tied=tied,
        playoff_needed=playoff_needed,
        qualifies=qualifies,
    )
