"""Check-in: at the desk (one player, or the players ticked as present), or by the players
themselves on their phone while registration is open (``entry_self_check_in``). One rule for
all three (``_check_in_unaudited``); after play started, a registered player joins from the
next unpaired game.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.errors import ServiceError
from tournaments.models import Entry, Event
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


@transaction.atomic
def entry_self_check_in(*, entry: Entry, user) -> bool:
    """A player checks in on their phone (their private link, or the event's check-in code
    signed in): only while registration is open; after that, at the desk. True if checked in
    now, False if they already were (nothing is written)."""
    event = Event.objects.select_for_update().get(pk=entry.event_id)
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
