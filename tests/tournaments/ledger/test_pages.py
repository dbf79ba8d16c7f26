"""Player pages, the MRP leaderboards and the ACC results package, as pages and API."""

import csv
import io

import pytest

from tests.factories import UserFactory
from tests.helpers import client_for
from tournaments.models import Club, Event, MrpAward, Player, PlayoffSeed
from tournaments.services.ledger import event_finalise_request

pytestmark = pytest.mark.django_db


@pytest.fixture
def finalised(finished_event, django_capture_on_commit_callbacks):
    def make(**settings):
        event = finished_event(**settings)
        Event.objects.filter(pk=event.pk).update(published=True)
        with django_capture_on_commit_callbacks(execute=True):
            event_finalise_request(event=event, user=event.director)
        event.refresh_from_db()
        return event

    return make


def test_a_players_page_and_api(client, finalised):
    event = finalised()
    award = MrpAward.objects.filter(event=event, current=True).order_by("-points").first()
    data = client_for().get(f"/api/v1/players/{award.player_id}/").json()
    assert data["mrp_total"] == award.points
    assert data["mrp_by_year"] == {str(award.year): award.points}
    row = data["events"][0]
    assert (row["event_id"], row["mrp"], row["finish"]) == (event.pk, award.points, "1")
    page = client.get(f"/players/{award.player_id}/").content.decode()
    assert f"/players/{award.player_id}/chart.svg" in page and str(award.points) in page
    chart = client.get(f"/players/{award.player_id}/chart.svg")
    assert chart["Content-Type"].startswith("image/svg+xml")
    assert str(award.year) in chart.content.decode()


def test_an_unpublished_event_stays_off_the_public_page(client, finished_event):
    event = finished_event()
    player = PlayoffSeed.objects.filter(playoff__event=event).first().entry.player
    assert client_for().get(f"/api/v1/players/{player.pk}/").json()["events"] == []
    admin = UserFactory(is_staff=True)
    assert len(client_for(admin).get(f"/api/v1/players/{player.pk}/").json()["events"]) == 1


def test_the_leaderboard_ranks_filters_and_keeps_its_queries(
    client, finalised, django_assert_max_num_queries
):
    event = finalised()
    north = Club.objects.create(name="North Pegs", region="North-East")
    first = MrpAward.objects.filter(event=event, current=True).order_by("-points").first()
    Player.objects.filter(pk=first.player_id).update(home_club=north)
    rows = client_for().get("/api/v1/leaderboards/mrp/").json()["results"]
    points = [r["points"] for r in rows]
    assert points == sorted(points, reverse=True)
    assert rows[0]["player_id"] == first.player_id and rows[0]["rank"] == 1
    for before, after in zip(rows, rows[1:], strict=False):  # ties share a rank
        assert after["rank"] == (before["rank"] if after["points"] == before["points"] else
                                 rows.index(after) + 1)  # fmt: skip
    by_region = client_for().get("/api/v1/leaderboards/mrp/", {"region": "north-east"}).json()
    assert [r["player_id"] for r in by_region["results"]] == [first.player_id]
    by_club = client_for().get("/api/v1/leaderboards/mrp/", {"club": north.pk}).json()
    assert by_club["count"] == 1
    assert client_for().get("/api/v1/leaderboards/mrp/", {"year": 1800}).status_code == 400
    with django_assert_max_num_queries(8):
        page = client.get("/players/", {"year": first.year}).content.decode()
    assert first.player.name in page


def test_the_acc_package_after_finalisation(client, finished_event, finalised):
    waiting = finished_event()
    api = client_for(waiting.director)
    assert api.get(f"/api/v1/events/{waiting.pk}/acc-results/").status_code == 409
    event = finalised()
    top = PlayoffSeed.objects.get(playoff__event=event, seed=1).entry.player
    top.name, top.acc_number = '=HYPERLINK("http://x","y")', ""
    top.save()
    data = client_for(event.director).get(f"/api/v1/events/{event.pk}/acc-results/").json()
    assert (data["style"], data["games"], data["qualifiers"]) == ("Consolation", 7, 3)
    assert data["without_acc_number"] == [top.name]
    assert {r["name"] for r in data["rows"]} >= {top.name}
    client.force_login(event.director)
    body = client.get(f"/events/{event.pk}/acc-results.csv").content.decode()
    lines = list(csv.reader(io.StringIO(body)))
    assert ["Style", "Consolation"] in lines and ["Qualifiers", "3"] in lines
    header = lines.index(next(line for line in lines if line and line[0] == "acc_number"))
    players = lines[header + 1 :]
    assert len(players) == 12
    named = next(line for line in players if "HYPERLINK" in line[2])
    assert named[2].startswith("'=") and named[1] == "no: not a member"
    sheet = client.get(f"/events/{event.pk}/acc-results/").content.decode()
    assert "without an ACC number" in sheet
    results_csv = client.get(f"/events/{event.pk}/results.csv").content.decode()
    assert "'=HYPERLINK" in results_csv and "\n=HYPERLINK" not in results_csv
    client.force_login(UserFactory())
    assert client.get(f"/events/{event.pk}/acc-results.csv").status_code == 403
