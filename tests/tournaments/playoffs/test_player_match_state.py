"""A playoff match on the player's phone has the states of a qualifying table, on the page and
in ``GET /api/v1/report/<token>/`` (its ``match``; ``current`` is the qualifying game, null in
the playoffs): saved, waiting for the opponent, the opponent has reported, disagree, agree,
settled, and the match decided with the winner's score first."""

from html import unescape

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournaments.models import Event, JudgeCall, Match, MatchGame
from tournaments.services.playoffs import playoff_build
from tournaments.services.playoffs_corrections import match_game_correct
from tournaments.services.playoffs_matches import match_game_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def semi(qualified_event):
    event = qualified_event(12, 5, playoff_best_of={"every": 3})  # 3 qualify: a semi, a final
    playoff_build(event_id=event.pk)
    Event.objects.filter(pk=event.pk).update(published=True)
    return Match.objects.get(playoff__event=event, round=1, slot=1)


def _match(entry) -> dict:
    answer = APIClient().get(f"/api/v1/report/{entry.report_token}/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["current"] is None  # not the last qualifying game "verified"
    return body["match"]


def _page(client, entry) -> str:
    return unescape(client.get(reverse("player-page", args=[entry.report_token])).content.decode())


def test_a_saved_game_waits_for_the_opponent_who_is_told_to_report(semi, client):
    a, b = semi.entry_a, semi.entry_b
    before = _match(a)
    assert (before["state"], before["game"], before["round_name"]) == (
        "not_reported",
        1,
        "Semi-finals",
    )
    url = reverse("player-match-report", args=[a.report_token])
    client.post(url, {"result": "won", "margin": 12, "confirm": "1"})
    mine = _match(a)
    assert (mine["state"], mine["game"], mine["opponent_status"]) == ("waiting", 1, "not_reported")
    assert mine["words"] == f"Game 1 saved. Waiting for {b.player.name} to report it."
    assert mine["reported"]["plus"] == 12 and (mine["wins"], mine["opponent_wins"]) == (0, 0)
    page = _page(client, a)
    assert f"Waiting for {b.player.name} to report it" in page
    assert "Your report of game 1: <strong>2 game points, plus 12</strong>" in page
    assert "Change my report" in page  # the form is folded away, not shown empty
    theirs = _match(b)
    assert (theirs["state"], theirs["opponent_status"]) == ("your_turn", "reported")
    assert theirs["reported"] is None
    assert f"{a.player.name} has reported game 1: your turn." in _page(client, b)


def test_disagree_agree_settled_and_decided(semi, client):
    a, b = semi.entry_a, semi.entry_b
    match_game_report(match=semi, entry=a, won=True, spread=12)
    match_game_report(match=semi, entry=b, won=True, spread=5)
    assert _match(a)["state"] == _match(b)["state"] == "disagree"
    assert f"your card and {b.player.name}'s disagree" in _page(client, a)
    match_game_report(match=semi, entry=b, won=False, spread=12)
    agreed = _match(a)
    assert (agreed["state"], agreed["wins"], agreed["game"]) == ("verified", 1, 2)
    assert agreed["words"] == "Both cards agree: game 1 is verified, you won it."
    assert agreed["can_report"] and agreed["reported"] is None
    assert "How did game 2 go?" in _page(client, a)

    match_game_report(match=semi, entry=a, won=True, spread=20)
    match_game_report(match=semi, entry=b, won=True, spread=20)
    game = MatchGame.objects.get(match=semi, number=2)
    director = UserFactory()
    match_game_correct(
        match_game=game, winner_entry=a, spread=20, reason="Pegs checked", user=director
    )
    lost = _match(b)
    assert (lost["state"], lost["status"], lost["can_report"]) == ("decided", "decided", False)
    assert lost["words"] == f"{a.player.name} won the match 2–0."
    assert (lost["wins"], lost["opponent_wins"]) == (0, 2)
    final = _match(a)  # the winner's phone moves on to the final
    assert (final["round_name"], final["state"], final["game"]) == ("Final", "not_reported", 1)
    assert "Playoffs: Final" in _page(client, a)


def test_a_game_settled_by_a_director_says_so_between_games(semi, client):
    a, b = semi.entry_a, semi.entry_b
    match_game_report(match=semi, entry=a, won=True, spread=12)
    match_game_report(match=semi, entry=b, won=True, spread=5)
    game = MatchGame.objects.get(match=semi, number=1)
    match_game_correct(
        match_game=game, winner_entry=b, spread=5, reason="Both agreed later", user=UserFactory()
    )
    settled = _match(a)
    assert (settled["state"], settled["game"]) == ("settled", 2)
    assert settled["words"] == f"Game 1 was settled by a director: {b.player.name} won it."
    assert settled["settled"]["changed"] and settled["settled"]["reason"] == "Both agreed later"
    assert "Both agreed later" in _page(client, a)


def test_outside_the_playoffs_the_match_is_null(qualified_event):
    event = qualified_event(12, 5)
    entry = event.entries.first()
    body = APIClient().get(f"/api/v1/report/{entry.report_token}/").json()
    assert body["match"] is None and body["current"]["state"] == "verified"


def test_call_a_judge_in_a_match_also_after_a_game_is_verified(semi, client):
    a, b = semi.entry_a, semi.entry_b
    event = semi.playoff.event
    match_game_report(match=semi, entry=a, won=True, spread=12)
    match_game_report(match=semi, entry=b, won=False, spread=12)  # game 1 verified
    assert _match(a)["state"] == "verified"
    assert "Call a judge to my match" in _page(client, a)
    url = reverse("player-call-judge", args=[a.report_token])
    answer = client.post(url, {"match": semi.pk}, follow=True)
    assert "Judges are called to your match" in unescape(answer.content.decode())
    call = JudgeCall.objects.get()
    assert (call.match_id, call.table_id, call.called_by_entry_id) == (semi.pk, None, a.pk)
    again = client.post(
        reverse("player-call-judge", args=[b.report_token]), {"match": 1}, follow=True
    )
    assert "already called to your match" in unescape(again.content.decode())
    api = APIClient()
    api.force_authenticate(event.created_by)
    [open_call] = api.get(f"/api/v1/events/{event.pk}/judge-calls/").json()["results"]
    assert (open_call["match"], open_call["table"], open_call["where"]) == (
        semi.pk,
        None,
        "Playoff match: Semi-finals",
    )
    client.force_login(event.created_by)
    judges = unescape(client.get(reverse("judge-page", args=[event.pk])).content.decode())
    assert "Playoff match: Semi-finals" in judges and "Answer this match" in judges
    answered = client.post(reverse("judge-call-answer", args=[call.pk]))
    assert answered.url == reverse("match-ruling-form", args=[event.pk, semi.pk])
    call.refresh_from_db()
    assert call.answered_at is not None
    done = api.post(f"/api/v1/judge-calls/{call.pk}/answer/")  # already taken: said so
    assert done.status_code == 400 and "already answered" in done.json()["errors"][0]["message"]


def test_a_decided_match_has_no_judge_button(semi, client):
    a, b = semi.entry_a, semi.entry_b
    for _ in range(2):
        match_game_report(match=semi, entry=a, won=False, spread=9)
        match_game_report(match=semi, entry=b, won=True, spread=9)
    assert _match(a)["state"] == "decided"
    assert "Call a judge to my match" not in _page(client, a)
    answer = client.post(reverse("player-call-judge", args=[a.report_token]), {"match": 1})
    assert answer.status_code == 302 and not JudgeCall.objects.exists()
