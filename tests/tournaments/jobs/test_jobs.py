"""Jobs: enqueued once per key, run once, failures recorded with their reason, readable by API."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournaments import tasks
from tournaments.models import Job
from tournaments.services.jobs import job_enqueue, job_run, jobs_sweep

pytestmark = pytest.mark.django_db


def test_enqueue_runs_the_task_eagerly_after_commit(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = job_enqueue(kind="health", task="tournaments.tasks.health_check")
    job.refresh_from_db()
    assert job.status == Job.Status.SUCCEEDED
    assert job.result["select_1"] == 1
    assert job.progress == 100 and job.finished_at is not None


def test_enqueue_twice_with_a_key_creates_one_job(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = job_enqueue(kind="health", key="event:1", task="tournaments.tasks.health_check")
        second = job_enqueue(kind="health", key="event:1", task="tournaments.tasks.health_check")
    assert first.pk == second.pk
    assert len(callbacks) == 1
    assert Job.objects.count() == 1


def test_running_a_finished_job_again_does_nothing():
    job = Job.objects.create(kind="health")
    calls = []

    def work(job, progress):
        calls.append(job.pk)
        return {"n": len(calls)}

    job_run(job_id=job.pk, work=work)
    again = job_run(job_id=job.pk, work=work)
    assert calls == [job.pk]
    assert again.result == {"n": 1} and again.attempts == 1


def test_a_failing_job_records_the_reason_for_the_director():
    job = Job.objects.create(kind="pairings")

    def work(job, progress):
        progress(40, "Pairing game 3")
        raise ValueError("22 games need at least 23 players")

    done = job_run(job_id=job.pk, work=work)
    assert done.status == Job.Status.FAILED
    assert done.error == "22 games need at least 23 players"
    assert done.progress == 40 and done.message == "Pairing game 3"


def _running(now, *, key="", heartbeat_age=0.0, attempts=1, **fields) -> Job:
    return Job.objects.create(
        kind="health",
        key=key,
        task=tasks.health_check.name,
        status=Job.Status.RUNNING,
        started_at=now - timedelta(seconds=heartbeat_age),
        heartbeat_at=now - timedelta(seconds=heartbeat_age),
        attempts=attempts,
        worker="gone:1",
        **fields,
    )


def test_a_running_job_whose_worker_went_quiet_runs_again(
    settings, django_capture_on_commit_callbacks
):
    now = timezone.now()
    quiet = _running(now, heartbeat_age=settings.JOBS_STALE_SECONDS + 1)
    alive = _running(now, key="event:2", heartbeat_age=1)
    with django_capture_on_commit_callbacks(execute=True):
        counts = jobs_sweep(now=now)
    assert counts == {"requeued": 1, "failed": 0, "sent": 0, "unsent": 0, "expired_keys": 0}
    quiet.refresh_from_db()
    alive.refresh_from_db()
    assert quiet.status == Job.Status.SUCCEEDED and quiet.attempts == 2
    assert alive.status == Job.Status.RUNNING and alive.attempts == 1


def test_a_job_whose_worker_stopped_too_often_fails_with_the_reason(settings):
    now = timezone.now()
    job = _running(
        now, heartbeat_age=settings.JOBS_STALE_SECONDS + 1, attempts=settings.JOBS_MAX_ATTEMPTS
    )
    assert jobs_sweep(now=now)["failed"] == 1
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED
    assert f"stopped {settings.JOBS_MAX_ATTEMPTS} times" in job.error


def test_a_quiet_job_with_one_waiting_behind_it_gives_way(
    settings, django_capture_on_commit_callbacks
):
    now = timezone.now()
    quiet = _running(now, key="event:1", heartbeat_age=settings.JOBS_STALE_SECONDS + 1)
    waiting = Job.objects.create(kind="health", key="event:1", task=tasks.health_check.name)
    Job.objects.filter(pk=waiting.pk).update(created_at=now - timedelta(seconds=5))
    with django_capture_on_commit_callbacks(execute=True):
        counts = jobs_sweep(now=now)
    assert counts["failed"] == 1 and counts["sent"] == 1
    quiet.refresh_from_db()
    waiting.refresh_from_db()
    assert quiet.status == Job.Status.FAILED and "takes over" in quiet.error
    assert waiting.status == Job.Status.SUCCEEDED


def test_jobs_never_sent_are_sent_by_the_sweep(django_capture_on_commit_callbacks):
    now = timezone.now()
    unsent = Job.objects.create(kind="health", task=tasks.health_check.name)
    just_made = Job.objects.create(kind="health", task=tasks.health_check.name)
    Job.objects.filter(pk=unsent.pk).update(created_at=now - timedelta(seconds=30))
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs_sweep(now=now)["sent"] == 1
    unsent.refresh_from_db()
    just_made.refresh_from_db()
    assert unsent.status == Job.Status.SUCCEEDED
    assert just_made.status == Job.Status.PENDING  # its own send is still on the way


def test_a_second_delivery_of_a_running_job_does_not_run_it_again():
    job = _running(timezone.now(), heartbeat_age=1)
    calls = []
    again = job_run(job_id=job.pk, work=lambda job, progress: calls.append(1) or {})
    assert calls == [] and again.status == Job.Status.RUNNING and again.attempts == 1


def test_the_database_allows_one_running_job_per_key():
    now = timezone.now()
    _running(now, key="event:1:game:1")
    with pytest.raises(IntegrityError), transaction.atomic():
        _running(now, key="event:1:game:1")
    _running(now, key="event:1:game:2")  # another game may run at the same time


def test_a_job_waits_while_another_of_its_kind_runs_for_the_same_key(
    django_capture_on_commit_callbacks,
):
    first = Job.objects.create(kind="health", key="event:9", task=tasks.health_check.name)
    calls = []

    def work(job, progress):
        # While the first runs, a second is asked for and delivered: it must wait its turn.
        with django_capture_on_commit_callbacks(execute=True):
            second = job_enqueue(
                kind="health", key="event:9", task="tournaments.tasks.health_check"
            )
        second.refresh_from_db()
        calls.append(second.status)
        return {}

    with django_capture_on_commit_callbacks(execute=True):
        job_run(job_id=first.pk, work=work)
    assert calls == [Job.Status.PENDING]
    assert list(Job.objects.filter(key="event:9").values_list("status", flat=True)) == [
        Job.Status.SUCCEEDED,
        Job.Status.SUCCEEDED,
    ]


class TestJobApi:
    def test_staff_starts_a_health_job_and_reads_it(self, django_capture_on_commit_callbacks):
        client = APIClient()
        client.force_authenticate(UserFactory(is_staff=True))
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post("/api/v1/jobs/health/")
        assert response.status_code == 202
        detail = client.get(f"/api/v1/jobs/{response.json()['id']}/")
        assert detail.status_code == 200
        assert detail.json()["status"] == "succeeded"

    def test_others_cannot_start_or_read_jobs(self):
        job = Job.objects.create(kind="health", created_by=UserFactory())
        anonymous = APIClient()
        assert anonymous.post("/api/v1/jobs/health/").status_code in (401, 403)
        assert anonymous.get(f"/api/v1/jobs/{job.pk}/").status_code in (401, 403)
        stranger = APIClient()
        stranger.force_authenticate(UserFactory())
        assert stranger.post("/api/v1/jobs/health/").status_code == 403
        missing = stranger.get(f"/api/v1/jobs/{job.pk}/")
        assert missing.status_code == 404
        assert missing.json()["errors"][0]["code"] == "not_found"

    def test_job_page_is_for_its_owner(self, client):
        owner = UserFactory()
        job = Job.objects.create(
            kind="health",
            created_by=owner,
            status=Job.Status.FAILED,
            error="No worker picked this job up",
        )
        assert client.get(f"/jobs/{job.pk}/").status_code == 302
        client.force_login(UserFactory())
        assert client.get(f"/jobs/{job.pk}/").status_code == 404
        client.force_login(owner)
        page = client.get(f"/jobs/{job.pk}/")
        assert page.status_code == 200
        assert "No worker picked this job up" in page.content.decode()
