"""The projector wall: what a room full of players reads off one screen, by the event's stage.

Terms:
- current game: the latest game visitors may see (``games.game_current``); its pairings are
  shown one line a player, alphabetically, so each player finds their own name.
- pairing: "name, table N, against X"; a player with no table sits out.
- standing: one row of the latest standings (rank, name, game points, net spread);
  ``cut_after`` is how many qualify: the cut line is drawn under that row (0: no cut).
- bracket columns: the playoff rounds from the round in play (the first with a match not yet
  decided), at most ``BRACKET_COLUMNS`` of them, so the later rounds stay on screen.
- finishers: the best places of a finished event, champion first.

Everything is read through the selectors the other pages use (pairings, standings, bracket,
final results); this module only shapes their answers into plain rows for the wall.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Event, Game, Match
from tournaments.selectors.final import event_final_results
from tournaments.selectors.games import NameRow, game_current, game_pairings
from tournaments.selectors.playoffs import bracket_for_event
from tournaments.selectors.results import standings_table

BRACKET_COLUMNS = 4
FINISHERS = 8


@dataclass(frozen=True)
class WallStanding:
    rank: int
    tied: bool
    name: str
    game_points: int
    spread: int  # net spread
    qualifies: bool


@dataclass(frozen=True)
class WallSide:
    seed: int | None
    name: str  # "" while the player is to come (or for a bye)
    wins: int
    won: bool


@dataclass(frozen=True)
class WallMatch:
    a: WallSide
    b: WallSide
    bye: bool
    playing: bool
    decided: bool


@dataclass(frozen=True)
class WallRound:
    name: str
    best_of: int
    matches: tuple[WallMatch, ...]


@dataclass(frozen=True)
class WallFinisher:
    place: str
    name: str


@dataclass(frozen=True)
class Wall:
    stage: str
    game: int | None = None  # the current game's number
    game_closed: bool = False
    pairings: tuple[NameRow, ...] = ()  # games.game_pairings' rows by name
    standings: tuple[WallStanding, ...] = ()
    cut_after: int = 0
    rounds: tuple[WallRound, ...] = ()
    champion: str = ""  # "" until the playoffs give one
    finishers: tuple[WallFinisher, ...] = ()


def wall(*, event: Event) -> Wall:
    """The wall of ``event`` at its stage, in a few queries whatever the field size."""
    if event.stage == Event.Stage.QUALIFYING:
        return _qualifying(event)
    if event.stage == Event.Stage.PLAYOFFS:
        return Wall(stage=event.stage, rounds=_bracket(event))
    if event.stage == Event.Stage.FINISHED:
        return _finished(event)
    return Wall(stage=event.stage)


def _qualifying(event: Event) -> Wall:
    game = game_current(event=event)
    pairings = ()
    if game is not None:
        pairings = tuple(game_pairings(game=game).by_name)
    standings, cut_after = _standings(event)
    return Wall(
        stage=event.stage,
        game=game.number if game else None,
        game_closed=bool(game and game.status == Game.Status.CLOSED),
        pairings=pairings,
        standings=standings,
        cut_after=cut_after,
    )


def _standings(event: Event) -> tuple[tuple[WallStanding, ...], int]:
    """The latest standings as wall rows, and how many qualify."""
    table = standings_table(event=event)
    rows = tuple(
        WallStanding(
            row["rank"],
            row["tied"],
            row["name"],
            row["game_points"],
            row["net_spread"],
            row["qualifies"],
        )
        for row in table.rows
    )
    return rows, table.cut_after if rows else 0


def _bracket(event: Event) -> tuple[WallRound, ...]:
    view = bracket_for_event(event=event)
    if view is None:
        return ()
    rounds = view.rounds
    in_play = next(
        (
            i
            for i, r in enumerate(rounds)
            if any(m.status != Match.Status.DECIDED for m in r.matches)
        ),
        len(rounds) - 1,
    )
    first = max(0, min(in_play, len(rounds) - BRACKET_COLUMNS))
    return tuple(
        WallRound(r.name, r.best_of, tuple(_match(m) for m in r.matches))
        for r in rounds[first : first + BRACKET_COLUMNS]
    )


def _match(m: Match) -> WallMatch:
    def side(seed, entry, wins) -> WallSide:
        name = entry.entrant_name if entry else ""
        return WallSide(
            seed if entry else None, name, wins, bool(entry) and m.winner_id == entry.pk
        )

    return WallMatch(
        side(m.seed_a, m.entry_a, m.wins_a),
        side(m.seed_b, m.entry_b, m.wins_b),
        m.bye,
        m.status == Match.Status.PLAYING,
        m.status == Match.Status.DECIDED,
    )


def _finished(event: Event) -> Wall:
    final = event_final_results(event=event)
    if final.winner is not None:
        finishers = tuple(WallFinisher(row.place, row.name) for row in final.rows[:FINISHERS])
        return Wall(stage=event.stage, champion=final.winner.name, finishers=finishers)
    # No playoff (a club night, or no qualifiers): the final standings are the result.
    standings, _ = _standings(event)
    return Wall(
        stage=event.stage,
        finishers=tuple(WallFinisher(str(r.rank), r.name) for r in standings[:FINISHERS]),
    )
