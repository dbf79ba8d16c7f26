"""The director's pages for an event: create it, change settings, enter and check in players."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournaments.forms import (
    EventCreateForm,
    EventSettingsForm,
    ImportForm,
    RegistrationForm,
    RoleForm,
)
from tournaments.models import Entry
from tournaments.selectors.events import (
    entries_of_event,
    entry_get_for_director,
    event_get_for_director,
    event_next_game_number,
    events_directed_by,
)
from tournaments.selectors.games import games_of_event
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services
from tournaments.services.errors import RowErrors, ServiceError


@login_required
def event_list(request):
    return render(
        request,
        "tournaments/director/event_list.html",
        {"events": events_directed_by(user=request.user)},
    )


@login_required
def event_create(request):
    form = EventCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = event_services.event_create(user=request.user, **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, f"{event.name} is ready for registration.")
            return redirect("event-manage", event_id=event.pk)
    return render(request, "tournaments/director/event_create.html", {"form": form})


def _dashboard_context(event, **forms):
    entries = entries_of_event(event=event)
    return {
        "event": event,
        "entries": entries,
        "checked_in": sum(e.status == Entry.Status.CHECKED_IN for e in entries),
        "games": games_of_event(event=event),
        "next_game": event_next_game_number(event=event),
        "registration_form": forms.get("registration_form") or RegistrationForm(),
        "import_form": forms.get("import_form") or ImportForm(),
        "import_errors": forms.get("import_errors", []),
        "role_form": forms.get("role_form") or RoleForm(),
        "roles": event.roles.select_related("user").order_by("role", "user__username"),
    }


@login_required
def event_manage(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    return render(request, "tournaments/director/event_manage.html", _dashboard_context(event))


@login_required
def event_settings(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    form = EventSettingsForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        changes = {name: form.cleaned_data[name] for name in form.changed_data}
        try:
            event_services.event_update_settings(event=event, **changes)
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, "Settings saved.")
            return redirect("event-manage", event_id=event.pk)
    return render(
        request, "tournaments/director/event_settings.html", {"event": event, "form": form}
    )


@login_required
@require_POST
def entry_add(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    form = RegistrationForm(request.POST)
    if form.is_valid():
        data = dict(form.cleaned_data)
        check_in = data.pop("check_in")
        try:
            entry = entry_services.entry_register(
                event=event, registration=entry_services.Registration(**data), check_in=check_in
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, f"{entry.player.name} is entered.")
            return redirect("event-manage", event_id=event.pk)
    context = _dashboard_context(event, registration_form=form)
    return render(request, "tournaments/director/event_manage.html", context, status=400)


@login_required
@require_POST
def entries_import(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    form = ImportForm(request.POST, request.FILES)
    row_errors = []
    if form.is_valid():
        try:
            imported = entry_services.entries_import_csv(
                event=event, text=form.cleaned_data["file"], check_in=form.cleaned_data["check_in"]
            )
        except RowErrors as exc:
            row_errors = exc.errors
            form.add_error("file", "Nothing was imported. Fix these rows and upload again.")
        except ServiceError as exc:
            form.add_error("file", exc.message)
        else:
            messages.success(request, f"Imported {len(imported)} players.")
            return redirect("event-manage", event_id=event.pk)
    context = _dashboard_context(event, import_form=form, import_errors=row_errors)
    return render(request, "tournaments/director/event_manage.html", context, status=400)


def _entry_action(request, entry_id: int, action, done: str):
    entry = entry_get_for_director(entry_id=entry_id, user=request.user)
    try:
        action(entry=entry)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{entry.player.name} {done}.")
    return redirect("event-manage", event_id=entry.event_id)


@login_required
@require_POST
def entry_check_in(request, entry_id: int):
    return _entry_action(request, entry_id, entry_services.entry_check_in, "is checked in")


@login_required
@require_POST
def entry_withdraw(request, entry_id: int):
    return _entry_action(request, entry_id, entry_services.entry_withdraw, "has withdrawn")


@login_required
@require_POST
def event_close_registration(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    try:
        event_services.event_close_registration(event=event)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Registration is closed. Pair game 1 when the room is ready.")
    return redirect("event-manage", event_id=event.pk)


@login_required
@require_POST
def role_grant(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    form = RoleForm(request.POST)
    if form.is_valid():
        try:
            grant = event_services.event_role_grant(event=event, **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, f"{grant.user} is now {grant.get_role_display().lower()}.")
            return redirect("event-manage", event_id=event.pk)
    context = _dashboard_context(event, role_form=form)
    return render(request, "tournaments/director/event_manage.html", context, status=400)
