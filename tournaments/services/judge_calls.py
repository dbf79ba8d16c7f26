"""Calling judges to a table, or to a playoff match.

A player calls judges to their own table, or their own match, from their private link (a
director may call them to any table); a table or a match has one open call at a time, until a
judge answers it. A match may call judges while it is being played, between its games too.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.errors import ServiceError
from tournaments.models import EventRole, Game, JudgeCall, Match, Table
from tournaments.selectors.access import event_roles
from tournaments.selectors.playoffs import entry_in_match
from tournaments.services.audit import Kind, audit_record

_PLAYING = (Game.Status.PUBLISHED, Game.Status.CLOSED)


def table_check_in_play(table: Table) -> None:
    """A table whose game is under way and not yet verified: judges may still act there."""
    game = table.game
    if game.status not in _PLAYING:
        raise ServiceError(f"Game {game.number} has not started yet.", code="not_started")
    if table.status == Table.Status.VERIFIED:
        raise ServiceError(
            f"Table {table.number} of game {game.number} is already verified: the game is "
            "over. Ask the director for a correction.",
            field="table",
            code="game_over",
        )


@transaction.atomic
def judge_call_create(*, table: Table, entry=None, user=None) -> JudgeCall:
    """Call judges to ``table``: by a player seated there (``entry``) or a director (``user``)."""
    if (entry is None) == (user is None):
        raise ServiceError("A call is made by a player or by a director.", code="caller")
    table = (
        Table.objects.select_for_update(of=("self",)).select_related("game__event").get(pk=table.pk)
    )
    if entry is not None and not table.seats.filter(entry=entry).exists():
        raise ServiceError(
            "You can call judges only to your own table.", field="table", code="not_your_table"
        )
    if user is not None and EventRole.Role.DIRECTOR not in event_roles(
        event=table.game.event, user=user
    ):
        raise ServiceError("Only a director may call judges to a table.", code="not_director")
    table_check_in_play(table)
    if table.judge_calls.filter(answered_at__isnull=True).exists():
        raise ServiceError(
            f"Judges are already called to table {table.number}; they are on their way.",
            field="table",
            code="already_called",
        )
    try:
        with transaction.atomic():
            call = JudgeCall.objects.create(table=table, called_by_entry=entry, called_by_user=user)
    except IntegrityError:  # a call made at the same moment on a database without row locks
        raise ServiceError(
            f"Judges are already called to table {table.number}.",
            field="table",
            code="already_called",
        ) from None
    if user is not None:  # a player's own call is not a staff action: the call is its record
        audit_record(
            event=table.game.event,
            actor=user,
            kind=Kind.RULINGS,
            action="judge_call_create",
            summary=f"Judges called to game {table.game.number}, table {table.number}",
            game=table.game,
        )
    return call


@transaction.atomic
def judge_call_to_match(*, match: Match, entry) -> JudgeCall:
    """A player of ``match`` calls judges to it (during a game or between games)."""
    match = Match.objects.select_for_update(of=("self",)).get(pk=match.pk)
    entry = entry_in_match(match, entry)  # either partner calls judges to the team's match
    if entry.pk not in (match.entry_a_id, match.entry_b_id):
        raise ServiceError(
            "You can call judges only to your own match.", field="match", code="not_your_match"
        )
    if match.status not in (Match.Status.READY, Match.Status.PLAYING):
        raise ServiceError(
            f"The match is {match.get_status_display().lower()}: there is no game to call "
            "judges to. Ask the director if something is wrong.",
            field="match",
            code="not_in_play",
        )
    if match.judge_calls.filter(answered_at__isnull=True).exists():
        raise ServiceError(
            "Judges are already called to your match; they are on their way.",
            field="match",
            code="already_called",
        )
    try:
        with transaction.atomic():
            return JudgeCall.objects.create(match=match, called_by_entry=entry)
    except IntegrityError:
        raise ServiceError(
            "Judges are already called to your match.", field="match", code="already_called"
        ) from None


@transaction.atomic
def judge_call_answer(*, call: JudgeCall, user) -> JudgeCall:
    """A judge takes the call: it leaves the list of open calls."""
    locked = JudgeCall.objects.select_for_update(of=("self",)).select_related("answered_by")
    call = locked.get(pk=call.pk)
    if call.answered_at is not None:
        who = call.answered_by.get_username() if call.answered_by else "another judge"
        raise ServiceError(f"This call was already answered by {who}.", code="already_answered")
    call.answered_at = timezone.now()
    call.answered_by = user
    call.save(update_fields=["answered_at", "answered_by"])
    if call.match_id is not None:
        match = Match.objects.select_related("playoff__event").get(pk=call.match_id)
        audit_record(
            event=match.playoff.event,
            actor=user,
            kind=Kind.RULINGS,
            action="judge_call_answer",
            summary=f"Call to the playoff match {match} answered",
        )
        return call
    table = Table.objects.select_related("game__event").get(pk=call.table_id)
    audit_record(
        event=table.game.event,
        actor=user,
        kind=Kind.RULINGS,
        action="judge_call_answer",
        summary=f"Call to game {table.game.number}, table {table.number} answered",
        game=table.game,
    )
    return call
