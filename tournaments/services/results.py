"""Card lines: reported by players (or for them), verified when the two cards agree, flagged
for a cross-check when they do not, settled by ACC Rule 12.2 or a correction.

Every line is checked by the engine (``scoring.games``) before it is stored; an impossible line
is refused with the engine's message and never saved. Writes to one table's lines hold a lock on
that table's row, so two phones reporting the same game at the same moment are serialised: both
lines are kept and at most one verified pair results (the database constraints back this up).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scoring.crosscheck import CrossCheckError, ReportedLine, cross_check
from scoring.games import CardLine as EngineLine
from scoring.games import (
    CardLineError,
    card_line_for,
    describe_card_line,
    lines_reciprocal,
    validate_card_line,
)
from tournaments.models import CardLine, EventRole, Game, Notice, Seat, Table, TiePlayoff
from tournaments.selectors.events import event_roles, event_scoring_settings
from tournaments.selectors.results import current_lines, unreported_entries
from tournaments.services.errors import ServiceError
from tournaments.services.standings import (
    notify_cut_changes,
    standings_qualifiers,
    standings_request,
)

Source = CardLine.Source


def _engine_line(line: CardLine) -> EngineLine:
    return EngineLine(line.game_points, line.plus, line.minus)


def _checked(seat: Seat, line: EngineLine) -> EngineLine:
    try:
        return validate_card_line(line, event_scoring_settings(event=seat.game.event))
    except CardLineError as exc:
        raise ServiceError(exc.message, field=exc.field, code="impossible_line") from None


def _locked_table(seat: Seat) -> Table:
    if seat.table_id is None:
        raise ServiceError("A sit-out has no game to report.", code="sit_out")
    return (
        Table.objects.select_for_update(of=("self",))
        .select_related("game__event")
        .get(pk=seat.table_id)
    )


def _replace(seat: Seat, kind: str, line: EngineLine, *, source: str, user, reason: str):
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


def _verify_if_agreed(table: Table, user) -> bool:
    reported = current_lines(table=table, kind=CardLine.Kind.REPORTED)
    if len(reported) < 2 or current_lines(table=table, kind=CardLine.Kind.VERIFIED):
        return False
    (seat_a, a), (seat_b, b) = reported.items()
    settings = event_scoring_settings(event=table.game.event)
    if not lines_reciprocal(_engine_line(a), _engine_line(b), settings):
        return False
    for seat_id, line in ((seat_a, a), (seat_b, b)):
        seat = Seat(pk=seat_id)
        _replace(seat, "verified", _engine_line(line), source=Source.AGREED, user=None, reason="")
    _mark_verified(table)
    return True


def _mark_verified(table: Table) -> None:
    table.status = Table.Status.VERIFIED
    table.verified_at = timezone.now()
    table.save(update_fields=["status", "verified_at"])
    event = table.game.event
    standings_request(event=event)


@transaction.atomic
def card_line_submit(
    *, seat: Seat, line: EngineLine, user=None, source: str = Source.PLAYER
) -> CardLine:
    """Record a reported line for ``seat``; verify the game if the two cards now agree."""
    seat = Seat.objects.select_related("game__event").get(pk=seat.pk)
    table = _locked_table(seat)
    game = table.game
    if game.status == Game.Status.CLOSED and source == Source.PLAYER:
        raise ServiceError(
            f"Game {game.number} is closed; a cross-checker will settle your table.",
            code="game_closed",
        )
    if game.status not in (Game.Status.PUBLISHED, Game.Status.CLOSED):
        raise ServiceError(f"Game {game.number} has not started yet.", code="not_started")
    if table.status == Table.Status.VERIFIED:
        raise ServiceError(
            f"Table {table.number} of game {game.number} is already verified; "
            "ask the director if it needs a correction.",
            code="already_verified",
        )
    if table.status == Table.Status.FLAGGED and source == Source.PLAYER:
        raise ServiceError(
            f"Table {table.number} of game {game.number} is with the cross-checker.",
            code="flagged",
        )
    reported = _replace(seat, "reported", _checked(seat, line), source=source, user=user, reason="")
    _verify_if_agreed(table, user)
    return reported


def card_line_preview(
    *, seat: Seat, won: bool, spread: int, game_number: int | None = None
) -> tuple[EngineLine, str]:
    """What a win or loss by ``spread`` puts on the card, and the engine's words for it."""
    if game_number is not None and game_number != seat.game.number:
        raise ServiceError(
            f"Game {seat.game.number} has been posted since you opened this page: check your "
            f"table; ask the director to enter game {game_number}.",
            field="game",
            code="game_changed",
        )
    settings = event_scoring_settings(event=seat.game.event)
    try:
        words = describe_card_line(won=won, spread=spread, settings=settings)
    except CardLineError as exc:
        raise ServiceError(exc.message, field="margin", code="impossible_line") from None
    return card_line_for(won, spread, settings), words


def card_line_report(
    *,
    seat: Seat,
    won: bool,
    spread: int,
    user=None,
    source=Source.PLAYER,
    game_number: int | None = None,
):
    """A player's (or a director's, from a paper card) "I won / I lost by N".

    ``game_number`` is the game the player was looking at: if the next game was posted since,
    the line is refused rather than saved against the wrong game."""
    line, _ = card_line_preview(seat=seat, won=won, spread=spread, game_number=game_number)
    return card_line_submit(seat=seat, line=line, user=user, source=source)


