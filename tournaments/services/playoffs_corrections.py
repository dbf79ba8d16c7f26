"""A director's corrections in the playoffs: a match game corrected or voided, the no-show
clock started, stopped or restarted.

- correction: new verified lines for a game (open, flagged or already decided); the old lines
  stay, no longer current. The winner may change.
- void: the game counts for nobody; its lines stay in the record, no longer current. The next
  report opens a new game with the next number.
- un-finalised: a correction or void that undecides the final of a finalised event takes the
  results out of the ledger (``ledger.final_reopened``): the answer says so
  (``PlayoffCorrection.unfinalised``), and so do the history and the manage page.
- re-derive: after either, the match is decided (or no longer decided) from the games that
  count, and the bracket follows (``playoffs.playoff_sync``). A change that would alter who
  plays in a later match that already has games is refused as a whole, with the match named:
  correct or void that match's games first. A change that would leave games played after the
  match was already won is refused too.

Each write holds the match row's lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from scoring.games import CardLine as EngineLine
from scoring.games import MatchError, other_side
from tournaments.errors import ServiceError
from tournaments.models import Entry, Match, MatchGame, MatchLine
from tournaments.services.audit import Kind, audit_record, line_state
from tournaments.services.ledger import UNFINALISED, final_reopened
from tournaments.services.playoffs_matches import (
    match_check_in_play,
    match_entry_of,
    match_game_verify,
    match_line_for,
    match_line_save,
    match_locked,
    match_rederive,
    match_side,
)

Source = MatchLine.Source


WHY = "a correction in the playoffs"


@dataclass(frozen=True)
class PlayoffCorrection:
    """What a correction or void did: the game, and whether it un-finalised the event."""

    game: MatchGame
    unfinalised: bool

    @property
    def unfinalised_message(self) -> str:
        return UNFINALISED.format(why=WHY) if self.unfinalised else ""


def _unfinalised_note(unfinalised: bool) -> str:
    return f" {UNFINALISED.format(why='this change')}" if unfinalised else ""


def _game_state(game: MatchGame) -> dict:
    lines = {
        str(line.entry_id): line_state(line)
        for line in game.lines.filter(kind=MatchLine.Kind.VERIFIED, current=True)
    }
    return {"status": game.status, "winner": game.winner_id, "lines": lines}


def _rederive(match: Match) -> None:
    try:
        match_rederive(match)
    except MatchError as exc:
        raise ServiceError(
            f"Refused: after this change {exc} Void the later game(s) first.",
            code="games_after_decision",
        ) from None


def _locked_game(match_game: MatchGame) -> tuple[Match, MatchGame]:
    match = match_locked(match_game.match)
    return match, MatchGame.objects.select_for_update().get(pk=match_game.pk)


def match_game_settle(
    *,
    match: Match,
    game: MatchGame,
    winner_entry: Entry,
    spread: int,
    reason: str,
    user,
    source: str,
    lines: tuple[EngineLine, EngineLine] | None = None,
) -> MatchGame:
    """New verified lines for ``game`` and the match re-derived; the caller holds the lock and
    records the action. ``lines`` (winner's, loser's) come from a ruling's engine result."""
    if not reason.strip():
        raise ServiceError("Say why the game is corrected.", field="reason", code="required")
    if game.status == MatchGame.Status.VOID:
        raise ServiceError(
            f"Game {game.number} is void; the next game is reported as a new one.", code="void"
        )
    winner_side = match_side(match, winner_entry.pk)
    event = match.playoff.event
    won_line, lost_line = lines or (
        match_line_for(event, True, spread),
        match_line_for(event, False, spread),
    )
    for side, line in ((winner_side, won_line), (other_side(winner_side), lost_line)):
        match_line_save(
            game,
            match_entry_of(match, side),
            MatchLine.Kind.VERIFIED,
            line,
            source=source,
            user=user,
            reason=reason.strip(),
        )
    match_game_verify(game, winner_entry.pk)
    _rederive(match)
    return game


