"""Registering players: by form, by CSV import, as walk-ins; check-in; withdrawal.

- walk-in: a player registered and checked in at the desk in one step.
- late entry: a player who enters after play started; they join from the next unpaired game.
A player is found by ACC number when one is given, so a returning member is not duplicated.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from tournaments.models import Club, Entry, Event, Player
from tournaments.selectors.events import event_next_game_number, event_play_started
from tournaments.services.errors import RowErrors, ServiceError

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
    name: str
    acc_number: str = ""
    club: str = ""
    email: str = ""
    phone: str = ""


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


def _player_for(reg: Registration) -> Player:
    club = Club.objects.get_or_create(name=reg.club.strip())[0] if reg.club.strip() else None
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
    return Player.objects.create(
        name=reg.name.strip(), home_club=club, email=reg.email, phone=reg.phone
    )


def _add(event: Event, reg: Registration, *, check_in: bool) -> Entry:
    problems = _problems(reg)
    if problems:
        field, message = problems[0]
        raise ServiceError(message, field=field, code="invalid")
    late = event_play_started(event=event)
    entry = Entry(event=event, player=_player_for(reg))
    if late:
        entry.joined_from_game = event_next_game_number(event=event)
    if check_in or late:
        entry.status = Entry.Status.CHECKED_IN
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError:
        raise ServiceError(
            f"{entry.player.name} is already entered in this event.",
            field="name",
            code="already_entered",
        ) from None
    return entry


@transaction.atomic
def entry_register(*, event: Event, registration: Registration, check_in: bool = False) -> Entry:
    """Enter one player (``check_in`` for a walk-in). After play started: a late entry."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.stage == Event.Stage.FINISHED:
        raise ServiceError("This event is finished.", code="event_finished")
    return _add(event, registration, check_in=check_in)


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


def entries_import_csv(*, event: Event, text: str, check_in: bool = False) -> list[Entry]:
    """Enter every row of a CSV file, or none: any bad row is reported and nothing is saved."""
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
    return entries


@transaction.atomic
def entry_check_in(*, entry: Entry) -> Entry:
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == Entry.Status.WITHDRAWN:
        raise ServiceError(f"{entry.player.name} has withdrawn.", code="withdrawn")
    if entry.status == Entry.Status.REGISTERED and event_play_started(event=entry.event):
        entry.joined_from_game = event_next_game_number(event=entry.event)
    entry.status = Entry.Status.CHECKED_IN
    entry.save(update_fields=["status", "joined_from_game"])
    return entry


@transaction.atomic
def entry_withdraw(*, entry: Entry) -> Entry:
    """Withdraw between games: the player plays no game that is not paired yet."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == Entry.Status.WITHDRAWN:
        raise ServiceError(f"{entry.player.name} has already withdrawn.", code="withdrawn")
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_after_game = event_next_game_number(event=entry.event) - 1
    entry.save(update_fields=["status", "withdrawn_after_game"])
    return entry


def entry_token_revoke(*, entry: Entry) -> Entry:
    """Replace the private link: the old one stops working at once (a lost scorecard)."""
    from tournaments.models.events import new_report_token

    entry.report_token = new_report_token()
    entry.save(update_fields=["report_token"])
    return entry
