"""The director's pages for the games: pair, publish, re-pair; pairings on screen and on paper."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.models import Game
from tournaments.selectors.access import (
    event_get_for_director,
    game_get_for_director,
    game_get_for_viewer,
)
from tournaments.selectors.games import game_pairings
from tournaments.selectors.live import game_version
from tournaments.services import pairings as pairing_services
from tournaments.views.confirm import Confirmation, confirm_page, confirmed
from tournaments.views.live import live_page


@login_required
@require_POST
def game_pair(request, event_id: int, number: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    try:
        pairing_services.game_pairings_request(event=event, number=number, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("event-manage", event_id=event.pk)
    # No message: the job's state when it was asked for ("waiting to start") would be stale
    # above the finished tables; the game's page shows the job's state live, in one place.
    return redirect("game-detail", event_id=event.pk, number=number)


def _game_action(request, game, action, done: str, *, to: str = "game-detail"):
    try:
        action(game=game, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done.format(number=game.number))
    return redirect(to, event_id=game.event_id, number=game.number)


@login_required
@require_POST
def game_publish(request, event_id: int, number: int):
    game = game_get_for_director(event_id=event_id, number=number, user=request.user)
    return _game_action(request, game, pairing_services.game_publish, "Game {number} is published.")


@login_required
def game_repair(request, event_id: int, number: int):
    game = game_get_for_director(event_id=event_id, number=number, user=request.user)
    if confirmed(request):
        return _game_action(
            request, game, pairing_services.game_repair, "Re-pairing game {number}."
        )
    published = game.status == Game.Status.PUBLISHED
    return confirm_page(
        request,
        Confirmation(
            title=f"Re-pair game {game.number}?",
            question=f"Every table of game {game.number} is thrown away and the game is paired "
            "again with a new draw.",
            details=[
                "Players who already found their table will have to look again."
                if published
                else "Nobody has seen this draft yet.",
                "It is refused once a result is reported or a judge is called in this game.",
            ],
            action_label=f"Yes, re-pair game {game.number}",
            cancel_url=reverse("game-detail", args=[game.event_id, game.number]),
        ),
        event=game.event,
    )


def game_detail(request, event_id: int, number: int):
    game, is_director = game_get_for_viewer(event_id=event_id, number=number, user=request.user)

    def context() -> dict:
        data = {"event": game.event, "game": game, "is_director": is_director}
        if game.status != Game.Status.NOT_PAIRED:
            data["pairings"] = game_pairings(game=game)
        return data

    # Follows the pairing job and the game's publication without reloading the page.
    return live_page(
        request,
        version=lambda: game_version(game=game),
        page="tournaments/games/game_detail.html",
        part="tournaments/games/_game_live.html",
        context=context,
    )


def game_print(request, event_id: int, number: int):
    game, _ = game_get_for_viewer(event_id=event_id, number=number, user=request.user)
    if game.status == Game.Status.NOT_PAIRED:
        raise Http404("This game is not paired yet.")
    context = {"event": game.event, "game": game, "pairings": game_pairings(game=game)}
    return render(request, "tournaments/games/game_print.html", context)
