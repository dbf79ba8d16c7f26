"""A match report that arrives late (kept on a phone while the venue's Wi-Fi was down, issue
25) names the game the player was looking at: once that game was settled without it and the
next one is in play, it is refused with code ``game_changed`` and saves nothing, never a line
on the next game. Through the API (``game``) and the page's form (its hidden ``game``)."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tournaments.models import Event, Match, MatchGame, MatchLine
from tournaments.services.playoffs import playoff_build
from tournaments.services.playoffs_corrections import match_game_correct
from tournaments.services.playoffs_matches import match_game_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def semi(qualified_event):
    event = qualified_event(12, 5, playoff_best_of={"every": 3})
    playoff_build(event_id=event.pk)
    Event.objects.filter(pk=event.pk).update(published=True)
    semi = Match.objects.get(playoff__event=event, round=1, slot=1)
    semi.director = event.director
    return semi


def _settle_game_one(semi) -> None:
    """The opponent reports game 1 and a director settles it from the paper card."""
    match_game_report(match=semi, entry=semi.entry_b, won=False, spread=25)
    game = semi.games.get(number=1)
    match_game_correct(
        match_game=game, winner_entry=semi.entry_a, spread=25, reason="paper", user=semi.director
    )


def _reported(entry) -> int:
    return MatchLine.objects.filter(entry=entry, kind=MatchLine.Kind.REPORTED).count()


def test_a_late_api_report_of_a_settled_game_is_refused_and_saves_nothing(semi):
    _settle_game_one(semi)
    url = f"/api/v1/report/{semi.entry_a.report_token}/match/"
    late = APIClient().post(
        url,
        {"result": "won", "margin": 15, "game": 1},
        format="json",
        HTTP_IDEMPOTENCY_KEY="3f0c6a52-8c1e-4f7e-9d7e-0a1b2c3d4e5f",
    )
    assert late.status_code == 400
    error = late.json()["errors"][0]
    assert (error["code"], error["field"]) == ("game_changed", "game")
    assert "game 2 is the one in play now" in error["message"] and "director" in error["message"]
    assert _reported(semi.entry_a) == 0 and not semi.games.filter(number=2).exists()
    on_time = APIClient().post(url, {"result": "won", "margin": 15, "game": 2}, format="json")
    assert on_time.status_code == 201 and _reported(semi.entry_a) == 1
    assert semi.games.get(number=2).status == MatchGame.Status.OPEN


def test_a_late_form_report_of_a_settled_game_is_refused_on_the_page(semi, client):
    _settle_game_one(semi)
    url = reverse("player-match-report", args=[semi.entry_a.report_token])
    body = {"result": "won", "margin": "15", "game": "1", "confirm": "1"}
    answer = client.post(url, body, follow=True)
    assert "game 2 is the one in play now, so it was not saved" in answer.content.decode()
    assert _reported(semi.entry_a) == 0


def test_a_report_without_a_game_goes_to_the_game_in_play_as_before(semi):
    _settle_game_one(semi)
    url = f"/api/v1/report/{semi.entry_a.report_token}/match/"
    answer = APIClient().post(url, {"result": "lost", "margin": 3}, format="json")
    assert answer.status_code == 201
    assert (
        MatchLine.objects.get(entry=semi.entry_a, kind=MatchLine.Kind.REPORTED).match_game.number
        == 2
    )
