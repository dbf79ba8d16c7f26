"""Reading the playoffs: the bracket for the pages and the API, a player's current match, and a
match with its games for its directors.

- score: games won by each player of a match, from its verified games (forfeits included).
- current match: the latest round a player is in (byes aside): the match they are playing or
  waiting for, or the one that ended their playoff. A doubles team is seeded as its first
  partner's entry (its standings row); either partner's link finds the team's match, and
  ``entry_in_match`` gives the entry that plays it for them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, F, Q, QuerySet

from tournaments.core.bracket import Bracket, build_bracket
from tournaments.models import Entry, Event, Match, MatchGame, Playoff


@dataclass(frozen=True)
class Round:
    number: int
    name: str
    best_of: int
    matches: tuple[Match, ...]


@dataclass(frozen=True)
class BracketView:
    """The saved playoff, the pure bracket rebuilt from its rows, and the rows by round."""

    playoff: Playoff
    bracket: Bracket
    rounds: tuple[Round, ...]

    @property
    def champion(self) -> Entry | None:
        if self.bracket.champion is None or not self.rounds:
            return None
        final = self.rounds[-1].matches[0]
        return final.winner


def round_name(number: int, rounds: int) -> str:
    from_end = rounds - number
    return {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}.get(from_end, f"Round {number}")


def qualifiers_from_rows(rows: Iterable[Match]) -> list[int]:
    """Qualifier ids in seed order, read off the round-1 lines (every seed is on one)."""
    seeded = {}
    for m in rows:
        if m.round == 1:
            seeded[m.seed_a] = m.entry_a_id
            if m.entry_b_id is not None:
                seeded[m.seed_b] = m.entry_b_id
    return [seeded[seed] for seed in sorted(seeded)]


def _verified_wins(side: str) -> Count:
    return Count(
        "games",
        filter=Q(games__status=MatchGame.Status.VERIFIED, games__winner=F(f"entry_{side}")),
    )


def matches_with_scores() -> QuerySet[Match]:
    return Match.objects.select_related(
        "entry_a__player",
        "entry_b__player",
        "winner__player",
        "absent__player",
        "entry_a__team",
        "entry_b__team",
        "winner__team",
    ).annotate(wins_a=_verified_wins("a"), wins_b=_verified_wins("b"))


def bracket_for_event(*, event: Event) -> BracketView | None:
    """The bracket of ``event`` (None before it is built): one query for the matches."""
    playoff = Playoff.objects.filter(event=event).first()
    if playoff is None:
        return None
    rows = list(matches_with_scores().filter(playoff=playoff).order_by("round", "slot"))
    results = {
        (m.round, m.slot): m.winner_id
        for m in rows
        if m.status == Match.Status.DECIDED and not m.bye
    }
    qualifiers = qualifiers_from_rows(rows)
    bracket = build_bracket(qualifiers, results) if qualifiers else Bracket((), (), None)
    by_round: dict[int, list[Match]] = {}
    for m in rows:
        by_round.setdefault(m.round, []).append(m)
    count = len(by_round)
    rounds = tuple(
        Round(number, round_name(number, count), matches[0].best_of, tuple(matches))
        for number, matches in sorted(by_round.items())
    )
    return BracketView(playoff, bracket, rounds)


def entry_current_match(*, entry: Entry) -> Match | None:
    """The player's match in the latest round they reached, byes aside; None if not seeded."""
    if entry.event.stage not in (Event.Stage.PLAYOFFS, Event.Stage.FINISHED):
        return None  # no bracket before the cut: no query for the thousand polls of a game
    if entry.team_id:
        mine = Q(entry_a__team_id=entry.team_id) | Q(entry_b__team_id=entry.team_id)
    else:
        mine = Q(entry_a=entry) | Q(entry_b=entry)
    return (
        matches_with_scores()
        .select_related("playoff__event")
        .filter(mine, bye=False)
        .order_by("-round")
        .first()
    )


def entry_in_match(match: Match, entry: Entry) -> Entry:
    """The entry that plays ``match`` for ``entry``: itself, or in a doubles event its team's
    entry in the match (the first partner's), so either partner reports the team's games, sees
    its score and calls judges to it."""
    if entry.team_id and entry.pk not in (match.entry_a_id, match.entry_b_id):
        for side in (match.entry_a, match.entry_b):
            if side is not None and side.team_id == entry.team_id:
                return side
    return entry


def match_games(*, match: Match) -> list[MatchGame]:
    """The match's games in order, each with its current lines (reported and verified)."""
    return list(
        match.games.select_related("winner__player", "first_dealer__player")
        .prefetch_related("lines")
        .order_by("number")
    )
