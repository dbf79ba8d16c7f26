"""Reading jobs, with the one check of who may see them."""

from django.http import Http404

from tournaments.models import Job


def job_get_for_user(*, job_id: int, user) -> Job:
    """The job, if ``user`` may see it (staff, or whoever started it); otherwise 404."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None or not user.is_authenticated:
        raise Http404("No such job.")
    if not (user.is_staff or job.created_by_id == user.pk):
        raise Http404("No such job.")
    return job
