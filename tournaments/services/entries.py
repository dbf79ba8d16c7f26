"""Registering players: by form, by CSV import, as walk-ins.

- walk-in: a player registered and checked in at the desk in one step.
- late entry: a player who enters after play started; they join from the next unpaired game.
- re-entry: entering again a player whose entry here was withdrawn restores that entry, with
  their games so far (``withdrawals.entry_rejoin``), rather than making a second one.
- already entered (on an import): a row naming a player who has an entry here that is not
  withdrawn (``core.player_list.PlayerIndex``: the ACC number, else the name). Such rows are
  skipped and listed, so an updated list can be uploaded again.
A player is found by ACC number when one is given, so a returning member is not duplicated.
Contact details (e-mail, phone) are the entry's: what the player gave for this event. A new
player's record starts with them; an existing record is never changed by entering it
(``record_changes`` does that).
How an imported file is read (delimiters, header names) is ``core.player_list``.
Withdrawals are in ``withdrawals``, private links in ``links``.

Check-in is in ``check_in``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.core import player_list
from tournaments.models import Club, Entry, Event, Player
from tournaments.selectors.events import event_next_game_number, event_play_started
from tournaments.selectors.player_identity import Candidate, player_candidates
from tournaments.services.audit import Kind, audit_record
from tournaments.services.errors import RowErrors, ServiceError
from tournaments.services.validation import (
    clean_acc_number,
    clean_email,
    clean_name,
    clean_phone,
)
from tournaments.services.withdrawals import entry_rejoin_unaudited, entry_state

MAX_IMPORT_ROWS = 5000
MAX_IMPORT_BYTES = 2_000_000


def csv_upload_text(upload) -> str:
    """The text of an uploaded CSV file; a clear error if it is too large or not text.

    UTF-8 (with or without a byte-order mark), else Windows-1252, which is what Excel's plain
    "CSV" saves on Windows, so "Zoë" or "Bélanger" arrive intact. A NUL byte means UTF-16 or
    not text at all: refused rather than read as nonsense."""
    if upload.size > MAX_IMPORT_BYTES:
        raise ServiceError("The file is larger than 2 MB.", field="file", code="too_large")
    data = upload.read()
    for encoding in ("utf-8-sig", "cp1252"):
        if b"\x00" in data:
            break
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ServiceError("Save the file as CSV (UTF-8) and try again.", field="file", code="encoding")


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


def _problems(reg: Registration) -> list[tuple[str, str]]:
    """Every field's problem (``services.validation``), as (field, message)."""
    problems = []
    for field, clean in _CLEAN.items():
        try:
            clean(getattr(reg, field), field=field)
        except ServiceError as exc:
            problems.append((field, exc.message))
    return problems


def _acc_clash(player: Player, reg: Registration) -> str | None:
    """Why ``reg`` cannot be ``player``, the holder of its ACC number: another name."""
    if player.name.casefold() != reg.name.strip().casefold():
        return f"ACC number {reg.acc_number} belongs to {player.name}, not {reg.name}."
    return None


def _player_for(reg: Registration, event: Event) -> Player:
    club = Club.objects.get_or_create(name=reg.club.strip())[0] if reg.club.strip() else None
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
        clash = None if created else _acc_clash(player, reg)
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


def _withdrawn_entry(event: Event, reg: Registration) -> Entry | None:
    """This event's withdrawn entry of the player ``reg`` names: by ACC number, else by the
    exact name when exactly one withdrawn entry has it."""
    withdrawn = event.entries.filter(status=Entry.Status.WITHDRAWN).select_related("player")
    if reg.acc_number.strip():
        return withdrawn.filter(player__acc_number=reg.acc_number.strip()).first()
    named = list(withdrawn.filter(player__name__iexact=reg.name.strip())[:2])
    return named[0] if len(named) == 1 else None


