"""The live standings (public once the event is published) and the scorecards to print."""

from __future__ import annotations

import segno
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournaments.models import EventRole, Playoff
from tournaments.selectors.access import event_get_for_director, event_get_for_viewer, event_roles
from tournaments.selectors.events import entries_of_event
from tournaments.selectors.live import public_version
from tournaments.selectors.results import standings_table
from tournaments.services.corrections import tie_playoff_record
from tournaments.services.errors import ServiceError
from tournaments.views.live import live_page


class PlayoffForm(forms.Form):
    winner = forms.IntegerField(min_value=1, max_value=10**18)
    loser = forms.IntegerField(min_value=1, max_value=10**18)


def standings(request, event_id: int):
    event = event_get_for_viewer(event_id=event_id, user=request.user)
    is_director = EventRole.Role.DIRECTOR in event_roles(event=event, user=request.user)
    return live_page(
        request,
        version=lambda: public_version(event=event),
        page="tournaments/results/standings.html",
        part="tournaments/results/_standings_live.html",
        context=lambda: {
            "event": event,
            "standings": standings_table(event=event),
            "is_director": is_director,
            "post_cut": Playoff.objects.filter(event=event).exists(),
        },
    )


@login_required
@require_POST
def tie_playoff(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    form = PlayoffForm(request.POST)
    entries = {e.pk: e for e in entries_of_event(event=event)}
    if form.is_valid() and {form.cleaned_data["winner"], form.cleaned_data["loser"]} <= set(
        entries
    ):
        try:
            tie_playoff_record(
                event=event,
                winner=entries[form.cleaned_data["winner"]],
                loser=entries[form.cleaned_data["loser"]],
                user=request.user,
                rebuild_bracket=bool(request.POST.get("rebuild_bracket")),
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, "Playoff result recorded; the standings are being updated.")
    else:
        messages.error(request, "Choose the winner of the playoff between two tied players.")
    return redirect("standings", event_id=event.pk)


@login_required
def scorecards(request, event_id: int):
    """One scorecard per checked-in player: name, QR code to their page, lines for each game."""
    event = event_get_for_director(event_id=event_id, user=request.user)
    cards = []
    for entry in entries_of_event(event=event).exclude(status="withdrawn"):
        url = request.build_absolute_uri(reverse("player-page", args=[entry.report_token]))
        qr = segno.make(url, error="m").svg_inline(scale=3, title=f"Link for {entry.player.name}")
        cards.append({"entry": entry, "url": url, "qr": qr})
    return render(
        request,
        "tournaments/results/scorecards.html",
        {"event": event, "cards": cards, "games": range(1, event.qualifying_games + 1)},
    )
