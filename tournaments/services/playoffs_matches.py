"""Playing a playoff match: both players report each game, a director corrects a flagged game,
and the no-show clock forfeits games of an absent player.

- open game: the match's current game, created by its first report; ``first_dealer`` follows
  the event's setting (cut for deal: empty; loser deals: the loser of the previous game).
- flagged game: both players reported and the cards do not tell the same game; a player may
  report again, or a director enters the correction (the reports are kept).
- forfeit: a game the absent player loses on the no-show clock; its verified lines are the
  engine's administrative lines, its ``created_at`` the moment it fell due.

Writes to one match hold a lock on the match row, so two phones reporting the same game at the
same moment are serialised; the database constraints allow one current line of each kind.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from scoring.games import CardLine as EngineLine
from scoring.games import (
    CardLineError,
    administrative_lines,
    card_line_for,
    lines_reciprocal,
    match_state,
    next_first_dealer,
)
from tournaments.models import Entry, Event, Match, MatchGame, MatchLine
from tournaments.selectors.events import event_scoring_settings
from tournaments.services.errors import ServiceError
from tournaments.services.playoffs import playoff_sync

Source = MatchLine.Source
FIRST_FORFEIT = timedelta(minutes=5)
NEXT_FORFEIT = timedelta(minutes=15)


def _locked(match: Match) -> Match:
    return Match.objects.select_for_update().select_related("playoff__event").get(pk=match.pk)


def _side(match: Match, entry_id: int) -> str:
    if entry_id == match.entry_a_id:
        return "a"
    if entry_id == match.entry_b_id:
        return "b"
    raise ServiceError("That player is not in this match.", field="entry", code="not_in_match")


def _entry_of(match: Match, side: str) -> int:
    return match.entry_a_id if side == "a" else match.entry_b_id


def _state(match: Match):
    winners = match.games.filter(status=MatchGame.Status.VERIFIED).order_by("number")
    return match_state(
        match.best_of, [_side(match, w) for w in winners.values_list("winner_id", flat=True)]
    )


def _engine_line(line: MatchLine) -> EngineLine:
    return EngineLine(line.game_points, line.plus, line.minus)


def _line(event: Event, won: bool, spread: int) -> EngineLine:
    try:
        return card_line_for(won, spread, event_scoring_settings(event=event))
    except CardLineError as exc:
        raise ServiceError(exc.message, field="margin", code="impossible_line") from None


def _save_line(game, entry_id, kind, line: EngineLine, *, source, user=None, reason=""):
    MatchLine.objects.filter(match_game=game, entry_id=entry_id, kind=kind, current=True).update(
        current=False
    )
    return MatchLine.objects.create(
        match_game=game,
        entry_id=entry_id,
        kind=kind,
        game_points=line.game_points,
        plus=line.plus,
        minus=line.minus,
        source=source,
        reason=reason[:300],
        entered_by=user if user is not None and user.is_authenticated else None,
    )


def match_check_in_play(match: Match) -> None:
    """Refuse a match that is decided or still waiting for its players."""
    if match.status == Match.Status.DECIDED:
        raise ServiceError(f"{match} is already decided.", code="decided")
    if match.status == Match.Status.WAITING:
        raise ServiceError(f"{match} is waiting for its players.", code="not_ready")


def _open_game(match: Match) -> MatchGame | None:
    return match.games.exclude(status=MatchGame.Status.VERIFIED).order_by("number").last()


def _new_game(match: Match, state) -> MatchGame:
    side = next_first_dealer(state, match.playoff.event.playoff_first_deal)
    if match.status == Match.Status.READY:
        match.status = Match.Status.PLAYING
        match.save(update_fields=["status"])
    return MatchGame.objects.create(
        match=match,
        number=match.games.count() + 1,
        first_dealer_id=_entry_of(match, side) if side else None,
    )


def _current_game(match: Match) -> MatchGame:
    """The open game, or a new one (the match is then in play); the caller holds the lock."""
    return _open_game(match) or _new_game(match, _state(match))


@transaction.atomic
def match_game_current(*, match: Match) -> tuple[Match, MatchGame]:
    """Lock ``match`` (forfeits due recorded first) and return it with its current game,
    created as a first report creates it when none is open."""
    match = _locked(match)
    _apply_forfeits(match, timezone.now())
    match_check_in_play(match)
    return match, _current_game(match)


def _verify(game: MatchGame, winner_id: int, *, when: datetime | None = None) -> None:
    game.status = MatchGame.Status.VERIFIED
    game.winner_id = winner_id
    game.verified_at = when or timezone.now()
    game.save(update_fields=["status", "winner", "verified_at"])


def _decide_if_over(match: Match, *, when: datetime | None = None) -> bool:
    """Decide the match once a player has won enough games, and move the winner on."""
    state = _state(match)
    if not state.decided:
        return False
    match.winner_id = _entry_of(match, state.winner)
    match.status = Match.Status.DECIDED
    match.decided_at = when or timezone.now()
    match.clock_started_at = None
    match.save(update_fields=["winner", "status", "decided_at", "clock_started_at"])
    playoff_sync(playoff=match.playoff)
    return True


@transaction.atomic
def match_game_report(
    *, match: Match, entry: Entry, won: bool, spread: int, user=None, source: str = Source.PLAYER
) -> MatchLine:
    """A player's "I won / I lost by N" for the match's current game; verified (and the match
    decided, the winner moved on) when the two reports agree, flagged when they do not."""
    match = _locked(match)
    line = _line(match.playoff.event, won, spread)
    side = _side(match, entry.pk)
    _apply_forfeits(match, timezone.now())
    match_check_in_play(match)
    if match.absent_id == entry.pk and match.clock_started_at:
        match.clock_started_at = None  # the absent player has arrived
        match.save(update_fields=["clock_started_at"])
    game = _current_game(match)
    reported = _save_line(game, entry.pk, MatchLine.Kind.REPORTED, line, source=source, user=user)
    other = game.lines.filter(
        kind=MatchLine.Kind.REPORTED, current=True, entry_id=_entry_of(match, _other(side))
    ).first()
    if other is None:
        return reported
    settings = event_scoring_settings(event=match.playoff.event)
    if not lines_reciprocal(line, _engine_line(other), settings):
        game.status = MatchGame.Status.FLAGGED
        game.save(update_fields=["status"])
        return reported
    for entry_id, agreed in ((entry.pk, line), (other.entry_id, _engine_line(other))):
        _save_line(game, entry_id, MatchLine.Kind.VERIFIED, agreed, source=Source.AGREED)
    _verify(game, entry.pk if won else other.entry_id)
    _decide_if_over(match)
    return reported


def _other(side: str) -> str:
    return "b" if side == "a" else "a"


@transaction.atomic
def match_game_correct(
    *,
    match_game: MatchGame,
    winner_entry: Entry,
    spread: int,
    reason: str,
    user,
    source: str = Source.DIRECTOR,
    lines: tuple[EngineLine, EngineLine] | None = None,
) -> MatchGame:
    """A director settles a game whose cards disagree (or were never both reported).

    A judges' ruling that ends the game settles it here too, with ``source`` "ruling" and the
    engine's ``lines`` (winner's, loser's), which may be an administrative result."""
    if not reason.strip():
        raise ServiceError("Say why the game is corrected.", field="reason", code="required")
    match = _locked(match_game.match)
    game = MatchGame.objects.select_for_update().get(pk=match_game.pk)
    if game.status == MatchGame.Status.VERIFIED:
        raise ServiceError(f"Game {game.number} is already verified.", code="verified")
    winner_side = _side(match, winner_entry.pk)
    event = match.playoff.event
    won_line, lost_line = lines or (_line(event, True, spread), _line(event, False, spread))
    for side, line in ((winner_side, won_line), (_other(winner_side), lost_line)):
        _save_line(
            game,
            _entry_of(match, side),
            MatchLine.Kind.VERIFIED,
            line,
            source=source,
            user=user,
            reason=reason.strip(),
        )
    _verify(game, winner_entry.pk)
    _decide_if_over(match)
    return game