def _add(event: Event, reg: Registration, *, check_in: bool) -> Entry:
    problems = _problems(reg)
    if problems:
        field, message = problems[0]
        raise ServiceError(message, field=field, code="invalid")
    withdrawn = _withdrawn_entry(event, reg)
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
            f"{entry.player.name} is already entered in this event.",
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
    entry = _add(event, registration, check_in=check_in)
    if entry.restored:
        summary = f"{entry.player.name} entered again: their withdrawn entry is restored"
    else:
        summary = f"{entry.player.name} entered" + (" and checked in" if check_in else "")
    audit_record(
        event=event,
        actor=user,
        kind=Kind.ENTRIES,
        action="entry_register",
        summary=summary,
        after=entry_state(entry),
    )
    return entry


NAMED = 20  # skipped players named in the message; more are counted
OVERFLOW = (
    "This row has more cells than the first row has columns: a name with a comma in it "
    'must be in quotes ("Smith, John").'
)


def _parse_csv(text: str):
    try:
        found = player_list.read_player_list(text)
    except player_list.ListError as exc:
        raise ServiceError(exc.message, field="file", code=exc.code) from None
    if len(found.rows) > MAX_IMPORT_ROWS:
        raise ServiceError(f"At most {MAX_IMPORT_ROWS} rows per file.", field="file")
    if not found.rows:
        raise ServiceError("There are no players under the first row.", field="file", code="empty")
    rows = [
        (n, Registration(**{k: values[k] for k in player_list.FIELDS})) for n, values in found.rows
    ]
    return found, rows


def _already_entered(
    event: Event, rows: list[tuple[int, Registration]]
) -> tuple[list[tuple[int, str]], list[tuple[int, Registration]]]:
    """The rows naming a player already entered here, as (row, the entered player's name),
    and the other rows."""
    entered = player_list.PlayerIndex()
    for entry in event.entries.exclude(status=Entry.Status.WITHDRAWN).select_related("player"):
        entered.add(entry.player.name, name=entry.player.name, acc_number=entry.player.acc_number)
    skipped, fresh = [], []
    for n, reg in rows:
        name = entered.find(name=reg.name, acc_number=reg.acc_number)
        if name is None:
            fresh.append((n, reg))
        else:
            skipped.append((n, name))
    return skipped, fresh


def _duplicates(rows: list[tuple[int, Registration]]) -> list[tuple[int, str, str]]:
    """Rows naming the player of an earlier row (``player_list.PlayerIndex``)."""
    errors, earlier = [], player_list.PlayerIndex()
    for n, reg in rows:
        first = earlier.find(name=reg.name, acc_number=reg.acc_number)
        if first is not None and player_list.name_key(first[1]) != player_list.name_key(reg.name):
            errors.append(
                (n, "acc_number", f"ACC number {reg.acc_number} is also on row {first[0]}.")
            )
        elif first is not None:
            errors.append((n, "name", f"Same player as row {first[0]}."))
        earlier.add((n, reg.name), name=reg.name, acc_number=reg.acc_number)
    return errors


def _acc_clashes(event: Event, rows: list[tuple[int, Registration]]) -> list[tuple[int, str, str]]:
    """Rows whose ACC number is a known player's under another name (one query)."""
    wanted = {reg.acc_number.strip() for _, reg in rows if reg.acc_number.strip()}
    known = {
        p.acc_number: p
        for p in Player.objects.filter(acc_number__in=wanted).exclude(entries__event=event)
    }
    errors = []
    for n, reg in rows:
        player = known.get(reg.acc_number.strip())
        clash = player and _acc_clash(player, reg)
        if clash:
            errors.append((n, "acc_number", clash))
    return errors


class ImportRowErrors(RowErrors):
    """``RowErrors`` of an import, with what the page shows beside them: each error's column
    as the file names it (``lines``) and the rows that would be skipped as already entered."""

    def __init__(self, errors, *, columns: dict[str, str], skipped: list[tuple[int, str]]):
        super().__init__(sorted(errors, key=lambda e: e[0]))
        self.columns = columns
        self.skipped = skipped

    @property
    def lines(self) -> list[tuple[int, str, str]]:
        return [(row, self.columns.get(field, ""), message) for row, field, message in self.errors]


