"""Creating, sending, running and finishing background jobs (see ``tournaments.models.jobs``).

``job_enqueue`` creates the row and sends its task once the transaction commits; ``job_run`` is
what every task calls: it claims the row, runs the work, and records success or the failure's
reason. Running a task twice for one job does the work once.

Faults are normal, and the row is the truth:

- *Broker down*: sending fails quietly (the caller's write is already saved and its answer is
  2xx); the job stays waiting with ``dispatched_at`` empty and ``queue_status`` reports the
  broker down. ``jobs_sweep``, on beat every few seconds, sends waiting jobs again once the
  broker is back.
- *Worker killed*: a running job's worker writes ``heartbeat_at`` every few seconds. When it
  stops, the sweeper takes the job back to waiting and sends it again; after
  ``JOBS_MAX_ATTEMPTS`` stopped runs the job fails with the reason instead.
- *Duplicates*: the database allows one waiting and one running job per (kind, key); a task
  whose job cannot run yet (another of its kind runs for the same key) leaves it waiting, and
  it is sent again when that one finishes. A message delivered twice runs the job once.
- *Database connection dropped* (the server ended it, or could not take a new one; see
  ``services.conflicts``) while claiming, working or recording: the worker reconnects and does
  that step again, the work from its start (work is idempotent), after a short pause, up to
  ``JOB_DATABASE_TRIES`` times in all; a lost race (deadlock) is run again the same way. Only
  then, or on any other error, does the job fail, with the reason.
"""

from __future__ import annotations

import functools
import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, connections, transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.models import Job
from tournaments.selectors import jobs as queue
from tournaments.services.conflicts import (
    connection_dropped,
    read_again_on_drop,
    retry_on_conflict,
    retryable,
)
from tournaments.services.idempotency import kept_answers_expire

logger = logging.getLogger(__name__)

Progress = Callable[[int, str], None]
Work = Callable[[Job, Progress], dict[str, Any]]


def job_enqueue(
    *,
    kind: str,
    task: str,
    key: str = "",
    created_by=None,
    join_running: bool = False,
    **task_kwargs,
) -> Job:
    """Create a job and send the task registered as ``task`` with ``(job_id=..., **task_kwargs)``
    after commit.

    ``task`` is a registered name ("tournaments.tasks.pair_game"), not the task object, so no
    service imports the tasks module (which imports the services); an unknown name is refused here,
    where the caller made the mistake, rather than by the sweeper later.

    When a job of the same kind and key is waiting, it is returned instead: asking twice to pair
    game 3 starts one job, not two (see ``Job`` on coalescing). With ``join_running``, a running
    one is returned too: work that must happen once (pairing a game) never queues a second run.
    """
    task_registered(name=task)
    while True:
        if key:
            statuses = Job.UNFINISHED if join_running else (Job.Status.PENDING,)
            existing = Job.objects.filter(kind=kind, key=key, status__in=statuses).first()
            if existing:
                if _unsent(existing, timezone.now()):  # the broker was down: try again now
                    transaction.on_commit(functools.partial(job_dispatch, job=existing))
                return existing
        try:
            with transaction.atomic():
                job = Job.objects.create(
                    kind=kind, key=key, created_by=created_by, task=task, task_kwargs=task_kwargs
                )
        except IntegrityError:
            # Another transaction made it first. Join it; if it was taken since, this request
            # needs a job of its own: look again.
            continue
        transaction.on_commit(functools.partial(job_dispatch, job=job))
        return job


# Jobs that wait a moment after being asked for, still pending, so that the requests of a
# burst join them: during a game's last minutes a standings job is asked for at every verified
# table; computed at most every couple of seconds, the standings still follow within 5 s.
GATHER_SECONDS = {"standings": 2.0}


def task_registered(*, name: str) -> None:
    """Refuse a task name the Celery app does not know (the tasks module is imported at start-up,
    in ``TournamentsConfig.ready``)."""
    from config.celery import app

    if name not in app.tasks:
        raise LookupError(f"{name!r} is not a registered task; see tournaments/tasks.py")