@transaction.atomic
def match_clock_start(*, match: Match, absent: Entry, user, now: datetime | None = None) -> Match:
    """Start the no-show clock against ``absent``: a game forfeited at +5 min, one more every
    15 min after that, until the match is decided or the absent player reports a game."""
    match = _locked(match)
    match_check_in_play(match)
    _side(match, absent.pk)
    if match.clock_started_at is not None:
        raise ServiceError("The no-show clock is already running.", code="clock_running")
    match.absent_id = absent.pk
    match.clock_started_at = now or timezone.now()
    match.save(update_fields=["absent", "clock_started_at"])
    return match


def forfeits_due(clock_started_at: datetime, now: datetime) -> list[datetime]:
    """When each forfeited game fell due, from the clock's start up to ``now``."""
    due, when = [], clock_started_at + FIRST_FORFEIT
    while when <= now:
        due.append(when)
        when += NEXT_FORFEIT
    return due


@transaction.atomic
def match_forfeits_apply(*, match: Match, now: datetime | None = None) -> int:
    """Record the forfeits the clock has made due by ``now``; returns how many were added."""
    return _apply_forfeits(_locked(match), now or timezone.now())


def _apply_forfeits(match: Match, now: datetime) -> int:
    if match.clock_started_at is None or match.status == Match.Status.DECIDED:
        return 0
    started = match.clock_started_at
    done = match.games.filter(forfeit=True, created_at__gte=started).count()
    present = _entry_of(match, _other(_side(match, match.absent_id)))
    winner_line, offender_line = administrative_lines(
        event_scoring_settings(event=match.playoff.event)
    )
    added = 0
    for when in forfeits_due(started, now)[done:]:
        state = _state(match)
        if state.decided:
            break
        game = _open_game(match) or _new_game(match, state)
        MatchGame.objects.filter(pk=game.pk).update(forfeit=True, created_at=when)
        game.forfeit = True
        for entry_id, line in ((present, winner_line), (match.absent_id, offender_line)):
            _save_line(
                game,
                entry_id,
                MatchLine.Kind.VERIFIED,
                line,
                source=Source.FORFEIT,
                reason="No-show clock",
            )
        _verify(game, present, when=when)
        added += 1
        if _decide_if_over(match, when=when):
            break
    return added


def playoff_forfeits_apply_all(*, now: datetime | None = None) -> int:
    """The periodic task's work: every running no-show clock, each match in its own lock."""
    now = now or timezone.now()
    running = Match.objects.filter(clock_started_at__isnull=False).exclude(
        status=Match.Status.DECIDED
    )
    return sum(match_forfeits_apply(match=m, now=now) for m in running)
