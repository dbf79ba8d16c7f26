"""Card lines: reported by players (or for them), verified when the two cards agree, flagged
for a cross-check when they do not (settling them is in ``corrections``). At a doubles table
the two cards are the two teams': each is kept on the team's first partner's seat.

Every line is checked by the engine (``scoring.games``) before it is stored; an impossible line
is refused with the engine's message and never saved. Writes to one table's lines hold a lock on
that table's row, so two phones reporting the same game at the same moment are serialised: both
lines are kept and at most one verified pair results (the database constraints back this up).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scoring.games import CardLine as EngineLine
from scoring.games import (
    CardLineError,
    card_line_for,
    describe_card_line,
    lines_reciprocal,
    validate_card_line,
)
from tournaments.core.pairing_teams import card_position
from tournaments.errors import ServiceError
from tournaments.models import CardLine, Game, Notice, Seat, Table
from tournaments.selectors.compiled import Compiled
from tournaments.selectors.events import event_scoring_settings
from tournaments.selectors.results import report_refusal, table_current_lines, unreported_entries
from tournaments.services.audit import Kind, audit_record
from tournaments.services.conflicts import retry_on_conflict
from tournaments.services.standings import standings_request

Source = CardLine.Source


def _engine_line(line: CardLine) -> EngineLine:
    return EngineLine(line.game_points, line.plus, line.minus)


def line_checked(seat: Seat, line: EngineLine) -> EngineLine:
    """``line`` as the engine checks it for the seat's event; refused when impossible."""
    try:
        return validate_card_line(line, event_scoring_settings(event=seat.game.event))
    except CardLineError as exc:
        raise ServiceError(exc.message, field=exc.field, code="impossible_line") from None


# A burst of reports runs these for every card: compiled once (``selectors.compiled``).
_SEAT = Compiled(
    lambda seat_id: (
        Seat.objects.select_related("game__event", "entry").filter(pk=seat_id).order_by()[:1]
    ),
    int,
)
_LOCKED_TABLE = Compiled(
    lambda table_id: (
        Table.objects.select_for_update(of=("self",))
        .select_related("game__event")
        .filter(pk=table_id)
        .order_by()[:1]
    ),
    int,
)


def _locked_table(seat: Seat) -> Table:
    if seat.table_id is None:
        raise ServiceError("A sit-out has no game to report.", code="sit_out")
    return _LOCKED_TABLE.first(seat.table_id)


def _card_seat(seat: Seat) -> Seat:
    """The seat whose card a report writes: its own, or at a doubles table the team's card on
    the first partner's seat, so either partner reports the team's result
    (``core.pairing_teams.card_position``) and the two teams' cards are checked as two."""
    position = card_position(seat.position)
    if position == seat.position:
        return seat
    return Seat.objects.select_related("game__event", "entry").get(
        table_id=seat.table_id, position=position
    )


def line_replace(seat: Seat, kind: str, line: EngineLine, *, source: str, user, reason: str):
    """Store ``line`` as the seat's current line of ``kind``; the one it replaces is kept."""
    CardLine.objects.filter(seat=seat, kind=kind, current=True).update(current=False)
    return CardLine.objects.create(
        seat=seat,
        kind=kind,
        game_points=line.game_points,
        plus=line.plus,
        minus=line.minus,
        source=source,
        entered_by=user if user and user.is_authenticated else None,
        reason=reason,
    )


def agreed_lines(reported: dict[int, EngineLine], verified: bool, event) -> list[CardLine]:
    """The table's two verified lines (unsaved) when its two reported lines (by seat id, in seat
    order) now agree and nothing is verified yet; else none. The one rule of "both cards agree",
    for the report by link (``services.report``) and every other report."""
    if len(reported) < 2 or verified:
        return []
    (seat_a, a), (seat_b, b) = reported.items()
    if not lines_reciprocal(a, b, event_scoring_settings(event=event)):
        return []
    return [
        CardLine(
            seat_id=seat_id,
            kind=CardLine.Kind.VERIFIED,
            game_points=line.game_points,
            plus=line.plus,
            minus=line.minus,
            source=Source.AGREED,
            reason="",
        )
        for seat_id, line in ((seat_a, a), (seat_b, b))
    ]


def _verify_if_agreed(table: Table, user) -> bool:
    lines = table_current_lines(table_id=table.pk)
    reported = {seat: _engine_line(line) for seat, line in lines[CardLine.Kind.REPORTED].items()}
    agreed = agreed_lines(reported, bool(lines[CardLine.Kind.VERIFIED]), table.game.event)
    if not agreed:
        return False
    CardLine.objects.bulk_create(agreed)  # both in one write
    mark_verified(table)
    return True


def mark_verified(table: Table, *, request_standings: bool = True) -> None:
    """The table's two verified lines are in: the game counts; the standings follow."""
    table.status = Table.Status.VERIFIED
    table.verified_at = timezone.now()
    table.save(update_fields=["status", "verified_at"])
    if request_standings:
        standings_request(event=table.game.event)