def job_dispatch(*, job: Job) -> bool:
    """Hand the job's task to the broker; never raises. False: it stays waiting for the sweeper.

    While the broker is known to be down (a send failed moments ago) nothing is tried, so a burst
    of reports during an outage costs no time.
    """
    from config.celery import app

    if not job.task:
        return False
    if queue.broker_recently_down():
        return False
    try:
        app.tasks[job.task].apply_async(
            kwargs={"job_id": job.pk, **job.task_kwargs},
            countdown=GATHER_SECONDS.get(job.kind, 0),
        )
    except Exception as exc:  # kombu and redis raise several kinds; all mean "not sent"
        queue.broker_failed(exc)
        logger.warning("job %s (%s) not sent, it waits for the sweeper: %s", job.pk, job.kind, exc)
        return False
    queue.broker_worked()
    try:
        read_again_on_drop(
            lambda: Job.objects.filter(pk=job.pk, status=Job.Status.PENDING).update(
                dispatched_at=timezone.now()
            )
        )
    except DatabaseError:  # sent all the same; the sweeper may send it again, run once
        logger.warning("job %s sent, but not marked as sent", job.pk, exc_info=True)
    return True


# A job's own send happens when its transaction commits; one older than this was not sent.
# (A job sent with a countdown (GATHER_SECONDS) counts as sent: its dispatched_at is set.)
_SEND_GRACE = timedelta(seconds=2)


def _unsent(job: Job, now) -> bool:
    return (
        job.status == Job.Status.PENDING
        and job.dispatched_at is None
        and job.created_at < now - _SEND_GRACE
    )


def _stale_before(now):
    return now - timedelta(seconds=settings.JOBS_STALE_SECONDS)


def _is_stale(job: Job, now) -> bool:
    last = job.heartbeat_at or job.started_at
    return last is None or last < _stale_before(now)


def _worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _claimed(job: Job | None) -> Job | None:
    """After a commit in doubt: the job if this claim was saved (None: claim it again)."""
    if job is not None and _owned(job).filter(started_at=job.started_at).exists():
        return job
    return None


@retry_on_conflict(saved=_claimed)  # opens the transaction itself
def _claim(job_id: int) -> Job | None:
    """Take the job to run it; None when it finished, runs elsewhere, or must wait its turn."""
    now = timezone.now()
    job = Job.objects.select_for_update().filter(pk=job_id).first()
    if job is None or job.finished:
        return None
    if job.status == Job.Status.RUNNING and not _is_stale(job, now):
        return None  # a second delivery of a job that is running
    job.status = Job.Status.RUNNING
    job.started_at = job.heartbeat_at = now
    job.attempts += 1
    job.worker = _worker_name()
    try:
        with transaction.atomic():
            job.save(update_fields=["status", "started_at", "heartbeat_at", "attempts", "worker"])
    except IntegrityError:
        return None  # another job of this kind runs for this key; sent again when it ends
    return job


class _Heartbeat(threading.Thread):
    """Writes the job's ``heartbeat_at`` every few seconds while its work runs."""

    def __init__(self, job: Job) -> None:
        super().__init__(name=f"job-{job.pk}-heartbeat", daemon=True)
        self.job = job
        self.finished = threading.Event()

    def run(self) -> None:
        try:
            while not self.finished.wait(settings.JOBS_HEARTBEAT_SECONDS):
                try:
                    _owned(self.job).update(heartbeat_at=timezone.now())
                except Exception:  # a missed beat is retried; the work itself goes on
                    logger.warning("job %s: heartbeat not written", self.job.pk, exc_info=True)
                    connection.close()  # the next beat opens a new one if this one dropped
        finally:
            connections.close_all()

    def stop(self) -> None:
        self.finished.set()
        self.join(timeout=10)


