"""Pairing the games of a qualifying round, publishing them, and re-pairing a game.

``game_pairings_request`` checks the request and starts a job; the job calls
``game_pairings_generate``, which loads the field and the history, asks the pure pairing core
(``tournaments.core.pairing``) and saves tables and seats in one transaction; a doubles event's
teams are paired the same way, four seats a table (``core.pairing_teams``). The game's seed is
chosen when it is requested and stored, so running the job again gives the same tables, and a
game that already has tables is left alone: the job is idempotent.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.core.keep_apart import pair_game_keeping_apart
from tournaments.core.pairing import GamePairing, PairingImpossible
from tournaments.core.pairing_teams import team_history, team_sit_out_seats, team_table_seats
from tournaments.errors import ServiceError
from tournaments.models import Entry, Event, Game, Job, KeepApart, Seat, Table
from tournaments.selectors.entrants import team_ids_of_entries, teams_in_game
from tournaments.selectors.events import entries_in_game, pairing_records
from tournaments.selectors.games import game_pairings
from tournaments.services.audit import Kind, audit_record
from tournaments.services.jobs import Progress, job_enqueue
from tournaments.services.planner import tables_analyze
from tournaments.services.results import sit_out_line_create
from tournaments.services.standings import standings_request
from tournaments.services.table_emails import table_emails_request


def _enqueue(event: Event, number: int, user) -> Job:
    return job_enqueue(
        kind="pairings",
        key=f"event:{event.pk}:game:{number}",
        task="tournaments.tasks.pair_game",
        created_by=user,
        join_running=True,
        event_id=event.pk,
        number=number,
    )


@transaction.atomic
def game_pairings_request(*, event: Event, number: int, user) -> Job:
    """Ask for game ``number`` to be paired; returns the job that does it."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.stage != Event.Stage.QUALIFYING:
        raise ServiceError(
            "Close registration before pairing: the field must be known.", code="not_qualifying"
        )
    if not 1 <= number <= event.qualifying_games:
        raise ServiceError(
            f"This event has games 1 to {event.qualifying_games}; there is no game {number}.",
            field="number",
            code="no_such_game",
        )
    previous = event.games.filter(number=number - 1).first()
    if number > 1 and (previous is None or previous.status == Game.Status.NOT_PAIRED):
        raise ServiceError(f"Pair game {number - 1} first.", field="number", code="out_of_order")
    game, _ = Game.objects.get_or_create(event=event, number=number)
    if game.status != Game.Status.NOT_PAIRED:
        raise ServiceError(f"Game {number} is already paired.", code="already_paired")
    if game.job_id and game.job.status in Job.UNFINISHED:
        return _enqueue(event, number, user)  # the same job: a game is paired by one job at once
    if game.seed is None:
        game.seed = secrets.randbits(62)
    game.job = _enqueue(event, number, user)
    game.save(update_fields=["seed", "job"])
    audit_record(
        event=event,
        actor=user,
        kind=Kind.PAIRINGS,
        action="game_pairings_request",
        summary=f"Game {number} pairing requested",
        after={"seed": game.seed},
        game=game,
    )
    return game.job


def _history(event: Event, before: int) -> list[GamePairing]:
    tables: dict[int, dict[int, list[tuple[int, int]]]] = defaultdict(lambda: defaultdict(list))
    sit_outs: dict[int, int] = {}
    seats = Seat.objects.filter(game__event=event, game__number__lt=before).values_list(
        "game__number", "table__number", "position", "entry_id"
    )
    for number, table, position, entry_id in seats:
        if table is None:
            sit_outs[number] = entry_id
        else:
            tables[number][table].append((position, entry_id))
    history = []
    for number in sorted(set(tables) | set(sit_outs)):
        pairs = tuple(
            tuple(e for _, e in sorted(tables[number][t])) for t in sorted(tables[number])
        )
        history.append(GamePairing(tables=pairs, sit_out=sit_outs.get(number)))
    return history


def _entry_field(event: Event, number: int) -> tuple[list[int], list[GamePairing], dict | None]:
    field = [entry.pk for entry in entries_in_game(event=event, number=number)]
    records = None
    if event.pairing_mode != "random":
        records = pairing_records(event=event, entry_ids=field)
    return field, _history(event, number), records


