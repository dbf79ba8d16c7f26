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
from tournaments.selectors.events import event_judges_needed, event_scoring_settings
from tournaments.services.audit import Kind, audit_record
from tournaments.services.corrections import table_lines_replace
from tournaments.services.judge_calls import table_check_in_play
from tournaments.services.playoffs_matches import (
    match_check_in_play,
)
from tournaments.services.rulings_outcome import MatchSide, RulingOutcome

FIGURES = ("true_score", "reneged_cards", "claimed_missed", "true_missed")


def _seats(table: Table | None, match: Match | None) -> list[Seat] | list[MatchSide]:
    """The two sides, "a" first: a table's seats, or a match's players."""
    if table is not None:
        return list(table.seats.select_related("entry__player").order_by("position"))
    entries = Entry.objects.select_related("player").in_bulk([match.entry_a_id, match.entry_b_id])
    return [MatchSide(entries[match.entry_a_id]), MatchSide(entries[match.entry_b_id])]


def _offender(seats, offender_entry, where: str):
    for index, seat in enumerate(seats):
        if seat.entry_id == getattr(offender_entry, "pk", offender_entry):
            return seat, seats[1 - index], SIDES[index]
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
    if Entry.objects.filter(pk__in=players, player__user_id__in=ids).exists():
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
    *,
    table: Table | None = None,
    match: Match | None = None,
    code: str,
    offender_entry,
    score_before_offender: int,
    score_before_opponent: int,
    judges,
    third_judge: bool = False,
    **figures: int | None,
) -> RulingOutcome:
    """Check a ruling at ``table`` or in ``match`` and work out, with the engine, what it
    does. Nothing is saved."""
    if (table is None) == (match is None):
        raise TypeError("a ruling is given at a table or in a match")
    unknown = set(figures) - set(FIGURES)
    if unknown:
        raise TypeError(f"unexpected figures: {', '.join(sorted(unknown))}")
    figures = {name: value for name, value in figures.items() if value is not None}
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
    offender, opponent, side = _offender(seats, offender_entry, where)
    _check_judges(event, seats, judges, third_judge)
    scores = {side: score_before_offender, other_side(side): score_before_opponent}
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
        f"{outcome.infraction.name} by {outcome.offender.entry.name}."
    )


@transaction.atomic
def ruling_record(
    *,
    table: Table,
    code: str,
    offender_entry,
    score_before_offender: int,
    score_before_opponent: int,
    judges,
    entered_by,
    third_judge: bool = False,
    final: bool = False,
    notes: str = "",
    hand_number: int | None = None,
    **figures: int | None,
) -> Ruling:
    """Record a ruling at ``table``; when it ends the game, the engine's card lines become the
    table's verified lines. All or nothing: a refused ruling leaves no trace."""
    table = (
        Table.objects.select_for_update(of=("self",)).select_related("game__event").get(pk=table.pk)
    )
    outcome, ruling = ruling_check_and_save(
        where={"table": table},
        place={"table": table},
        event=table.game.event,
        code=code,
        offender_entry=offender_entry,
        scores=(score_before_offender, score_before_opponent),
        judges=judges,
        entered_by=entered_by,
        record={"third_judge": third_judge, "final": final, "notes": notes},
        hand_number=hand_number,
        figures=figures,
    )
    table.judge_calls.filter(answered_at__isnull=True).update(
        answered_at=timezone.now(), answered_by=entered_by
    )
    if outcome.lines is not None:
        table_lines_replace(
            table=table,
            lines=outcome.lines,
            reason=_reason(outcome, table),
            user=entered_by,
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
        f"{outcome.offender.entry.name}"
        + (f"; {outcome.winner.entry.name} wins the game" if outcome.winner else ""),
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


def ruling_save(
    outcome: RulingOutcome,
    *,
    event,
    place: dict,
    code: str,
    judges,
    entered_by,
    third_judge: bool,
    final: bool,
    notes: str,
    hand_number: int | None,
    figures: dict,
) -> Ruling:
    """The ruling row and its judges; ``place`` is ``{"table": …}`` or ``{"match_game": …}``."""
    infraction = outcome.infraction
    winner = outcome.winner
    ruling = Ruling.objects.create(
        event=event,
        **place,
        hand_number=hand_number,
        offender=outcome.offender.entry,
        beneficiary=outcome.beneficiary.entry,
        code=code,
        direction=infraction.direction,
        rulebook_edition=infraction.rulebook_edition,
        rule=infraction.rule,
        points=infraction.default_points,
        **{name: value for name, value in figures.items() if value is not None},
        score_before_offender=outcome.score_before_offender,
        score_before_opponent=outcome.score_before_opponent,
        score_after_offender=outcome.score_after_offender,
        score_after_opponent=outcome.score_after_opponent,
        game_over=winner is not None,
        winner=winner.entry if winner else None,
        third_judge=third_judge,
        final=final or third_judge,  # the three-judge ruling is final
        notes=notes.strip(),
        entered_by=entered_by,
    )
    ruling.judges.set(judges)
    return ruling


def check_hand_number(hand_number: int | None) -> None:
    if hand_number is not None and hand_number < 1:
        raise ServiceError("Hands are numbered from 1.", field="hand_number", code="min_value")


def ruling_check_and_save(
    *,
    where,
    place,
    event,
    code,
    offender_entry,
    scores,
    judges,
    entered_by,
    record,
    hand_number,
    figures,
) -> tuple[RulingOutcome, Ruling]:
    """The steps every ruling shares, at a table or in a match game: check it, work out the
    board with the engine (``ruling_preview``) and save the record. ``where`` is ``table=`` or
    ``match=`` for the preview, ``place`` the row the ruling is attached to."""
    check_hand_number(hand_number)
    outcome = ruling_preview(
        **where,
        code=code,
        offender_entry=offender_entry,
        score_before_offender=scores[0],
        score_before_opponent=scores[1],
        judges=judges,
        third_judge=record["third_judge"],
        **figures,
    )
    ruling = ruling_save(
        outcome, event=event, place=place, code=code, judges=judges, entered_by=entered_by,
        hand_number=hand_number, figures=figures, **record,
    )  # fmt: skip
    return outcome, ruling
