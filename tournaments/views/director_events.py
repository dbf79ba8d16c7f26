"""The director's pages for an event: create it, its dashboard, its settings, closing
registration. Entering players is in ``director_entries``, roles in ``director_roles``."""

from __future__ import annotations

from copy import copy

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.forms import (
    EventCreateForm,
    EventSettingsForm,
    ImportForm,
    RegistrationForm,
    RoleForm,
)
from tournaments.forms_invitations import InvitationForm
from tournaments.models import Entry
from tournaments.presets import PRESETS
from tournaments.selectors.access import event_get_for_director, may_sanction
from tournaments.selectors.events import (
    entries_of_event,
    event_next_game_number,
    event_play_started,
    event_role_holders,
    events_directed_by,
)
from tournaments.selectors.games import games_of_event
from tournaments.selectors.invitations import invitations_waiting
from tournaments.selectors.keep_apart import keep_apart_of_event
from tournaments.selectors.sanctioning import event_sanction_status
from tournaments.selectors.waiting import event_waiting
from tournaments.services import events as event_services
from tournaments.services.links import token_undo_refusal
from tournaments.views.refusals import refusal_on_form
from tournaments.views.teams_context import teams_context


@login_required
def event_list(request):
    return render(
        request,
        "tournaments/director/event_list.html",
        {
            "events": events_directed_by(user=request.user),
            "office": may_sanction(user=request.user),
        },
    )


@login_required
def event_create(request):
    form = EventCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = event_services.event_create(user=request.user, **form.cleaned_data)
        except ServiceError as exc:
            refusal_on_form(form, exc)
        else:
            messages.success(request, f"{event.name} is ready for registration.")
            return redirect("event-manage", event_id=event.pk)
    return render(request, "tournaments/director/event_create.html", {"form": form})


def dashboard_context(event, **forms):
    """The manage page's data; ``forms`` carry a refused form back with its errors."""
    entries = list(entries_of_event(event=event))
    return {
        "event": event,
        "entries": entries,
        "link_undo": {e.pk for e in entries if token_undo_refusal(e) is None},
        "checked_in": sum(e.status == Entry.Status.CHECKED_IN for e in entries),
        "games": games_of_event(event=event),
        "next_game": event_next_game_number(event=event),
        "registration_form": forms.get("registration_form") or RegistrationForm(),
        "player_candidates": forms.get("player_candidates", []),
        "import_form": forms.get("import_form") or ImportForm(),
        "import_errors": forms.get("import_errors", []),
        "role_form": forms.get("role_form") or RoleForm(),
        "roles": event_role_holders(event=event),
        "invitation_form": forms.get("invitation_form") or InvitationForm(),
        "invitations": invitations_waiting(event=event),
        "keep_apart": keep_apart_of_event(event=event),
        "waiting": event_waiting(event=event),
        "mrp_note": event_sanction_status(event=event).mrp_note,
        **teams_context(event, **forms),
    }


@login_required
def event_manage(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    return render(request, "tournaments/director/event_manage.html", dashboard_context(event))


@login_required
def event_settings(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    # The form works on a copy: a refused post must not show its values as the saved ones.
    play_started = event_play_started(event=event)
    form = EventSettingsForm(request.POST or None, instance=copy(event), play_started=play_started)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                event_services.event_update_settings(
                    event=event, user=request.user, **form.changes()
                )
            except ServiceError as exc:
                field = "best_of_all" if exc.field == "playoff_best_of" else exc.field
                form.add_error(field if field in form.fields else None, exc.message)
            else:
                messages.success(request, "Settings saved.")
                return redirect("event-manage", event_id=event.pk)
        status = 400
    context = {
        "event": event,
        "form": form,
        "preset": PRESETS.get(event.preset),
        "play_started": play_started,
        "sanction": event_sanction_status(event=event),
    }
    return render(request, "tournaments/director/event_settings.html", context, status=status)


@login_required
@require_POST
def event_close_registration(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    try:
        event_services.event_close_registration(event=event, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Registration is closed. Pair game 1 when the room is ready.")
    return redirect("event-manage", event_id=event.pk)
