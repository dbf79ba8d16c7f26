"""Pages for ACC club recognition (``services.club_recognition``) and a club's history.

- the club's page holds the recognition part: the state in words for everyone; for its
  directors the button to ask the ACC office (or to take a waiting request back); for the ACC
  office, the decision (grant, decline with a note, withdraw with a note). The office's page
  (``/sanctioning/``) lists the clubs waiting for an answer and the recognised ones.
- the club's history (``/clubs/<id>/history/``): every action of its directors and of the ACC
  office on the club, newest first, for the club's directors and the ACC office.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournaments.models import ClubAuditEntry
from tournaments.selectors.access import club_get_for_director, club_get_for_office
from tournaments.selectors.club_history import club_audit_entries
from tournaments.services.club_recognition import (
    club_recognition_decline,
    club_recognition_grant,
    club_recognition_request,
    club_recognition_request_withdraw,
    club_recognition_revoke,
)
from tournaments.views.history import changes
from tournaments.views.refusals import done_or_refused

PER_PAGE = 50


class NoteForm(forms.Form):
    note = forms.CharField(max_length=300, required=False)


def _back(club_id: int) -> str:
    return reverse("club-detail", args=[club_id]) + "#recognition-heading"


@login_required
@require_POST
def club_recognition(request, club_id: int):
    """A club director asks the ACC office, or takes the request back."""
    club = club_get_for_director(club_id=club_id, user=request.user)
    if request.POST.get("action") == "withdraw":
        done_or_refused(
            request,
            lambda: club_recognition_request_withdraw(club=club, user=request.user),
            "Your request is withdrawn.",
        )
    else:
        done_or_refused(
            request,
            lambda: club_recognition_request(club=club, user=request.user),
            "Asked: the ACC office will recognise the club or say why not.",
        )
    return redirect(_back(club.pk))


@login_required
@require_POST
def club_recognition_decide(request, club_id: int, action: str):
    """The ACC office grants, declines (with a note) or withdraws (with a note) recognition."""
    club = club_get_for_office(club_id=club_id, user=request.user)
    form = NoteForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    service, words = {
        "grant": (club_recognition_grant, f"{club.name} is recognised."),
        "decline": (club_recognition_decline, f"{club.name}: recognition declined."),
        "revoke": (club_recognition_revoke, f"{club.name}: its recognition is withdrawn."),
    }[action]
    done_or_refused(request, lambda: service(club=club, user=request.user, note=note), words)
    if request.POST.get("back") == "office":
        return redirect("sanctioning-office")
    return redirect(_back(club.pk))


class ClubHistoryFilterForm(forms.Form):
    kind = forms.ChoiceField(
        label="Kind of action", required=False,
        choices=[("", "Every kind"), *ClubAuditEntry.Kind.choices],
    )  # fmt: skip


@login_required
def club_history(request, club_id: int):
    club = club_get_for_office(club_id=club_id, user=request.user, directors_too=True)
    form = ClubHistoryFilterForm(request.GET or None)
    kind = form.cleaned_data["kind"] if form.is_valid() else None
    entries = club_audit_entries(club=club, kind=kind or None)
    page = Paginator(entries, PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "club": club,
        "form": form,
        "page": page,
        "rows": [(entry, changes(entry)) for entry in page],
        "query": query.urlencode(),
    }
    return render(request, "tournaments/clubs/history.html", context)
