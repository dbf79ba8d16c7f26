"""Judges' rulings (calls to a table are in ``judge_calls``).

Two judges of the event (one where the event's setting allows it, never in a sanctioned event),
or three when a player asks for a third, rule on a dispute (``core.judging``). A judge never
rules on a game they play in.

A ruling changes the board only through the engine (``scoring.rulings.apply_ruling``). When the
board after it is over (a side at the target, or an administrative result: forfeit, late from
lunch, refusal to conform), the engine turns it into card lines and they are stored as the
table's verified lines through ``table_lines_replace``, with the ruling as the reason, so the usual
audit trail and standings update follow.

Rulings in a playoff match game are in ``rulings_match``.

Terms: *side* "a" is the player in seat position 1 (in a match, ``entry_a``), "b" the other
player; *opponent* is the offender's opponent at the table or in the match (see
``tournaments.models.rulings``).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scoring.games import SIDES, other_side
from scoring.rulings import (
    CATALOGUE,
    Position,
    RulingError,
    apply_ruling,
    result_lines,
)
from scoring.rulings import Ruling as EngineRuling
from tournaments.core.judging import panel_problem
from tournaments.errors import ServiceError
from tournaments.models import (
    CardLine,
    Entry,
    EventRole,
    Match,
    Ruling,
    Seat,
    Table,
)
from tournaments.selectors.entrants import entrant_label
from tournaments.selectors.events import event_judges_needed, event_scoring_settings
from tournaments.services.audit import Kind, audit_record
from tournaments.services.corrections import table_lines_replace
from tournaments.services.judge_calls import table_check_in_play
from tournaments.services.playoffs_matches import (
    match_check_in_play,
)
from tournaments.services.rulings_outcome import FIGURES, MatchSide, RulingAsk, RulingOutcome


def _seats(table: Table | None, match: Match | None) -> list[Seat] | list[MatchSide]:
    """The two sides, "a" first: a table's seats, or a match's players. At a doubles table the
    sides are the two teams, by their cards' seats (positions 1 and 2, ``core.pairing_teams``)."""
    if table is not None:
        seats = table.seats.filter(position__lte=2).select_related("entry__player")
        return list(seats.order_by("position"))
    entries = Entry.objects.select_related("player").in_bulk([match.entry_a_id, match.entry_b_id])
    return [MatchSide(entries[match.entry_a_id]), MatchSide(entries[match.entry_b_id])]


def _offender(seats, offender_entry, where: str):
    offender_id = getattr(offender_entry, "pk", offender_entry)
    team = Entry.objects.filter(pk=offender_id).values_list("team_id", flat=True).first()
    for index, seat in enumerate(seats):
        if seat.entry_id == offender_id or (team and seat.entry.team_id == team):
            return seat, seats[1 - index], SIDES[index]  # a partner offends for their team
    raise ServiceError(
        f"The offender must be one of the two players {where}.",
        field="offender",
        code="not_at_table",
    )


def _check_judges(event, seats, judges, third_judge: bool) -> None:
    ids = {getattr(judge, "pk", judge) for judge in judges}
    problem = panel_problem(
        count=len(ids), needed=event_judges_needed(event=event), third_judge=third_judge
    )
    if problem is not None:
        field, message = problem
        code = "third_judge" if field == "third_judge" else "judge_count"
        raise ServiceError(message, field=field, code=code)
    holders = set(
        EventRole.objects.filter(
            event=event, role=EventRole.Role.JUDGE, user_id__in=ids
        ).values_list("user_id", flat=True)
    )
    if ids - holders:
        raise ServiceError(
            "Every judge must hold the judge role in this event.",
            field="judges",
            code="not_a_judge",
        )
    players = [seat.entry_id for seat in seats]
    teams = [seat.entry.team_id for seat in seats if seat.entry.team_id]
    playing = Q(pk__in=players) | Q(team_id__in=teams)  # a doubles partner plays it too
    if Entry.objects.filter(playing, player__user_id__in=ids).exists():
        raise ServiceError(
            "A judge never rules on a game they play in: choose another judge.",
            field="judges",
            code="judge_is_player",
        )


def _field_of(message: str, offender_side: str) -> str:
    """The input an engine message is about (its messages name the figure or the side)."""
    for figure in FIGURES:
        if figure in message or figure.replace("_", " ") in message:
            return figure
    if "Muggins" in message:
        return "code"
    if f"score_{offender_side}" in message:
        return "score_before_offender"
    if f"score_{other_side(offender_side)}" in message:
        return "score_before_opponent"
    return "score_before_offender"


def _engine_ruling(event, code: str, side: str, figures: dict) -> EngineRuling:
    try:
        return EngineRuling(code, side, **figures, muggins_in_effect=event.muggins)
    except RulingError as exc:
        raise ServiceError(str(exc), field=_field_of(str(exc), side), code="ruling") from None


def ruling_preview(
    *, table: Table | None = None, match: Match | None = None, **asked
) -> RulingOutcome:
    """Check a ruling at ``table`` or in ``match`` (``asked``: the fields of ``RulingAsk``)
    and work out, with the engine, what it does. Nothing is saved."""
    if (table is None) == (match is None):
        raise TypeError("a ruling is given at a table or in a match")
    return _preview(table, match, RulingAsk.of(**asked))


