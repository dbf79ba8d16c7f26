"""The player's playoff match as their phone shows it: the same states as a qualifying table.

``match_state`` is read by ``player_state`` for the private page and for
``GET /api/v1/report/<token>/`` (its ``match``). Terms:

- current game: the match's open game (reported by one or both, or flagged), else the next one
  to be played; a player's report always goes to it (``services.playoffs_matches``).
- state, for the current game, as at a qualifying table (``selectors.player_state``):
  ``not_reported``, ``waiting`` (saved: waiting for the opponent), ``your_turn`` (the opponent
  has reported), ``disagree``; between games, what became of the last one: ``verified`` (both
  cards agree) or ``settled`` (by a director, the judges or the no-show clock); and for the
  match itself ``not_known`` (the opponent is still to be decided) and ``decided``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Max

from scoring.games import CardLine as EngineLine
from scoring.games import lines_reciprocal
from tournaments.models import CardLine, Entry, Match, MatchGame, MatchLine
from tournaments.selectors.events import event_scoring_settings
from tournaments.selectors.playoffs import entry_in_match, round_name

Source = MatchLine.Source
SETTLED_BY = {
    Source.DIRECTOR: "a director",
    Source.RULING: "the judges",
    Source.FORFEIT: "the no-show clock",
}
MATCH_STATES = (
    "not_known", "not_reported", "waiting", "your_turn", "disagree", "verified", "settled",
    "decided",
)  # fmt: skip


@dataclass(frozen=True)
class Settlement:
    """A verified line the player did not agree to themselves."""

    by: str  # "a cross-checker", "a director", "ACC Rule 12.2", "the judges"
    line: CardLine | MatchLine
    reported: CardLine | MatchLine | None
    reason: str

    @property
    def changed(self) -> bool:
        mine = self.reported
        return mine is None or (mine.game_points, mine.plus, mine.minus) != (
            self.line.game_points,
            self.line.plus,
            self.line.minus,
        )


@dataclass(frozen=True)
class MatchState:
    match_id: int
    round: int
    round_name: str
    best_of: int
    status: str
    opponent: str | None
    wins: int  # the player's games won
    opponent_wins: int
    game: int | None  # the game a report goes to now; None when the match cannot be played
    first_deal: str
    can_report: bool
    reported: MatchLine | None  # the player's report of the current game
    opponent_status: str | None  # not_reported, reported, agrees, disagrees
    state: str
    words: str
    settled: Settlement | None = None


def _lines(game: MatchGame | None) -> dict[tuple[int, str], MatchLine]:
    if game is None:
        return {}
    return {(line.entry_id, line.kind): line for line in game.lines.all() if line.current}


def _engine(line: MatchLine) -> EngineLine:
    return EngineLine(line.game_points, line.plus, line.minus)


def _score(wins: int, other: int, winner: str) -> str:
    high, low = max(wins, other), min(wins, other)
    return f"{winner} won the match {high}–{low}."


def match_state(*, entry: Entry, match: Match) -> MatchState:
    """The player's match: who against, the games won, the current game and its state."""
    entry = entry_in_match(match, entry)  # a doubles team's card is its first partner's
    mine_a = match.entry_a_id == entry.pk
    other = match.entry_b if mine_a else match.entry_a
    opponent = other.entrant_name if other is not None else None
    wins, opponent_wins = (match.wins_a, match.wins_b) if mine_a else (match.wins_b, match.wins_a)
    games = list(match.games.prefetch_related("lines").select_related("first_dealer__player"))
    in_play = (MatchGame.Status.OPEN, MatchGame.Status.FLAGGED)
    open_game = next((g for g in reversed(games) if g.status in in_play), None)
    done = [g for g in games if g.status == MatchGame.Status.VERIFIED]
    rounds = match.playoff.matches.aggregate(rounds=Max("round"))["rounds"] or match.round
    playing = match.status in (Match.Status.READY, Match.Status.PLAYING)
    number = (open_game.number if open_game else len(games) + 1) if playing else None
    lines = _lines(open_game)
    reported = lines.get((entry.pk, MatchLine.Kind.REPORTED))
    theirs = lines.get((other.pk, MatchLine.Kind.REPORTED)) if other is not None else None
    opponent_status = _opponent_status(match, reported, theirs)
    common = {
        "match_id": match.pk, "round": match.round, "round_name": round_name(match.round, rounds),
        "best_of": match.best_of, "status": match.status, "opponent": opponent, "wins": wins,
        "opponent_wins": opponent_wins, "game": number,
        "first_deal": _first_deal(match, open_game, done, number),
        "can_report": playing and entry.status != Entry.Status.WITHDRAWN,
        "reported": reported if playing else None, "opponent_status": opponent_status,
    }  # fmt: skip
    state, words, settled = _words(entry, match, opponent, open_game, done, reported, theirs)
    if match.status == Match.Status.DECIDED:
        winner = "You" if match.winner_id == entry.pk else match.winner.entrant_name
        state, words = "decided", _score(wins, opponent_wins, winner)
    elif match.status == Match.Status.WAITING:
        state, words = "not_known", "Your next opponent is not known yet: this page shows them "
        words += "as soon as their match is decided."
    return MatchState(**common, state=state, words=words, settled=settled)


def _opponent_status(match: Match, mine, theirs) -> str | None:
    if theirs is None:
        return "not_reported"
    if mine is None:
        return "reported"
    settings = event_scoring_settings(event=match.playoff.event)
    return "agrees" if lines_reciprocal(_engine(mine), _engine(theirs), settings) else "disagrees"


def _words(entry, match, opponent, open_game, done, reported, theirs):
    """(state, words, settlement) for the current game, or the last one between games."""
    if open_game is not None:
        n = open_game.number
        if open_game.status == MatchGame.Status.FLAGGED:
            return (
                "disagree",
                (
                    f"Game {n}: your card and {opponent}'s disagree. Check with {opponent} and "
                    "report again if yours is wrong; otherwise a director will settle it."
                ),
                None,
            )
        if reported is not None:
            return "waiting", f"Game {n} saved. Waiting for {opponent} to report it.", None
        if theirs is not None:
            return "your_turn", f"{opponent} has reported game {n}: your turn.", None
        return "not_reported", f"Game {n}: nobody has reported it yet.", None
    if not done:
        return "not_reported", "Game 1: nobody has reported it yet.", None
    last = done[-1]
    lines = _lines(last)
    verified = lines.get((entry.pk, MatchLine.Kind.VERIFIED))
    winner = "you" if last.winner_id == entry.pk else opponent
    if verified is not None and verified.source in SETTLED_BY:
        mine = lines.get((entry.pk, MatchLine.Kind.REPORTED))
        settled = Settlement(SETTLED_BY[verified.source], verified, mine, verified.reason)
        return (
            "settled",
            f"Game {last.number} was settled by {settled.by}: {winner} won it.",
            (settled),
        )
    return "verified", f"Both cards agree: game {last.number} is verified, {winner} won it.", None


def _first_deal(match, open_game, done, number) -> str:
    if number is None:
        return ""
    if open_game is not None and open_game.first_dealer is not None:
        return f"{open_game.first_dealer.name} deals first."
    if open_game is None and done and match.playoff.event.playoff_first_deal == "loser_deals":
        return f"The loser of game {done[-1].number} deals first."
    return "Cut for deal."
