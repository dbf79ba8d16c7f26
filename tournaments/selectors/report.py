"""The report screen: the player's page behind their private link (where they play, whether their
result went in, what happens next).

``player_state`` is the one read model of the private page and of ``GET /api/v1/report/<token>/``.
Its ``current`` game carries a ``state`` and the plain ``words`` for it:

- ``not_reported``: nobody at the table has reported yet.
- ``waiting``: the player has reported; the opponent has not.
- ``your_turn``: the opponent has reported; the player has not (their figures are not shown).
- ``disagree``: both have reported and the cards do not agree (still open: either may correct).
- ``verified``: both cards agree.
- ``flagged``: with a cross-checker (the cards disagreed or were missing when the game closed).
- ``settled``: the table's verified line came from a cross-checker, a director, Rule 12.2 or a
  judges' ruling; ``settled`` says what the card shows, what the player had reported, and why.
- ``sit_out``, ``withdrawn``, ``not_started``: nothing to report.

``opponent_status`` says the same from the opponent's side: ``not_reported``, ``reported`` (they
have, this player has not), ``agrees`` or ``disagrees`` (both have reported).

In the playoffs ``current`` is None and ``match_state`` (``selectors.report_match``) says the
same of the player's match.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from scoring.games import CardLine as EngineLine
from scoring.games import lines_reciprocal
from tournaments.models import CardLine, Entry, Event, Match, Notice, Seat, Table
from tournaments.selectors.compiled import Compiled
from tournaments.selectors.entrants import Entrant, entrant_of
from tournaments.selectors.events import event_scoring_settings
from tournaments.selectors.playoffs import entry_current_match
from tournaments.selectors.report_match import MatchState, Settlement, match_state
from tournaments.selectors.results import (
    CardRow,
    RunningCard,
    entry_card,
    known_none,
    report_refusal,
)
from tournaments.selectors.team_cards import team_entry_card

Source = CardLine.Source
SETTLED_BY = {
    Source.CROSS_CHECKER: "a cross-checker",
    Source.DIRECTOR: "a director",
    Source.RULE_12_2: "ACC Rule 12.2",
    Source.RULING: "the judges",
}
NOTICES_SHOWN_FOR = timedelta(minutes=30)
# The page shows the newest three not yet seen or from the last half hour; a player has a few
# notices in a weekend (reminders, the cut), so they are read whole and chosen here.
_NOTICES = Compiled(lambda entry_id: Notice.objects.filter(entry_id=entry_id), int)


@dataclass(frozen=True)
class GameState:
    number: int
    game_status: str
    table_id: int | None  # the table's id (the page's "call a judge" names it)
    table: int | None
    table_status: str | None
    opponent: str | None
    can_report: bool
    reported: CardLine | None  # the player's own current report
    verified: CardLine | None
    opponent_status: str | None  # None when there is no opponent (a sit-out)
    state: str
    words: str
    settled: Settlement | None = None


@dataclass(frozen=True)
class PlayerState:
    entry: Entry
    current: GameState | None
    card: list[CardRow]
    notices: list[Notice]
    match: Match | None
    withdrawn_after_game: int | None = None
    match_state: MatchState | None = None  # the playoff match, as ``current`` for a table
    consolation: Entry | None = None  # the player's entry in this Main's Consolation

    @property
    def consolation_page(self) -> str | None:
        entry = self.consolation
        return reverse("player-page", args=[entry.report_token]) if entry else None

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def event(self) -> str:
        return self.entry.event.name

    @property
    def team(self) -> Entrant | None:
        """The player's team in a doubles event (its name and both partners), else None."""
        return entrant_of(self.entry) if self.entry.team_id else None


def _engine(line: CardLine) -> EngineLine:
    return EngineLine(line.game_points, line.plus, line.minus)


def _opponent_status(mine: CardLine | None, theirs: CardLine | None, settings) -> str:
    if theirs is None:
        return "not_reported"
    if mine is None:
        return "reported"
    return "agrees" if lines_reciprocal(_engine(mine), _engine(theirs), settings) else "disagrees"


