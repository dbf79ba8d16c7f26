"""Registering players one by one: by form, by the API, as walk-ins (a CSV file of them is
``entries_import``, which enters each row by the rules here).

- walk-in: a player registered and checked in at the desk in one step.
- late entry: a player who enters after play started; they join from the next unpaired game.
- re-entry: entering again a player whose entry here was withdrawn restores that entry, with
  their games so far (``withdrawals.entry_rejoin``), rather than making a second one.
A player is found by ACC number when one is given, so a returning member is not duplicated.
Contact details (e-mail, phone) are the entry's: what the player gave for this event. A new
player's record starts with them; an existing record is never changed by entering it
(``record_changes`` does that).
Withdrawals are in ``withdrawals``, private links in ``links``.

Check-in is in ``check_in``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.errors import ServiceError
from tournaments.models import Club, Entry, Event, Player
from tournaments.selectors.clubs import club_named
from tournaments.selectors.events import event_next_game_number, event_play_started
from tournaments.selectors.player_identity import Candidate, player_candidates
from tournaments.services.audit import Kind, audit_record
from tournaments.services.keep_apart import keep_apart_wishes_settle
from tournaments.services.validation import (
    clean_acc_number,
    clean_email,
    clean_name,
    clean_phone,
)
from tournaments.services.withdrawals import entry_rejoin_unaudited, entry_state


@dataclass(frozen=True)
class Registration:
    """One player to enter. Without an ACC number, a name that may belong to a player already
    known is asked about (``PlayerChoiceNeeded``): ``player_id`` says it is that player,
    ``new_player`` that it is someone new."""

    name: str
    acc_number: str = ""
    club: str = ""
    email: str = ""
    phone: str = ""
    player_id: int | None = None
    new_player: bool = False
    new_club: bool = False  # the director confirmed ``club`` is a club Pegboard lacks
    team: str = ""  # an imported row's team, keyed by ``teams_import`` (doubles events)


class PlayerChoiceNeeded(ServiceError):
    """The name may be a player already known: the director says which, or that it is new."""

    def __init__(self, name: str, candidates: list[Candidate]):
        names = "; ".join(c.label for c in candidates)
        super().__init__(
            f"{name.strip()} may be a player already known ({names}). Choose who it is, or "
            "say it is a new player.",
            field="player",
            code="confirm_player",
        )
        self.candidates = candidates


_CLEAN = {
    "name": clean_name,
    "acc_number": clean_acc_number,
    "club": lambda value, field: clean_name(value, field=field) if value.strip() else "",
    "email": clean_email,
    "phone": clean_phone,
}


def registration_problems(reg: Registration) -> list[tuple[str, str]]:
    """Every field's problem (``services.validation``), as (field, message)."""
    problems = []
    for field, clean in _CLEAN.items():
        try:
            clean(getattr(reg, field), field=field)
        except ServiceError as exc:
            problems.append((field, exc.message))
    return problems


def acc_number_clash(player: Player, reg: Registration) -> str | None:
    """Why ``reg`` cannot be ``player``, the holder of its ACC number: another name."""
    if player.name.casefold() != reg.name.strip().casefold():
        return f"ACC number {reg.acc_number} belongs to {player.name}, not {reg.name}."
    return None


def club_for(reg: Registration) -> Club | None:
    """The club a registration names, matched by name (``core.clubs``); an unknown name makes
    a club only when the director confirmed it (``new_club``): clubs are public."""
    name = reg.club.strip()
    if not name:
        return None
    club = club_named(name)
    if club is None and reg.new_club:
        club = Club.objects.create(name=clean_name(name, field="club"))
    if club is None:
        raise ServiceError(
            f"No club called {name!r} is known. Check the spelling, leave the club empty, or "
            "say it is a new club (it is then listed on the clubs page).",
            field="club",
            code="unknown_club",
        )
    return club


def registration_player(*, registration: Registration, event: Event) -> Player:
    """The player ``registration`` names, by the identity rules of an entry (ACC number, the
    chosen player, or a new one; a name that may be someone known raises ``PlayerChoiceNeeded``)
    without entering them: a weekend's registration request approved onto a waitlist."""
    problems = registration_problems(registration)
    if problems:
        field, message = problems[0]
        raise ServiceError(message, field=field, code="invalid")
    return _player_for(registration, event)


