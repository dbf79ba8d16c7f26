"""A real Celery worker process on Redis takes the health job and records its result."""

import subprocess
import sys
import time
import uuid

import pytest
from celery import Celery

from tests.conftest import REDIS_URL, REPO, database_url_of_test_db, stop, subprocess_env
from tournaments.models import Job


def _redis_is_up() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_worker_process_executes_the_health_task_through_the_broker():
    _redis_is_up()  # fails, not skips, when Redis is missing in CI
    queue = f"pegboard-test-{uuid.uuid4().hex[:8]}"
    job = Job.objects.create(kind="health")
    env = subprocess_env(
        DEBUG="true", DATABASE_URL=database_url_of_test_db(), CELERY_BROKER_URL=REDIS_URL
    )
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--queues",
            queue,
            "--hostname",
            f"{queue}@%h",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=INFO",
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    producer = Celery("test-producer", broker=REDIS_URL)
    producer.conf.task_serializer = "json"
    try:
        producer.send_task("tournaments.tasks.health_check", kwargs={"job_id": job.pk}, queue=queue)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and worker.poll() is None:
            job.refresh_from_db()
            if job.finished:
                break
            time.sleep(0.3)
    finally:
        output = stop(worker)
        producer.close()
    assert job.status == Job.Status.SUCCEEDED, f"job {job.status} {job.error}\n{output}"
    assert job.result["database"] == "postgresql"
    assert job.result["worker_pid"] == worker.pid
    assert job.worker.endswith(f":{worker.pid}")
    assert job.progress == 100 and job.attempts == 1
