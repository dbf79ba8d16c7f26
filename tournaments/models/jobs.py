"""Background jobs: the row a Celery task records its state in.

A job is one run of one task (pairing a game, recomputing standings, building a bracket). Pages
and the API read its ``status``, ``progress`` and ``error`` rather than asking Celery, so the
state survives worker restarts and needs no result backend. ``key`` names what the job works on
(e.g. ``event:12:game:3``): at most one *waiting* job per (kind, key). Asking again while one
waits joins it, which coalesces bursts (twenty results in a second recompute the standings once
or twice, not twenty times); a job that is already running may have read older data, so one more
may wait behind it.

The row is the truth, not the broker: it names its task and arguments, so a job whose message
was never sent (broker down) or was lost with a worker can be sent again by the sweeper
(``tournaments.services.jobs.jobs_sweep``). A running job's worker writes ``heartbeat_at`` every
few seconds; a running job whose heartbeat stops is taken back to waiting and run again. The
database allows one *running* job per (kind, key), so two workers never pair one game at once.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q


class Job(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to start"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Finished"
        FAILED = "failed", "Failed"

    UNFINISHED = (Status.PENDING, Status.RUNNING)

    kind = models.CharField(max_length=50)
    key = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(default=0)
    message = models.CharField(max_length=255, blank=True)
    error = models.TextField(blank=True)
    result = models.JSONField(default=dict, blank=True)
    worker = models.CharField(max_length=255, blank=True, help_text="host and process that ran it")
    attempts = models.PositiveSmallIntegerField(default=0)
    task = models.CharField(max_length=100, blank=True, help_text="Celery task name")
    task_kwargs = models.JSONField(default=dict, blank=True)
    dispatched_at = models.DateTimeField(
        null=True, blank=True, help_text="when its message last reached the broker"
    )
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "key"],
                condition=Q(status="pending") & ~Q(key=""),
                name="job_one_waiting_per_key",
            ),
            models.UniqueConstraint(
                fields=["kind", "key"],
                condition=Q(status="running") & ~Q(key=""),
                name="job_one_running_per_key",
            ),
            models.CheckConstraint(condition=Q(progress__lte=100), name="job_progress_le_100"),
        ]
        indexes = [
            models.Index(fields=["kind", "key"]),
            models.Index(
                fields=["status"],
                name="job_unfinished",
                condition=~Q(status__in=["succeeded", "failed"]),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key or self.pk} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.SUCCEEDED, self.Status.FAILED)
