"""The player's own JSON (``/api/v1/report/<token>/`` and its playoff match) is sent
``Cache-Control: private, no-cache``, whatever the method and the answer, as their pages are:
no shared cache keeps a player's table, card or link."""

from __future__ import annotations

import pytest
from django.test import TestCase
from rest_framework.test import APIClient

from tests.factories import EntryFactory, EventFactory
from tests.helpers import break_cut_ties, play_game
from tests.tournaments.api.test_parsers import DEEP_ARRAY, DEEP_OBJECT, too_deep
from tournaments.models import Game, Match
from tournaments.services.events import event_close_registration
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.playoffs import playoff_build_request

pytestmark = pytest.mark.django_db

PRIVATE = "private, no-cache"


def _on_commit():
    return TestCase.captureOnCommitCallbacks(execute=True)


@pytest.fixture
def match() -> Match:
    """A playoff semi-final of best of 3, nothing reported yet: 8 players, 3 games played."""
    event = EventFactory(
        preset="acc-main", qualifying_games=3, qualifier_ratio=2, playoff_best_of={"every": 3}
    )
    entries = EntryFactory.create_batch(8, event=event)
    director = event.created_by
    event.director = director
    event_close_registration(event=event, user=director)
    strength = {entry.pk: i for i, entry in enumerate(entries)}
    for number in (1, 2, 3):
        with _on_commit():
            game_pairings_request(event=event, number=number, user=director)
        with _on_commit():
            game_publish(game=Game.objects.get(event=event, number=number), user=director)
        with _on_commit():
            play_game(event, number, strength=strength)
    break_cut_ties(event)
    with _on_commit():
        playoff_build_request(event=event, user=director)
    return Match.objects.filter(playoff__event=event, round=1).order_by("slot").first()


def test_the_players_report_answers_are_private(event_in_play):
    token = event_in_play(10).entries.first().report_token
    api, url = APIClient(), f"/api/v1/report/{token}/"
    answers = {
        "read": api.get(url),
        "preview": api.post(url, {"result": "won", "margin": 12, "preview": True}),
        "report": api.post(url, {"result": "won", "margin": 12}),
        "refused": api.post(url, {"result": "won", "margin": -3}),
        "unknown link": api.get("/api/v1/report/Ab-9_unknown/"),
    }
    assert [a.status_code for a in answers.values()] == [200, 200, 201, 400, 404]
    for name, answer in answers.items():
        assert answer["Cache-Control"] == PRIVATE, name


def test_the_players_match_answers_are_private(match):
    api, url = APIClient(), f"/api/v1/report/{match.entry_a.report_token}/match/"
    answers = {
        "preview": api.post(url, {"result": "won", "margin": 9, "preview": True}),
        "report": api.post(url, {"result": "won", "margin": 9}),
        "refused": api.post(url, {"result": "won", "margin": 500}),
    }
    assert [a.status_code for a in answers.values()] == [200, 201, 400]
    for name, answer in answers.items():
        assert answer["Cache-Control"] == PRIVATE, name


def test_other_answers_are_not_made_private(event_in_play):
    """The header is the player's endpoints' own, not every API answer's."""
    event = event_in_play(10)
    assert "private" not in APIClient().get("/api/v1/health/").get("Cache-Control", "")
    assert "private" not in APIClient().get(f"/api/v1/events/{event.pk}/").get("Cache-Control", "")


@pytest.mark.parametrize("body", [DEEP_ARRAY, DEEP_OBJECT], ids=["array", "object"])
def test_a_match_report_refuses_a_deep_body(match, body):
    url = f"/api/v1/report/{match.entry_a.report_token}/match/"
    answer = APIClient().post(url, body, content_type="application/json")
    too_deep(answer)
    assert answer["Cache-Control"] == PRIVATE
