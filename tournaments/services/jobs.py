"""Creating, running and finishing background jobs (see ``tournaments.models.jobs``).

``job_enqueue`` creates the row and schedules the Celery task once the transaction commits;
``job_run`` is what every task calls: it claims the row, runs the work, and records success
or the failure's reason. Running a task twice for one job does the work once.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.models import Job

logger = logging.getLogger(__name__)

Progress = Callable[[int, str], None]
Work = Callable[[Job, Progress], dict[str, Any]]


def job_enqueue(*, kind: str, task: Any, key: str = "", created_by=None, **task_kwargs) -> Job:
    """Create a job and schedule ``task(job_id=..., **task_kwargs)`` after commit.

    When a job of the same kind and key is waiting, it is returned instead: asking twice to pair
    game 3 starts one job, not two (see ``Job`` on coalescing).
    """
    if key:
        existing = Job.objects.filter(kind=kind, key=key, status=Job.Status.PENDING).first()
        if existing:
            return existing
    try:
        with transaction.atomic():
            job = Job.objects.create(kind=kind, key=key, created_by=created_by)
    except IntegrityError:
        return Job.objects.get(kind=kind, key=key, status=Job.Status.PENDING)
    transaction.on_commit(lambda: task.delay(job_id=job.pk, **task_kwargs))
    return job


def _claim(job_id: int) -> Job | None:
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_id)
        if job.finished:
            return None
        job.status = Job.Status.RUNNING
        job.started_at = timezone.now()
        job.attempts += 1
        job.worker = f"{socket.gethostname()}:{os.getpid()}"
        job.save(update_fields=["status", "started_at", "attempts", "worker"])
        return job


def _progress_recorder(job: Job) -> Progress:
    def record(percent: int, message: str) -> None:
        Job.objects.filter(pk=job.pk).update(progress=max(0, min(100, percent)), message=message)

    return record


def job_run(*, job_id: int, work: Work) -> Job:
    """Run ``work`` for the job unless it already finished; record the outcome either way."""
    job = _claim(job_id)
    if job is None:
        return Job.objects.get(pk=job_id)
    try:
        result = work(job, _progress_recorder(job))
    except SoftTimeLimitExceeded:
        limit = settings.CELERY_TASK_SOFT_TIME_LIMIT
        return _finish(job, error=f"Stopped: the job took longer than {limit} seconds.")
    except Exception as exc:  # recorded for the director; the worker itself must keep running
        logger.exception("job %s (%s) failed", job.pk, job.kind)
        return _finish(job, error=str(exc) or exc.__class__.__name__)
    return _finish(job, result=result or {})


def _finish(job: Job, *, result: dict | None = None, error: str = "") -> Job:
    job.status = Job.Status.FAILED if error else Job.Status.SUCCEEDED
    job.error = error
    job.result = result or {}
    job.finished_at = timezone.now()
    fields = ["status", "error", "result", "finished_at"]
    if not error:
        job.progress = 100
        fields.append("progress")
    job.save(update_fields=fields)
    job.refresh_from_db(fields=["progress", "message"])
    return job


def jobs_expire_stale(*, now=None) -> int:
    """Fail jobs whose worker died: running past the hard time limit, or never started."""
    now = now or timezone.now()
    hard_limit = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT)
    stale_running = Job.objects.filter(status=Job.Status.RUNNING, started_at__lt=now - hard_limit)
    count = stale_running.update(
        status=Job.Status.FAILED,
        finished_at=now,
        error="The worker stopped before finishing this job. Start it again.",
    )
    stale_pending = Job.objects.filter(
        status=Job.Status.PENDING, created_at__lt=now - timedelta(hours=1)
    )
    count += stale_pending.update(
        status=Job.Status.FAILED,
        finished_at=now,
        error="No worker picked this job up within an hour. Is the worker running?",
    )
    return count


def health_check_work(job: Job, progress: Progress) -> dict[str, Any]:
    """The health task's work: prove the worker can reach the database and record itself."""
    from django.db import connection

    progress(50, "Checking the database")
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        (one,) = cursor.fetchone()
    return {"database": connection.vendor, "select_1": one, "worker_pid": os.getpid()}
