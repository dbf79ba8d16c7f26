"""Check-in: at the desk (one player, or the players ticked as present), or by the players
themselves on their phone while registration is open (``entry_self_check_in``). One rule for
all three (``_check_in_unaudited``); after play started, a registered player joins from the
next unpaired game.

A check-in made by mistake is undone (``entry_check_in_undo``) until the player is paired;
after that they withdraw. The event's check-in code (``selectors.check_in``) is replaced with
``check_in_code_rotate``: the older codes stop working at once. Every change is in the history.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.errors import ServiceError
from tournaments.models import Entry, Event, Seat
from tournaments.selectors.check_in import check_in_code_state
from tournaments.selectors.events import event_next_game_number, event_play_started
from tournaments.services.audit import Kind, audit_record
from tournaments.services.withdrawals import entry_state


def _check_in_unaudited(entry: Entry, *, play_started: bool) -> None:
    """Check in a locked entry: the one rule for the desk, the bulk action and the players
    themselves. After play started, a registered player joins from the next unpaired game."""
    if entry.status == Entry.Status.WITHDRAWN:
        raise ServiceError(f"{entry.name} has withdrawn.", code="withdrawn")
    if entry.status == Entry.Status.REGISTERED and play_started:
        entry.joined_from_game = event_next_game_number(event=entry.event)
    entry.status = Entry.Status.CHECKED_IN
    entry.checked_in_at = entry.checked_in_at or timezone.now()
    entry.save(update_fields=["status", "joined_from_game", "checked_in_at"])


@transaction.atomic
def entry_check_in(*, entry: Entry, user) -> Entry:
    entry = Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)
    play_started = event_play_started(event=entry.event)
    _check_in_recorded(entry, user, play_started, "entry_check_in", "checked in")
    return entry


def _check_in_recorded(entry: Entry, user, play_started: bool, action: str, how: str) -> None:
    """One player's check-in and its history row."""
    before = entry_state(entry)
    _check_in_unaudited(entry, play_started=play_started)
    audit_record(
        event=entry.event,
        actor=user,
        kind=Kind.CHECK_IN,
        action=action,
        summary=f"{entry.name} {how}",
        before=before,
        after=entry_state(entry),
    )


CODE_REPLACED = (
    "This check-in code has been replaced by a new one, so it no longer checks anyone in. "
    "Scan the code shown at the desk now, or open the link on your scorecard."
)


@transaction.atomic
def entry_self_check_in(*, entry: Entry, user, code: str | None = None) -> bool:
    """A player checks in on their phone (their private link, or the event's check-in
    ``code`` signed in): only while registration is open; after that, at the desk. True if
    checked in now, False if they already were (nothing is written)."""
    event = Event.objects.select_for_update().get(pk=entry.event_id)
    state = None if code is None else check_in_code_state(event=event, code=code)
    if state == "replaced":
        raise ServiceError(CODE_REPLACED, field="code", code="code_replaced")
    if code is not None and state is None:
        raise ServiceError("This is not the event's check-in code.", field="code", code="code")
    if event.stage != Event.Stage.REGISTRATION:
        raise ServiceError(
            "Check-in on your phone is closed: registration has closed. "
            "Please see the tournament director at the desk.",
            code="check_in_closed",
        )
    entry = Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)
    if entry.status == Entry.Status.WITHDRAWN:
        raise ServiceError(
            "You have withdrawn from this event. Please see the tournament director.",
            code="withdrawn",
        )
    if entry.status == Entry.Status.CHECKED_IN:
        return False
    _check_in_recorded(entry, user, False, "entry_self_check_in", "checked in on their phone")
    return True


@transaction.atomic
def entries_check_in(*, event: Event, entry_ids, user) -> list[Entry]:
    """Check in at once the players the director ticked as present: the entries of ``event``
    among ``entry_ids`` not checked in yet (others are left alone). One history row."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    entries = list(
        Entry.objects.select_for_update(of=("self",))
        .select_related("player", "event")
        .filter(event=event, pk__in=list(entry_ids), status=Entry.Status.REGISTERED)
    )
    if not entries:
        raise ServiceError(
            "Choose at least one player who is not checked in yet.",
            field="entries",
            code="none_chosen",
        )
    play_started = event_play_started(event=event)
    for entry in entries:
        _check_in_unaudited(entry, play_started=play_started)
    names = [e.name for e in entries]
    count = len(names)
    audit_record(
        event=event,
        actor=user,
        kind=Kind.CHECK_IN,
        action="entries_check_in",
        summary=f"{names[0]} checked in" if count == 1 else f"{count} players checked in",
        after={"players": names},
    )
    return entries


@transaction.atomic
def entry_check_in_undo(*, entry: Entry, user) -> Entry:
    """Undo a check-in made by mistake (a wrong tap at the desk): the player is registered,
    not checked in. Refused once they are paired: then they withdraw."""
    entry = Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)
    if entry.status != Entry.Status.CHECKED_IN:
        raise ServiceError(
            f"{entry.name} is not checked in, so there is nothing to undo.",
            code="not_checked_in",
        )
    seat = Seat.objects.filter(entry=entry).select_related("game").order_by("game__number")
    if seat.exists():
        raise ServiceError(
            f"{entry.name} is already paired in game {seat.first().game.number}, so "
            "the check-in cannot be undone: withdraw them from the Players page instead.",
            code="already_paired",
        )
    before = entry_state(entry)
    entry.status = Entry.Status.REGISTERED
    entry.checked_in_at = None
    entry.save(update_fields=["status", "checked_in_at"])
    audit_record(
        event=entry.event,
        actor=user,
        kind=Kind.CHECK_IN,
        action="entry_check_in_undo",
        summary=f"{entry.name}'s check-in undone",
        before=before,
        after=entry_state(entry),
    )
    return entry


@transaction.atomic
def check_in_code_rotate(*, event: Event, user) -> Event:
    """A new check-in code for the event (a photographed or printed code got around): the
    older codes stop working at once."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    event.check_in_code_version += 1
    event.save(update_fields=["check_in_code_version"])
    audit_record(
        event=event,
        actor=user,
        kind=Kind.CHECK_IN,
        action="check_in_code_rotate",
        summary="New check-in code: the older ones no longer work",
        before={"check_in_code_version": event.check_in_code_version - 1},
        after={"check_in_code_version": event.check_in_code_version},
    )
    return event
