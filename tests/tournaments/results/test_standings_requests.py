"""A verified result always reaches the standings: a request that joined a waiting standings job
made by another transaction looks again once it commits, and asks for another job if that one
was taken meanwhile (it may have read the lines before this write)."""

import pytest
from django.utils import timezone

from tournaments.models import Job
from tournaments.services.standings import standings_request

pytestmark = pytest.mark.django_db


def _waiting_job(event) -> Job:
    """A standings job another transaction made and committed, not yet taken."""
    return Job.objects.create(
        kind="standings",
        key=f"event:{event.pk}",
        task="tournaments.tasks.recompute_standings",
        task_kwargs={"event_id": event.pk},
    )


@pytest.fixture
def event(event_in_play, settings):
    made = event_in_play(10)
    settings.CELERY_TASK_ALWAYS_EAGER = False  # from now on a job waits for a worker (none here)
    return made


@pytest.mark.parametrize("taken", [True, False], ids=["taken-before-commit", "still-waiting"])
def test_a_joined_job_taken_before_the_commit_is_asked_for_again(
    event, django_capture_on_commit_callbacks, taken
):
    other = _waiting_job(event)
    with django_capture_on_commit_callbacks() as callbacks:
        assert standings_request(event=event) == other  # joined: one job for a burst
    if taken:  # a worker took it between this request and its commit
        Job.objects.filter(pk=other.pk).update(status=Job.Status.RUNNING, started_at=timezone.now())
    for callback in callbacks:  # this write commits
        callback()
    waiting = Job.objects.filter(kind="standings", status=Job.Status.PENDING).exclude(pk=other.pk)
    assert waiting.count() == (1 if taken else 0)


def test_a_batch_asks_once_for_the_job_it_made(event, django_capture_on_commit_callbacks):
    """Several results verified in one transaction share the job it made; nothing is asked
    again when it commits (the job is sent then)."""
    with django_capture_on_commit_callbacks() as callbacks:
        made = standings_request(event=event)
        assert standings_request(event=event) == made
    Job.objects.filter(pk=made.pk).update(status=Job.Status.SUCCEEDED)  # as if run at once
    for callback in callbacks[1:]:  # the send is callbacks[0] (no broker here)
        callback()
    assert Job.objects.filter(kind="standings").count() == 1
