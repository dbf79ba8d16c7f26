"""Skill ratings: updated from every finished night's verified games (not sit-outs or
administrative results), incrementally or from scratch with the same numbers; leaderboards
leave provisional ratings out; the chance one player beats another."""

from datetime import date

import pytest

from tests.factories import PlayerFactory
from tests.helpers import client_for
from tournaments.core.ratings import DEFAULT_PARAMS, RatedGame, RatingBook
from tournaments.models import Event, PlayerRating, RatingPoint
from tournaments.services.ratings import _games, ratings_recompute_all

pytestmark = pytest.mark.django_db


def _ratings():
    return {
        r.player_id: (round(r.mu, 9), round(r.sigma, 9), r.games)
        for r in PlayerRating.objects.all()
    }


def test_a_finished_night_rates_its_players(club_world):
    night = club_world.night(date(2026, 9, 8))
    night.refresh_from_db()
    assert night.rated_at is not None
    ratings = {r.player_id: r for r in PlayerRating.objects.all()}
    assert len(ratings) == 10 and all(r.games == 9 for r in ratings.values())
    best, worst = club_world.players[0].pk, club_world.players[-1].pk
    assert ratings[best].mu > DEFAULT_PARAMS.mu > ratings[worst].mu
    assert RatingPoint.objects.filter(event=night).count() == 10


def test_incremental_and_from_scratch_agree(club_world):
    club_world.night(date(2026, 9, 8))
    club_world.night(date(2026, 9, 15), winner=max)
    incremental = _ratings()
    ratings_recompute_all()
    assert _ratings() == incremental
    # the same games, rated here directly from the core in play order
    events = list(Event.objects.filter(stage="finished").order_by("starts_on", "pk"))
    book = RatingBook(DEFAULT_PARAMS)
    book.apply_all(game for _, game in _games(events))
    assert {p: (round(r.mu, 9), round(r.sigma, 9), r.games) for p, r in book.ratings().items()} == (
        incremental
    )


def test_a_night_dated_before_rated_ones_recomputes_everything(club_world):
    club_world.night(date(2026, 9, 15))
    club_world.night(date(2026, 9, 8), winner=max)  # entered late
    late = _ratings()
    ratings_recompute_all()
    assert _ratings() == late


def test_sit_outs_are_not_rated(club_world):
    players = club_world.players[:9]  # an odd field: one sits out each game
    night = club_world.night(date(2026, 9, 8), players=players)
    games = [game for _, game in _games([night])]
    assert len(games) == 9 * 4  # four tables a game; the sit-out line is not a game
    assert all(isinstance(g, RatedGame) for g in games)
    assert sum(r.games for r in PlayerRating.objects.all()) == 2 * len(games)


def test_leaderboards_and_the_chance_to_win(client, club_world):
    club_world.night(date(2026, 9, 8))
    api = client_for()
    assert api.get("/api/v1/ratings/").json()["count"] == 0  # 9 games: all still provisional
    shown = api.get("/api/v1/ratings/", {"provisional": "true"}).json()["results"]
    assert len(shown) == 10 and all(r["provisional"] for r in shown)
    assert [r["mu"] for r in shown] == sorted((r["mu"] for r in shown), reverse=True)
    best, worst = club_world.players[0].pk, club_world.players[-1].pk
    chance = api.get("/api/v1/ratings/predict/", {"player": best, "opponent": worst}).json()
    assert 0.5 < chance["probability"] < 1
    back = api.get("/api/v1/ratings/predict/", {"player": worst, "opponent": best}).json()
    assert abs(chance["probability"] + back["probability"] - 1) < 1e-9
    history = api.get(f"/api/v1/players/{best}/rating/").json()
    assert len(history["history"]) == 1 and history["rating"]["games"] == 9
    page = client.get(f"/players/{best}/").content.decode()
    assert "Skill rating" in page and "59 times in 100" in page
    svg = client.get(f"/players/{best}/rating.svg")
    assert svg["Content-Type"].startswith("image/svg+xml")
    club_page = client.get(f"/clubs/{club_world.club.pk}/ratings/?provisional=1").content.decode()
    assert club_world.players[0].name in club_page


def test_a_player_against_themself_is_refused_on_the_api_and_the_page(client):
    """Issue 22: the chance a player beats themself was answered 0.5."""
    pat = PlayerFactory(name="Pat Peg")
    answer = client_for().get("/api/v1/ratings/predict/", {"player": pat.pk, "opponent": pat.pk})
    assert answer.status_code == 400
    [error] = answer.json()["errors"]
    assert (error["field"], error["code"]) == ("opponent", "same_player")
    assert "Pat Peg cannot play themself" in error["message"]
    page = client.get("/ratings/chance/", {"player": pat.pk, "opponent": pat.pk})
    assert page.status_code == 400
    assert "cannot play themself" in page.content.decode()
    assert "times in 100" not in page.content.decode()


def test_the_win_chance_form_picks_the_opponent_by_name(client):
    """Issue 22: the form asked for "their player number"; a player knows a name."""
    pat = PlayerFactory(name="Pat Peg")
    PlayerFactory(name="Robin Skunk")
    dana, dale = PlayerFactory(name="Dana Crib"), PlayerFactory(name="Dale Crib")
    profile = client.get(f"/players/{pat.pk}/").content.decode()
    assert "player number" not in profile
    one = client.get("/ratings/chance/", {"player": pat.pk, "opponent_name": " robin  skunk "})
    assert one.status_code == 200 and "beats" in one.content.decode()
    assert "Robin Skunk" in one.content.decode()
    several = client.get("/ratings/chance/", {"player": pat.pk, "opponent_name": "crib"})
    page = several.content.decode()
    assert several.status_code == 200 and "Several players" in page
    assert f"opponent={dana.pk}" in page and f"opponent={dale.pk}" in page
    chosen = client.get("/ratings/chance/", {"player": pat.pk, "opponent": dale.pk})
    assert "Dale Crib" in chosen.content.decode() and "beats" in chosen.content.decode()
    nobody = client.get("/ratings/chance/", {"player": pat.pk, "opponent_name": "Zebedee"})
    assert nobody.status_code == 400 and "check the spelling" in nobody.content.decode()
    themself = client.get("/ratings/chance/", {"player": pat.pk, "opponent_name": "Pat"})
    assert themself.status_code == 400  # only Pat matches "Pat", and Pat is left out


def test_the_ratings_page_says_doubles_are_left_out_and_why(client):
    page = client.get("/ratings/").content.decode()
    assert "Doubles games are left out of the ratings" in page
    assert "tossing a coin" in page  # the backtest's finding, in plain words