def _reported_or_blank(lines: dict[int, CardLine], seat_id: int) -> ReportedLine:
    line = lines.get(seat_id)
    return ReportedLine() if line is None else ReportedLine.from_card_line(_engine_line(line))


@transaction.atomic
def table_cross_check(*, table: Table, user) -> tuple[str, ...]:
    """Settle a flagged table by ACC Rule 12.2; returns the cases applied, in order."""
    table = (
        Table.objects.select_for_update(of=("self",)).select_related("game__event").get(pk=table.pk)
    )
    if table.status != Table.Status.FLAGGED:
        raise ServiceError(f"Table {table.number} is not waiting for a cross-check.", code="state")
    seats = list(table.seats.order_by("position"))
    reported = current_lines(table=table, kind=CardLine.Kind.REPORTED)
    qualifiers = standings_qualifiers(event=table.game.event)
    try:
        result = cross_check(
            _reported_or_blank(reported, seats[0].pk),
            _reported_or_blank(reported, seats[1].pk),
            a_qualifier=seats[0].entry_id in qualifiers,
            b_qualifier=seats[1].entry_id in qualifiers,
            settings=event_scoring_settings(event=table.game.event),
        )
    except CrossCheckError as exc:
        raise ServiceError(
            f"Rule 12.2 cannot settle these cards: {exc.message} Enter a correction instead.",
            code="no_rule_applies",
        ) from None
    reason = "ACC Rule 12.2 " + ", ".join(
        f"case {step.case}: {step.explanation}" for step in result.applied
    )
    for seat, line in zip(seats, (result.line_a, result.line_b), strict=True):
        _replace(seat, "verified", line, source=Source.RULE_12_2, user=user, reason=reason[:300])
    _mark_verified(table)
    why = f"The cross-check of game {table.game.number}, table {table.number} changed a result."
    notify_cut_changes(event=table.game.event, before=qualifiers, why=why)
    return result.cases


@transaction.atomic
def table_correct(
    *,
    table: Table,
    lines: dict[int, EngineLine],
    reason: str,
    user,
    source: str = Source.CROSS_CHECKER,
) -> None:
    """A correction (by a cross-checker, a director, or a judges' ruling): new verified lines
    for the given seats, the old ones kept; players whose side of the cut moved are told."""
    if not reason.strip():
        raise ServiceError("Say why the line is corrected.", field="reason", code="required")
    table = (
        Table.objects.select_for_update(of=("self",)).select_related("game__event").get(pk=table.pk)
    )
    if table.game.status not in (Game.Status.PUBLISHED, Game.Status.CLOSED):
        raise ServiceError(f"Game {table.game.number} has not started.", code="not_started")
    if (
        table.status == Table.Status.VERIFIED
        and source == Source.CROSS_CHECKER
        and EventRole.Role.DIRECTOR not in event_roles(event=table.game.event, user=user)
    ):
        raise ServiceError(
            "Both cards of this table agree; only a director may change a verified result.",
            code="director_only",
        )
    seats = {seat.pk: seat for seat in table.seats.select_related("game__event")}
    if not lines or set(lines) - set(seats):
        raise ServiceError("Correct the lines of this table's two players.", code="wrong_seat")
    checked = {seat_id: _checked(seats[seat_id], line) for seat_id, line in lines.items()}
    before = standings_qualifiers(event=table.game.event)
    for seat_id, line in checked.items():
        _replace(
            seats[seat_id],
            "verified",
            line,
            source=source,
            user=user,
            reason=reason.strip()[:300],
        )
    verified = current_lines(table=table, kind=CardLine.Kind.VERIFIED)
    if len(verified) == 2:
        _mark_verified(table)
    else:
        table.status = Table.Status.FLAGGED
        table.save(update_fields=["status"])
    why = f"A correction to game {table.game.number}, table {table.number} changed a result."
    notify_cut_changes(event=table.game.event, before=before, why=why)


def sit_out_line_create(*, game: Game) -> None:
    """The sit-out's verified line (the event's sit-out result), once the game is published."""
    event = game.event
    seat = game.seats.filter(table__isnull=True).first()
    if seat is None or seat.card_lines.filter(kind="verified", current=True).exists():
        return
    _replace(
        seat,
        "verified",
        EngineLine(event.sit_out_game_points, event.sit_out_spread, 0),
        source=Source.SIT_OUT,
        user=None,
        reason="Sit-out result",
    )
    standings_request(event=event)


@transaction.atomic
def game_close(*, game: Game) -> int:
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
    return game.tables.filter(status=Table.Status.OPEN).update(status=Table.Status.FLAGGED)


def game_remind_unreported(*, game: Game) -> int:
    """Leave a reminder on the page of every player whose table has not reported."""
    entries = unreported_entries(game=game)
    Notice.objects.bulk_create(
        Notice(entry_id=e, message=f"Please report game {game.number}: did you win or lose?")
        for e in entries
    )
    return len(entries)


@transaction.atomic
def tie_playoff_record(*, event, winner, loser, user) -> TiePlayoff:
    """The result of a one-game playoff that breaks a tie across the cut."""
    if winner.pk == loser.pk or {winner.event_id, loser.event_id} != {event.pk}:
        raise ServiceError("Choose two different players of this event.", code="two_players")
    if not all(entry.seats.exists() for entry in (winner, loser)):
        raise ServiceError(
            "A tie playoff is between two players of the qualifying round.", code="not_entrants"
        )
    playoff = TiePlayoff.objects.create(event=event, winner=winner, loser=loser, entered_by=user)
    standings_request(event=event)
    return playoff
