"""The director's page section for roles: give someone a role, take it back."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.forms import RoleForm
from tournaments.selectors.access import event_get_for_director, role_grant_get_for_director
from tournaments.selectors.people import person_name
from tournaments.services.roles import event_role_grant, event_role_revoke
from tournaments.views.director_events import dashboard_context
from tournaments.views.refusals import refusal_on_form


@login_required
@require_POST
def role_grant(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    form = RoleForm(request.POST)
    if form.is_valid():
        try:
            grant = event_role_grant(event=event, actor=request.user, **form.cleaned_data)
        except ServiceError as exc:
            refusal_on_form(form, exc)
        else:
            label = grant.get_role_display().lower()
            messages.success(request, f"{person_name(grant.user)} is now {label}.")
            return redirect(f"{event_manage_url(event)}#roles-heading")
    context = dashboard_context(event, role_form=form)
    return render(request, "tournaments/director/event_manage.html", context, status=400)


@login_required
@require_POST
def role_revoke(request, event_id: int, grant_id: int):
    grant = role_grant_get_for_director(event_id=event_id, grant_id=grant_id, user=request.user)
    event = grant.event
    try:
        event_role_revoke(event=event, actor=request.user, grant_id=grant_id)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        label = grant.get_role_display().lower()
        messages.success(request, f"{person_name(grant.user)} is no longer {label}.")
    return redirect(f"{event_manage_url(event)}#roles-heading")


def event_manage_url(event) -> str:
    return reverse("event-manage", args=[event.pk])
