"""The player's page, opened from the private link (or QR code) on their scorecard.

Large type, one question at a time: did you win or lose, and by how much. The engine works out
the game points and says what the line means before anything is saved.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone

from tournaments.selectors.access import entry_get_by_token
from tournaments.selectors.players import entries_of_user, player_can_link
from tournaments.selectors.playoffs import entry_current_match
from tournaments.selectors.results import (
    entry_current_seat,
    entry_running_card,
    seat_can_report,
)
from tournaments.services.errors import ServiceError
from tournaments.services.players import player_link_user
from tournaments.services.results import card_line_preview, card_line_report


class ReportForm(forms.Form):
    result = forms.ChoiceField(
        choices=[("won", "I won"), ("lost", "I lost")],
        widget=forms.RadioSelect,
        error_messages={"required": "Choose “I won” or “I lost”."},
    )
    game = forms.IntegerField(required=False, min_value=1, max_value=9999, widget=forms.HiddenInput)
    margin = forms.IntegerField(
        label="By how many points (spread)?",
        min_value=0,
        max_value=9999,
        error_messages={"required": "Enter the margin: 121 minus the loser's score."},
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*"}),
    )


def player_page(request, token: str):
    entry = entry_get_by_token(token=token)
    if request.method == "POST" and "link" in request.POST:
        # Asked, never on opening: a director who scans a player's scorecard stays themselves.
        if player_link_user(entry=entry, user=request.user):
            messages.success(
                request,
                f"Your account is now linked to {entry.player.name}: "
                "your events are on “My games”.",
            )
        return redirect("player-page", token=token)
    seat = entry_current_seat(entry=entry)
    form = ReportForm(request.POST or None)
    context = {
        "entry": entry,
        "seat": seat,
        "form": form,
        "can_report": seat_can_report(seat),
        "can_link": player_can_link(entry=entry, user=request.user),
    }
    status = 200
    if request.method == "POST" and context["can_report"] and form.is_valid():
        won, margin = form.cleaned_data["result"] == "won", form.cleaned_data["margin"]
        try:
            if "confirm" in request.POST:
                card_line_report(
                    seat=seat,
                    won=won,
                    spread=margin,
                    user=request.user,
                    game_number=form.cleaned_data["game"],
                )
                messages.success(request, f"Saved: game {seat.game.number}.")
                return redirect("player-page", token=token)
            context["preview_line"], context["preview"] = card_line_preview(
                seat=seat, won=won, spread=margin, game_number=form.cleaned_data["game"]
            )
        except ServiceError as exc:
            form.add_error(
                "margin" if exc.field in ("margin", "plus", "minus") else None, exc.message
            )
    if form.errors:
        status = 400
    context["opponent"] = _opponent(seat)
    context["card"] = entry_running_card(entry=entry)
    context["match"] = entry_current_match(entry=entry)
    context["notices"] = list(entry.notices.filter(seen_at__isnull=True))
    response = render(request, "tournaments/player/report.html", context, status=status)
    # Shown once: a reminder or a cut notice does not pile up on every visit.
    entry.notices.filter(pk__in=[n.pk for n in context["notices"]]).update(seen_at=timezone.now())
    return response


def _opponent(seat):
    if seat is None or seat.table_id is None:
        return None
    other = seat.table.seats.exclude(pk=seat.pk).select_related("entry__player").first()
    return other.entry.player.name if other else None


@login_required
def my_entries(request):
    """A player with an account finds all their events here instead of keeping the links."""
    entries = list(entries_of_user(user=request.user))
    player = entries[0].player if entries else None
    return render(
        request, "tournaments/player/my_entries.html", {"entries": entries, "player": player}
    )