class ImportChoicesNeeded(ServiceError):
    """Rows whose names may be players already known: ``rows`` is (row, name, candidates)."""

    def __init__(self, rows: list[tuple[int, str, list[Candidate]]]):
        super().__init__(
            f"{len(rows)} row(s) may be players already known: say who each is. Nothing was "
            "imported yet.",
            field="matches",
            code="confirm_players",
        )
        self.rows = rows


def _with_choices(
    event: Event, rows: list[tuple[int, Registration]], matches: dict[int, int | str]
) -> list[tuple[int, Registration]]:
    """Each row with the director's choice of player applied; rows still to be asked about
    raise ``ImportChoicesNeeded``."""
    chosen, asking = [], []
    for n, reg in rows:
        choice = matches.get(n)
        if reg.acc_number or _withdrawn_entry(event, reg):
            chosen.append((n, reg))
        elif choice == "new":
            chosen.append((n, replace(reg, new_player=True)))
        elif choice is not None:
            chosen.append((n, replace(reg, player_id=int(choice))))
        else:
            candidates = player_candidates(name=reg.name, exclude_event=event)
            if candidates:
                asking.append((n, reg.name, candidates))
            chosen.append((n, replace(reg, new_player=True)))
    if asking:
        raise ImportChoicesNeeded(asking)
    return chosen


@dataclass(frozen=True)
class ImportResult:
    """What an import did: the entries made or restored, the rows skipped as already
    entered (row, name), and the columns of the file that were not read."""

    entries: list[Entry]
    skipped: list[tuple[int, str]]
    unused_columns: list[str]

    @property
    def message(self) -> str:
        count = len(self.entries)
        text = f"{count} player{'s' if count != 1 else ''} imported"
        restored = sum(e.restored for e in self.entries)
        if restored:
            text += f" ({restored} back after a withdrawal)"
        if self.skipped:
            names = [name for _, name in self.skipped]
            text += f", {len(names)} already entered (skipped): {', '.join(names[:NAMED])}"
            text += f" and {len(names) - NAMED} more" if len(names) > NAMED else ""
        text += "."
        if self.unused_columns:
            text += f" Columns not read: {', '.join(self.unused_columns)}."
        return text


def entries_import_csv(
    *,
    event: Event,
    text: str,
    user,
    check_in: bool = False,
    matches: dict[int, int | str] | None = None,
) -> ImportResult:
    """Enter every new player of a CSV file, or none: every bad row is reported at once and
    nothing is saved. Players already entered are skipped (see the module); withdrawn players
    in the file get their entries back (see ``entry_register``). ``matches`` gives, by row,
    who a name without an ACC number is: a player id, or "new"; rows that may be a known
    player and have no answer are asked about first."""
    found, rows = _parse_csv(text)
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        skipped, fresh = _already_entered(locked, rows)
        errors = [(n, f, m) for n, reg in fresh for f, m in _problems(reg)]
        errors += [(n, "cells", OVERFLOW) for n in found.overflowing]
        errors += _duplicates(fresh) + _acc_clashes(locked, fresh)
        if errors:
            raise ImportRowErrors(errors, columns=found.columns, skipped=skipped)
        entries = []
        for n, reg in _with_choices(locked, fresh, matches or {}):
            try:
                entries.append(_add(locked, reg, check_in=check_in))
            except ServiceError as exc:
                errors.append((n, exc.field or "name", exc.message))
        if errors:
            raise ImportRowErrors(errors, columns=found.columns, skipped=skipped)
        result = ImportResult(entries=entries, skipped=skipped, unused_columns=found.unused)
        if entries:
            audit_record(
                event=locked,
                actor=user,
                kind=Kind.ENTRIES,
                action="entries_import_csv",
                summary=f"From a file: {result.message}",
                after={"players": [e.player.name for e in entries], "check_in": check_in},
            )
    return result