def _owned(job: Job):
    """The job's row while this run still owns it (the sweeper may have handed it on)."""
    return Job.objects.filter(
        pk=job.pk, status=Job.Status.RUNNING, worker=job.worker, attempts=job.attempts
    )


def _progress_recorder(job: Job) -> Progress:
    def record(percent: int, message: str) -> None:
        _owned(job).update(
            progress=max(0, min(100, percent)), message=message, heartbeat_at=timezone.now()
        )

    return record


# How many times a job's step is tried when its database connection drops, and the pauses
# between (a database that restarts takes a few seconds to take connections again).
JOB_DATABASE_TRIES = 4
_PAUSES = (0.5, 2.0, 5.0)


def _database_fault(exc: BaseException, used) -> bool:
    """A dropped connection (``used`` is the one the step began on) or a lost race: the step
    may be done again on a new connection."""
    return not connection.in_atomic_block and (retryable(exc) or connection_dropped(exc, used))


class _DatabaseFailed(Exception):
    """A job's step met a database fault on each of its ``JOB_DATABASE_TRIES`` tries."""


def _with_database(step: Callable[[], Any], what: str) -> Any:
    """``step()``, done again after a dropped connection (``_database_fault``), up to
    ``JOB_DATABASE_TRIES`` times in all; then ``_DatabaseFailed`` says so, for the director."""
    for tries in range(1, JOB_DATABASE_TRIES + 1):
        used = connection.connection
        try:
            return step()
        except Exception as exc:
            if not _database_fault(exc, used):
                raise
            if tries == JOB_DATABASE_TRIES:
                raise _DatabaseFailed(
                    f"The database connection failed {tries} times while {what} "
                    f"({_first_line(exc)}). Check the database, then ask again."
                ) from exc
            logger.warning("%s: the database failed (%s); trying again (%d of %d)",
                           what, exc, tries + 1, JOB_DATABASE_TRIES)  # fmt: skip
            connection.close()
            time.sleep(_PAUSES[min(tries, len(_PAUSES)) - 1])
    raise AssertionError("unreachable")


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip() or exc.__class__.__name__).splitlines()[0]


def job_run(*, job_id: int, work: Work) -> Job:
    """Run ``work`` for the job unless it finished or runs elsewhere; record the outcome."""
    job = _with_database(lambda: _claim(job_id), f"claiming job {job_id}")
    if job is None:
        return _with_database(lambda: Job.objects.get(pk=job_id), f"reading job {job_id}")
    # Eager tasks run inside the request that asked for them: no other process can take over.
    heartbeat = None if settings.CELERY_TASK_ALWAYS_EAGER else _Heartbeat(job)
    if heartbeat:
        heartbeat.start()
    try:
        outcome = _work_outcome(job, work)
    finally:
        if heartbeat:
            heartbeat.stop()
    return _finish(job, **outcome)


def _work_outcome(job: Job, work: Work) -> dict[str, Any]:
    """``work``'s result, or the error to record: ``_finish``'s arguments."""
    progress = _progress_recorder(job)
    try:
        result = _with_database(lambda: work(job, progress), f"running job {job.pk} ({job.kind})")
    except SoftTimeLimitExceeded:
        limit = settings.CELERY_TASK_SOFT_TIME_LIMIT
        return {"error": f"Stopped: the job took longer than {limit} seconds."}
    except Exception as exc:  # recorded for the director; the worker itself must keep running
        logger.exception("job %s (%s) failed", job.pk, job.kind)
        return {"error": str(exc).strip() or exc.__class__.__name__}
    return {"result": result or {}}


def _finish(job: Job, *, result: dict | None = None, error: str = "") -> Job:
    values = {
        "status": Job.Status.FAILED if error else Job.Status.SUCCEEDED,
        "error": error,
        "result": result or {},
        "finished_at": timezone.now(),
    }
    if not error:
        values["progress"] = 100

    def record() -> None:
        # Done again after a dropped connection: the first try may have been saved.
        saved = (
            _owned(job).update(**values)
            or Job.objects.filter(pk=job.pk, finished_at=values["finished_at"]).exists()
        )
        if not saved:
            logger.warning(
                "job %s was handed to another worker; this run's outcome is dropped", job.pk
            )
        job.refresh_from_db()
        _send_waiting(job)

    _with_database(record, f"recording the outcome of job {job.pk}")
    return job


