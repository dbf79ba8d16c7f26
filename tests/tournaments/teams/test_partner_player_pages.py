"""Each partner's own player page (and its API) shows the doubles event with the team's
figures, kept on the first partner's card: game points, spread, rank, and the team by name
with both partners."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tournaments.models import Entry, Team
from tournaments.selectors.results import standings_table
from tournaments.services.simulation import event_simulate

pytestmark = pytest.mark.django_db(transaction=True)  # the simulation's jobs run on commit


def test_both_partners_pages_show_the_teams_results():
    event = event_simulate(
        players=12, games=2, seed=3, director=UserFactory(), style="doubles", rulings=0,
        stop_after_game=2,
    ).event  # fmt: skip
    rows = standings_table(event=event).rows
    team = Team.objects.get(pk=rows[0]["team_id"])
    Team.objects.filter(pk=team.pk).update(name="The Pegs")
    row = rows[0]
    assert row["game_points"] > 0
    partners = list(Entry.objects.filter(team=team).select_related("player").order_by("pk"))
    label = f"The Pegs ({partners[0].name} and {partners[1].name})"
    client = Client()
    for entry in partners:
        api = client.get(f"/api/v1/players/{entry.player_id}/").json()
        (played,) = [e for e in api["events"] if e["event_id"] == event.pk]
        assert (played["game_points"], played["net_spread"]) == (
            row["game_points"],
            row["net_spread"],
        )
        assert played["team"] == label and played["finish"] == str(row["rank"])
        page = client.get(reverse("player-detail", args=[entry.player_id])).content.decode()
        assert "Team The Pegs (" in page
