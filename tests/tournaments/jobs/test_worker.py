"""Real Celery worker processes on Redis take jobs from the broker and record their results."""

import subprocess
import sys
import time
import uuid

import pytest
from celery import Celery

from tests.conftest import REDIS_URL, REPO, database_url_of_test_db, stop, subprocess_env
from tournaments.models import Game, Job

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker():
    """A ``celery worker`` process on its own queue; yields a function that sends it a task."""
    import redis

    redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()  # fail, not skip, in CI
    queue = f"pegboard-test-{uuid.uuid4().hex[:8]}"
    env = subprocess_env(
        DEBUG="true", DATABASE_URL=database_url_of_test_db(), CELERY_BROKER_URL=REDIS_URL
    )
    command = (
        f"{sys.executable} -m celery -A config worker --pool=solo --queues {queue} "
        f"--hostname {queue}@%h --without-gossip --without-mingle --without-heartbeat "
        "--loglevel=INFO"
    ).split()
    proc = subprocess.Popen(
        command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    producer = Celery("test-producer", broker=REDIS_URL)

    def run(task: str, job: Job, **kwargs) -> Job:
        producer.send_task(task, kwargs={"job_id": job.pk, **kwargs}, queue=queue)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            job.refresh_from_db()
            if job.finished:
                return job
            time.sleep(0.3)
        raise AssertionError(f"job {job.pk} is {job.status} after 60 s:\n{stop(proc)}")

    run.proc = proc
    yield run
    stop(proc)
    producer.close()


def test_worker_process_executes_the_health_task_through_the_broker(worker):
    job = worker("tournaments.tasks.health_check", Job.objects.create(kind="health"))
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert job.result["database"] == "postgresql"
    assert job.result["worker_pid"] == worker.proc.pid
    assert job.worker.endswith(f":{worker.proc.pid}")
    assert job.progress == 100 and job.attempts == 1


def test_worker_pairs_a_game_and_running_it_twice_creates_nothing_twice(worker):
    from tests.factories import EntryFactory, EventFactory, UserFactory
    from tournaments.services.events import event_close_registration

    director = UserFactory()
    event = EventFactory(qualifying_games=5, director=director)
    for _ in range(11):
        EntryFactory(event=event)
    event_close_registration(event=event, user=director)
    game = Game.objects.create(event=event, number=1, seed=12345)
    job = worker(
        "tournaments.tasks.pair_game",
        Job.objects.create(kind="pairings"),
        event_id=event.pk,
        number=1,
    )
    assert job.status == Job.Status.SUCCEEDED, job.error
    game.refresh_from_db()
    assert game.status == Game.Status.PAIRED
    assert game.seats.count() == 11 and game.tables.count() == 5
    again = worker(
        "tournaments.tasks.pair_game",
        Job.objects.create(kind="pairings"),
        event_id=event.pk,
        number=1,
    )
    assert again.status == Job.Status.SUCCEEDED and again.result["already_paired"]
    assert game.seats.count() == 11 and game.tables.count() == 5