def _send_waiting(job: Job) -> None:
    """A job that waited for this one (same kind and key) may run now."""
    if not job.key:
        return
    waiting = Job.objects.filter(kind=job.kind, key=job.key, status=Job.Status.PENDING).first()
    if waiting:
        transaction.on_commit(lambda: job_dispatch(job=waiting))


def jobs_sweep(*, now=None) -> dict[str, int]:
    """Beat's housekeeping: take back jobs whose worker stopped, send jobs still waiting.

    Returns how many jobs were taken back (``requeued``), failed for good (``failed``), and sent
    (``sent``) or left waiting because the broker refused (``unsent``); and how many kept
    answers to keyed reports had expired and were deleted (``expired_keys``).
    """
    now = now or timezone.now()
    counts = {"requeued": 0, "failed": 0, "sent": 0, "unsent": 0}
    counts["expired_keys"] = kept_answers_expire(now=now)
    stale = Job.objects.filter(status=Job.Status.RUNNING).filter(
        Q(heartbeat_at__lt=_stale_before(now))
        | Q(heartbeat_at__isnull=True, started_at__lt=_stale_before(now))
        | Q(heartbeat_at__isnull=True, started_at__isnull=True)
    )
    for job_id in stale.values_list("pk", flat=True):
        outcome = _take_back(job_id, now)
        if outcome:
            counts[outcome] += 1
    resend_before = now - timedelta(seconds=settings.JOBS_RESEND_SECONDS)
    waiting = Job.objects.filter(status=Job.Status.PENDING).filter(
        Q(dispatched_at__isnull=True, created_at__lt=now - _SEND_GRACE)
        | Q(dispatched_at__lt=resend_before)
    )
    for job in waiting.order_by("created_at"):
        if not job.task:
            Job.objects.filter(pk=job.pk, status=Job.Status.PENDING).update(
                status=Job.Status.FAILED,
                finished_at=now,
                error="This job was made by an older version of Pegboard; ask again.",
            )
            counts["failed"] += 1
        elif job.key and Job.objects.filter(kind=job.kind, key=job.key, status="running").exists():
            continue  # sent when the running one finishes (or is taken back)
        else:
            counts["sent" if job_dispatch(job=job) else "unsent"] += 1
    return counts


def _take_back(job_id: int, now) -> str | None:
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_id)
        if job.status != Job.Status.RUNNING or not _is_stale(job, now):
            return None  # its worker wrote a heartbeat since the sweep looked
        waiting = (
            job.key
            and Job.objects.filter(kind=job.kind, key=job.key, status=Job.Status.PENDING).exists()
        )
        if job.attempts >= settings.JOBS_MAX_ATTEMPTS or waiting:
            job.status = Job.Status.FAILED
            job.finished_at = now
            job.error = (
                "The worker stopped while running this job; the job waiting behind it takes over."
                if waiting
                else f"The worker stopped {job.attempts} times while running this job, so it "
                "was not started again. Check the worker's log, then ask again."
            )
            job.save(update_fields=["status", "finished_at", "error"])
            return "failed"
        job.status = Job.Status.PENDING
        job.dispatched_at = None
        job.message = f"The worker stopped ({job.worker}); starting again."
        job.save(update_fields=["status", "dispatched_at", "message"])
    transaction.on_commit(lambda: job_dispatch(job=job))
    return "requeued"


def health_check_work(job: Job, progress: Progress) -> dict[str, Any]:
    """The health task's work: prove the worker can reach the database and record itself."""
    from django.db import connection

    progress(50, "Checking the database")
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        (one,) = cursor.fetchone()
    return {"database": connection.vendor, "select_1": one, "worker_pid": os.getpid()}
