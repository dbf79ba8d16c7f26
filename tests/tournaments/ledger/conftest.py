"""Finished sanctioned events, played through the services, for the ledger's tests."""

import pytest

from tests.helpers import sanction
from tests.tournaments.playoffs.conftest import qualified_event  # noqa: F401  (a fixture)
from tournaments.models import Match
from tournaments.services.playoffs import playoff_build_request
from tournaments.services.playoffs_matches import match_game_report


def play_playoffs(event, spread: int = 9) -> None:
    """Every match, each game won by entry_a (the better seed, or the winner moving up)."""
    for _ in range(200):
        match = Match.objects.filter(playoff__event=event, status__in=["ready", "playing"]).first()
        if match is None:
            return
        match_game_report(match=match, entry=match.entry_a, won=True, spread=spread)
        match_game_report(match=match, entry=match.entry_b, won=False, spread=spread)
    raise AssertionError("the playoffs did not finish")


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
