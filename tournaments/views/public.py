"""Pages anyone may open."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from tournaments.models import Game
from tournaments.selectors.access import event_get_for_viewer, event_roles, job_get_for_user
from tournaments.selectors.events import events_published
from tournaments.selectors.games import games_of_event


def home(request):
    return render(request, "tournaments/home.html", {"events": events_published()[:20]})


def event_public(request, event_id: int):
    event = event_get_for_viewer(event_id=event_id, user=request.user)
    games = games_of_event(event=event).filter(
        status__in=[Game.Status.PUBLISHED, Game.Status.CLOSED]
    )
    is_director = "director" in event_roles(event=event, user=request.user)
    return render(
        request,
        "tournaments/event_public.html",
        {"event": event, "games": games, "is_director": is_director},
    )


@login_required
def job_detail(request, job_id: int):
    job = job_get_for_user(job_id=job_id, user=request.user)
    return render(request, "tournaments/job_detail.html", {"job": job})
