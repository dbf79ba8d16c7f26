"""Entering every player of a CSV file at once, or none of them.

- file: a spreadsheet saved as CSV (comma, semicolon or tab; UTF-8 or Windows-1252); how it
  is read (delimiters, header names) is ``core.player_list``.
- already entered: a row naming a player who has an entry here that is not withdrawn
  (``core.player_list.PlayerIndex``: the ACC number, else the name). Such rows are skipped and
  listed, so an updated list can be uploaded again.
- choice: a row whose name (without an ACC number) may be a player already known is asked
  about first (``ImportChoicesNeeded``); the director answers with a player id or "new".
- club: a "Club" cell is matched to a known club by name (``core.clubs.club_key``: case,
  accents and spacing aside). Names no club has are asked about in the same step, before any
  club is made (clubs are public): the director answers, by name, "new" (make the club),
  "none" (leave the players' club empty) or a known club's id.
Each row is entered by the rules of one entry (``entries``); every bad row is reported at once
and nothing is saved. In a doubles event a "Team" or "Partner" column makes the list's teams
(``teams_import``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db import transaction

from tournaments.core import player_list
from tournaments.core.clubs import club_key
from tournaments.errors import RowErrors, ServiceError
from tournaments.models import Entry, Event, Player
from tournaments.selectors.clubs import clubs_by_key
from tournaments.selectors.player_identity import Candidate, player_candidates
from tournaments.services.audit import Kind, audit_record
from tournaments.services.entries import (
    Registration,
    acc_number_clash,
    entry_add_unaudited,
    registration_problems,
    withdrawn_entry_of,
)
from tournaments.services.keep_apart import keep_apart_wishes_settle
from tournaments.services.planner import tables_analyze
from tournaments.services.teams_import import team_registrations, team_row_errors, teams_from_rows

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
    rows, team_names = [], {}
    for n, values in found.rows:
        regs, team_name = team_registrations(n, values)
        rows += [(n, reg) for reg in regs]
        if team_name:
            team_names.setdefault(regs[0].team, team_name)
    return found, rows, team_names


def _already_entered(
    event: Event, rows: list[tuple[int, Registration]]
) -> tuple[list[tuple[int, str]], list[tuple[int, Registration]]]:
    """The rows naming a player already entered here, as (row, the entered player's name),
    and the other rows."""
    entered = player_list.PlayerIndex()
    for entry in event.entries.exclude(status=Entry.Status.WITHDRAWN).select_related("player"):
        entered.add(entry.name, name=entry.name, acc_number=entry.player.acc_number)
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
        clash = player and acc_number_clash(player, reg)
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
    """What the director must say before anything is imported: ``rows`` whose names may be
    players already known, as (row, name, candidates), and ``clubs`` no club is called, as
    (the name as the file spells it, its rows)."""

    def __init__(
        self,
        rows: list[tuple[int, str, list[Candidate]]],
        clubs: list[tuple[str, list[int]]] | None = None,
    ):
        clubs = clubs or []
        asks = [f"{len(rows)} row(s) may be players already known: say who each is"] if rows else []
        if clubs:
            names = ", ".join(name for name, _ in clubs)
            asks.append(f"{len(clubs)} club name(s) are not known ({names}): say what each is")
        super().__init__(
            "; ".join(asks) + ". Nothing was imported yet.",
            field="matches" if rows else "clubs",
            code="confirm_players" if rows else "confirm_clubs",
        )
        self.rows = rows
        self.clubs = clubs


def _with_clubs(
    rows: list[tuple[int, Registration]], answers: dict[str, int | str]
) -> tuple[list[tuple[int, Registration]], list[tuple[str, list[int]]]]:
    """Each row with its club matched by name, or as the director answered for a name no club
    has; and the unknown names still to ask about, with their rows."""
    known = clubs_by_key()
    answered = {club_key(name): answer for name, answer in answers.items()}
    by_id = {club.pk: club for club in known.values()}
    out, asking = [], {}
    for n, reg in rows:
        key = club_key(reg.club)
        answer = answered.get(key)
        if not key:
            out.append((n, reg))
        elif key in known or answer in by_id:
            out.append((n, replace(reg, club=(known.get(key) or by_id[answer]).name)))
        elif answer in ("new", "none"):
            out.append((n, replace(reg, club="" if answer == "none" else reg.club, new_club=True)))
        else:
            asking.setdefault(key, (reg.club.strip(), []))[1].append(n)
            out.append((n, reg))
    return out, list(asking.values())


def _with_choices(
    event: Event,
    rows: list[tuple[int, Registration]],
    matches: dict[int, int | str],
    clubs: dict[str, int | str],
) -> list[tuple[int, Registration]]:
    """Each row with the director's choice of player and club applied; rows and club names
    still to be asked about raise ``ImportChoicesNeeded``."""
    rows, unknown_clubs = _with_clubs(rows, clubs)
    chosen, asking = [], []
    for n, reg in rows:
        choice = matches.get(n)
        if reg.acc_number or withdrawn_entry_of(event, reg):
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
    if asking or unknown_clubs:
        raise ImportChoicesNeeded(asking, unknown_clubs)
    return chosen


@dataclass(frozen=True)
class ImportResult:
    """What an import did: the entries made or restored, the rows skipped as already
    entered (row, name), and the columns of the file that were not read."""

    entries: list[Entry]
    skipped: list[tuple[int, str]]
    unused_columns: list[str]
    teams: int = 0

    @property
    def message(self) -> str:
        count = len(self.entries)
        text = f"{count} player{'s' if count != 1 else ''} imported"
        restored = sum(e.restored for e in self.entries)
        if restored:
            text += f" ({restored} back after a withdrawal)"
        if self.teams:
            text += f", {self.teams} team{'s' if self.teams != 1 else ''} made"
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
    clubs: dict[str, int | str] | None = None,
) -> ImportResult:
    """Enter every new player of a CSV file, or none: every bad row is reported at once and
    nothing is saved. Players already entered are skipped (see the module); withdrawn players
    in the file get their entries back (see ``entry_register``). ``matches`` gives, by row,
    who a name without an ACC number is: a player id, or "new"; rows that may be a known
    player and have no answer are asked about first; so are club names no club has (``clubs``
    answers them by name: "new", "none" or a club id)."""
    found, rows, team_names = _parse_csv(text)
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        skipped, fresh = _already_entered(locked, rows)
        errors = [(n, f, m) for n, reg in fresh for f, m in registration_problems(reg)]
        errors += [(n, "cells", OVERFLOW) for n in found.overflowing]
        errors += _duplicates(fresh) + _acc_clashes(locked, fresh)
        errors += team_row_errors(locked, rows)
        if errors:
            raise ImportRowErrors(errors, columns=found.columns, skipped=skipped)
        made = []
        for n, reg in _with_choices(locked, fresh, matches or {}, clubs or {}):
            try:
                made.append((reg, entry_add_unaudited(locked, reg, check_in=check_in)))
            except ServiceError as exc:
                errors.append((n, exc.field or "name", exc.message))
        if errors:
            raise ImportRowErrors(errors, columns=found.columns, skipped=skipped)
        entries = [entry for _, entry in made]
        teams = teams_from_rows(locked, rows, made, team_names)
        result = ImportResult(
            entries=entries, skipped=skipped, unused_columns=found.unused, teams=len(teams)
        )
        if entries or teams:
            tables_analyze(models=[Entry, Player])  # a field entered in one go
            audit_record(
                event=locked,
                actor=user,
                kind=Kind.ENTRIES,
                action="entries_import_csv",
                summary=f"From a file: {result.message}",
                after={
                    "players": [e.name for e in entries],
                    "teams": [t.name for t in teams],
                    "check_in": check_in,
                },
            )
            keep_apart_wishes_settle(event=locked, user=user)  # a wish may name a player
    return result