@transaction.atomic
def match_game_correct(
    *, match_game: MatchGame, winner_entry: Entry, spread: int, reason: str, user
) -> PlayoffCorrection:
    """A director settles or corrects a game: cards that disagree, or a decided game."""
    match, game = _locked_game(match_game)
    event = match.playoff.event
    was_final = event.finalised_at is not None
    before = _game_state(game)
    match_game_settle(
        match=match,
        game=game,
        winner_entry=winner_entry,
        spread=spread,
        reason=reason,
        user=user,
        source=Source.DIRECTOR,
    )
    unfinalised = final_reopened(event=event, was_final=was_final)
    audit_record(
        event=event,
        actor=user,
        kind=Kind.PLAYOFFS,
        action="match_game_correct",
        summary=f"{str(match).capitalize()}, game {game.number} corrected: "
        f"{winner_entry.name} won by {spread}. {reason.strip()}" + _unfinalised_note(unfinalised),
        before=before,
        after={**_game_state(game), "unfinalised": unfinalised},
    )
    return PlayoffCorrection(game, unfinalised)


@transaction.atomic
def match_game_void(*, match_game: MatchGame, reason: str, user) -> PlayoffCorrection:
    """The game counts for nobody (a forfeit the clock should not have made, say)."""
    if not reason.strip():
        raise ServiceError("Say why the game is void.", field="reason", code="required")
    match, game = _locked_game(match_game)
    event = match.playoff.event
    was_final = event.finalised_at is not None
    if game.status == MatchGame.Status.VOID:
        raise ServiceError(f"Game {game.number} is already void.", code="void")
    before = _game_state(game)
    game.lines.filter(current=True).update(current=False)
    game.status, game.winner_id = MatchGame.Status.VOID, None
    game.save(update_fields=["status", "winner"])
    _rederive(match)
    unfinalised = final_reopened(event=event, was_final=was_final)
    audit_record(
        event=event,
        actor=user,
        kind=Kind.PLAYOFFS,
        action="match_game_void",
        summary=f"{str(match).capitalize()}, game {game.number} void: {reason.strip()}"
        + _unfinalised_note(unfinalised),
        before=before,
        after={**_game_state(game), "unfinalised": unfinalised},
    )
    return PlayoffCorrection(game, unfinalised)


@transaction.atomic
def match_clock_start(*, match: Match, absent: Entry, user, now: datetime | None = None) -> Match:
    """Start (or restart) the no-show clock against ``absent``: a game forfeited at +5 min,
    one more every 15 min after that, until the match is decided or the player reports."""
    match = match_locked(match)
    match_check_in_play(match)
    match_side(match, absent.pk)
    if match.clock_started_at is not None:
        raise ServiceError("The no-show clock is already running.", code="clock_running")
    match.absent_id = absent.pk
    match.clock_started_at = now or timezone.now()
    match.save(update_fields=["absent", "clock_started_at"])
    audit_record(
        event=match.playoff.event,
        actor=user,
        kind=Kind.PLAYOFFS,
        action="match_clock_start",
        summary=f"No-show clock started against {absent.name} in {match}",
        after={"absent": absent.name, "started_at": match.clock_started_at},
    )
    return match


@transaction.atomic
def match_clock_stop(*, match: Match, user) -> Match:
    """Stop the no-show clock; games it already forfeited stay (void them if they should not)."""
    match = match_locked(match)
    if match.clock_started_at is None:
        raise ServiceError("The no-show clock is not running.", code="clock_stopped")
    absent = Entry.objects.select_related("player").get(pk=match.absent_id)
    before = {"absent": absent.name, "started_at": match.clock_started_at}
    match.clock_started_at = None
    match.save(update_fields=["clock_started_at"])
    audit_record(
        event=match.playoff.event,
        actor=user,
        kind=Kind.PLAYOFFS,
        action="match_clock_stop",
        summary=f"No-show clock against {absent.name} stopped in {match}",
        before=before,
    )
    return match
