"""Skill ratings: the leaderboards (global and a club's), a player's rating history chart, and
the chance one player beats another."""

from __future__ import annotations

from django import forms
from django.core.paginator import Paginator
from django.shortcuts import render

from tournaments.charts import rating_history_svg, svg_response
from tournaments.core.ratings import DEFAULT_PARAMS
from tournaments.errors import ServiceError
from tournaments.selectors.clubs import (
    club_get,
    opponents_named,
    predict,
    rating_history,
    rating_leaderboard,
)
from tournaments.selectors.players import player_get

PER_PAGE = 50


def leaderboard(request, club_id: int | None = None):
    club = club_get(club_id=club_id) if club_id else None
    provisional = request.GET.get("provisional") == "1"
    page = Paginator(rating_leaderboard(club=club, provisional=provisional), PER_PAGE).get_page(
        request.GET.get("page")
    )
    context = {
        "club": club,
        "page": page,
        "provisional": provisional,
        "needed": DEFAULT_PARAMS.provisional_games,
    }
    return render(request, "tournaments/ratings/leaderboard.html", context)


def rating_chart(request, player_id: int):
    player = player_get(player_id=player_id)
    points = [("start", DEFAULT_PARAMS.mu, DEFAULT_PARAMS.sigma)]  # every rating starts here
    points += [(f"{p.played_on:%-d %b %y}", p.mu, p.sigma) for p in rating_history(player=player)]
    svg = rating_history_svg(points, title=f"{player.name}: rating")
    return svg_response(svg)


class PredictForm(forms.Form):
    """The player (from their page) and the opponent: by name, or, once a name matched several
    players, the one chosen from the list (``opponent``)."""

    player = forms.IntegerField(min_value=1, max_value=2**62, widget=forms.HiddenInput)
    opponent = forms.IntegerField(
        min_value=1, max_value=2**62, required=False, widget=forms.HiddenInput
    )
    opponent_name = forms.CharField(
        max_length=200, required=False, label="Your opponent's name", strip=True
    )

    def clean(self):
        data = super().clean()
        if not data.get("opponent") and not data.get("opponent_name"):
            self.add_error("opponent_name", "Type the name of the player to play against.")
        return data


def _opponent(form: PredictForm, player):
    """The opponent the form names, or None with the form's error or the players to choose from."""
    if form.cleaned_data.get("opponent"):
        return player_get(player_id=form.cleaned_data["opponent"]), []
    name = form.cleaned_data["opponent_name"]
    found = opponents_named(text=name, player=player)
    if not found:
        form.add_error(
            "opponent_name",
            f"No other player has a name with “{name}” in it: check the spelling, or type part "
            "of the name.",
        )
    return (found[0], []) if len(found) == 1 else (None, found)


def chance(request):
    form = PredictForm(request.GET or None)
    prediction, choices, player = None, [], None
    if form.is_valid():
        player = player_get(player_id=form.cleaned_data["player"])
        opponent, choices = _opponent(form, player)
        if opponent is not None:
            try:
                prediction = predict(player=player, opponent=opponent)
            except ServiceError as exc:
                form.add_error("opponent_name", exc.message)
    status = 400 if form.errors else 200
    context = {"form": form, "prediction": prediction, "choices": choices, "player": player}
    return render(request, "tournaments/ratings/chance.html", context, status=status)
