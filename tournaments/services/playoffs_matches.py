"""Playing a playoff match: both players report each game, and the no-show clock forfeits
games of an absent player. Directors' corrections, voids and the clock's start and stop are in
``playoffs_corrections``.

- open game: the match's current game, created by its first report; ``first_dealer`` follows
  the event's setting (cut for deal: empty; loser deals: the loser of the previous game).
- flagged game: both players reported and the cards do not tell the same game; a player may
  report again, or a director enters the correction (the reports are kept).
- counting games: the verified ones; a void game counts for nobody.
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
    other_side,
)
from tournaments.errors import ServiceError
from tournaments.models import Entry, Event, Match, MatchGame, MatchLine
from tournaments.selectors.events import event_scoring_settings
from tournaments.selectors.playoffs import entry_in_match
from tournaments.services.conflicts import retry_on_conflict
from tournaments.services.playoffs import playoff_sync

Source = MatchLine.Source
FIRST_FORFEIT = timedelta(minutes=5)
NEXT_FORFEIT = timedelta(minutes=15)


def match_locked(match: Match) -> Match:
    return Match.objects.select_for_update().select_related("playoff__event").get(pk=match.pk)


def match_side(match: Match, entry_id: int) -> str:
    if entry_id == match.entry_a_id:
        return "a"
    if entry_id == match.entry_b_id:
        return "b"
    raise ServiceError("That player is not in this match.", field="entry", code="not_in_match")


def match_entry_of(match: Match, side: str) -> int:
    return match.entry_a_id if side == "a" else match.entry_b_id


def match_state_of(match: Match):
    winners = match.games.filter(status=MatchGame.Status.VERIFIED).order_by("number")
    return match_state(
        match.best_of, [match_side(match, w) for w in winners.values_list("winner_id", flat=True)]
    )


def _engine_line(line: MatchLine) -> EngineLine:
    return EngineLine(line.game_points, line.plus, line.minus)


def match_line_for(event: Event, won: bool, spread: int) -> EngineLine:
    try:
        return card_line_for(won, spread, event_scoring_settings(event=event))
    except CardLineError as exc:
        raise ServiceError(exc.message, field="margin", code="impossible_line") from None


def match_line_save(game, entry_id, kind, line: EngineLine, *, source, user=None, reason=""):
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
    done = (MatchGame.Status.VERIFIED, MatchGame.Status.VOID)
    return match.games.exclude(status__in=done).order_by("number").last()


def _new_game(match: Match, state) -> MatchGame:
    side = next_first_dealer(state, match.playoff.event.playoff_first_deal)
    if match.status == Match.Status.READY:
        match.status = Match.Status.PLAYING
        match.save(update_fields=["status"])
    return MatchGame.objects.create(
        match=match,
        number=match.games.count() + 1,
        first_dealer_id=match_entry_of(match, side) if side else None,
    )


def _current_game(match: Match) -> MatchGame:
    """The open game, or a new one (the match is then in play); the caller holds the lock."""
    return _open_game(match) or _new_game(match, match_state_of(match))


@transaction.atomic
def match_game_current(*, match: Match) -> tuple[Match, MatchGame]:
    """Lock ``match`` (forfeits due recorded first) and return it with its current game,
    created as a first report creates it when none is open."""
    match = match_locked(match)
    _apply_forfeits(match, timezone.now())
    match_check_in_play(match)
    return match, _current_game(match)


def match_game_verify(game: MatchGame, winner_id: int, *, when: datetime | None = None) -> None:
    game.status = MatchGame.Status.VERIFIED
    game.winner_id = winner_id
    game.verified_at = when or timezone.now()
    game.save(update_fields=["status", "winner", "verified_at"])


def match_rederive(match: Match, *, when: datetime | None = None) -> bool:
    """Decide the match from the games that count (or undecide it after a correction or a
    void), and bring the bracket in line; returns whether the match is decided."""
    state = match_state_of(match)
    winner = match_entry_of(match, state.winner) if state.decided else None
    if winner == match.winner_id:
        return state.decided
    match.winner_id = winner
    if winner is not None:
        match.status = Match.Status.DECIDED
        match.decided_at = when or timezone.now()
        match.clock_started_at = None
    else:
        counted = match.games.exclude(status=MatchGame.Status.VOID).exists()
        match.status = Match.Status.PLAYING if counted else Match.Status.READY
        match.decided_at = None
    match.save(update_fields=["winner", "status", "decided_at", "clock_started_at"])
    playoff_sync(playoff=match.playoff)
    return state.decided


@retry_on_conflict  # opens the transaction itself
def match_game_report(
    *,
    match: Match,
    entry: Entry,
    won: bool,
    spread: int,
    user=None,
    source: str = Source.PLAYER,
    game_number: int | None = None,
) -> MatchLine:
    """A player's "I won / I lost by N" for the match's current game; verified (and the match
    decided, the winner moved on) when the two reports agree, flagged when they do not.
    ``game_number`` is the game the player was looking at (a report kept on a phone may arrive
    late): if another game is in play now, the report is refused rather than saved against it."""
    match = match_locked(match)
    line = match_line_for(match.playoff.event, won, spread)
    entry = entry_in_match(match, entry)  # a partner reports on the team's card
    side = match_side(match, entry.pk)
    _apply_forfeits(match, timezone.now())
    match_check_in_play(match)
    if match.absent_id == entry.pk and match.clock_started_at:
        match.clock_started_at = None  # the absent player has arrived
        match.save(update_fields=["clock_started_at"])
    game = _current_game(match)
    if game_number is not None and game_number != game.number:
        raise ServiceError(
            f"Your report is for game {game_number} of this match, but game {game.number} is "
            f"the one in play now, so it was not saved. Check your page; if game {game_number} "
            "is not as you played it, see the director.",
            field="game",
            code="game_changed",
        )
    reported = match_line_save(
        game, entry.pk, MatchLine.Kind.REPORTED, line, source=source, user=user
    )
    other = game.lines.filter(
        kind=MatchLine.Kind.REPORTED, current=True, entry_id=match_entry_of(match, other_side(side))
    ).first()
    if other is None:
        return reported
    settings = event_scoring_settings(event=match.playoff.event)
    if not lines_reciprocal(line, _engine_line(other), settings):
        game.status = MatchGame.Status.FLAGGED
        game.save(update_fields=["status"])
        return reported
    for entry_id, agreed in ((entry.pk, line), (other.entry_id, _engine_line(other))):
        match_line_save(game, entry_id, MatchLine.Kind.VERIFIED, agreed, source=Source.AGREED)
    match_game_verify(game, entry.pk if won else other.entry_id)
    match_rederive(match)
    return reported


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
    return _apply_forfeits(match_locked(match), now or timezone.now())


def _apply_forfeits(match: Match, now: datetime) -> int:
    if match.clock_started_at is None or match.status == Match.Status.DECIDED:
        return 0
    started = match.clock_started_at
    done = match.games.filter(forfeit=True, created_at__gte=started).count()
    present = match_entry_of(match, other_side(match_side(match, match.absent_id)))
    winner_line, offender_line = administrative_lines(
        event_scoring_settings(event=match.playoff.event)
    )
    added = 0
    for when in forfeits_due(started, now)[done:]:
        state = match_state_of(match)
        if state.decided:
            break
        game = _open_game(match) or _new_game(match, state)
        MatchGame.objects.filter(pk=game.pk).update(forfeit=True, created_at=when)
        game.forfeit = True
        for entry_id, line in ((present, winner_line), (match.absent_id, offender_line)):
            match_line_save(
                game,
                entry_id,
                MatchLine.Kind.VERIFIED,
                line,
                source=Source.FORFEIT,
                reason="No-show clock",
            )
        match_game_verify(game, present, when=when)
        added += 1
        if match_rederive(match, when=when):
            break
    return added


def playoff_forfeits_apply_all(*, now: datetime | None = None) -> int:
    """The periodic task's work: every running no-show clock, each match in its own lock."""
    now = now or timezone.now()
    running = Match.objects.filter(clock_started_at__isnull=False).exclude(
        status=Match.Status.DECIDED
    )
    return sum(match_forfeits_apply(match=m, now=now) for m in running)