def _preview(table: Table | None, match: Match | None, ask: RulingAsk) -> RulingOutcome:
    code, figures = ask.code, ask.figures
    event = table.game.event if table is not None else match.playoff.event
    if code not in CATALOGUE:
        raise ServiceError(f"Unknown infraction {code!r}.", field="code", code="unknown_code")
    if code == "muggins" and not event.muggins:
        raise ServiceError(
            "Muggins is not in effect in this event (the flyer must say so).",
            field="code",
            code="muggins_not_in_effect",
        )
    if table is not None:
        table_check_in_play(table)
    else:
        match_check_in_play(match)
    seats = _seats(table, match)
    where = f"at table {table.number}" if table is not None else f"in {match}"
    offender, opponent, side = _offender(seats, ask.offender_entry, where)
    _check_judges(event, seats, ask.judges, ask.third_judge)
    scores = {side: ask.score_before_offender, other_side(side): ask.score_before_opponent}
    try:
        before = Position(scores["a"], scores["b"], target=event.target_score)
    except ValueError as exc:
        raise ServiceError(str(exc), field=_field_of(str(exc), side), code="board") from None
    ruling = _engine_ruling(event, code, side, figures)
    try:
        after = apply_ruling(before, ruling)
        lines = None
        if after.over:
            line_a, line_b = result_lines(after, event_scoring_settings(event=event))
            seat_a, seat_b = (offender, opponent) if side == "a" else (opponent, offender)
            lines = {seat_a.pk: line_a, seat_b.pk: line_b}
    except (RulingError, ValueError) as exc:
        raise ServiceError(str(exc), field=_field_of(str(exc), side), code="ruling") from None
    beneficiary = offender if ruling.beneficiary == side else opponent
    return RulingOutcome(
        ruling.infraction.cited(event.rulebook_edition, ruling.infraction.rule),
        offender, opponent, beneficiary, before, after, side, lines,
    )  # fmt: skip


def _reason(outcome: RulingOutcome, table: Table) -> str:
    return (
        f"Judges' ruling, game {table.game.number} table {table.number}: "
        f"{outcome.infraction.name} by {entrant_label(outcome.offender.entry)}."
    )


@transaction.atomic
def ruling_record(*, table: Table, **asked) -> Ruling:
    """Record a ruling at ``table`` (``asked``: the fields of ``RulingAsk``); when it ends the
    game, the engine's card lines become the table's verified lines. All or nothing: a refused
    ruling leaves no trace."""
    ask = RulingAsk.of(**asked)
    table = (
        Table.objects.select_for_update(of=("self",)).select_related("game__event").get(pk=table.pk)
    )
    outcome, ruling = ruling_check_and_save(
        where={"table": table}, place={"table": table}, event=table.game.event, ask=ask
    )
    table.judge_calls.filter(answered_at__isnull=True).update(
        answered_at=timezone.now(), answered_by=ask.entered_by
    )
    if outcome.lines is not None:
        table_lines_replace(
            table=table,
            lines=outcome.lines,
            reason=_reason(outcome, table),
            user=ask.entered_by,
            source=CardLine.Source.RULING,
        )
    ruling_audit(ruling, outcome, where=f"game {table.game.number} table {table.number}")
    return ruling


def ruling_audit(
    ruling: Ruling, outcome: RulingOutcome, *, where: str, action: str = "ruling_record"
) -> None:
    """The ruling's row in the event's history (one per ruling, at a table or in a match)."""
    game = ruling.table.game if ruling.table_id else None
    audit_record(
        event=ruling.event,
        actor=ruling.entered_by,
        kind=Kind.RULINGS,
        action=action,
        summary=f"Ruling, {where}: {outcome.infraction.name} by "
        f"{entrant_label(outcome.offender.entry)}"
        + (f"; {entrant_label(outcome.winner.entry)} wins the game" if outcome.winner else ""),
        before={
            "offender": outcome.score_before_offender,
            "opponent": outcome.score_before_opponent,
        },
        after={
            "offender": outcome.score_after_offender,
            "opponent": outcome.score_after_opponent,
            "game_over": outcome.winner is not None,
        },
        game=game,
    )


def ruling_save(outcome: RulingOutcome, *, event, place: dict, ask: RulingAsk) -> Ruling:
    """The ruling row and its judges; ``place`` is ``{"table": …}`` or ``{"match_game": …}``."""
    infraction = outcome.infraction
    winner = outcome.winner
    ruling = Ruling.objects.create(
        event=event,
        **place,
        hand_number=ask.hand_number,
        offender=outcome.offender.entry,
        beneficiary=outcome.beneficiary.entry,
        code=ask.code,
        direction=infraction.direction,
        rulebook_edition=infraction.rulebook_edition,
        rule=infraction.rule,
        points=infraction.default_points,
        **ask.figures,
        score_before_offender=outcome.score_before_offender,
        score_before_opponent=outcome.score_before_opponent,
        score_after_offender=outcome.score_after_offender,
        score_after_opponent=outcome.score_after_opponent,
        game_over=winner is not None,
        winner=winner.entry if winner else None,
        third_judge=ask.third_judge,
        final=ask.final or ask.third_judge,  # the three-judge ruling is final
        notes=ask.notes.strip(),
        entered_by=ask.entered_by,
    )
    ruling.judges.set(ask.judges)
    return ruling


def check_hand_number(hand_number: int | None) -> None:
    if hand_number is not None and hand_number < 1:
        raise ServiceError("Hands are numbered from 1.", field="hand_number", code="min_value")


def ruling_check_and_save(
    *, where: dict, place: dict, event, ask: RulingAsk
) -> tuple[RulingOutcome, Ruling]:
    """The steps every ruling shares, at a table or in a match game: check it, work out the
    board with the engine (``ruling_preview``) and save the record. ``where`` is ``table=`` or
    ``match=`` for the preview, ``place`` the row the ruling is attached to."""
    check_hand_number(ask.hand_number)
    outcome = _preview(where.get("table"), where.get("match"), ask)
    return outcome, ruling_save(outcome, event=event, place=place, ask=ask)
