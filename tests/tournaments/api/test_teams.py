"""Teams of two through the API: POST /api/v1/events/<id>/teams/ and the list."""

from __future__ import annotations

import pytest

from tests.factories import EntryFactory, EventFactory, PlayerFactory
from tournaments.models import AuditEntry, Entry, Player, Team

pytestmark = pytest.mark.django_db

ANN = {"name": "Ann Ash", "acc_number": "A1001"}
BO = {"name": "Bo Birch"}


@pytest.fixture
def doubles(director):
    return EventFactory(director=director, qualifying_games=3, style="doubles")


def teams_url(event) -> str:
    return f"/api/v1/events/{event.pk}/teams/"


def test_a_team_is_entered_with_each_partner_on_their_own_entry(api, doubles):
    response = api.post(teams_url(doubles), {"players": [ANN, BO]}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["name"] == "Ann Ash & Bo Birch" and body["drawn"] is False
    assert [m["name"] for m in body["members"]] == ["Ann Ash", "Bo Birch"]
    entries = Entry.objects.filter(pk__in=[m["entry_id"] for m in body["members"]])
    # Each partner keeps a player record, an ACC number and a private link of their own.
    assert {e.player.pk for e in entries} == {m["player_id"] for m in body["members"]}
    assert len({e.report_token for e in entries}) == 2
    assert Player.objects.get(acc_number="A1001").name == "Ann Ash"
    assert all(e.team_id == body["id"] for e in entries)
    listed = api.get(teams_url(doubles)).json()
    assert [t["id"] for t in listed] == [body["id"]]
    entry_rows = api.get(f"/api/v1/events/{doubles.pk}/entries/").json()["results"]
    assert {row["team_name"] for row in entry_rows} == {"Ann Ash & Bo Birch"}
    assert AuditEntry.objects.filter(event=doubles, action="team_register").count() == 1


def test_a_given_name_and_a_walk_in_team(api, doubles):
    response = api.post(
        teams_url(doubles),
        {"players": [ANN, BO], "name": "The Skunks", "check_in": True},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["name"] == "The Skunks"
    assert {m["status"] for m in response.json()["members"]} == {"checked_in"}


@pytest.mark.parametrize(
    ("data", "field", "code"),
    [
        ({"players": [ANN]}, "players", "team_size"),
        ({"players": [ANN, BO, {"name": "Cy"}]}, "players", "team_size"),
        ({"players": [ANN, {**BO, "nickname": "B"}]}, "players", "unknown_field"),
        ({"players": [ANN, BO], "colour": "red"}, "colour", "unknown_field"),
        ({"players": [ANN, {"name": "Cy", "acc_number": "A1001"}]}, None, "acc_number_taken"),
    ],
)
def test_a_refused_team_changes_nothing(api, doubles, data, field, code):
    response = api.post(teams_url(doubles), data, format="json")
    assert response.status_code == 400, response.json()
    error = response.json()["errors"][0]
    assert error["code"] == code
    if field:
        assert error["field"].startswith(field)
    assert not Entry.objects.filter(event=doubles).exists()
    assert not Team.objects.exists() and not Player.objects.filter(name="Ann Ash").exists()


def test_a_singles_event_refuses_teams_and_says_where_to_change_it(api, director):
    singles = EventFactory(director=director)
    response = api.post(teams_url(singles), {"players": [ANN, BO]}, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["code"] == "singles_event" and "settings page" in error["message"]
    assert not Entry.objects.filter(event=singles).exists()


def test_a_player_already_in_a_team_is_refused(api, doubles):
    api.post(teams_url(doubles), {"players": [ANN, BO]}, format="json")
    again = api.post(teams_url(doubles), {"players": [ANN, {"name": "Cy"}]}, format="json")
    assert again.status_code == 400
    assert again.json()["errors"][0]["code"] == "already_entered"
    assert Team.objects.count() == 1 and not Player.objects.filter(name="Cy").exists()


def test_another_director_and_a_visitor_are_refused(other_director, anonymous, doubles):
    for client, expected in ((other_director, 403), (anonymous, 404)):
        assert client.get(teams_url(doubles)).status_code in (expected, 401, 403, 404)
        response = client.post(teams_url(doubles), {"players": [ANN, BO]}, format="json")
        assert response.status_code in (401, 403, 404)
    assert not Entry.objects.filter(event=doubles).exists()


def test_the_list_costs_two_queries_whatever_the_field(api, doubles, django_assert_max_num_queries):
    for n in range(6):
        api.post(
            teams_url(doubles), {"players": [{"name": f"P{n}a"}, {"name": f"P{n}b"}]}, format="json"
        )
    with django_assert_max_num_queries(8):  # session, user, role, event, teams, members
        assert len(api.get(teams_url(doubles)).json()) == 6


def test_the_doubles_preset_and_the_style_setting(api):
    made = api.post(
        "/api/v1/events/", {"name": "Friday Doubles", "preset": "acc-doubles-satellite"}
    )
    assert made.status_code == 201, made.json()
    assert (made.json()["style"], made.json()["kind"]) == ("doubles", "satellite")
    event_url = f"/api/v1/events/{made.json()['id']}/"
    changed = api.patch(event_url, {"style": "canadian_doubles"}, format="json")
    assert changed.status_code == 200 and changed.json()["style"] == "canadian_doubles"
    bad = api.patch(event_url, {"style": "triples"}, format="json")
    assert bad.status_code == 400


def test_existing_entries_of_an_event_are_untouched(api, doubles):
    solo = EntryFactory(event=doubles, player=PlayerFactory(name="Solo Sam"))
    api.post(teams_url(doubles), {"players": [ANN, BO]}, format="json")
    solo.refresh_from_db()
    assert solo.team_id is None
