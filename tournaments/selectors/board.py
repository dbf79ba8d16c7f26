"""The director's live board of a game: its tables, and whether the players' phones still reach
the server. One read model for the page (``views/results.board``) and the API
(``GameBoardView``).

Terms:

- **last heard**: when the server last had a request from a player's private link (a report, the
  page or its poll): ``tournaments.heard``.
- **silence**: a game in play (published, a table still waiting for results) from which no
  phone has reached the server for ``SILENCE_MINUTES``, counted from the newest time any of
  its players was heard, or from the game's publication if none was. Either the room's network
  is down or nobody can send: the director switches to paper cards.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from tournaments.heard import MEMO_SECONDS, heard_many
from tournaments.models import CardLine, Event, Game, Table
from tournaments.selectors.live import event_version
from tournaments.selectors.results import game_board

STATES = ("waiting", "one reported", "disagree", "verified", "flagged")


def heard_words(at: datetime | None) -> str:
    """When a phone was last heard, in the words the board shows."""
    if at is None:
        return "not heard"
    minutes = int((timezone.now() - at).total_seconds() // 60)
    if minutes < 1:
        return "heard just now"
    if minutes < 120:
        return f"heard {minutes} min ago"
    return f"heard at {timezone.localtime(at):%H:%M}"


@dataclass(frozen=True)
class BoardSeat:
    position: int
    name: str
    reported: CardLine | None
    last_heard: datetime | None

    @property
    def heard_words(self) -> str:
        return heard_words(self.last_heard)


@dataclass(frozen=True)
class BoardTable:
    table: Table
    state: str  # one of STATES
    seats: list[BoardSeat]


@dataclass(frozen=True)
class Silence:
    """No phone of the game has reached the server for ``minutes`` (at least)."""

    minutes: int
    last_heard: datetime | None  # the newest time any player of the game was heard
    paper_table: Table  # the first table still waiting: where paper entry starts

    @property
    def message(self) -> str:
        return (
            f"No phone has reached the server for {self.minutes} minutes. Check the venue's "
            "network; paper entry stays the fallback: collect the scorecards and enter them "
            "table by table."
        )


@dataclass(frozen=True)
class Board:
    game: Game
    tables: list[BoardTable]
    counts: dict[str, int]
    last_heard: datetime | None  # the newest time any player of the game was heard
    silence: Silence | None

    @property
    def last_heard_words(self) -> str:
        return heard_words(self.last_heard)


def board_for_game(*, game: Game, now: datetime | None = None) -> Board:
    """Every table of ``game`` with its players, their reports and when each was last heard;
    the silence alarm. Two queries and one cache read, whatever the field."""
    rows = game_board(game=game)
    heard = heard_many(tokens=[link for row in rows for side in row.links for link in side])
    tables = [
        BoardTable(
            table=row.table,
            state=row.state,
            seats=[
                BoardSeat(position, name, line, _newest(heard, side))
                for position, (name, line, side) in enumerate(
                    zip(row.players, row.reported, row.links, strict=True), start=1
                )
            ],
        )
        for row in rows
    ]
    newest = max(heard.values(), default=None)
    return Board(
        game=game,
        tables=tables,
        counts={state: sum(t.state == state for t in tables) for state in STATES},
        last_heard=newest,
        silence=_silence(game, tables, newest, now or timezone.now()),
    )


def _newest(heard: dict, links: tuple[str, ...]) -> datetime | None:
    """When the side was last heard: its player, or the later of two partners."""
    return max((heard[link] for link in links if link in heard), default=None)


def _silence(
    game: Game, tables: list[BoardTable], newest: datetime | None, now: datetime
) -> Silence | None:
    waiting = [t.table for t in tables if t.table.status == Table.Status.OPEN]
    if game.status != Game.Status.PUBLISHED or not waiting:
        return None
    since = max((at for at in (newest, game.published_at) if at is not None), default=None)
    minutes = settings.SILENCE_MINUTES
    if since is None or now - since < timedelta(minutes=minutes):
        return None
    quiet = int((now - since).total_seconds() // 60)
    return Silence(minutes=quiet, last_heard=newest, paper_table=waiting[0])


def board_version(*, event: Event) -> str:
    """The board page's version: the event's (``event_version``), and a time bucket of
    ``MEMO_SECONDS``, as last-heard times and the silence alarm change with no database
    write. A few directors' screens re-render twice a minute at most."""
    return f"{event_version(event=event)}.{int(time.time() // MEMO_SECONDS)}"
