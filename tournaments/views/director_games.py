"""The director's pages for the games: pair, publish, re-pair; pairings on screen and on paper."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournaments.models import Game
from tournaments.selectors.events import event_get_for_director
from tournaments.selectors.games import game_get, game_get_for_viewer, game_pairings
from tournaments.services import pairings as pairing_services
from tournaments.services.errors import ServiceError


@login_required
@require_POST
def game_pair(request, event_id: int, number: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    try:
        job = pairing_services.game_pairings_request(event=event, number=number, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("event-manage", event_id=event.pk)
    messages.info(request, f"Pairing game {number}: {job.get_status_display().lower()}.")
    return redirect("game-detail", event_id=event.pk, number=number)


def _director_game_action(request, event_id: int, number: int, action, done: str):
    event = event_get_for_director(event_id=event_id, user=request.user)
    game = game_get(event=event, number=number)
    if game is None:
        raise Http404("No such game.")
    try:
        action(game=game)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done.format(number=number))
    return redirect("game-detail", event_id=event.pk, number=number)


@login_required
@require_POST
def game_publish(request, event_id: int, number: int):
    return _director_game_action(
        request, event_id, number, pairing_services.game_publish, "Game {number} is published."
    )


@login_required
@require_POST
def game_repair(request, event_id: int, number: int):
    def repair(*, game):
        pairing_services.game_repair(game=game, user=request.user)

    return _director_game_action(request, event_id, number, repair, "Re-pairing game {number}.")


def game_detail(request, event_id: int, number: int):
    game, is_director = game_get_for_viewer(event_id=event_id, number=number, user=request.user)
    context = {"event": game.event, "game": game, "is_director": is_director}
    if game.status != Game.Status.NOT_PAIRED:
        context["pairings"] = game_pairings(game=game)
    return render(request, "tournaments/games/game_detail.html", context)


def game_print(request, event_id: int, number: int):
    game, _ = game_get_for_viewer(event_id=event_id, number=number, user=request.user)
    if game.status == Game.Status.NOT_PAIRED:
        raise Http404("This game is not paired yet.")
    context = {"event": game.event, "game": game, "pairings": game_pairings(game=game)}
    return render(request, "tournaments/games/game_print.html", context)
