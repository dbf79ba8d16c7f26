"""The playoff pages and API: who may build and run matches, the bracket for visitors, and the
player's report from their private link."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournaments.models import Event, Match, MatchGame, MatchLine, Playoff
from tournaments.services.playoffs import playoff_build
from tournaments.services.playoffs_matches import match_game_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def built(qualified_event):
    event = qualified_event(12, 5, playoff_best_of={"every": 3})
    playoff_build(event_id=event.pk)
    Event.objects.filter(pk=event.pk).update(published=True)
    return event, Match.objects.get(playoff__event=event, round=1, slot=1)


def _api(user=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_only_the_events_directors_may_build_the_bracket(
    qualified_event, client, django_capture_on_commit_callbacks
):
    event = qualified_event(12, 5)
    url = f"/api/v1/events/{event.pk}/playoff/build/"
    assert _api().post(url).status_code in (401, 403)
    assert _api(UserFactory()).post(url).status_code == 403
    page = reverse("playoff-build", args=[event.pk])
    client.force_login(UserFactory())
    assert client.post(page).status_code == 403
    assert not Playoff.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        answer = _api(event.director).post(url)
    assert answer.status_code == 202 and answer.json()["kind"] == "bracket"
    assert Playoff.objects.filter(event=event).exists()
    refused = _api(event.director).post(url)
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "already_built"


def test_building_from_the_page_shows_the_bracket(
    qualified_event, client, django_capture_on_commit_callbacks
):
    event = qualified_event(12, 5)
    client.force_login(event.director)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(reverse("playoff-build", args=[event.pk]))
    assert answer.status_code == 302  # to the job's page: the job runs after the request
    assert Playoff.objects.filter(event=event).exists()
    page = client.get(reverse("playoff-bracket", args=[event.pk]))
    assert page.status_code == 200 and b"bracket-round" in page.content
    refused = client.post(reverse("playoff-build", args=[event.pk]), follow=True)
    assert "already built" in refused.content.decode()


def test_the_bracket_page_and_api_show_seeds_players_and_scores(built, client):
    event, semi = built
    match_game_report(match=semi, entry=semi.entry_a, won=True, spread=7)
    match_game_report(match=semi, entry=semi.entry_b, won=False, spread=7)
    page = client.get(reverse("playoff-bracket", args=[event.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert semi.entry_a.player.name in html and "1–0" in html and "Semi-finals" in html
    assert f'data-live-url="/events/{event.pk}/bracket/?part=live"' in html
    assert "Match page" not in html
    data = _api().get(f"/api/v1/events/{event.pk}/bracket/").json()
    assert data["built"] and data["qualifiers"] == 3
    played = data["rounds"][0]["matches"][1]
    assert (played["a"]["wins"], played["b"]["wins"], played["a"]["seed"]) == (1, 0, 2)
    Event.objects.filter(pk=event.pk).update(published=False)
    assert client.get(reverse("playoff-bracket", args=[event.pk])).status_code == 404


def test_a_decided_match_puts_the_winners_score_first(built, client):
    """The lower line (seed 3) wins 2-0: "won 2–0" on the bracket and the match page, never
    "won 0–2" (issue 22, item 16)."""
    event, semi = built
    for _ in range(2):
        match_game_report(match=semi, entry=semi.entry_a, won=False, spread=9)
        match_game_report(match=semi, entry=semi.entry_b, won=True, spread=9)
    html = client.get(reverse("playoff-bracket", args=[event.pk])).content.decode()
    winner = semi.entry_b.player.name
    assert f'{winner} won <span class="score-figures">2–0</span>' in html
    assert "0–2" not in html
    client.force_login(event.director)
    detail = client.get(reverse("match-detail", args=[event.pk, semi.pk])).content.decode()
    assert 'games <strong class="score-figures">2–0</strong>' in detail


def test_the_bracket_page_reads_the_matches_in_a_fixed_number_of_queries(
    built, client, django_assert_max_num_queries
):
    event, _ = built
    with django_assert_max_num_queries(8):
        assert client.get(reverse("playoff-bracket", args=[event.pk])).status_code == 200


def test_match_page_and_clock_are_for_the_events_directors(built, client):
    event, semi = built
    url = reverse("match-detail", args=[event.pk, semi.pk])
    assert client.get(url).status_code == 302  # anonymous: to the login page
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    clock = f"/api/v1/events/{event.pk}/matches/{semi.pk}/clock/"
    assert _api().post(clock, {"absent": semi.entry_b_id}).status_code in (401, 403)
    assert _api(UserFactory()).post(clock, {"absent": semi.entry_b_id}).status_code == 403
    semi.refresh_from_db()
    assert semi.clock_started_at is None
    client.force_login(event.director)
    assert "Start the no-show clock" in client.get(url).content.decode()
    answer = client.post(
        reverse("match-clock", args=[event.pk, semi.pk]), {"absent": semi.entry_b_id}
    )
    assert answer.status_code == 302
    semi.refresh_from_db()
    assert semi.absent_id == semi.entry_b_id and semi.clock_started_at is not None
    again = _api(event.director).post(clock, {"absent": semi.entry_b_id})
    assert again.status_code == 400 and again.json()["errors"][0]["code"] == "clock_running"


def test_director_corrects_a_flagged_game_on_the_match_page(built, client):
    event, semi = built
    match_game_report(match=semi, entry=semi.entry_a, won=True, spread=7)
    match_game_report(match=semi, entry=semi.entry_b, won=True, spread=7)
    client.force_login(event.director)
    page = client.get(reverse("match-detail", args=[event.pk, semi.pk])).content.decode()
    assert "Game 1: the cards disagree" in page
    url = reverse("match-game-correct", args=[event.pk, semi.pk, 1])
    fields = {"g1-winner": semi.entry_b_id, "g1-reason": "misread"}
    refused = client.post(url, {**fields, "g1-margin": 200})
    assert refused.status_code == 400
    client.post(url, {**fields, "g1-margin": 9})
    game = MatchGame.objects.get(match=semi)
    assert (game.status, game.winner_id) == ("verified", semi.entry_b_id)
    other = UserFactory()
    client.force_login(other)
    assert (
        client.post(url, {"winner": semi.entry_a_id, "margin": 9, "reason": "x"}).status_code == 403
    )


def test_players_report_from_their_private_link(built, client):
    event, semi = built
    a, b = semi.entry_a, semi.entry_b
    url = reverse("player-match-report", args=[a.report_token])
    preview = client.post(url, {"result": "won", "margin": 12})
    assert preview.status_code == 200 and "A win by 12: 2 game points" in preview.content.decode()
    assert "Save game 1" in preview.content.decode() and not MatchLine.objects.exists()
    answer = client.post(url, {"result": "won", "margin": 12, "confirm": "1"})
    assert answer.status_code == 302 and MatchLine.objects.count() == 1
    ask = _api().post(
        f"/api/v1/report/{b.report_token}/match/", {"result": "lost", "margin": 12, "preview": True}
    )
    assert ask.status_code == 200 and ask.json()["line"] == {
        "game_points": 0,
        "plus": 0,
        "minus": 12,
    }
    api = _api().post(f"/api/v1/report/{b.report_token}/match/", {"result": "lost", "margin": 12})
    assert api.status_code == 201
    assert (api.json()["a"]["wins"], api.json()["b"]["wins"]) == (1, 0)
    bad = _api().post(f"/api/v1/report/{b.report_token}/match/", {"result": "won", "margin": 500})
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "margin"
    assert (
        _api().post("/api/v1/report/nope/match/", {"result": "won", "margin": 5}).status_code == 404
    )


def test_the_player_include_shows_score_dealer_and_form(built):
    from django.template.loader import render_to_string

    from tournaments.views.report import live_part_context

    event, semi = built
    Event.objects.filter(pk=event.pk).update(playoff_first_deal="loser_deals")
    match_game_report(match=semi, entry=semi.entry_a, won=True, spread=7)
    match_game_report(match=semi, entry=semi.entry_b, won=False, spread=7)
    match_game_report(match=semi, entry=semi.entry_b, won=True, spread=4)
    entry = semi.entry_b
    entry.refresh_from_db()
    html = render_to_string("tournaments/playoffs/_player_match.html", live_part_context(entry))
    assert f"you 0, {semi.entry_a.player.name} 1" in html  # the player's own wins first
    assert f"Game 2: {entry.player.name} deals first" in html  # lost game 1
    assert f"Game 2 saved. Waiting for {semi.entry_a.player.name} to report it." in html
    assert reverse("player-match-report", args=[entry.report_token]) in html
    assert f'action="{reverse("player-call-judge", args=[entry.report_token])}"' in html


def test_the_phones_queue_takes_the_match_form_to_the_match_route(built, client):
    """The phone's queue (static/js/report-offline.js) takes the match's form too: it is marked
    for the queue with the game it reports, and the page carries the match's API route."""
    import json

    event, semi = built
    token = semi.entry_a.report_token
    html = client.get(reverse("player-page", args=[token])).content.decode()
    match_form = html[html.index('action="' + reverse("player-match-report", args=[token])) :]
    assert match_form.split(">", 1)[0].endswith('data-offline-report="match" novalidate')
    assert '<input type="hidden" name="game" value="1">' in match_form.split("</form>", 1)[0]
    settings = html.split('id="offline-settings" type="application/json">', 1)[1]
    offline = json.loads(settings.split("</script>", 1)[0])
    assert offline["match_url"] == f"/api/v1/report/{token}/match/"
