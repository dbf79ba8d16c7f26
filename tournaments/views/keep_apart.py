"""The manage page's "Keep apart" section: two entrants who should not meet in qualifying, and
the wishes players gave at registration that the director settles with one click."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.selectors.access import event_get_for_director
from tournaments.services.keep_apart import keep_apart_add, keep_apart_remove


class KeepApartForm(forms.Form):
    entry_a = forms.IntegerField()
    entry_b = forms.IntegerField()
    note = forms.CharField(max_length=200, required=False)
    wish = forms.IntegerField(required=False)  # a registration wish this pair settles


def _back(event) -> str:
    return reverse("event-manage", args=[event.pk]) + "#keep-apart-heading"


@login_required
@require_POST
def keep_apart_new(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    form = KeepApartForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose two players to keep apart.")
        return redirect(_back(event))
    data = form.cleaned_data
    try:
        keep_apart_add(
            event=event,
            user=request.user,
            entry_ids=(data["entry_a"], data["entry_b"]),
            note=data["note"],
            wish=data["wish"],
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "They are kept apart in the games not paired yet.")
    return redirect(_back(event))


@login_required
@require_POST
def keep_apart_drop(request, event_id: int, pair_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    try:
        keep_apart_remove(event=event, user=request.user, pair_id=pair_id)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "They may meet again.")
    return redirect(_back(event))
