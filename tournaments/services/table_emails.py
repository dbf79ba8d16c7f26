"""E-mailing each player their next table when a qualifying game is published.

- table e-mail: the game number, the player's table and opponent (or that they sit out, with
  what a sit-out scores), and their private link. Only players in the game who gave an e-mail
  address and have not withdrawn get one. In a doubles event each partner gets their own,
  naming their partner and the other team with its partners.
- due: a player is due a message when their last one for this game (``TableEmail``) told them
  another table or opponent, or when they have had none. A message already sent for this
  publication, or one that still says where they sit after a re-pairing, is not sent again.

``game_publish`` calls ``table_emails_request``, which starts a job after commit; the job calls
``table_emails_send``. Each message is recorded as soon as the mail server took it, so a job run
twice sends nothing twice, and one whose server refused some messages sends only those when it
runs again. (A worker that dies between the server's answer and the record may repeat that one
message: a second copy is better than a player not knowing their table.)
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.core import mail
from django.db import IntegrityError, transaction

from tournaments.models import ENTRANT_NAME, Entry, Game, Job, Seat, TableEmail
from tournaments.selectors.entrants import team_label
from tournaments.selectors.games import game_pairings
from tournaments.services.emails import entry_email
from tournaments.services.jobs import Progress, job_enqueue


@dataclass(frozen=True)
class _Message:
    entry: Entry
    table_number: int | None  # None: sits out
    opponent_id: int | None  # the other side's card entry: the player, or the team's
    opponent: str  # the other player, or the other team as "Aces (Ann and Bob)"
    replaces: bool  # the player was told another table for this game before
    partner: str = ""  # in a doubles event, the player's own partner


def table_emails_request(*, game: Game, user=None) -> Job | None:
    """Start the job that e-mails the game's players; None when none of them gave an address."""
    if not Seat.objects.filter(game=game).exclude(entry__email="").exists():
        return None
    return job_enqueue(
        kind="table-emails",
        key=f"event:{game.event_id}:game:{game.number}",
        task="tournaments.tasks.send_table_emails",
        created_by=user,
        event_id=game.event_id,
        number=game.number,
    )


def table_emails_send(*, event_id: int, number: int, progress: Progress) -> dict[str, Any]:
    """The job's work: send every message due for the game as it is published now.

    Returns how many were sent, already sent, unchanged since the last message, and which
    failed with why. Raises when messages were due and not one could be sent.
    """
    game = Game.objects.select_related("event").get(event_id=event_id, number=number)
    if game.status != Game.Status.PUBLISHED:
        return {"sent": 0, "not_published": True}  # re-paired since: its publication sends
    publication = game.published_at
    due, counts = _due(game)
    sent, failed = _send(game, publication, due, progress)
    if failed and not sent:
        raise RuntimeError(
            f"None of the {len(failed)} e-mails could be sent; the first error: "
            f"{failed[0]['error']}"
        )
    return {**counts, "sent": sent, "failed": failed}


def _send(game: Game, publication, due: list[_Message], progress: Progress):
    """Send each message on one connection; a refused one is noted and the rest go on."""
    sent, failed = 0, []
    connection = mail.get_connection()
    try:
        for done, message in enumerate(due):
            progress(10 + 90 * done // len(due), f"Sending {done + 1} of {len(due)} e-mails")
            if not _still_published(game, publication):
                break  # re-paired meanwhile: the next publication's job tells the new tables
            try:
                connection.open()
                if not connection.send_messages([_email(game, message)]):
                    raise RuntimeError("the mail backend sent nothing")
            except SoftTimeLimitExceeded:
                raise  # the job's time is up: what was sent is recorded, the rest waits
            except Exception as exc:  # smtplib and socket errors alike: this message only
                failed.append(_failure(message, exc))
                _hang_up(connection)  # the next message starts on a fresh connection
                continue
            sent += _record(game, publication, message)
    finally:
        _hang_up(connection)
    return sent, failed


def _hang_up(connection) -> None:
    with contextlib.suppress(Exception):  # a server that went away cannot be said goodbye to
        connection.close()


def _due(game: Game) -> tuple[list[_Message], dict[str, int]]:
    """The messages to send for the game's tables, and how many players need none."""
    # Every player's line, both partners of a doubles team included: each is told their own
    # table, their partner and the other team (the entrant seam's "Aces (Ann and Bob)").
    seats: dict[int, tuple[int | None, int | None, str, str]] = {
        row.entry_id: (row.table, row.opponent_entry_id, _opponent(row), row.partner)
        for row in game_pairings(game=game).by_name
    }
    entries = (
        Entry.objects.filter(pk__in=seats)
        .exclude(status=Entry.Status.WITHDRAWN)
        .exclude(email="")
        .select_related("player")
        .order_by(ENTRANT_NAME, "pk")
    )
    last = {
        row.entry_id: row
        for row in TableEmail.objects.filter(game=game, entry_id__in=seats).order_by(
            "sent_at", "pk"
        )
    }
    due, counts = [], {"already_sent": 0, "unchanged": 0}
    for entry in entries:
        table_number, opponent_id, opponent, partner = seats[entry.pk]
        told = last.get(entry.pk)
        if told and told.published_at == game.published_at:
            counts["already_sent"] += 1
        elif told and (told.table_number, told.opponent_id) == (table_number, opponent_id):
            counts["unchanged"] += 1
        else:
            due.append(
                _Message(entry, table_number, opponent_id, opponent, told is not None, partner)
            )
    return due, counts


def _opponent(row) -> str:
    """The other side as the message names it: a player, or a team with its partners."""
    if not row.opponent_partners:
        return row.opponent
    return team_label(row.opponent, list(row.opponent_partners))


def _still_published(game: Game, publication) -> bool:
    """False once the director re-paired the game: its tables are no longer these."""
    return Game.objects.filter(
        pk=game.pk, status=Game.Status.PUBLISHED, published_at=publication
    ).exists()


def _email(game: Game, message: _Message) -> mail.EmailMessage:
    context = {
        "event": game.event,
        "game": game,
        "table": message.table_number,
        "opponent": message.opponent,
        "partner": message.partner,
        "replaces": message.replaces,
    }
    return entry_email(entry=message.entry, template="table", context=context)


def _record(game: Game, publication, message: _Message) -> int:
    """Write down a message the server took; 0 when another run recorded it first."""
    try:
        with transaction.atomic():
            TableEmail.objects.create(
                game=game,
                entry=message.entry,
                published_at=publication,
                table_number=message.table_number,
                opponent_id=message.opponent_id,
            )
    except IntegrityError:
        return 0
    return 1


def _failure(message: _Message, exc: Exception) -> dict[str, Any]:
    return {
        "entry_id": message.entry.pk,
        "player": message.entry.name,
        "error": f"{exc.__class__.__name__}: {exc}".rstrip(": "),
    }
