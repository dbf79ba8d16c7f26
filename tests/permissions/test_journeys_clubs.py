"""A journey closed by club recognition (issue 27): sign-up is open, any account makes a club,
a club night of it, enters a real player by ACC number beside players of its own making, and
reports every table from both seats (it holds every link of its own event). The night
completes, and the real player's shared record stays as it was: a club the ACC office has not
recognised reaches neither the skill ratings (``services.ratings`` rates only sanctioned events
and recognised clubs' nights) nor the national Grass Roots table, nor the player's page. The
club's own season table keeps the night's cards: it is the club's own business, on its page.
Once the ACC office recognises the club, the same night counts (so the gate is what held).
"""

from __future__ import annotations

from datetime import date

import pytest

from tests.factories import PlayerFactory, UserFactory
from tests.helpers import client_for, play_night
from tournaments.models import Club, Event, NightCard, PlayerRating
from tournaments.services.club_recognition import club_recognition_grant

pytestmark = pytest.mark.django_db


def test_a_strangers_own_club_night_leaves_a_real_players_record_alone(
    django_capture_on_commit_callbacks,
):
    vera = PlayerFactory(name="Vera Vale", acc_number="V-100")
    stranger = UserFactory()
    made = client_for(stranger).post("/api/v1/clubs/", {"name": "Made Up Pegs"}, format="json")
    assert made.status_code == 201, made.json()
    club = Club.objects.get(name="Made Up Pegs")
    puppets = [PlayerFactory(name=f"Puppet {i}") for i in range(9)]

    def vera_loses(a: int, b: int) -> int:
        return b if a == vera.pk else a

    play_night(
        club, stranger, [vera, *puppets], date(2026, 9, 8), django_capture_on_commit_callbacks,
        winner=vera_loses, spread=lambda game, table: 60,
    )  # fmt: skip
    night = Event.objects.get(club=club)
    assert night.stage == Event.Stage.FINISHED  # the night completed
    assert NightCard.objects.filter(event=night).count() == 10  # the club's own season table
    assert not PlayerRating.objects.filter(player__in=[vera, *puppets]).exists()
    anyone = client_for()
    national = anyone.get("/api/v1/grass-roots/2026/").json()
    assert national["count"] == 0
    page = anyone.get(f"/players/{vera.pk}/").content.decode()
    assert "Made Up Pegs" not in page and "Vera Vale" in page
    own = anyone.get(f"/api/v1/clubs/{club.pk}/standings/", {"season": 2026}).json()
    assert len(own["rows"]) == 10  # the club's own table keeps working

    # The ACC office recognises the club: the night now counts, by the recompute it asks for.
    with django_capture_on_commit_callbacks(execute=True):
        club_recognition_grant(club=club, user=UserFactory(is_staff=True))
    assert PlayerRating.objects.filter(player=vera).exists()
    assert anyone.get("/api/v1/grass-roots/2026/").json()["count"] == 10
    assert "Made Up Pegs" in anyone.get(f"/players/{vera.pk}/").content.decode()
