"""Fixtures shared by several test folders (a pytest plugin: ``tests/conftest.py`` names it).

Each builds an event or a club as its users would, through the services."""

from datetime import date

import pytest

from tests.factories import ClubFactory, EntryFactory, EventFactory, PlayerFactory, UserFactory
from tests.helpers import (
    FINISHED,
    break_cut_ties,
    make_playoff,
    play_game,
    play_night,
    play_playoffs,
    sanction,
)
from tournaments.models import Entry, Game
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.playoffs import playoff_build_request


@pytest.fixture
def club_world(django_capture_on_commit_callbacks):
    """A club with its director and ten players with ACC numbers."""

    class World:
        director = UserFactory(first_name="Cleo", last_name="Club")
        club = ClubFactory(name="Tuesday Pegs", director=director)
        players = [PlayerFactory(name=f"Member {i:02}") for i in range(10)]

        @classmethod
        def night(cls, day: date, players=None, **kwargs):
            return play_night(
                cls.club, cls.director, players or cls.players, day,
                django_capture_on_commit_callbacks, **kwargs,
            )  # fmt: skip

    return World


@pytest.fixture
def finished_main():
    """Make a finished Main (``preset``, ``games`` and other settings may be given): by default
    20 entrants, 5 qualifiers in an 8-line bracket (3 byes). Seeds are qualifying ranks 1-5 with
    21 - rank game points. Round 1: seed 4 beats seed 5; round 2: seed 1 beats 4, seed 3 beats 2;
    the final: seed 3 beats seed 1."""

    def make(preset="acc-main", games=12, players=20, results=FINISHED, **settings):
        director = UserFactory()
        event = EventFactory(director=director, preset=preset, qualifying_games=games, **settings)
        if preset.startswith("acc-"):
            sanction(event)  # the ACC office's decision, as in production
        entries = [EntryFactory(event=event) for _ in range(players)]
        make_playoff(event, entries, -(-players // 4), results)
        event.director = director
        event.ranked = entries
        return event

    return make


@pytest.fixture
def finished_event(qualified_event, django_capture_on_commit_callbacks):  # noqa: F811
    """``make(players=12, games=7, preset="acc-consolation", play=True)``: an event (sanctioned
    by the ACC office for the ACC presets, unless ``sanctioned`` says otherwise) with the cut
    made and (unless ``play`` is False) the playoffs played to a champion."""

    def make(players=12, games=7, preset="acc-consolation", play=True, sanctioned=None, **settings):
        event = qualified_event(players, games, preset=preset, **settings)
        if preset.startswith("acc-") if sanctioned is None else sanctioned:
            sanction(event)  # the ACC office's decision, as in production
        with django_capture_on_commit_callbacks(execute=True):
            playoff_build_request(event=event, user=event.director)
        if play:
            play_playoffs(event)
        event.refresh_from_db()
        return event

    return make


@pytest.fixture
def qualified_event(event_in_play, django_capture_on_commit_callbacks):
    """``make(players=12, games=5, **settings)``: every game played, closed and verified."""

    def make(players=12, games=5, *, last_open=False, break_ties=True, **settings):
        settings.setdefault("qualifier_ratio", 4)
        event = event_in_play(players, qualifying_games=games, **settings)
        strength = {
            e: i
            for i, e in enumerate(
                Entry.objects.filter(event=event).order_by("pk").values_list("pk", flat=True)
            )
        }
        for number in range(1, games + 1):
            if number > 1:
                with django_capture_on_commit_callbacks(execute=True):
                    game_pairings_request(event=event, number=number, user=event.director)
                with django_capture_on_commit_callbacks(execute=True):
                    game_publish(
                        game=Game.objects.get(event=event, number=number), user=event.director
                    )
            if last_open and number == games:
                break
            with django_capture_on_commit_callbacks(execute=True):
                play_game(event, number, strength=strength)
        if break_ties and not last_open:
            break_cut_ties(event)
        event.refresh_from_db()
        event.strength = strength
        return event

    return make


@pytest.fixture
def keep_the_tests_connection(monkeypatch):
    """As Django's test client does: a request sent through the WSGI entry point
    (``tests.helpers.wsgi_call``) must not close the database connection that holds the test's
    transaction (the poll shortcut's and Django's own closing of old connections at each
    request's start and end)."""
    from django.core import signals
    from django.db import close_old_connections

    monkeypatch.setattr("tournaments.live_poll.close_old_connections", lambda: None)
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)
