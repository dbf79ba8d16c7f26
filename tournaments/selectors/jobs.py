"""Reading jobs, with the one check of who may see them, and the state of the queue."""

import threading
import time
from datetime import timedelta

from django.conf import settings
from django.db.models import Count, Min
from django.utils import timezone

from tournaments.models import Job

# The broker's state as this process last saw it. Sending a job records success or failure;
# ``broker_reachable`` asks the broker itself at most every few seconds. Process-local on
# purpose: each web process finds out on its own, with no shared store that might also be down.
_RECHECK_SECONDS = 5.0
_broker = {"ok": True, "at": float("-inf"), "error": ""}
_broker_lock = threading.Lock()


def broker_failed(exc: BaseException) -> None:
    with _broker_lock:
        _broker.update(ok=False, at=time.monotonic(), error=str(exc) or exc.__class__.__name__)


def broker_worked() -> None:
    with _broker_lock:
        _broker.update(ok=True, at=time.monotonic(), error="")


def broker_recently_down() -> bool:
    """A send failed within the last few seconds: do not wait on the broker again yet."""
    with _broker_lock:
        return not _broker["ok"] and time.monotonic() - _broker["at"] < _RECHECK_SECONDS


def broker_reachable(*, fresh: bool = False) -> bool | None:
    """Can jobs be sent? None when there is no broker (tasks run in the web process).
    ``fresh`` asks the broker now rather than trusting what was seen in the last seconds."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return None
    with _broker_lock:
        if not fresh and time.monotonic() - _broker["at"] < _RECHECK_SECONDS:
            return _broker["ok"]
    from config.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
            conn.default_channel  # noqa: B018  (opens a channel: the broker answered)
    except Exception as exc:  # every transport error means "cannot send now"
        broker_failed(exc)
        return False
    broker_worked()
    return True


def queue_status(*, now=None) -> dict:
    """The queue for the health check: the broker, waiting jobs, running jobs gone quiet."""
    now = now or timezone.now()
    # Asked afresh: the health check must not repeat a success seen just before the broker
    # went away (it is asked rarely; a send, asked often, may trust the last few seconds).
    reachable = broker_reachable(fresh=True)
    waiting = Job.objects.filter(status=Job.Status.PENDING).aggregate(
        count=Count("id"), oldest=Min("created_at")
    )
    quiet_before = now - timedelta(seconds=settings.JOBS_STALE_SECONDS)
    quiet = Job.objects.filter(status=Job.Status.RUNNING, heartbeat_at__lt=quiet_before).count()
    oldest = waiting["oldest"]
    return {
        "broker": {None: "in-process", True: "ok", False: "down"}[reachable],
        "jobs_waiting": waiting["count"],
        "oldest_waiting_seconds": round((now - oldest).total_seconds()) if oldest else 0,
        "jobs_running_without_heartbeat": quiet,
    }
