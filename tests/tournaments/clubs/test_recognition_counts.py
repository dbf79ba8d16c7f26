"""What recognition and sanctioning gate (issue 27): a player's skill rating moves only with
sanctioned events and recognised clubs' nights; granting or withdrawing either works every
rating out again; the national Grass Roots table and a player's page show only recognised
clubs' nights, while an unrecognised club's own season table keeps working."""

from __future__ import annotations

from datetime import date

import pytest

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.helpers import client_for, play_night, play_playoffs
from tournaments.models import Event, Job, PlayerRating, RatingPoint
from tournaments.services.club_recognition import (
    club_recognition_grant,
    club_recognition_revoke,
)
from tournaments.services.sanctioning import event_sanction_grant, event_sanction_revoke

pytestmark = pytest.mark.django_db


def _rated(players) -> set[int]:
    return set(PlayerRating.objects.filter(player__in=players).values_list("player_id", flat=True))


def test_a_night_counts_only_while_its_club_is_recognised(django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    director, office = UserFactory(), UserFactory(is_staff=True)
    club = ClubFactory(name="Harbour Pegs", director=director, recognised=False)
    players = [PlayerFactory(name=f"Harbour {i}") for i in range(10)]
    night = play_night(club, director, players, date(2026, 9, 8), capture)
    anyone = client_for()
    assert night.stage == Event.Stage.FINISHED and night.rated_at is None
    assert not _rated(players) and not RatingPoint.objects.filter(event=night).exists()
    assert anyone.get("/api/v1/grass-roots/2026/").json()["count"] == 0
    own = anyone.get(f"/api/v1/clubs/{club.pk}/standings/", {"season": 2026}).json()
    assert len(own["rows"]) == 10  # the club's own table: its own business
    assert "Harbour Pegs" not in anyone.get(f"/players/{players[0].pk}/").content.decode()
    season = anyone.get(f"/clubs/{club.pk}/").content.decode()
    assert "Season 2026-2027" in season and "national leaderboard" not in season

    with capture(execute=True):
        club_recognition_grant(club=club, user=office)
    assert Job.objects.filter(kind="ratings-all").exists()
    night.refresh_from_db()
    assert night.rated_at is not None and _rated(players) == {p.pk for p in players}
    national = anyone.get("/api/v1/grass-roots/2026/").json()
    assert national["count"] == 10 and {r["club"] for r in national["results"]} == {"Harbour Pegs"}
    assert "Harbour Pegs" in anyone.get(f"/players/{players[0].pk}/").content.decode()

    with capture(execute=True):
        club_recognition_revoke(club=club, user=office, note="Charter lapsed")
    night.refresh_from_db()
    assert night.rated_at is None and not _rated(players)
    assert anyone.get("/api/v1/grass-roots/2026/").json()["count"] == 0
    own = anyone.get(f"/api/v1/clubs/{club.pk}/standings/", {"season": 2026}).json()
    assert len(own["rows"]) == 10


def test_a_recognised_clubs_night_is_rated_at_once(club_world):
    night = club_world.night(date(2026, 9, 8))
    assert night.rated_at is not None
    assert _rated(club_world.players) == {p.pk for p in club_world.players}


def test_a_weekend_event_is_rated_only_while_sanctioned(
    finished_event, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    event = finished_event(players=12, games=5, play=False, sanctioned=False)
    with capture(execute=True):
        play_playoffs(event)
    event.refresh_from_db()
    players = list(event.entries.values_list("player_id", flat=True))
    assert event.stage == Event.Stage.FINISHED
    assert event.rated_at is None and not _rated(players)  # made by anyone: not rated
    office = UserFactory(is_staff=True)
    with capture(execute=True):
        event_sanction_grant(event=event, user=office)
    event.refresh_from_db()
    assert event.rated_at is not None and _rated(players) == set(players)
    with capture(execute=True):
        event_sanction_revoke(event=event, user=office, note="Not on the ACC calendar")
    event.refresh_from_db()
    assert event.rated_at is None and not _rated(players)


def test_only_an_unrecognised_clubs_nights_leave_the_players_page():
    from tests.factories import EntryFactory, EventFactory

    player = PlayerFactory(name="Ann Able")
    unrecognised = ClubFactory(name="Harbour Pegs", recognised=False)
    recognised = ClubFactory(name="Pine Pegs")
    for name, club in (("Loose night", None), ("Harbour night", unrecognised),
                       ("Pine night", recognised)):  # fmt: skip
        event = EventFactory(name=name, published=True, club=club)
        EntryFactory(event=event, player=player)
    page = client_for().get(f"/players/{player.pk}/").content.decode()
    assert "Loose night" in page and "Pine night" in page
    assert "Harbour night" not in page


def test_a_merge_into_a_recognised_club_rates_the_merged_nights(
    django_capture_on_commit_callbacks,
):
    from tournaments.services.clubs_admin import club_merge

    capture = django_capture_on_commit_callbacks
    typo = ClubFactory(name="Pine Pegz", recognised=False)
    players = [PlayerFactory(name=f"Pine {i}") for i in range(10)]
    play_night(typo, typo.director, players, date(2026, 9, 8), capture)
    assert not _rated(players)
    with capture(execute=True):
        club_merge(keep=ClubFactory(name="Pine Pegs"), merge=typo, user=UserFactory(is_staff=True))
    assert _rated(players) == {p.pk for p in players}
    assert client_for().get("/api/v1/grass-roots/2026/").json()["count"] == 10
