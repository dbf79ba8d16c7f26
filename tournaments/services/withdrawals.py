"""Withdrawing a player between games, and undoing it.

- withdrawal: the player plays no game that is not paired yet (``withdrawn_after_game`` is the
  last game paired when they left). Their scheduled opponents in later games are paired with
  someone else; the games already played stay on their card.
- rejoin (the undo): the player comes back from the next unpaired game with their history. The
  games paired while they were away are ``missed_games``: they play none of them (no sit-out
  result, no forfeit). Undone before another game is paired, nothing is missed at all.
"""

from __future__ import annotations

from django.db import transaction

from tournaments.errors import ServiceError
from tournaments.models import Entry, Event
from tournaments.selectors.events import event_next_game_number, event_play_started
from tournaments.services.audit import Kind, audit_record
from tournaments.services.keep_apart import keep_apart_wishes_settle
from tournaments.services.waitlist import waitlist_advance


def entry_state(entry: Entry) -> dict:
    """An entry as the history keeps it."""
    return {
        "player": entry.name,
        "acc_number": entry.player.acc_number,
        "status": entry.status,
        "joined_from_game": entry.joined_from_game,
        "withdrawn_after_game": entry.withdrawn_after_game,
        "missed_games": list(entry.missed_games),
    }


def _locked(entry: Entry) -> Entry:
    """The entry, locked after its event: pairing a game holds the event's lock, so the next
    unpaired game cannot change while a withdrawal or its undo is worked out."""
    Event.objects.select_for_update().filter(pk=entry.event_id).first()
    return Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)


@transaction.atomic
def entry_withdraw(*, entry: Entry, user) -> Entry:
    """Withdraw between games: the player plays no game that is not paired yet."""
    entry = _locked(entry)
    if entry.status == Entry.Status.WITHDRAWN:
        raise ServiceError(f"{entry.name} has already withdrawn.", code="withdrawn")
    before = entry_state(entry)
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_after_game = event_next_game_number(event=entry.event) - 1
    entry.save(update_fields=["status", "withdrawn_after_game"])
    after = f"after game {entry.withdrawn_after_game}" if entry.withdrawn_after_game else ""
    audit_record(
        event=entry.event,
        actor=user,
        kind=Kind.ENTRIES,
        action="entry_withdraw",
        summary=f"{entry.name} withdrew {after}".strip(),
        before=before,
        after=entry_state(entry),
    )
    waitlist_advance(event=entry.event)  # the freed place goes to the next in line, if any
    return entry


def entry_rejoin_unaudited(*, entry: Entry) -> Entry:
    """The undo itself, for a caller that holds the event's lock and records the action
    (re-entering a withdrawn player does this too)."""
    entry = _locked(entry)
    if entry.status != Entry.Status.WITHDRAWN:
        raise ServiceError(f"{entry.name} has not withdrawn.", code="not_withdrawn")
    event = entry.event
    next_game = event_next_game_number(event=event)
    started = event_play_started(event=event)
    if started and next_game > event.qualifying_games:
        raise ServiceError(
            f"Every qualifying game is already paired: {entry.name} cannot rejoin.",
            code="no_game_left",
        )
    played_before = entry.checked_in_at is not None or entry.seats.exists()
    if started and not played_before:
        entry.joined_from_game = next_game  # never played: a late entry
    else:
        last = entry.withdrawn_after_game or 0
        away = range(max(last + 1, entry.joined_from_game), next_game)
        entry.missed_games = sorted(set(entry.missed_games) | set(away))
    entry.withdrawn_after_game = None
    entry.status = Entry.Status.CHECKED_IN if started or played_before else Entry.Status.REGISTERED
    entry.save(update_fields=["status", "withdrawn_after_game", "missed_games", "joined_from_game"])
    return entry


@transaction.atomic
def entry_rejoin(*, entry: Entry, user) -> Entry:
    """Undo a withdrawal: the player rejoins from the next unpaired game with their history."""
    before = entry_state(_locked(entry))
    entry = entry_rejoin_unaudited(entry=entry)
    missed = entry.missed_games
    audit_record(
        event=entry.event,
        actor=user,
        kind=Kind.ENTRIES,
        action="entry_rejoin",
        summary=f"{entry.name}'s withdrawal undone"
        + (f" (missed games {', '.join(map(str, missed))})" if missed else ""),
        before=before,
        after=entry_state(entry),
    )
    keep_apart_wishes_settle(event=entry.event, user=user)  # a wish may name them again
    return entry
