"""Demo data for ``make run``: a club night in progress, played through the real services.

Every score comes from the engine's game simulator, so each card line is a real cribbage
result; a couple of tables report disagreeing cards, which the cross-check settles.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.db import transaction

from scoring import simulate_game
from tournaments.models import Event, Game, Table
from tournaments.services.entries import Registration, entry_register
from tournaments.services.events import (
    event_close_registration,
    event_create,
    event_update_settings,
)
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.results import card_line_report, game_close, table_cross_check

DEMO_EVENT = "Tuesday Club Night (demo)"
NAMES = (
    "Ada Baker",
    "Bill Carter",
    "Carol Diaz",
    "Dan Evans",
    "Edna Foster",
    "Frank Green",
    "Grace Hill",
    "Hank Irwin",
    "Iris Jones",
    "Jack King",
    "Kay Lewis",
    "Lou Moore",
)


def demo_event_build(*, director, played_games: int = 4, seed: int = 2026) -> Event:
    """Build the demo club night (idempotent: an existing one is returned as it is)."""
    existing = Event.objects.filter(name=DEMO_EVENT).first()
    if existing:
        return existing
    rng = random.Random(seed)
    event = event_create(user=director, name=DEMO_EVENT, preset="grass-roots")
    event_update_settings(event=event, published=True, qualifier_ratio=4)
    for name in NAMES:
        entry_register(event=event, registration=Registration(name=name), check_in=True)
    event_close_registration(event=event)
    for number in range(1, played_games + 2):
        game = _pair_and_publish(event, number, director)
        finished = number <= played_games
        _report(game, rng, everyone=finished, disagree=1 if finished else 0)
        if finished:
            game_close(game=game)
            for table in game.tables.filter(status=Table.Status.FLAGGED):
                table_cross_check(table=table, user=director)
    return event


def _pair_and_publish(event: Event, number: int, director) -> Game:
    game_pairings_request(event=event, number=number, user=director)
    game = Game.objects.get(event=event, number=number)
    return game_publish(game=game)


def _report(game: Game, rng: random.Random, *, everyone: bool, disagree: int) -> None:
    tables = list(game.tables.order_by("number"))
    reporting = tables if everyone else tables[: len(tables) // 2]
    for index, table in enumerate(reporting):
        first, second = table.seats.order_by("position")
        played = simulate_game(rng.randrange(1_000_000))
        spread = played.target - min(played.final_scores)
        winner, loser = (first, second) if rng.random() < 0.5 else (second, first)
        with transaction.atomic():
            card_line_report(seat=winner, won=True, spread=spread)
            # The odd player writes down a different spread, as happens on paper.
            loser_spread = spread + 3 if index < disagree and spread + 3 <= 121 else spread
            card_line_report(seat=loser, won=False, spread=loser_spread)


def demo_director():
    user, created = get_user_model().objects.get_or_create(
        username="director", defaults={"email": "director@example.org"}
    )
    return user, created
