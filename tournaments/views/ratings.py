"""Skill ratings: the leaderboards (global and a club's), a player's rating history chart, and
the chance one player beats another."""

from __future__ import annotations

from django import forms
from django.core.paginator import Paginator
from django.shortcuts import render

from tournaments.charts import rating_history_svg, svg_response
from tournaments.core.ratings import DEFAULT_PARAMS
from tournaments.selectors.clubs import club_get, predict, rating_history, rating_leaderboard
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
    player = forms.IntegerField(min_value=1, max_value=2**62, widget=forms.HiddenInput)
    opponent = forms.IntegerField(min_value=1, max_value=2**62, label="Opponent's player number")


def chance(request):
    form = PredictForm(request.GET or None)
    prediction = None
    if form.is_valid():
        prediction = predict(
            player=player_get(player_id=form.cleaned_data["player"]),
            opponent=player_get(player_id=form.cleaned_data["opponent"]),
        )
    status = 400 if form.errors else 200
    context = {"form": form, "prediction": prediction}
    return render(request, "tournaments/ratings/chance.html", context, status=status)