def _team_field(event: Event, number: int) -> tuple[list[int], list[GamePairing], dict | None]:
    """A doubles game's units: the teams both of whose partners play it (``pairing_teams``)."""
    partners = teams_in_game(event=event, number=number)
    seats = Seat.objects.filter(game__event=event, game__number__lt=number).values_list(
        "game__number", "table__number", "position", "entry_id"
    )
    history = team_history(seats, team_ids_of_entries(event=event))
    records = None
    if event.pairing_mode != "random":  # partners share every result: the first one's record
        firsts = {team: pair[0] for team, pair in partners.items()}
        by_entry = pairing_records(event=event, entry_ids=list(firsts.values()))
        records = {team: by_entry[entry] for team, entry in firsts.items()}
    return list(partners), history, records


def game_pairings_generate(*, event_id: int, number: int, progress: Progress) -> dict[str, Any]:
    """The pairing job's work. Raises PairingImpossible with the director's explanation.

    A doubles event pairs its teams (``core.pairing_teams``): the core sees team ids."""
    event = Event.objects.get(pk=event_id)
    game = Game.objects.get(event=event, number=number)
    if game.status != Game.Status.NOT_PAIRED:
        return {"tables": game.tables.count(), "already_paired": True}
    progress(10, f"Loading the field for game {number}")
    field, history, records = (_team_field if event.in_teams else _entry_field)(event, number)
    unit = "teams" if event.in_teams else "players"
    progress(30, f"Pairing {len(field)} {unit}")
    keep_apart = _keep_apart(event)
    try:
        kept = pair_game_keeping_apart(
            keep_apart=keep_apart,
            active=field,
            history=history,
            games_remaining=event.qualifying_games - number + 1,
            seed=game.seed,
            max_meetings=event.max_meetings,
            mode=event.pairing_mode,
            records=records,
        )
    except PairingImpossible as exc:
        if not event.in_teams:
            raise
        raise PairingImpossible(f"In doubles each team counts as one player here: {exc}") from None
    pairing = kept.pairing
    progress(80, "Saving the tables")
    partners = teams_in_game(event=event, number=number) if event.in_teams else None
    _save(game, pairing, partners)
    result = {"tables": len(pairing.tables), "sit_out": pairing.sit_out, unit: len(field)}
    if keep_apart:
        result["keep_apart"] = _keep_apart_words(kept, len(keep_apart), event)
    return result


def _keep_apart(event: Event) -> list[tuple[int, int]]:
    """The event's keep-apart pairs as the pairing core sees its units: entries, or in doubles
    the two players' teams (partners of one team are never kept apart from each other)."""
    pairs = list(KeepApart.objects.filter(event=event).values_list("entry_a_id", "entry_b_id"))
    if not event.in_teams:
        return pairs
    team_of = team_ids_of_entries(event=event)
    teams = {(team_of.get(a), team_of.get(b)) for a, b in pairs}
    return sorted((a, b) for a, b in teams if a is not None and b is not None and a != b)


def _keep_apart_words(kept, pairs: int, event: Event) -> str:
    """What the pairing's result says of the keep-apart pairs (the job page shows it)."""
    if not kept.met:
        return f"All {pairs} keep-apart pairs are kept apart."
    if event.in_teams:
        teams = {t.pk: t.name for t in event.teams.filter(pk__in={p for m in kept.met for p in m})}
        meet = "; ".join(f"{teams[a]} and {teams[b]}" for a, b in kept.met)
    else:
        ids = {p for m in kept.met for p in m}
        names = {e.pk: e.name for e in Entry.objects.filter(pk__in=ids)}
        meet = "; ".join(f"{names[a]} and {names[b]}" for a, b in kept.met)
    return (
        f"The field left no way to keep every pair apart for the rest of the round: {meet} "
        "meet in this game."
    )


def _seats(game: Game, tables: list[Table], pairing: GamePairing, partners) -> list[Seat]:
    if partners is None:
        placed = [list(enumerate(pair, start=1)) for pair in pairing.tables]
        sit_out = [] if pairing.sit_out is None else [(None, pairing.sit_out)]
    else:
        placed = [team_table_seats(partners[a], partners[b]) for a, b in pairing.tables]
        sit_out = [] if pairing.sit_out is None else team_sit_out_seats(partners[pairing.sit_out])
    seats = [
        Seat(game=game, entry_id=entry_id, table=table, position=position)
        for table, places in zip(tables, placed, strict=True)
        for position, entry_id in places
    ]
    seats += [
        Seat(game=game, entry_id=entry_id, position=position) for position, entry_id in sit_out
    ]
    return seats


