"""The director's part of a doubles event on the manage page: enter a team, make a team of two
players already entered, and draw partners at random (the blind draw, ``services.teams``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.forms_teams import PairUpForm, TeamForm
from tournaments.selectors.access import event_get_for_director
from tournaments.services.entries import Registration
from tournaments.services.teams import partners_draw, team_form, team_register, teams_allowed
from tournaments.views.director_events import dashboard_context
from tournaments.views.teams_context import teams_context

MANAGE = "tournaments/director/event_manage.html"


def _refused(request, event, **forms):
    return render(request, MANAGE, dashboard_context(event, **forms), status=400)


@login_required
@require_POST
def team_add(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    form = TeamForm(request.POST)
    if form.is_valid():
        try:
            team = team_register(
                event=event,
                players=[Registration(**partner) for partner in form.partners()],
                name=form.cleaned_data["team_name"],
                check_in=form.cleaned_data["check_in"],
                user=request.user,
            )
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"Team {team.name} is entered.")
            return redirect("event-manage", event_id=event.pk)
    return _refused(request, event, team_form=form)


@login_required
@require_POST
def team_pair_up(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    try:
        teams_allowed(event)  # a singles event has no players to pair up: say where to change it
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("event-manage", event_id=event.pk)
    single = teams_context(event)["single"]
    form = PairUpForm(request.POST, single=single)
    if form.is_valid():
        try:
            team = team_form(
                event=event,
                entries=[form.cleaned_data["first"], form.cleaned_data["second"]],
                name=form.cleaned_data["team_name"],
                user=request.user,
            )
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"{team.name} play as a team.")
            return redirect("event-manage", event_id=event.pk)
    return _refused(request, event, pair_up_form=form)


@login_required
@require_POST
def team_draw(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    try:
        result = partners_draw(event=event, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, result.message)
    return redirect("event-manage", event_id=event.pk)