def report_allowed(seat: Seat, table: Table | None, game_number: int | None, by_player: bool):
    """Refuse, with the reason, a report ``seat`` may not make now (``report_refusal``), or
    one made from a page showing another game than the one in play."""
    refusal = report_refusal(seat=seat, table=table, by_player=by_player)
    if refusal:
        raise ServiceError(refusal.message, code=refusal.code)
    if game_number is not None and game_number != seat.game.number:
        raise ServiceError(
            f"Game {seat.game.number} has been posted since you opened this page: check your "
            f"table; ask the director to enter game {game_number}.",
            field="game",
            code="game_changed",
        )


def card_line_preview(
    *, seat: Seat, won: bool, spread: int, game_number: int | None = None, by_player: bool = True
) -> tuple[EngineLine, str]:
    """What a win or loss by ``spread`` puts on the card, and the engine's words for it."""
    seat = Seat.objects.select_related("game__event", "table", "entry").get(pk=seat.pk)
    report_allowed(seat, seat.table, game_number, by_player)
    return line_preview(event=seat.game.event, won=won, spread=spread)


def line_preview(*, event, won: bool, spread: int) -> tuple[EngineLine, str]:
    """The line a win or loss by ``spread`` makes under the event's settings, and the engine's
    words for it (a qualifying game or a playoff game alike); nothing is saved."""
    settings = event_scoring_settings(event=event)
    try:
        words = describe_card_line(won=won, spread=spread, settings=settings)
    except CardLineError as exc:
        raise ServiceError(exc.message, field="margin", code="impossible_line") from None
    return card_line_for(won, spread, settings), words


@retry_on_conflict  # opens the transaction itself
def card_line_report(
    *,
    seat: Seat,
    won: bool,
    spread: int,
    user=None,
    source=Source.PLAYER,
    game_number: int | None = None,
) -> CardLine:
    """A player's (or a director's, from a paper card) "I won / I lost by N": the line is
    recorded for ``seat`` (a doubles partner's on their team's card, ``_card_seat``: the later
    report of two partners replaces the earlier, which is kept) and the game verified if the
    two cards now agree.

    ``game_number`` is the game the player was looking at: if the next game was posted since,
    the line is refused rather than saved against the wrong game. The seat is read once, the
    table locked, and everything checked against what the lock protects."""
    seat = _SEAT.first(seat.pk)
    table = _locked_table(seat)
    report_allowed(seat, table, game_number, by_player=source == Source.PLAYER)
    line, _ = line_preview(event=seat.game.event, won=won, spread=spread)
    card = _card_seat(seat)
    reported = line_replace(
        card, CardLine.Kind.REPORTED, line_checked(seat, line), source=source, user=user, reason=""
    )
    _verify_if_agreed(table, user)
    return reported


def sit_out_line_create(*, game: Game) -> None:
    """The sit-out's verified line (the event's sit-out result), once the game is published."""
    event = game.event
    seat = game.seats.filter(table__isnull=True).first()
    if seat is None or seat.card_lines.filter(kind=CardLine.Kind.VERIFIED, current=True).exists():
        return
    line_replace(
        seat,
        CardLine.Kind.VERIFIED,
        EngineLine(event.sit_out_game_points, event.sit_out_spread, 0),
        source=Source.SIT_OUT,
        user=None,
        reason="Sit-out result",
    )
    standings_request(event=event)


@transaction.atomic
def game_close(*, game: Game, user) -> int:
    """Play is over: every table without agreed cards is flagged. Returns how many were."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.PUBLISHED:
        raise ServiceError(
            f"Only a game in play can be closed; game {game.number} is "
            f"{game.get_status_display().lower()}.",
            code="not_in_play",
        )
    game.status = Game.Status.CLOSED
    game.closed_at = timezone.now()
    game.save(update_fields=["status", "closed_at"])
    flagged = game.tables.filter(status=Table.Status.OPEN).update(status=Table.Status.FLAGGED)
    audit_record(
        event=game.event,
        actor=user,
        kind=Kind.RESULTS,
        action="game_close",
        summary=f"Game {game.number} closed; {flagged} table(s) flagged for a cross-check",
        before={"status": Game.Status.PUBLISHED},
        after={"status": Game.Status.CLOSED, "flagged_tables": flagged},
        game=game,
    )
    return flagged


@transaction.atomic
def game_remind_unreported(*, game: Game, user) -> int:
    """Leave a reminder on the page of every player whose table has not reported."""
    entries = unreported_entries(game=game)
    Notice.objects.bulk_create(
        Notice(entry_id=e, message=f"Please report game {game.number}: did you win or lose?")
        for e in entries
    )
    audit_record(
        event=game.event,
        actor=user,
        kind=Kind.RESULTS,
        action="game_remind_unreported",
        summary=f"A reminder to report game {game.number} put on the page of "
        f"{len(entries)} player{'' if len(entries) == 1 else 's'} who had not",
        game=game,
    )
    return len(entries)
