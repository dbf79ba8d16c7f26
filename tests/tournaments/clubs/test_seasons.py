"""Club nights and seasons: a night made in one action, its cards written as soon as its last
game is verified, the season standings with the club's rule and worst-night drop, awards."""

from datetime import date

import pytest

from tests.factories import UserFactory
from tests.helpers import client_for
from tournaments.core.seasons import Card, season_of, season_standings
from tournaments.errors import ServiceError
from tournaments.models import ClubAward, Entry, Event, NightCard
from tournaments.services.clubs import club_award_record, club_update_settings

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("day", "season"),
    [(date(2026, 9, 1), 2026), (date(2027, 5, 31), 2026), (date(2027, 1, 5), 2026),
     (date(2026, 7, 4), None), (date(2026, 8, 31), None)],
)  # fmt: skip
def test_a_season_runs_september_to_may(day, season):
    assert season_of(day) == season


def test_standings_drop_the_worst_night_and_share_ranks():
    cards = [
        Card(1, 10, 14, 14, 7, 9, 30), Card(1, 11, 0, 8, 4, 9, -5),
        Card(2, 10, 14, 14, 7, 9, 30), Card(2, 11, 0, 6, 3, 9, -20),
    ]  # fmt: skip
    rows = season_standings(cards, drop=1)
    assert [(r.player_id, r.rank, r.grass_roots_points, r.nights, r.dropped) for r in rows] == [
        (1, 1, 14, 2, (11,)), (2, 1, 14, 2, (11,)),
    ]  # fmt: skip


def test_a_finished_night_writes_its_cards_with_no_extra_step(club_world):
    night = club_world.night(date(2026, 9, 8))
    assert night.stage == Event.Stage.FINISHED and night.kind == "club_night"
    cards = {c.player_id: c for c in NightCard.objects.filter(event=night)}
    assert len(cards) == 10
    best = cards[club_world.players[0].pk]  # the lowest id beats everyone: 9-0
    assert (best.games_won, best.games_played, best.game_points) == (9, 9, 18)
    assert best.grass_roots_points == 18 and best.season == 2026
    low = cards[club_world.players[-1].pk]
    assert (low.game_points, low.grass_roots_points) == (0, 0)


def test_the_season_standings_add_up_nights(club_world):
    club = club_world.club
    club_update_settings(club=club, user=club_world.director, drop_worst_nights=1)
    club_world.night(date(2026, 9, 8))
    club_world.night(date(2026, 9, 15), winner=max)  # the order turned upside down
    answer = client_for().get(f"/api/v1/clubs/{club.pk}/standings/", {"season": 2026}).json()
    rows = {r["player_id"]: r for r in answer["rows"]}
    top, bottom = club_world.players[0].pk, club_world.players[-1].pk
    # each kept their good night (18 points); the 0-point night is dropped
    assert rows[top]["grass_roots_points"] == 18 and rows[bottom]["grass_roots_points"] == 18
    assert rows[top]["nights"] == 2 and len(rows[top]["dropped"]) == 1
    expected = {}
    for card in NightCard.objects.filter(club=club, season=2026):
        expected.setdefault(card.player_id, []).append(card.grass_roots_points)
    for player, points in expected.items():
        assert rows[player]["grass_roots_points"] == sum(points) - min(points)
    leaders = [r for r in answer["rows"] if r["rank"] == 1]
    assert answer["champion"] == (leaders[0]["name"] if len(leaders) == 1 else None)
    assert answer["rule"].startswith("A card of 12 or more")


def test_a_correction_moves_the_season(club_world, django_capture_on_commit_callbacks):
    from scoring.games import CardLine as EngineLine
    from tournaments.models import Table
    from tournaments.services.corrections import table_correct

    night = club_world.night(date(2026, 9, 8))
    table = Table.objects.filter(game__event=night, game__number=1).first()
    a, b = table.seats.order_by("position")
    before = NightCard.objects.get(event=night, entry=a.entry).game_points
    won = a.card_lines.get(kind="verified", current=True).game_points > 0
    lines = {a.pk: EngineLine(0, 0, 50), b.pk: EngineLine(3, 50, 0)} if won else {
        a.pk: EngineLine(3, 50, 0), b.pk: EngineLine(0, 0, 50)}  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        table_correct(
            table=table, lines=lines, reason="swapped", user=club_world.director,
            source="director",
        )  # fmt: skip
    after = NightCard.objects.get(event=night, entry=a.entry).game_points
    assert after == (before - 2 if won else before + 3)