def _player_for(reg: Registration, event: Event) -> Player:
    club = club_for(reg)
    if reg.player_id is not None and not reg.acc_number:
        player = Player.objects.filter(pk=reg.player_id, merged_into__isnull=True).first()
        if player is None:
            raise ServiceError("No such player.", field="player", code="no_such_player")
        return player
    if reg.acc_number:
        player, created = Player.objects.get_or_create(
            acc_number=reg.acc_number.strip(),
            defaults={
                "name": reg.name.strip(),
                "home_club": club,
                "email": reg.email.strip(),
                "phone": reg.phone.strip(),
            },
        )
        clash = None if created else acc_number_clash(player, reg)
        if clash:
            raise ServiceError(clash, field="acc_number", code="acc_number_taken")
        return player
    if not reg.new_player:
        candidates = player_candidates(name=reg.name, exclude_event=event)
        if candidates:
            raise PlayerChoiceNeeded(reg.name, candidates)
    return Player.objects.create(
        name=reg.name.strip(), home_club=club, email=reg.email.strip(), phone=reg.phone.strip()
    )


def withdrawn_entry_of(event: Event, reg: Registration) -> Entry | None:
    """This event's withdrawn entry of the player ``reg`` names: the chosen player's, none for
    someone said to be new, else by ACC number, else by the exact name when exactly one
    withdrawn entry has it. (A namesake said to be someone new once took the withdrawn
    player's entry, with the newcomer's address on it.)"""
    withdrawn = event.entries.filter(status=Entry.Status.WITHDRAWN).select_related("player")
    if reg.player_id is not None:
        return withdrawn.filter(player_id=reg.player_id).first()
    if reg.new_player:
        return None
    if reg.acc_number.strip():
        return withdrawn.filter(player__acc_number=reg.acc_number.strip()).first()
    named = list(withdrawn.filter(player__name__iexact=reg.name.strip())[:2])
    return named[0] if len(named) == 1 else None


def entry_add_unaudited(event: Event, reg: Registration, *, check_in: bool) -> Entry:
    problems = registration_problems(reg)
    if problems:
        field, message = problems[0]
        raise ServiceError(message, field=field, code="invalid")
    withdrawn = withdrawn_entry_of(event, reg)
    if withdrawn is not None:
        entry = entry_rejoin_unaudited(entry=withdrawn)
        contact = {"email": reg.email.strip(), "phone": reg.phone.strip()}
        given = {name: value for name, value in contact.items() if value}
        if given:  # what the player gives this time is how to reach them now
            Entry.objects.filter(pk=entry.pk).update(**given)
        entry.restored = True
        return entry
    late = event_play_started(event=event)
    entry = Entry(
        event=event,
        player=_player_for(reg, event),
        email=reg.email.strip(),
        phone=reg.phone.strip(),
    )
    if late:
        entry.joined_from_game = event_next_game_number(event=event)
    if check_in or late:
        entry.status = Entry.Status.CHECKED_IN
        entry.checked_in_at = timezone.now()
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError:
        raise ServiceError(
            f"{entry.name} is already entered in this event.",
            field="name",
            code="already_entered",
        ) from None
    entry.restored = False
    return entry


@transaction.atomic
def entry_register(
    *, event: Event, registration: Registration, user, check_in: bool = False
) -> Entry:
    """Enter one player (``check_in`` for a walk-in). After play started: a late entry.

    A player whose entry here was withdrawn gets it back (``entry.restored`` is then True)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.stage == Event.Stage.FINISHED:
        raise ServiceError("This event is finished.", code="event_finished")
    entry = entry_add_unaudited(event, registration, check_in=check_in)
    if entry.restored:
        summary = f"{entry.name} entered again: their withdrawn entry is restored"
    else:
        summary = f"{entry.name} entered" + (" and checked in" if check_in else "")
    audit_record(
        event=event,
        actor=user,
        kind=Kind.ENTRIES,
        action="entry_register",
        summary=summary,
        after=entry_state(entry),
    )
    keep_apart_wishes_settle(event=event, user=user)  # a wish may name this player
    return entry
