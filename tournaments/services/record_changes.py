"""Changing a player's record (name, ACC number): a person's record across every event.

- who changes it at once: an administrator; the player themselves (their confirmed account);
  or the director of every event the record was ever entered in, while no account is linked
  to it (a record only they have used, e.g. to add the ACC numbers missing from their list).
- who proposes: a director of an event the player entered, when the record is used by other
  events or linked to the person's account. The proposal waits for an administrator or the
  player to approve or decline it; the proposer may withdraw it. Nothing changes before.
- every change, applied at once or approved, is a ``RecordChange`` row with the old value, who
  asked, who decided and when. An ACC number change re-checks the finalised ledgers naming
  the player (the award's "member" flag follows the number).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.errors import ServiceError
from tournaments.models import Event, Player, RecordChange
from tournaments.selectors.player_identity import (
    player_edit_direct,
    player_may_edit,
    player_record_decider,
)
from tournaments.services.ledger import ledger_refresh_request
from tournaments.services.validation import clean_acc_number, clean_name

Status = RecordChange.Status


def _cleaned(player: Player, field: str, value: str) -> str:
    if field == RecordChange.Field.NAME:
        return clean_name(value, field="name")
    number = clean_acc_number(value, field="acc_number")
    if not number:
        raise ServiceError("Enter the ACC number.", field="acc_number", code="required")
    holder = Player.objects.filter(acc_number=number).exclude(pk=player.pk).first()
    if holder is not None:
        raise ServiceError(
            f"ACC number {number} belongs to {holder.name} (player {holder.pk}). If they are "
            "the same person, an administrator merges the two records.",
            field="acc_number",
            code="acc_number_taken",
        )
    return number


@transaction.atomic
def player_record_change(
    *, player: Player, user, event: Event | None = None, **values: str
) -> list[RecordChange]:
    """Change the record's ``name`` and/or ``acc_number``: at once if ``user`` may, else as
    proposals waiting for approval (see the module). Returns the change rows."""
    unknown = set(values) - set(RecordChange.Field.values)
    if unknown or not values:
        raise ServiceError(
            "Give a new name or ACC number.", field=",".join(sorted(unknown)) or None
        )
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not player_may_edit(player=player, user=user):
        raise ServiceError(
            "Only an administrator, the player, or a director of an event the player entered "
            "may change this record.",
            code="not_allowed",
        )
    direct = player_edit_direct(player=player, user=user)
    changes = []
    for field, value in values.items():
        new = _cleaned(player, field, value)
        if new == getattr(player, field):
            continue
        if not direct:
            _refuse_if_waiting(player, field)
        change = RecordChange.objects.create(
            player=player,
            field=field,
            old_value=getattr(player, field),
            new_value=new,
            proposed_by=user,
            event=event,
        )
        if direct:
            _apply(change, player, by=user)
        changes.append(change)
    return changes


def _refuse_if_waiting(player: Player, field: str) -> None:
    waiting = RecordChange.objects.filter(player=player, field=field, status=Status.PENDING)
    found = waiting.first()
    if found is not None:
        raise ServiceError(
            f"A change of {player.name}'s {found.get_field_display()} to {found.new_value!r} "
            "already waits for approval; it must be decided or withdrawn first.",
            field=field,
            code="change_waiting",
        )


def _apply(change: RecordChange, player: Player, *, by) -> None:
    setattr(player, change.field, change.new_value)
    player.save(update_fields=[change.field])
    change.status, change.decided_by, change.decided_at = Status.APPLIED, by, timezone.now()
    change.save(update_fields=["status", "decided_by", "decided_at"])
    if change.field == RecordChange.Field.ACC_NUMBER:
        refresh_ledgers_naming([player], f"{player.name}'s ACC number changed")


def refresh_ledgers_naming(players: list[Player], reason: str) -> None:
    """The finalised ledgers naming these players: their award's member flag may change."""
    events = Event.objects.filter(
        mrp_awards__player__in=players, mrp_awards__current=True
    ).distinct()
    for event in events:
        ledger_refresh_request(event=event, reason=reason)


def _waiting(change: RecordChange) -> RecordChange:
    change = RecordChange.objects.select_for_update().select_related("player").get(pk=change.pk)
    if change.status != Status.PENDING:
        raise ServiceError(
            f"This change is no longer waiting: {change.get_status_display().lower()}.",
            code="not_pending",
        )
    return change


@transaction.atomic
def record_change_approve(*, change: RecordChange, user) -> RecordChange:
    """An administrator or the player approves: the value is checked again, then applied."""
    change = _waiting(change)
    player = Player.objects.select_for_update().get(pk=change.player_id)
    if not player_record_decider(player=player, user=user):
        raise ServiceError(
            "Only an administrator or the player may approve this.", code="not_decider"
        )
    change.new_value = _cleaned(player, change.field, change.new_value)
    change.old_value = getattr(player, change.field)
    _apply(change, player, by=user)
    return change


@transaction.atomic
def record_change_decline(*, change: RecordChange, user, note: str) -> RecordChange:
    change = _waiting(change)
    if not player_record_decider(player=change.player, user=user):
        raise ServiceError(
            "Only an administrator or the player may decline this.", code="not_decider"
        )
    if not note.strip():
        raise ServiceError("Say why, for the director who asked.", field="note", code="required")
    return _close(change, Status.DECLINED, user, note)


@transaction.atomic
def record_change_withdraw(*, change: RecordChange, user) -> RecordChange:
    change = _waiting(change)
    if change.proposed_by_id != user.pk:
        raise ServiceError("Only the director who asked may withdraw this.", code="not_yours")
    return _close(change, Status.WITHDRAWN, user, "")


def _close(change: RecordChange, status: str, user, note: str) -> RecordChange:
    change.status, change.decided_by, change.decided_at = status, user, timezone.now()
    change.note = note.strip()[:300]
    change.save(update_fields=["status", "decided_by", "decided_at", "note"])
    return change