@transaction.atomic
def _save(game: Game, pairing: GamePairing, partners: dict | None = None) -> None:
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.NOT_PAIRED:
        return
    tables = Table.objects.bulk_create(
        Table(game=game, number=n) for n in range(1, len(pairing.tables) + 1)
    )
    Seat.objects.bulk_create(_seats(game, tables, pairing, partners))
    game.status = Game.Status.PAIRED
    game.paired_at = timezone.now()
    game.save(update_fields=["status", "paired_at"])
    tables_analyze(models=[Table, Seat])  # a game's tables and seats, in one go


@transaction.atomic
def game_publish(*, game: Game, user) -> Game:
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.PAIRED:
        raise ServiceError(
            f"Only a paired draft can be published; game {game.number} is "
            f"{game.get_status_display().lower()}.",
            code="not_paired",
        )
    game.status = Game.Status.PUBLISHED
    game.published_at = timezone.now()
    game.save(update_fields=["status", "published_at"])
    sit_out_line_create(game=game)
    audit_record(
        event=game.event,
        actor=user,
        kind=Kind.PAIRINGS,
        action="game_publish",
        summary=f"Game {game.number} published",
        before={"status": Game.Status.PAIRED},
        after={"status": Game.Status.PUBLISHED},
        game=game,
    )
    table_emails_request(game=game, user=user)
    return game


def _tables_state(game: Game) -> dict:
    """The game's tables as the history keeps them: the two names at each, and the sit-out."""
    pairings = game_pairings(game=game)
    return {
        "tables": [[t.first, t.second] for t in pairings.tables],
        "sit_out": pairings.sit_out.name if pairings.sit_out else None,
    }


@transaction.atomic
def game_repair(*, game: Game, user) -> Job:
    """Throw away a game's tables and pair it again with a new seed (before it starts)."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status == Game.Status.CLOSED:
        raise ServiceError(f"Game {game.number} is closed.", code="closed")
    reported = game.seats.filter(card_lines__isnull=False).exclude(table__isnull=True)
    if (
        reported.exists()
        or game.tables.filter(Q(rulings__isnull=False) | Q(judge_calls__isnull=False)).exists()
    ):
        raise ServiceError(
            f"Game {game.number} has started (results reported, a judge called or a ruling "
            "made); it cannot be re-paired.",
            code="game_started",
        )
    if game.event.games.filter(number__gt=game.number).exclude(status="not_paired").exists():
        raise ServiceError(
            f"Game {game.number + 1} is already paired; only the latest game can be re-paired.",
            code="later_game_paired",
        )
    # The game has not started, so a player who withdrew since it was paired leaves it too,
    # and one who rejoined since then plays it after all.
    game.event.entries.filter(
        status=Entry.Status.WITHDRAWN, withdrawn_after_game__gte=game.number
    ).update(withdrawn_after_game=game.number - 1)
    for entry in game.event.entries.exclude(status=Entry.Status.WITHDRAWN):
        if game.number in entry.missed_games:
            entry.missed_games = [n for n in entry.missed_games if n != game.number]
            entry.save(update_fields=["missed_games"])
    before = _tables_state(game)
    game.tables.all().delete()
    game.seats.all().delete()
    game.status = Game.Status.NOT_PAIRED
    game.seed = secrets.randbits(62)
    game.paired_at = game.published_at = None
    game.save()
    game.job = _enqueue(game.event, game.number, user)
    game.save(update_fields=["job"])
    standings_request(event=game.event)  # the old sit-out's line went with the old seats
    audit_record(
        event=game.event,
        actor=user,
        kind=Kind.PAIRINGS,
        action="game_repair",
        summary=f"Game {game.number} re-paired: the old tables are replaced",
        before=before,
        after={"seed": game.seed},
        game=game,
    )
    return game.job


__all__ = [
    "PairingImpossible",
    "game_pairings_generate",
    "game_pairings_request",
    "game_publish",
    "game_repair",
]