def test_awards_are_checked(club_world):
    night = club_world.night(date(2026, 9, 8))
    club, director = club_world.club, club_world.director
    best = Entry.objects.get(event=night, player=club_world.players[0])
    second = Entry.objects.get(event=night, player=club_world.players[1])
    award = club_award_record(club=club, user=director, entry=best, kind="grand_slam")
    assert award.season == 2026
    with pytest.raises(ServiceError, match="every game won"):
        club_award_record(club=club, user=director, entry=second, kind="grand_slam")
    hand = club_award_record(
        club=club, user=director, entry=second, kind="hand_29", hand="5H 5D 5S JC", starter="5C"
    )
    assert hand.score == 29
    with pytest.raises(ServiceError, match="counts 5H 5D 5S JC with 5C as 29, not 28"):
        club_award_record(
            club=club, user=director, entry=second, kind="hand_28", hand="5H 5D 5S JC",
            starter="5C",
        )  # fmt: skip
    with pytest.raises(ServiceError, match="club's directors"):
        club_award_record(club=club, user=UserFactory(), entry=best, kind="grand_slam")
    assert ClubAward.objects.count() == 2


def test_clubs_and_nights_by_api(django_capture_on_commit_callbacks):
    director = UserFactory()
    api = client_for(director)
    made = api.post("/api/v1/clubs/", {"name": "Wednesday Skunks"}, format="json")
    assert made.status_code == 201
    club_id = made.json()["club"]["id"]
    assert made.json()["directors"] == [director.username]
    night = api.post(f"/api/v1/clubs/{club_id}/nights/", {"date": "2026-10-06"}, format="json")
    assert night.status_code == 201
    event = Event.objects.get(pk=night.json()["id"])
    assert (event.kind, event.club_id, event.qualifying_games, event.published) == (
        "club_night", club_id, 9, True,
    )  # fmt: skip
    detail = client_for().get(f"/api/v1/clubs/{club_id}/").json()
    assert [n["id"] for n in detail["nights"]] == [event.pk]
    stranger = client_for(UserFactory())
    assert (
        stranger.post(f"/api/v1/clubs/{club_id}/nights/", {"date": "2026-10-13"}).status_code == 403
    )
    assert client_for().get(f"/api/v1/clubs/{club_id}/standings/").status_code == 400


def test_rebuilding_every_card_gives_the_same_cards(club_world):
    from tournaments.services.night_cards import night_cards_rebuild_all

    club_world.night(date(2026, 9, 8))
    club_world.night(date(2026, 9, 15), winner=max)

    def cards():
        return sorted(
            NightCard.objects.values_list(
                "event_id", "player_id", "season", "game_points", "games_won", "games_played",
                "net_spread", "grass_roots_points", "rule",
            )
        )  # fmt: skip

    before = cards()
    assert night_cards_rebuild_all() == {"nights": 2, "cards": 20}
    assert cards() == before


def test_a_night_in_the_year_9999_is_refused_naming_the_date(club_world, client):
    """Issue 22: a club night in the year 9999 was accepted."""
    club, director = club_world.club, club_world.director
    api = client_for(director)
    answer = api.post(f"/api/v1/clubs/{club.pk}/nights/", {"date": "9999-12-31"})
    assert answer.status_code == 400
    [error] = answer.json()["errors"]
    assert (error["field"], error["code"]) == ("date", "date_out_of_range")
    assert "31 December 9999" in error["message"] and "give a date from" in error["message"]
    client.force_login(director)
    page = client.post(f"/clubs/{club.pk}/nights/", {"played_on": "9999-12-31"})
    assert page.status_code == 400 and "give a date from" in page.content.decode()
    assert not Event.objects.filter(kind="club_night").exists()
    assert api.post(f"/api/v1/clubs/{club.pk}/nights/", {"date": "2026-09-08"}).status_code == 201


def test_an_event_date_outside_the_window_is_refused(club_world):
    api = client_for(club_world.director)
    body = {"name": "Far off", "preset": "acc-main", "starts_on": "9999-01-01"}
    answer = api.post("/api/v1/events/", body)
    assert [e["field"] for e in answer.json()["errors"]] == ["starts_on"]
    made = api.post("/api/v1/events/", {**body, "starts_on": "2026-12-05"}).json()
    moved = api.patch(f"/api/v1/events/{made['id']}/", {"starts_on": "1900-01-01"})
    assert [e["field"] for e in moved.json()["errors"]] == ["starts_on"]


def test_a_season_is_listed_once_on_the_club_page(club_world, client):
    """Issue 22: "Season 2026-2027" was listed once per night card on the club page."""
    club_world.night(date(2026, 9, 8))
    club_world.night(date(2026, 9, 15))
    page = client.get(f"/clubs/{club_world.club.pk}/").content.decode()
    assert page.count("Season 2026-2027") == 1
    assert client_for().get(f"/api/v1/clubs/{club_world.club.pk}/").json()["seasons"] == [2026]
