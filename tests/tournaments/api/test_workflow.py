"""A new director runs a Grass Roots club night through the API, from preset to game 9."""

from __future__ import annotations

import itertools

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.helpers import client_for, csv_of, meetings, seated
from tournaments.models import Entry, Player

pytestmark = pytest.mark.django_db

CSV_PLAYERS = [
    ("Bea Baker", "A1002", "Riverside", "bea@example.org", ""),
    ("Cal Cross", "A1003", "Riverside", "", "555-0103"),
    ("Dot Dealer", "", "Hillside", "", ""),
    ("Eve Eden", "A1005", "", "eve@example.org", ""),
    ("Fay Fifteen", "A1006", "Hillside", "", ""),
    ("Gus Go", "", "", "", ""),
    ("Hal Heels", "A1008", "Riverside", "", ""),
    ("Ivy Ivory", "A1009", "", "", ""),
]


def test_a_club_night_from_preset_to_a_complete_round_robin(api, anonymous, pair):
    created = api.post(
        "/api/v1/events/",
        {"name": "Tuesday club night", "preset": "grass-roots", "starts_on": "2026-03-03"},
    )
    assert created.status_code == 201, created.json()
    event = created.json()
    assert event["preset"] == "grass-roots" and event["kind"] == "club_night"
    assert event["qualifying_games"] == 9 and event["qualifier_ratio"] == 0
    assert event["stage"] == "registration"
    base = f"/api/v1/events/{event['id']}"

    by_form = api.post(
        f"{base}/entries/",
        {"name": "Ann Able", "acc_number": "A1001", "club": "Riverside", "email": "a@example.org",
         "new_club": True},
    )  # fmt: skip
    assert by_form.status_code == 201, by_form.json()
    assert by_form.json()["status"] == "registered" and by_form.json()["club"] == "Riverside"

    upload = SimpleUploadedFile("players.csv", csv_of(*CSV_PLAYERS).encode(), "text/csv")
    body = {"file": upload, "clubs.Hillside": "new"}  # Riverside is known by now
    imported = api.post(f"{base}/entries/import/", body, format="multipart")
    assert imported.status_code == 201, imported.json()
    assert sorted(e["name"] for e in imported.json()) == [row[0] for row in CSV_PLAYERS]

    walk_in = api.post(f"{base}/entries/", {"name": "Jo Jack", "check_in": True})
    assert walk_in.status_code == 201 and walk_in.json()["status"] == "checked_in"

    entries = api.get(f"{base}/entries/").json()["results"]
    assert len(entries) == 10
    for entry in entries:
        if entry["status"] == "registered":
            checked = api.post(f"/api/v1/entries/{entry['id']}/check-in/")
            assert checked.status_code == 200 and checked.json()["status"] == "checked_in"
    entries = api.get(f"{base}/entries/").json()["results"]
    assert {e["status"] for e in entries} == {"checked_in"}
    dot = next(e for e in entries if e["name"] == "Dot Dealer")
    assert (dot["acc_number"], dot["club"], dot["joined_from_game"]) == ("", "Hillside", 1)

    closed = api.post(f"{base}/close-registration/")
    assert closed.status_code == 200 and closed.json()["stage"] == "qualifying"

    game_1 = pair(api, event["id"], 1)
    games = api.get(f"{base}/games/").json()["results"]
    assert [(g["number"], g["status"], g["job"]["status"]) for g in games] == [
        (1, "paired", "succeeded")
    ]
    assert games[0]["job"]["progress"] == 100
    assert api.post(f"{base}/games/1/publish/").json()["status"] == "published"

    # Visitors see nothing until the event itself is published.
    assert anonymous.get(f"{base}/games/1/").status_code == 404
    assert api.patch(f"{base}/", {"published": True}).status_code == 200
    public = anonymous.get(f"{base}/games/1/")
    assert public.status_code == 200
    assert public.json()["tables"] == game_1["tables"]

    entry_ids = {e["id"] for e in entries}
    assert [t["number"] for t in game_1["tables"]] == [1, 2, 3, 4, 5]
    assert game_1["sit_out"] is None
    assert sorted(seated(game_1)) == sorted(entry_ids)
    by_name = game_1["by_name"]
    assert [row["name"] for row in by_name] == sorted(e["name"] for e in entries)
    assert all(row["table"] in range(1, 6) and row["opponent"] for row in by_name)

    too_far = api.post(f"{base}/games/10/pair/")
    assert too_far.status_code == 400
    assert too_far.json()["errors"][0] == {
        "field": "number",
        "code": "no_such_game",
        "message": "This event has games 1 to 9; there is no game 10.",
    }
    assert Player.objects.count() == 10 and Entry.objects.count() == 10

    played = [meetings(game_1)]
    for number in range(2, 10):
        game = pair(api, event["id"], number)
        assert sorted(seated(game)) == sorted(entry_ids), f"game {number}"
        assert api.post(f"{base}/games/{number}/publish/").status_code == 200
        played.append(meetings(game))
    every_pair = {frozenset(p) for p in itertools.combinations(entry_ids, 2)}
    assert sum(len(game) for game in played) == 45
    assert set().union(*played) == every_pair  # 45 meetings, 45 pairs: no one met twice


def test_the_director_token_works_for_the_whole_api(director):
    """A script using a token (not a session) gets the same answers."""
    client = client_for()
    director.set_password("a long pass phrase")
    director.save()
    token = client.post(
        "/api/v1/auth/token/", {"username": "td", "password": "a long pass phrase"}
    ).json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = client.post("/api/v1/events/", {"name": "Scripted", "preset": "acc-main"})
    assert created.status_code == 201
    assert created.json()["qualifying_games"] == 22
    assert [e["name"] for e in client.get("/api/v1/events/").json()["results"]] == ["Scripted"]
