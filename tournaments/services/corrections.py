"""Settling and correcting qualifying results: paper cards entered by staff, ACC Rule 12.2
cross-checks, corrections by hand, and tie playoffs.

- correction: new verified lines for one or both seats of a table, with the reason; the old
  lines stay (not current). A correction is checked as a whole table by the engine
  (``scoring.game_lines.validate_game_lines``): each line must fit the event's settings, and
  the pair must be one Rule 12.2 or an administrative result can leave (at most one winner).
  A correction to one seat is checked against the other seat's current verified line. A
  refused correction names the seat's field and the rule, and stores nothing.
- after the cut: every change here goes through ``cut_guard_apply`` (refused if it changes the
  bracket, unless the director rebuilds it while that is still possible).
- before the cut: players whose side of the cut moved are told (Rule 12.2 case i).
"""

from __future__ import annotations

from django.db import transaction

from scoring.crosscheck import CrossCheckError, ReportedLine, cross_check
from scoring.game_lines import GameLinesError, validate_game_lines
from scoring.games import SIDES
from scoring.games import CardLine as EngineLine
from tournaments.errors import ServiceError
from tournaments.models import CardLine, EventRole, Game, Playoff, Seat, Table, TiePlayoff
from tournaments.selectors.access import event_roles
from tournaments.selectors.entrants import entrant_of
from tournaments.selectors.events import event_scoring_settings
from tournaments.selectors.results import current_lines, staff_line_source
from tournaments.selectors.standings import standings_qualifiers
from tournaments.services.audit import Kind, audit_record, line_state
from tournaments.services.cut_guard import cut_guard_apply
from tournaments.services.results import card_line_report, line_replace, mark_verified
from tournaments.services.standings import notify_cut_changes, standings_request

Source = CardLine.Source
VERIFIED = CardLine.Kind.VERIFIED


def _engine_line(line: CardLine | None) -> EngineLine | None:
    return None if line is None else EngineLine(line.game_points, line.plus, line.minus)


def _locked(table: Table) -> Table:
    return (
        Table.objects.select_for_update(of=("self",)).select_related("game__event").get(pk=table.pk)
    )


def _seats(table: Table) -> list[Seat]:
    """The table's two cards' seats: at a doubles table the teams' first partners (positions
    1 and 2, ``core.pairing_teams``), where the teams' cards are kept."""
    seats = table.seats.filter(position__lte=2).select_related("entry__player")
    return list(seats.order_by("position"))


def _lines_state(table: Table, seats: list[Seat]) -> dict[str, dict | None]:
    verified = current_lines(table=table, kind=VERIFIED)
    return {str(seat.position): line_state(verified.get(seat.pk)) for seat in seats}


class _After:
    """What follows a change to a table's verified lines: the cut guard after the cut, else
    the standings job and the notices of Rule 12.2 case i."""

    def __init__(self, event):
        self.event = event
        self.post_cut = Playoff.objects.filter(event=event).exists()
        self.qualifiers = None if self.post_cut else standings_qualifiers(event=event)

    def done(self, why: str, *, rebuild: bool) -> bool:
        if self.post_cut:
            return cut_guard_apply(event=self.event, rebuild=rebuild)
        standings_request(event=self.event)
        notify_cut_changes(event=self.event, before=self.qualifiers, why=why)
        return False


def _check_table(table: Table, seats: list[Seat], lines: dict[int, EngineLine]) -> None:
    """The engine's whole-table check of the lines a correction would leave."""
    current = current_lines(table=table, kind=VERIFIED)
    after = [lines.get(seat.pk) or _engine_line(current.get(seat.pk)) for seat in seats]
    changed = tuple(side for side, seat in zip(SIDES, seats, strict=True) if seat.pk in lines)
    settings = event_scoring_settings(event=table.game.event)
    try:
        validate_game_lines(after[0], after[1], settings, changed=changed)
    except GameLinesError as exc:
        seat = seats[SIDES.index(exc.side)]
        raise ServiceError(
            f"{seat.entry.name}: {exc.message}",
            field=f"{exc.field}_{seat.position}",
            code="impossible_table",
        ) from None


def table_lines_replace(
    *, table: Table, lines: dict[int, EngineLine], reason: str, user, source: str, rebuild=False
) -> dict:
    """Store a correction's verified lines after the whole-table check; the caller holds the
    table's lock and records the action. Returns the lines before and after, by position."""
    if not reason.strip():
        raise ServiceError("Say why the line is corrected.", field="reason", code="required")
    game = table.game
    if game.status not in (Game.Status.PUBLISHED, Game.Status.CLOSED):
        raise ServiceError(f"Game {game.number} has not started.", code="not_started")
    seats = _seats(table)
    if not lines or set(lines) - {seat.pk for seat in seats}:
        raise ServiceError("Correct the lines of this table's two players.", code="wrong_seat")
    _check_table(table, seats, lines)
    before = _lines_state(table, seats)
    after_step = _After(game.event)
    for seat in seats:
        if seat.pk in lines:
            line_replace(
                seat, "verified", lines[seat.pk], source=source, user=user, reason=reason.strip()
            )
    if len(current_lines(table=table, kind=VERIFIED)) == 2:
        mark_verified(table, request_standings=False)
    else:
        table.status = Table.Status.FLAGGED
        table.save(update_fields=["status"])
    why = f"A correction to game {game.number}, table {table.number} changed a result."
    rebuilt = after_step.done(why, rebuild=rebuild)
    return {"before": before, "after": _lines_state(table, seats), "rebuilt": rebuilt}


