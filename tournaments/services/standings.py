"""Recomputing an event's standings: a job after results change, a snapshot for the pages.

The ranking itself is pure (``tournaments.core.standings``); here the verified lines are read in
one query and the result is stored as a snapshot. ``notify_cut_changes`` compares the cut
before and after a correction and tells the players it moved (ACC Rule 12.2 case i).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournaments import tasks
from tournaments.core.standings import Line, Playoff, compute_standings
from tournaments.models import (
    CardLine,
    Entry,
    Event,
    Job,
    Notice,
    Seat,
    StandingsSnapshot,
    TiePlayoff,
)
from tournaments.services.jobs import Progress, job_enqueue
from tournaments.services.night_cards import night_cards_write, night_complete
from tournaments.services.ratings import ratings_request


def standings_request(*, event: Event) -> Job:
    """Recompute soon; bursts of requests share one waiting job.

    Called inside the transaction that verified a result: the job row is part of it (so a
    batch of results in one transaction makes one job) and the task is sent on commit."""
    return job_enqueue(
        kind="standings",
        key=f"event:{event.pk}",
        task=tasks.recompute_standings,
        event_id=event.pk,
    )


def _lines(event: Event) -> list[Line]:
    """Every current verified line with its opponent, in two queries."""
    rows = list(
        CardLine.objects.filter(seat__game__event=event, kind=CardLine.Kind.VERIFIED, current=True)
        .order_by()
        .values_list(
            "seat__entry_id", "seat__game__number", "seat__table_id", "game_points", "plus", "minus"
        )
    )
    opponents = _opponents(event)
    return [
        Line(
            entry_id=entry,
            game=number,
            game_points=points,
            plus=plus,
            minus=minus,
            opponent_id=opponents.get((table, entry)) if table else None,
            won=points > 0,
        )
        for entry, number, table, points, plus, minus in rows
    ]


def _opponents(event: Event) -> dict[tuple[int, int], int]:
    """(table id, entry id) -> the other player at that table."""
    seated: dict[int, list[int]] = {}
    tables = Seat.objects.filter(game__event=event, table__isnull=False).order_by()
    for table, entry in tables.values_list("table_id", "entry_id"):
        seated.setdefault(table, []).append(entry)
    pairs = {}
    for table, entries in seated.items():
        if len(entries) == 2:
            first, second = entries
            pairs[(table, first)], pairs[(table, second)] = second, first
    return pairs


def _entrants(event: Event) -> list[int]:
    """Everyone who started the qualifying round, withdrawals included."""
    return list(
        Entry.objects.filter(event=event, seats__isnull=False)
        .distinct()
        .values_list("pk", flat=True)
    )


def _compute(event: Event):
    playoffs = [
        Playoff(winner, loser)
        for winner, loser in TiePlayoff.objects.filter(event=event)
        .order_by("created_at")
        .values_list("winner_id", "loser_id")
    ]
    lines = _lines(event)
    standings = compute_standings(
        lines=lines,
        entrants=_entrants(event),
        qualifier_ratio=event.qualifier_ratio,
        playoffs=playoffs,
    )
    return standings, len(lines)


def standings_qualifiers(*, event: Event) -> set[int]:
    """Who is above the cut on the verified lines as they are this moment."""
    standings, _ = _compute(event)
    return {row.entry_id for row in standings.rows if row.qualifies}


def standings_recompute(
    *, event_id: int, job: Job | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    with transaction.atomic():
        # One recompute per event at a time: a job that read older lines cannot save last.
        event = Event.objects.select_for_update().get(pk=event_id)
        result = _snapshot(event, job)
        if event.kind == Event.Kind.CLUB_NIGHT:
            _club_night_follows(event)
        return result


def _club_night_follows(event: Event) -> None:
    """A complete club night: its players' cards, then their ratings (no extra step)."""
    if night_complete(event):
        night_cards_write(event=event)
        ratings_request(event=event)


def standings_snapshot_now(*, event: Event, job: Job | None = None) -> dict[str, Any]:
    """Store the standings as they are this moment, in the caller's transaction (which holds
    the event's lock): after a correction post-cut, the pages must agree at once."""
    return _snapshot(event, job)


def _snapshot(event: Event, job: Job | None) -> dict[str, Any]:
    standings, line_count = _compute(event)
    rows = [dict(vars(row)) for row in standings.rows]
    StandingsSnapshot.objects.create(
        event=event,
        rows=rows,
        qualifiers=standings.qualifiers,
        cut_tie=list(standings.cut_tie),
        high_non_qualifier_id=standings.high_non_qualifier,
        verified_games=line_count,
        job=job,
    )
    return {
        "rows": len(rows),
        "qualifiers": standings.qualifiers,
        "cut_tie": list(standings.cut_tie),
    }


def notify_cut_changes(*, event: Event, before: set[int], why: str) -> int:
    """ACC Rule 12.2 case i: tell players whose side of the cut a correction changed."""
    after = standings_qualifiers(event=event)
    notices = [
        Notice(entry_id=e, message=f"{why} You are now above the cut line.")
        for e in sorted(after - before)
    ]
    notices += [
        Notice(entry_id=e, message=f"{why} You are now below the cut line.")
        for e in sorted(before - after)
    ]
    Notice.objects.bulk_create(notices)
    return len(notices)
