"""Registering players: by form, by CSV import, as walk-ins; check-in.

- walk-in: a player registered and checked in at the desk in one step.
- late entry: a player who enters after play started; they join from the next unpaired game.
- re-entry: entering again a player whose entry here was withdrawn restores that entry, with
  their games so far (``withdrawals.entry_rejoin``), rather than making a second one.
A player is found by ACC number when one is given, so a returning member is not duplicated.
Withdrawals are in ``withdrawals``, private links in ``links``.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.models import Club, Entry, Event, Player
from tournaments.selectors.events import event_next_game_number, event_play_started
from tournaments.selectors.player_identity import Candidate, player_candidates
from tournaments.services.audit import Kind, audit_record
from tournaments.services.errors import RowErrors, ServiceError
from tournaments.services.withdrawals import entry_rejoin_unaudited, entry_state

CSV_COLUMNS = ("name", "acc_number", "club", "email", "phone")
MAX_IMPORT_ROWS = 5000
MAX_IMPORT_BYTES = 2_000_000
FIELD_LENGTHS = {"name": 200, "acc_number": 20, "club": 200, "email": 254, "phone": 40}


def csv_upload_text(upload) -> str:
    """The text of an uploaded CSV file; a clear error if it is too large or not UTF-8."""
    if upload.size > MAX_IMPORT_BYTES:
        raise ServiceError("The file is larger than 2 MB.", field="file", code="too_large")
    try:
        return upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ServiceError(
            "Save the file as CSV (UTF-8) and try again.", field="file", code="encoding"
        ) from None


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


def _problems(reg: Registration) -> list[tuple[str, str]]:
    problems = []
    if not reg.name.strip():
        problems.append(("name", "A name is required."))
    for field, limit in FIELD_LENGTHS.items():
        if len(getattr(reg, field)) > limit:
            problems.append((field, f"At most {limit} characters."))
    if reg.acc_number and not reg.acc_number.replace("-", "").isalnum():
        problems.append(("acc_number", f"{reg.acc_number!r} is not an ACC number."))
    if reg.email and "@" not in reg.email:
        problems.append(("email", f"{reg.email!r} is not an e-mail address."))
    return problems


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
            defaults={"name": reg.name.strip(), "home_club": club, "email": reg.email},
        )
        if not created and player.name.casefold() != reg.name.strip().casefold():
            raise ServiceError(
                f"ACC number {reg.acc_number} belongs to {player.name}, not {reg.name}.",
                field="acc_number",
                code="acc_number_taken",
            )
        return player
    if not reg.new_player:
        candidates = player_candidates(name=reg.name, exclude_event=event)
        if candidates:
            raise PlayerChoiceNeeded(reg.name, candidates)
    return Player.objects.create(
        name=reg.name.strip(), home_club=club, email=reg.email, phone=reg.phone
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
        entry.restored = True
        return entry
    late = event_play_started(event=event)
    entry = Entry(event=event, player=_player_for(reg, event))
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


def _parse_csv(text: str) -> list[tuple[int, Registration]]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    headers = [h.strip().lower() for h in reader.fieldnames or []]
    if "name" not in headers:
        raise ServiceError(
            f"The first row must name the columns; 'name' is required. Allowed: "
            f"{', '.join(CSV_COLUMNS)}.",
            field="file",
            code="missing_header",
        )
    unknown = set(headers) - set(CSV_COLUMNS)
    if unknown:
        raise ServiceError(
            f"Unknown column(s): {', '.join(sorted(unknown))}. Allowed: {', '.join(CSV_COLUMNS)}.",
            field="file",
            code="unknown_column",
        )
    rows = []
    for line_no, raw in enumerate(reader, start=2):
        values = {(k or "").strip().lower(): (v or "").strip() for k, v in raw.items() if k}
        if any(values.values()):
            rows.append((line_no, Registration(**{k: values.get(k, "") for k in CSV_COLUMNS})))
    if len(rows) > MAX_IMPORT_ROWS:
        raise ServiceError(f"At most {MAX_IMPORT_ROWS} rows per file.", field="file")
    return rows


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


def entries_import_csv(
    *,
    event: Event,
    text: str,
    user,
    check_in: bool = False,
    matches: dict[int, int | str] | None = None,
) -> list[Entry]:
    """Enter every row of a CSV file, or none: any bad row is reported and nothing is saved.
    Withdrawn players in the file get their entries back (see ``entry_register``).
    ``matches`` gives, by row, who a name without an ACC number is: a player id, or "new";
    rows that may be a known player and have no answer are asked about first."""
    rows = _parse_csv(text)
    errors = [(n, f, m) for n, reg in rows for f, m in _problems(reg)]
    seen: dict[str, int] = {}
    for n, reg in rows:
        key = reg.acc_number or reg.name.strip().casefold()
        if key in seen:
            errors.append((n, "name", f"Same player as row {seen[key]}."))
        seen.setdefault(key, n)
    if errors:
        raise RowErrors(errors)
    rows = _with_choices(event, rows, matches or {})
    entries = []
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        for n, reg in rows:
            try:
                entries.append(_add(locked, reg, check_in=check_in))
            except ServiceError as exc:
                errors.append((n, exc.field or "name", exc.message))
        if errors:
            transaction.set_rollback(True)
            raise RowErrors(errors)
        restored = sum(e.restored for e in entries)
        audit_record(
            event=locked,
            actor=user,
            kind=Kind.ENTRIES,
            action="entries_import_csv",
            summary=f"{len(entries)} players imported from a file"
            + (f", {restored} of them restored after a withdrawal" if restored else ""),
            after={"players": [e.player.name for e in entries], "check_in": check_in},
        )
    return entries


@transaction.atomic
def entry_check_in(*, entry: Entry, user) -> Entry:
    entry = Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)
    if entry.status == Entry.Status.WITHDRAWN:
        raise ServiceError(f"{entry.player.name} has withdrawn.", code="withdrawn")
    before = entry_state(entry)
    if entry.status == Entry.Status.REGISTERED and event_play_started(event=entry.event):
        entry.joined_from_game = event_next_game_number(event=entry.event)
    entry.status = Entry.Status.CHECKED_IN
    entry.checked_in_at = entry.checked_in_at or timezone.now()
    entry.save(update_fields=["status", "joined_from_game", "checked_in_at"])
    audit_record(
        event=entry.event,
        actor=user,
        kind=Kind.CHECK_IN,
        action="entry_check_in",
        summary=f"{entry.player.name} checked in",
        before=before,
        after=entry_state(entry),
    )
    return entry
