"""Recomputing an event's standings: a job after results change, a snapshot for the pages.

The live standings are read by ``tournaments.selectors.standings`` (the ranking itself is pure,
``tournaments.core.standings``); here they are stored as a snapshot. ``notify_cut_changes``
compares the cut before and after a correction and tells the players it moved (ACC Rule 12.2
case i).
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tournaments.models import CardLine, Event, Job, Notice, StandingsSnapshot
from tournaments.selectors.standings import standings_lines, standings_live, standings_qualifiers
from tournaments.services.conflicts import read_again_on_drop
from tournaments.services.jobs import GATHER_SECONDS, Progress, job_enqueue
from tournaments.services.night_cards import night_cards_write, night_complete
from tournaments.services.planner import tables_analyze_if_grown
from tournaments.services.ratings import ratings_request


def standings_request(*, event: Event) -> Job:
    """Recompute soon; bursts of requests share one waiting job.

    Called inside the transaction that verified a result: the job row is part of it (so a
    batch of results in one transaction makes one job) and the task is sent on commit. A
    request that joined a job another transaction made looks again once its own commits: if
    that job was taken meanwhile, it may have read the lines before this write, so another is
    asked for (without it, the last results of a game could stay out of the standings; with
    tasks run at once and requests side by side, they did)."""
    asked_at = timezone.now()
    job = _standings_job(event.pk)
    made = _made_here.__dict__.setdefault("jobs", set())
    if job.created_at >= asked_at:  # made by this transaction: sent when it commits
        made.add(job.pk)
        transaction.on_commit(lambda: made.discard(job.pk))
    elif job.pk not in made:  # joined another transaction's job
        transaction.on_commit(lambda: _ask_again_if_taken(job.pk, event))
    return job


def _standings_job(event_id: int) -> Job:
    return job_enqueue(
        kind="standings",
        key=f"event:{event_id}",
        task="tournaments.tasks.recompute_standings",
        event_id=event_id,
    )


# The standings jobs the open transaction of this thread made (a batch of results in one
# transaction asks several times for the job it made: that one reads them all).
_made_here = threading.local()


def standings_forget_memo() -> None:
    """Forget what this process notes about standings jobs (the jobs this thread's open
    transaction made, the jobs known to be waiting): for tests, whose transactions are rolled
    back, never committed, so a job they made would stay noted, and SQLite gives the next
    test's job the same id."""
    _made_here.__dict__.pop("jobs", None)
    _waiting_until.clear()


def _ask_again_if_taken(job_id: int, event: Event) -> None:
    if not Job.objects.filter(pk=job_id, status=Job.Status.PENDING).exists():
        standings_request(event=event)


# The standings job starts GATHER_SECONDS after it was asked for (a countdown from its commit):
# until then, a result verified and committed is read by it. ``standings_follow`` notes in this
# process's memory until when the job it asked for cannot have started, minus this margin (time
# between this process's clock, the commit and the broker), and asks for no other meanwhile.
_FOLLOW_MARGIN = timedelta(seconds=0.5)
_waiting_until: dict[int, float] = {}  # event id -> time.monotonic() deadline


def standings_follow(*, event: Event) -> None:
    """``standings_request`` for a write that verified a result, asked once the write has
    committed: never inside its transaction, which holds its table's lock. A job then waiting
    starts after the write, so it reads it; with none waiting, one is made. One lookup, not a
    lookup inside the transaction and another after it; none at all while a job this process
    asked for is known to be still waiting (its countdown has not run out): during a burst, one
    request per event every couple of seconds per process, not one per verified table. A lost
    connection is tried once more on a new one; a request that still fails is logged, not
    turned into an error for the write, which is saved."""
    event_id = event.pk
    transaction.on_commit(
        lambda: _still_waiting(event_id) or read_again_on_drop(lambda: _standings_ask(event_id)),
        robust=True,
    )


def _standings_ask(event_id: int) -> None:
    """Outside any transaction: the waiting job, or a new one (sent); noted until it may start."""
    job = _standings_job(event_id)
    if settings.CELERY_TASK_ALWAYS_EAGER or job.status != Job.Status.PENDING:
        return  # tasks run at once (no broker): every write asks, as before
    starts = job.created_at + timedelta(seconds=GATHER_SECONDS["standings"]) - _FOLLOW_MARGIN
    left = (starts - timezone.now()).total_seconds()
    if left > 0:
        _waiting_until[event_id] = time.monotonic() + left


def _still_waiting(event_id: int) -> bool:
    return time.monotonic() < _waiting_until.get(event_id, 0.0)


def standings_recompute(
    *, event_id: int, job: Job | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    with transaction.atomic():
        # One recompute per event at a time: a job that read older lines cannot save last.
        event = Event.objects.select_for_update().get(pk=event_id)
        result = _snapshot(event, job)
        if event.kind == Event.Kind.CLUB_NIGHT:
            _club_night_follows(event)
    # The reports that asked for this job grew the card lines: their statistics follow.
    tables_analyze_if_grown(models=[CardLine])
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
    lines = standings_lines(event=event)
    standings, line_count = standings_live(event=event, lines=lines), len(lines)
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
