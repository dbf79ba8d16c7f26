"""Counting rules for qualifying-round pairings: how long a field can play, and who sits out.

Terms (the tournament ones are defined in ``pairing.py``):
- field: the players active in a game, identified by integer ids.
- meeting: one game between two players; ``max_meetings`` caps the meetings of a pair over the
  whole qualifying round.
- capacity of a pair: how many more times the two may still meet (``max_meetings`` minus their
  meetings so far).
- sit-out: with an odd field, the one player not seated in a game (a floating bye).
- sit-out fairness: each game's sit-out is one of the active players who have sat out the fewest
  times. That is the ACC rule "nobody sits out twice while someone else has not sat out", carried
  on to later rounds of sit-outs in the same way.
- sit-out quota: what fairness implies for the remaining games if the field stays as it is: how
  many sit-outs each player must take, and who may take one more.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import ceil
from typing import Protocol


class PlayedGame(Protocol):
    """What the rules read from a played game (``pairing.GamePairing`` has this shape)."""

    @property
    def tables(self) -> tuple[tuple[int, int], ...]: ...

    @property
    def sit_out(self) -> int | None: ...


def max_games(players: int, max_meetings: int) -> int:
    """The most games a fixed field can play without exceeding ``max_meetings`` per pair.

    With an even field everyone plays every game, against at most ``players - 1`` opponents.
    With an odd field fairness spreads the sit-outs evenly, so ``players`` games (a round robin
    with a bye) give everyone ``players - 1`` games; one more game would make someone play
    ``players`` games against ``players - 1`` opponents.
    """
    if players < 2:
        return 0
    per_round_robin = players - 1 if players % 2 == 0 else players
    return max_meetings * per_round_robin


def min_players(games: int, max_meetings: int) -> int:
    """The smallest field that can play ``games`` games (the inverse of ``max_games``)."""
    rounds = max(1, ceil(games / max_meetings))
    smallest_even = rounds + 1 + (rounds + 1) % 2
    smallest_odd = max(3, rounds + 1 - rounds % 2)
    return min(smallest_even, smallest_odd)


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _games(count: int) -> str:
    return f"{count} game" if count == 1 else f"{count} games"


def count_problem(players: int, games: int, max_meetings: int, *, remaining: bool) -> str | None:
    """Why ``players`` cannot play ``games`` more games, or None when the count allows it.

    ``remaining`` words it for the rest of a round under way rather than a round being set up.
    """
    if players < 2:
        return f"A game needs at least 2 active players; this event has {players}."
    longest = max_games(players, max_meetings)
    if games <= longest:
        return None
    meetings_needed = max_meetings + 1
    while max_games(players, meetings_needed) < games:
        meetings_needed += 1
    need = f"need{'s' if games == 1 else ''} at least {min_players(games, max_meetings)} players"
    rule = f"when each pair may meet {_times(max_meetings)}"
    allow = f"allow {meetings_needed} meetings per pair"
    if remaining:
        return (
            f"The remaining {_games(games)} {need} {rule}; {players} players are active. "
            f"Shorten the qualifying round by {_games(games - longest)}, or {allow}."
        )
    return (
        f"{_games(games).capitalize()} {need} {rule}; this event has {players}. "
        f"Lower the number of games to {longest} or fewer, or {allow}."
    )


@dataclass(frozen=True)
class SitOutQuota:
    """The sit-outs fairness implies for the remaining games of an odd field."""

    required: Mapping[int, int]  # sit-outs each player must take
    optional: frozenset[int]  # players who may take one sit-out beyond ``required``
    extra: int  # how many of the optional sit-outs the remaining games hand out
    first: frozenset[int]  # who may sit out the next game

    def least(self, player: int) -> int:
        """The fewest sit-outs the player can end up with."""
        return self.required.get(player, 0)

    def most(self, player: int) -> int:
        """The most sit-outs the player can end up with."""
        bonus = 1 if self.extra and player in self.optional else 0
        return self.required.get(player, 0) + bonus


def sit_out_quota(counts: Mapping[int, int], games: int) -> SitOutQuota:
    """Fill the sit-out counts level by level, like water: lowest counts first.

    ``counts`` holds every active player's sit-outs so far. Fairness makes the remaining games'
    sit-outs raise the lowest counts first, so there is a level every count below it must reach,
    and the sit-outs left over go to some of the players who will then be at that level.
    """
    lowest = level = min(counts.values())

    def filled(to: int) -> int:
        return sum(max(0, to - count) for count in counts.values())

    while filled(level + 1) <= games:
        level += 1
    required = {p: level - c for p, c in counts.items() if c < level}
    return SitOutQuota(
        required=required,
        optional=frozenset(p for p, c in counts.items() if c <= level),
        extra=games - filled(level),
        first=frozenset(p for p, c in counts.items() if c == lowest),
    )


def sit_out_counts(history: Iterable[PlayedGame], field: Collection[int]) -> dict[int, int]:
    """How many times each active player has sat out; late entries start at zero."""
    counts = dict.fromkeys(field, 0)
    for game in history:
        if game.sit_out in counts:
            counts[game.sit_out] += 1
    return counts


def meeting_ledger(
    history: Iterable[PlayedGame], field: Collection[int]
) -> dict[int, dict[int, int]]:
    """For each active player, the active opponents met so far and how often."""
    active = set(field)
    ledger: dict[int, dict[int, int]] = defaultdict(dict)
    for game in history:
        for a, b in game.tables:
            if a in active and b in active:
                ledger[a][b] = ledger[a].get(b, 0) + 1
                ledger[b][a] = ledger[b].get(a, 0) + 1
    return ledger


def _possible(
    met: Mapping[int, int], field_size: int, games: int, max_meetings: int, enough: int
) -> int:
    """How many meetings a player can still have in ``games`` games (stops counting at enough)."""
    possible = (field_size - 1 - len(met)) * min(max_meetings, games)
    if possible >= enough:
        return possible  # opponents not met yet suffice: skip adding up the others
    return possible + sum(min(max(0, max_meetings - times), games) for times in met.values())


def player_problem(
    field: Sequence[int],
    ledger: Mapping[int, Mapping[int, int]],
    quota: SitOutQuota | None,
    games: int,
    max_meetings: int,
) -> str | None:
    """A player with more games left to play than meetings left to them, if there is one."""
    for player in field:
        to_play = games - (quota.most(player) if quota else 0)
        met = ledger.get(player, {})
        possible = _possible(met, len(field), games, max_meetings, to_play)
        if possible < to_play:
            return (
                f"Player {player} still has {_games(to_play)} to play but "
                f"{_room(possible, max_meetings)}. Allow {max_meetings + 1} meetings per pair "
                "or shorten the qualifying round."
            )
    return None


def demand_problem(
    field: Sequence[int],
    ledger: Mapping[int, Mapping[int, int]],
    quota: SitOutQuota | None,
    games: int,
    max_meetings: int,
) -> str | None:
    """An opponent whom players with no meetings to spare need more often than they play.

    A player whose possible meetings just cover their games must use every one of them, so
    each of their remaining opponents must find room for them.
    """
    demand: dict[int, list[int]] = defaultdict(list)
    for player in field:
        to_play = games - (quota.most(player) if quota else 0)
        met = ledger.get(player, {})
        if _possible(met, len(field), games, max_meetings, to_play + 1) > to_play:
            continue
        for other in field:
            times = min(max(0, max_meetings - met.get(other, 0)), games) if other != player else 0
            demand[other] += [player] * times
    for other, needing in sorted(demand.items()):
        plays = games - (quota.least(other) if quota else 0)
        if len(needing) > plays:
            players = sorted(set(needing))
            if len(players) == len(needing):
                must = f"each must meet player {other}: {_games(len(needing))}"
            else:
                must = f"between them they must meet player {other} {_times(len(needing))}"
            return (
                f"{_names(players)} have no opponents to spare, so {must}, but player {other} "
                f"plays only {plays} of the remaining {_games(games)}. Allow "
                f"{max_meetings + 1} meetings per pair or shorten the qualifying round."
            )
    return None


def _names(players: Sequence[int]) -> str:
    if len(players) == 1:
        return f"Player {players[0]}"
    return "Players " + ", ".join(map(str, players[:-1])) + f" and {players[-1]}"


def _room(possible: int, max_meetings: int) -> str:
    if max_meetings == 1:
        players = "player" if possible == 1 else "players"
        return f"only {possible} active {players} they have not met yet"
    return (
        f"can meet the other active players only {possible} more times within the limit of "
        f"{max_meetings} meetings per pair"
    )


def group_problem(field: Sequence[int], blocked: Mapping[int, Collection[int]]) -> str | None:
    """An odd group of players who may now meet only each other, if there is one.

    Tables seat two, so every game needs each such group to be even, except for one odd group
    in an odd field (it holds the sit-out).
    """
    groups = _groups(field, blocked)
    odd = sorted((sorted(group) for group in groups if len(group) % 2), key=len)
    if len(odd) <= len(field) % 2:
        return None
    group = odd[0]
    if len(group) == 1:
        who = f"Player {group[0]} may not meet any other active player again"
    else:
        who = f"{_names(group)} can only meet each other now"
    return (
        f"{who}, and an odd group cannot be seated at tables of two (an odd field has only one "
        "sit-out). Allow another meeting per pair, shorten the qualifying round, or pair this "
        "game by hand."
    )


def _groups(field: Sequence[int], blocked: Mapping[int, Collection[int]]) -> list[set[int]]:
    """The field split into groups joined by pairs who may still meet."""
    unplaced = set(field)
    groups = []
    while unplaced:
        start = unplaced.pop()
        group, frontier = {start}, [start]
        while frontier:
            player = frontier.pop()
            reachable = unplaced.difference(blocked.get(player, ()))
            unplaced -= reachable
            group |= reachable
            frontier.extend(reachable)
        groups.append(group)
    return groups
