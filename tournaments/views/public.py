"""Pages anyone may open: the home page, an event's page and its projector wall."""

from django import forms
from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from tournaments.models import Event, Game
from tournaments.selectors.access import event_get_for_viewer, event_roles, job_get_for_user
from tournaments.selectors.events import events_published
from tournaments.selectors.final import event_final_results
from tournaments.selectors.games import game_current, games_of_event
from tournaments.selectors.live import job_version, public_version
from tournaments.selectors.wall import wall
from tournaments.views.live import live_page, live_part, rendered_once

# The wall shows each page this long, less when the field needs more pages: every row of
# the whole field comes round within WALL_CYCLE_SECONDS (static/js/wall.js does the sums).
WALL_SECONDS_PER_PAGE = 15
WALL_CYCLE_SECONDS = 120


class WallForm(forms.Form):
    """``?seconds=N`` shortens (or lengthens) each page, e.g. to test the cycle quickly."""

    seconds = forms.IntegerField(min_value=1, max_value=60, required=False)


def home(request):
    return render(request, "tournaments/home.html", {"events": events_published()[:20]})


def event_public(request, event_id: int):
    event = event_get_for_viewer(event_id=event_id, user=request.user)
    games = games_of_event(event=event).filter(
        status__in=[Game.Status.PUBLISHED, Game.Status.CLOSED]
    )
    is_director = "director" in event_roles(event=event, user=request.user)
    finished = event.stage == Event.Stage.FINISHED
    return render(
        request,
        "tournaments/event_public.html",
        {
            "event": event,
            "games": games,
            "current": game_current(event=event),
            "champion": event_final_results(event=event).winner if finished else None,
            "is_director": is_director,
        },
    )


def event_wall(request, event_id: int):
    """The projector wall: full screen, no controls; its data area is a live part."""
    event = event_get_for_viewer(event_id=event_id, user=request.user)
    if request.GET.get("part") == "live":
        current = public_version(event=event)

        def render_part():
            return render(request, "tournaments/wall/_live.html", {"wall": wall(event=event)})

        if not event.published:  # only staff see it: no shared cache may keep it
            return live_part(request, version=current, render=render_part)
        return live_part(
            request,
            version=current,
            render=lambda: rendered_once(request, current, render_part),
            private=False,
        )
    form = WallForm(request.GET)
    seconds = form.cleaned_data["seconds"] if form.is_valid() else None
    context = {
        "event": event,
        "wall": wall(event=event),
        "seconds": seconds or WALL_SECONDS_PER_PAGE,
        "cycle": WALL_CYCLE_SECONDS,
    }
    return render(request, "tournaments/wall/wall.html", context)


@login_required
def job_detail(request, job_id: int):
    job = job_get_for_user(job_id=job_id, user=request.user)

    def context() -> dict:
        return {"job": job}

    return live_page(
        request,
        version=lambda: job_version(job=job),
        page="tournaments/job_detail.html",
        part="tournaments/_job_live.html",
        context=context,
    )