@transaction.atomic
def table_correct(
    *,
    table: Table,
    lines: dict[int, EngineLine],
    reason: str,
    user,
    source: str = Source.CROSS_CHECKER,
    rebuild_bracket: bool = False,
) -> None:
    """A correction by a cross-checker or a director: new verified lines for the given seats
    (by seat id), the old ones kept (see the module for what is checked)."""
    table = _locked(table)
    if (
        table.status == Table.Status.VERIFIED
        and source == Source.CROSS_CHECKER
        and EventRole.Role.DIRECTOR not in event_roles(event=table.game.event, user=user)
    ):
        raise ServiceError(
            "Both cards of this table agree; only a director may change a verified result.",
            code="director_only",
        )
    change = table_lines_replace(
        table=table,
        lines=lines,
        reason=reason,
        user=user,
        source=source,
        rebuild=rebuild_bracket,
    )
    game = table.game
    audit_record(
        event=game.event,
        actor=user,
        kind=Kind.RESULTS,
        action="table_correct",
        summary=f"Game {game.number}, table {table.number} corrected: {reason.strip()}"
        + (" (the bracket was rebuilt)" if change["rebuilt"] else ""),
        before={"lines": change["before"]},
        after={"lines": change["after"], "bracket_rebuilt": change["rebuilt"]},
        game=game,
    )


def _reported_or_blank(lines: dict[int, CardLine], seat_id: int) -> ReportedLine:
    line = lines.get(seat_id)
    return ReportedLine() if line is None else ReportedLine.from_card_line(_engine_line(line))


@transaction.atomic
def table_cross_check(*, table: Table, user) -> tuple[str, ...]:
    """Settle a flagged table by ACC Rule 12.2; returns the cases applied, in order."""
    table = _locked(table)
    if table.status != Table.Status.FLAGGED:
        raise ServiceError(f"Table {table.number} is not waiting for a cross-check.", code="state")
    seats = _seats(table)
    reported = current_lines(table=table, kind=CardLine.Kind.REPORTED)
    event = table.game.event
    after_step = _After(event)
    if after_step.post_cut:  # the apparent qualifiers are those in the bracket
        qualifiers = set(Playoff.objects.get(event=event).seeds.values_list("entry_id", flat=True))
    else:
        qualifiers = after_step.qualifiers
    try:
        result = cross_check(
            _reported_or_blank(reported, seats[0].pk),
            _reported_or_blank(reported, seats[1].pk),
            a_qualifier=seats[0].entry_id in qualifiers,
            b_qualifier=seats[1].entry_id in qualifiers,
            settings=event_scoring_settings(event=event),
            names=(entrant_of(seats[0].entry).name, entrant_of(seats[1].entry).name),
        )
    except CrossCheckError as exc:
        raise ServiceError(
            f"Rule 12.2 cannot settle these cards: {exc.message} Enter a correction instead.",
            code="no_rule_applies",
        ) from None
    before = _lines_state(table, seats)
    reason = f"ACC Rule 12.2. {result.summary}"
    for seat, line in zip(seats, (result.line_a, result.line_b), strict=True):
        line_replace(seat, "verified", line, source=Source.RULE_12_2, user=user, reason=reason)
    mark_verified(table, request_standings=False)
    game = table.game
    after_step.done(
        f"The cross-check of game {game.number}, table {table.number} changed a result.",
        rebuild=False,
    )
    audit_record(
        event=event,
        actor=user,
        kind=Kind.RESULTS,
        action="table_cross_check",
        summary=f"Game {game.number}, table {table.number} settled by ACC Rule 12.2, cases "
        + ", ".join(result.cases),
        before={"lines": before},
        after={
            "lines": _lines_state(table, seats),
            "cases": list(result.cases),
            "explanations": list(result.explanations),
        },
        game=game,
    )
    return result.cases


@transaction.atomic
def table_paper_line_enter(*, table: Table, position: int, won: bool, spread: int, user):
    """A director or cross-checker enters a player's line from their paper card."""
    seat = (
        table.seats.select_related("entry__player", "game__event").filter(position=position).first()
    )
    if seat is None:
        raise ServiceError("Choose seat 1 or 2.", field="position", code="no_such_seat")
    event = table.game.event
    line = card_line_report(
        seat=seat,
        won=won,
        spread=spread,
        user=user,
        source=staff_line_source(event=event, user=user),
    )
    audit_record(
        event=event,
        actor=user,
        kind=Kind.RESULTS,
        action="table_paper_line_enter",
        summary=f"Paper card entered for {seat.entry.name}, game {seat.game.number} "
        f"table {table.number}: {'won' if won else 'lost'} by {spread}",
        after={"position": position, "line": line_state(line)},
        game=seat.game,
    )
    return line


@transaction.atomic
def tie_playoff_record(*, event, winner, loser, user, rebuild_bracket: bool = False):
    """The result of a one-game playoff that breaks a tie across the cut."""
    if winner.pk == loser.pk or {winner.event_id, loser.event_id} != {event.pk}:
        raise ServiceError("Choose two different players of this event.", code="two_players")
    if not all(entry.seats.exists() for entry in (winner, loser)):
        raise ServiceError(
            "A tie playoff is between two players of the qualifying round.", code="not_entrants"
        )
    after_step = _After(event)
    playoff = TiePlayoff.objects.create(event=event, winner=winner, loser=loser, entered_by=user)
    after_step.done("A tie playoff changed the standings.", rebuild=rebuild_bracket)
    audit_record(
        event=event,
        actor=user,
        kind=Kind.RESULTS,
        action="tie_playoff_record",
        summary=f"Tie playoff: {winner.name} beat {loser.name}",
        after={"winner": winner.name, "loser": loser.name},
    )
    return playoff
