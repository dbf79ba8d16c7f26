"""The national Grass Roots table ranks players by the same rule as a club's season (points,
then games won, then net spread), and names each player's club, home club or not."""

from datetime import date

import pytest

from tests.factories import ClubFactory, EntryFactory, PlayerFactory, UserFactory
from tests.helpers import client_for
from tournaments.models import NightCard
from tournaments.services.clubs import club_night_create

pytestmark = pytest.mark.django_db


def _card(night, player, *, points, won, spread):
    entry = EntryFactory(event=night, player=player)
    NightCard.objects.create(
        event=night, club=night.club, entry=entry, player=player, season=2026,
        played_on=night.starts_on, game_points=points, games_won=won, games_played=9,
        net_spread=spread, grass_roots_points=points, rule="acc-12:2024",
    )  # fmt: skip


@pytest.fixture
def four_level_on_points():
    """Four players of one club night, all on 14 points, apart by wins and then spread."""
    director = UserFactory()
    club = ClubFactory(name="Pine Pegs", director=director)
    night = club_night_create(club=club, user=director, played_on=date(2026, 9, 8))
    players = [PlayerFactory(name=f"Level {i}", home_club=None) for i in range(4)]
    for player, (won, spread) in zip(players, [(5, 10), (7, -3), (5, 40), (6, 0)], strict=True):
        _card(night, player, points=14, won=won, spread=spread)
    return club, players


def test_national_ranks_match_the_clubs_season(four_level_on_points):
    club, players = four_level_on_points
    season = client_for().get(f"/api/v1/clubs/{club.pk}/standings/", {"season": 2026}).json()
    club_ranks = [(r["player_id"], r["rank"]) for r in season["rows"]]
    national = client_for().get("/api/v1/grass-roots/2026/").json()["results"]
    assert [(r["player_id"], r["rank"]) for r in national] == club_ranks
    by_wins = [players[1].pk, players[3].pk, players[2].pk, players[0].pk]
    assert club_ranks == list(zip(by_wins, [1, 2, 3, 4], strict=True))


def test_national_table_names_the_club_played_at(client, four_level_on_points):
    club, players = four_level_on_points
    national = client_for().get("/api/v1/grass-roots/2026/").json()["results"]
    assert {r["club"] for r in national} == {"Pine Pegs"}
    page = client.get("/grass-roots/2026/").content.decode()
    assert page.count("Pine Pegs") == 4 and "Level 1" in page
