"""Pages for ACC sanctioning (``services.sanctioning``).

- the director's part, on the event's settings page: the state in words, and a button to ask
  the ACC office (or to take a waiting request back);
- the ACC office's page (``/sanctioning/``): requests waiting, oldest first, each granted or
  declined with a note the director reads; sanctioned events, each of which can be withdrawn
  with a note; and the clubs waiting for recognition and the recognised ones
  (``views.club_recognition`` decides them).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournaments.selectors.access import (
    event_get_for_director,
    event_get_for_sanctioning,
    may_sanction,
)
from tournaments.selectors.club_recognition import recognised_clubs, recognition_requests
from tournaments.selectors.sanctioning import (
    event_sanction_status,
    sanction_requests,
    sanctioned_events,
)
from tournaments.services.sanctioning import (
    event_sanction_decline,
    event_sanction_grant,
    event_sanction_request,
    event_sanction_request_withdraw,
    event_sanction_revoke,
)
from tournaments.views.refusals import done_or_refused


class NoteForm(forms.Form):
    note = forms.CharField(max_length=300, required=False)


@login_required
@require_POST
def event_sanctioning(request, event_id: int):
    """The director asks the ACC office, or takes the request back."""
    event = event_get_for_director(event_id=event_id, user=request.user)
    if request.POST.get("action") == "withdraw":
        done_or_refused(
            request,
            lambda: event_sanction_request_withdraw(event=event, user=request.user),
            "Your request is withdrawn.",
        )
    else:
        done_or_refused(
            request,
            lambda: event_sanction_request(event=event, user=request.user),
            "Asked: the ACC office will sanction the event or say why not.",
        )
        mrp_note = event_sanction_status(event=event).mrp_note
        if mrp_note:
            messages.warning(request, mrp_note)
    return redirect("event-settings", event_id=event.pk)  # the message, then the section


@login_required
def office(request):
    if not may_sanction(user=request.user):
        raise PermissionDenied("Only the ACC office or an administrator decides sanctioning.")
    context = {
        "requests": sanction_requests(),
        "sanctioned": sanctioned_events()[:50],
        "club_requests": recognition_requests(),
        "recognised": recognised_clubs()[:50],
    }
    return render(request, "tournaments/sanctioning/office.html", context)


@login_required
@require_POST
def office_decide(request, event_id: int, action: str):
    """Grant, decline (with a note) or withdraw (with a note) one event's sanctioning."""
    event = event_get_for_sanctioning(event_id=event_id, user=request.user)
    form = NoteForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    service, words = {
        "grant": (event_sanction_grant, f"{event.name} is sanctioned."),
        "decline": (event_sanction_decline, f"{event.name}: sanctioning declined."),
        "revoke": (event_sanction_revoke, f"{event.name}: its sanction is withdrawn."),
    }[action]
    done_or_refused(request, lambda: service(event=event, user=request.user, note=note), words)
    return redirect("sanctioning-office")
