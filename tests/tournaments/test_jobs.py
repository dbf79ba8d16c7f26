"""Jobs: enqueued once per key, run once, failures recorded with their reason, readable by API."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournaments import tasks
from tournaments.models import Job
from tournaments.services.jobs import job_enqueue, job_run, jobs_expire_stale

pytestmark = pytest.mark.django_db


def test_enqueue_runs_the_task_eagerly_after_commit(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = job_enqueue(kind="health", task=tasks.health_check)
    job.refresh_from_db()
    assert job.status == Job.Status.SUCCEEDED
    assert job.result["select_1"] == 1
    assert job.progress == 100 and job.finished_at is not None


def test_enqueue_twice_with_a_key_creates_one_job(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = job_enqueue(kind="health", key="event:1", task=tasks.health_check)
        second = job_enqueue(kind="health", key="event:1", task=tasks.health_check)
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


def test_stale_jobs_are_failed_with_an_explanation():
    now = timezone.now()
    running = Job.objects.create(kind="health", status=Job.Status.RUNNING)
    Job.objects.filter(pk=running.pk).update(started_at=now - timedelta(hours=2))
    fresh = Job.objects.create(kind="health", status=Job.Status.RUNNING, started_at=now)
    assert jobs_expire_stale(now=now) == 1
    running.refresh_from_db()
    fresh.refresh_from_db()
    assert running.status == Job.Status.FAILED and "worker stopped" in running.error
    assert fresh.status == Job.Status.RUNNING


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
