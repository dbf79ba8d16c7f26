"""The director's pages for the players of an event: enter one, import a list, check in,
withdraw (after a confirmation) and undo it, replace a private link (after a confirmation)
and undo that."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.forms import ImportForm, RegistrationForm
from tournaments.models import Club
from tournaments.selectors.access import entry_get_for_director, event_get_for_director
from tournaments.services import check_in as check_in_services
from tournaments.services import entries as entry_services
from tournaments.services import entries_import as import_services
from tournaments.services.links import UNDO_WINDOW, entry_token_restore, entry_token_revoke
from tournaments.services.withdrawals import entry_rejoin, entry_withdraw
from tournaments.views.confirm import Confirmation, confirm_page, confirmed
from tournaments.views.director_events import dashboard_context
from tournaments.views.refusals import refusal_on_form

MANAGE = "tournaments/director/event_manage.html"


@login_required
@require_POST
def entry_add(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    form = RegistrationForm(request.POST)
    candidates = []
    if form.is_valid():
        data = dict(form.cleaned_data)
        check_in = data.pop("check_in")
        choice = request.POST.get("player_choice", "")
        data["new_player"] = choice == "new"
        data["player_id"] = int(choice) if choice.isdigit() else None
        try:
            entry = entry_services.entry_register(
                event=event,
                registration=entry_services.Registration(**data),
                check_in=check_in,
                user=request.user,
            )
        except entry_services.PlayerChoiceNeeded as exc:
            candidates = exc.candidates
        except ServiceError as exc:
            refusal_on_form(form, exc)
        else:
            if entry.restored:
                text = f"{entry.name} had withdrawn: their entry is restored, with "
                text += "their games so far."
            else:
                text = f"{entry.name} is entered."
            messages.success(request, text)
            return redirect("event-manage", event_id=event.pk)
    context = dashboard_context(event, registration_form=form, player_candidates=candidates)
    return render(request, MANAGE, context, status=200 if candidates else 400)


@login_required
@require_POST
def entries_import(request, event_id: int):
    """Import a list. Refused, the manage page comes back at the import form (the form posts
    to ``#import-problems``) with every problem listed and focused; done, the counts are a
    message at the top of the manage page."""
    event = event_get_for_director(event_id=event_id, user=request.user)
    form = ImportForm(request.POST, request.FILES)
    row_errors, skipped = [], []
    if form.is_valid():
        try:
            result = import_services.entries_import_csv(
                event=event,
                text=form.cleaned_data["text"],
                check_in=form.cleaned_data["check_in"],
                user=request.user,
                matches=form.matches(request.POST),
                clubs=form.clubs(request.POST),
            )
        except import_services.ImportChoicesNeeded as exc:
            context = {
                "event": event,
                "rows": exc.rows,
                "clubs": exc.clubs,
                "known_clubs": Club.objects.order_by("name"),
                "text": form.cleaned_data["text"],
                "check_in": form.cleaned_data["check_in"],
            }
            return render(request, "tournaments/director/import_choices.html", context)
        except import_services.ImportRowErrors as exc:
            row_errors, skipped = exc.lines, exc.skipped
        except ServiceError as exc:
            form.add_error("file", exc.message)
        else:
            messages.success(request, result.message)
            return redirect("event-manage", event_id=event.pk)
    context = dashboard_context(event, import_form=form, import_errors=row_errors)
    context["import_skipped"] = skipped
    return render(request, MANAGE, context, status=400)


def _entry_action(request, entry, action, done: str):
    try:
        action(entry=entry, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{entry.name} {done}.")
    return redirect("event-manage", event_id=entry.event_id)


@login_required
@require_POST
def entry_check_in(request, entry_id: int):
    entry = entry_get_for_director(entry_id=entry_id, user=request.user)
    return _entry_action(request, entry, check_in_services.entry_check_in, "is checked in")


@login_required
def entry_withdraw_view(request, entry_id: int):
    entry = entry_get_for_director(entry_id=entry_id, user=request.user)
    if confirmed(request):
        return _entry_action(
            request, entry, entry_withdraw, "has withdrawn. “Undo withdrawal” brings them back"
        )
    name = entry.name
    return confirm_page(
        request,
        Confirmation(
            title=f"Withdraw {name}?",
            question=f"{name} will play no game that is not paired yet.",
            details=[
                "The games already played stay on their card and in the standings.",
                "You can undo this: they rejoin from the next unpaired game, with their history.",
            ],
            action_label=f"Yes, withdraw {name}",
            cancel_url=reverse("event-manage", args=[entry.event_id]),
        ),
        event=entry.event,
    )


@login_required
@require_POST
def entry_rejoin_view(request, entry_id: int):
    entry = entry_get_for_director(entry_id=entry_id, user=request.user)
    return _entry_action(
        request, entry, entry_rejoin, "is back: they play from the next unpaired game"
    )


@login_required
def entry_new_link(request, entry_id: int):
    entry = entry_get_for_director(entry_id=entry_id, user=request.user)
    if confirmed(request):
        minutes = int(UNDO_WINDOW.total_seconds() // 60)
        return _entry_action(
            request,
            entry,
            entry_token_revoke,
            f"has a new link; the old card no longer works. Print a new scorecard (you can "
            f"undo this for {minutes} minutes, until the new link is used)",
        )
    name = entry.name
    return confirm_page(
        request,
        Confirmation(
            title=f"A new link for {name}?",
            question=f"The QR code on {name}'s printed scorecard will stop working at once.",
            details=[
                "Do this when a scorecard is lost or someone else has the link.",
                "Print a new scorecard afterwards.",
            ],
            action_label="Yes, make a new link",
            cancel_url=reverse("event-manage", args=[entry.event_id]),
        ),
        event=entry.event,
    )


@login_required
@require_POST
def entry_link_undo(request, entry_id: int):
    entry = entry_get_for_director(entry_id=entry_id, user=request.user)
    return _entry_action(
        request, entry, entry_token_restore, "has the old link back: the printed card works"
    )
