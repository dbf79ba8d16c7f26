"""Pages anyone may open."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from tournaments.selectors.jobs import job_get_for_user


def home(request):
    return render(request, "tournaments/home.html")


@login_required
def job_detail(request, job_id: int):
    job = job_get_for_user(job_id=job_id, user=request.user)
    return render(request, "tournaments/job_detail.html", {"job": job})