def _game_state(seat: Seat, card: RunningCard) -> GameState:
    game, table = seat.game, seat.table
    row = next(row for row in card.rows if row.game == game.number)
    common = {"number": game.number, "game_status": game.status}
    if table is None:
        words = (
            f"You sit out game {game.number}: "
            f"{game.event.sit_out_game_points} game points, plus {game.event.sit_out_spread}."
        )
        return GameState(
            **common,
            table_id=None,
            table=None,
            table_status=None,
            opponent=None,
            can_report=False,
            reported=None,
            verified=row.line if row.verified else None,
            opponent_status=None,
            state="sit_out",
            words=words,
        )
    mine, theirs = card.mine, card.theirs
    reported, verified = mine.get("reported"), mine.get("verified")
    opponent = row.opponent
    settings = event_scoring_settings(event=game.event)
    opponent_status = _opponent_status(reported, theirs.get("reported"), settings)
    refusal = report_refusal(seat=seat, table=table)
    settled = None
    if verified is not None and verified.source in SETTLED_BY:
        settled = Settlement(SETTLED_BY[verified.source], verified, reported, verified.reason)
    state, words = _words(table, opponent, opponent_status, reported, settled, refusal)
    return GameState(
        **common,
        table_id=table.pk,
        table=table.number,
        table_status=table.status,
        opponent=opponent,
        can_report=refusal is None,
        reported=reported,
        verified=verified,
        opponent_status=opponent_status,
        state=state,
        words=words,
        settled=settled,
    )


def report_saved(*, table: Table, line: CardLine, theirs: CardLine | None, opponent: str) -> dict:
    """The answer to a report saved by link (``services.report``), from what its transaction
    holds: the game, the line saved, and the table's state and words as the page would show
    them now (the rest of the page is ``GET /api/v1/report/<token>/``)."""
    game = table.game
    status = _opponent_status(line, theirs, event_scoring_settings(event=game.event))
    state, words = _words(table, opponent, status, line, None, None)
    return {
        "game": game.number,
        "table": table.number,
        "line": {
            "kind": line.kind,
            "game_points": line.game_points,
            "plus": line.plus,
            "minus": line.minus,
        },
        "opponent": opponent,
        "opponent_status": status,
        "state": state,
        "words": words,
        "verified": table.status == Table.Status.VERIFIED,
    }


def _words(table: Table, opponent: str, opponent_status: str, reported, settled, refusal):
    if settled is not None:
        if settled.changed:
            return "settled", f"Settled by {settled.by}: your card now shows the line below."
        return "settled", f"Settled by {settled.by}, as you reported it."
    if table.status == Table.Status.VERIFIED:
        return "verified", "Both cards agree: this game is verified."
    if table.status == Table.Status.FLAGGED and opponent_status == "disagrees":
        return "flagged", "Your cards disagree: a cross-checker will settle it."
    if table.status == Table.Status.FLAGGED:  # closed with one card or none, not a disagreement
        return "flagged", (
            "The game was closed before both cards agreed: a cross-checker will settle your table."
        )
    if refusal is not None and refusal.code == "withdrawn":
        return "withdrawn", refusal.message
    if refusal is not None and refusal.code == "not_started":
        return "not_started", "This game has not started yet."
    if opponent_status == "disagrees":
        return "disagree", (
            f"Your card and {opponent}'s disagree. Check with {opponent} and correct yours if "
            "it is wrong; otherwise a cross-checker will settle it."
        )
    if reported is not None:
        return "waiting", f"Saved. Waiting for {opponent} to report."
    if opponent_status == "reported":
        return "your_turn", f"{opponent} has reported: your turn."
    return "not_reported", "Nobody at your table has reported yet."


def player_state(*, entry: Entry) -> PlayerState:
    """Everything the player's page and API show, in a handful of queries."""
    card = team_entry_card(entry=entry) if entry.team_id else entry_card(entry=entry)
    seat = card.current
    since = timezone.now() - NOTICES_SHOWN_FOR
    kept = [] if known_none(entry, "v_notice") else _NOTICES.rows(entry.pk)
    notices = [n for n in kept if n.seen_at is None or n.created_at >= since]
    withdrawn = entry.status == Entry.Status.WITHDRAWN
    match = entry_current_match(entry=entry)
    return PlayerState(
        entry=entry,
        # In the playoffs the match is what the player plays, not their last qualifying game.
        current=_game_state(seat, card) if seat is not None and match is None else None,
        card=card.rows,
        notices=notices[:3],
        match=match,
        withdrawn_after_game=(entry.withdrawn_after_game or 0) if withdrawn else None,
        match_state=match_state(entry=entry, match=match) if match is not None else None,
        consolation=entry_consolation(entry=entry),
    )


def entry_consolation(*, entry: Entry) -> Entry | None:
    """The player's entry in the Consolation of ``entry``'s Main, once it is made (after the
    cut: no query before, for the many polls of the qualifying round)."""
    event = entry.event
    if event.kind != Event.Kind.MAIN or event.stage not in (
        Event.Stage.PLAYOFFS,
        Event.Stage.FINISHED,
    ):
        return None
    return (
        Entry.objects.filter(
            event__parent_id=event.pk,
            event__kind=Event.Kind.CONSOLATION,
            player_id=entry.player_id,
        )
        .exclude(status=Entry.Status.WITHDRAWN)
        .select_related("event")
        .order_by("event_id")
        .first()
    )
