"""Games through the API: pairing jobs, round robins, sit-outs, late entries and withdrawals,
re-pairing, publishing, and what the pairings endpoint costs."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import EntryFactory, EventFactory
from tests.helpers import meetings, seated
from tournaments.models import Entry, Game

pytestmark = pytest.mark.django_db


def entry_ids(event, **filters) -> set[int]:
    return set(event.entries.filter(**filters).values_list("pk", flat=True))


def play_all(api, pair, event) -> list[dict]:
    games = []
    for number in range(1, event.qualifying_games + 1):
        games.append(pair(api, event.pk, number))
        assert api.post(f"/api/v1/events/{event.pk}/games/{number}/publish/").status_code == 200
    return games


@pytest.mark.parametrize("players", [8, 10])
def test_an_even_field_plays_a_complete_round_robin(api, make_event, pair, players):
    event = make_event(players, qualifying_games=players - 1)
    everyone = entry_ids(event)
    games = play_all(api, pair, event)
    for number, game in enumerate(games, start=1):
        assert [t["number"] for t in game["tables"]] == list(range(1, players // 2 + 1))
        assert sorted(seated(game)) == sorted(everyone), f"game {number}"
        assert game["sit_out"] is None
    played = [pair_ for game in games for pair_ in meetings(game)]
    assert len(played) == len(set(played))  # nobody met twice
    assert set(played) == {frozenset(p) for p in itertools.combinations(everyone, 2)}


@pytest.mark.parametrize("players", [7, 9])
def test_an_odd_field_sits_one_player_out_per_game_and_nobody_twice(api, make_event, pair, players):
    event = make_event(players, qualifying_games=players)
    everyone = entry_ids(event)
    games = play_all(api, pair, event)
    sit_outs = [game["sit_out"]["entry_id"] for game in games]
    assert sorted(sit_outs) == sorted(everyone)  # each player exactly once
    for game in games:
        assert sorted(seated(game)) == sorted(everyone)
        lobby = {row["entry_id"]: row for row in game["by_name"]}
        assert lobby[game["sit_out"]["entry_id"]]["table"] is None
    played = [pair_ for game in games for pair_ in meetings(game)]
    assert len(played) == len(set(played)) == players * (players - 1) // 2


def test_late_entries_and_withdrawals_between_games(api, make_event, pair):
    event = make_event(8, qualifying_games=3)
    registered = EntryFactory(event=event, status="registered")
    game_1 = pair(api, event.pk, 1)
    leaving = game_1["tables"][0]["first_entry_id"]

    withdrawn = api.post(f"/api/v1/entries/{leaving}/withdraw/").json()
    assert (withdrawn["status"], withdrawn["withdrawn_after_game"]) == ("withdrawn", 1)
    late = api.post(f"/api/v1/events/{event.pk}/entries/", {"name": "Late Larry"}).json()
    assert late["joined_from_game"] == 2
    checked = api.post(f"/api/v1/entries/{registered.pk}/check-in/").json()
    assert checked["joined_from_game"] == 2  # checked in after game 1 was paired

    game_2 = pair(api, event.pk, 2)
    field_2 = set(seated(game_2))
    assert leaving not in field_2
    assert {late["id"], registered.pk} <= field_2
    assert len(field_2) == 9 and game_2["sit_out"] is not None
    assert not meetings(game_1) & meetings(game_2)
    again = api.get(f"/api/v1/events/{event.pk}/games/1/").json()
    assert leaving in seated(again)  # game 1 still shows who played it


def test_re_pairing_the_latest_game_seats_everyone_again_without_repeats(api, make_event, pair):
    event = make_event(10, qualifying_games=4)
    everyone = entry_ids(event)
    game_1 = pair(api, event.pk, 1)
    pair(api, event.pk, 2)
    assert api.post(f"/api/v1/events/{event.pk}/games/2/publish/").status_code == 200

    too_early = api.post(f"/api/v1/events/{event.pk}/games/1/repair/")
    assert too_early.status_code == 400
    assert too_early.json()["errors"][0]["code"] == "later_game_paired"

    game_2 = pair(api, event.pk, 2, action="repair")
    assert game_2["status"] == "paired"  # a fresh draft: publish it again
    assert sorted(seated(game_2)) == sorted(everyone)
    assert [t["number"] for t in game_2["tables"]] == [1, 2, 3, 4, 5]
    assert not meetings(game_1) & meetings(game_2)
    games = api.get(f"/api/v1/events/{event.pk}/games/").json()["results"]
    assert [(g["number"], g["status"]) for g in games] == [(1, "paired"), (2, "paired")]


def test_a_closed_game_cannot_be_re_paired(api, make_event, pair):
    event = make_event(4, qualifying_games=3)
    pair(api, event.pk, 1)
    Game.objects.filter(event=event, number=1).update(status=Game.Status.CLOSED)
    response = api.post(f"/api/v1/events/{event.pk}/games/1/repair/")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "closed"


def test_games_are_paired_in_order_after_registration_closes(api, director):
    event = EventFactory(director=director, qualifying_games=3)
    EntryFactory.create_batch(4, event=event)
    base = f"/api/v1/events/{event.pk}/games"
    not_yet = api.post(f"{base}/1/pair/")
    assert not_yet.status_code == 400
    assert not_yet.json()["errors"][0]["code"] == "not_qualifying"
    api.post(f"/api/v1/events/{event.pk}/close-registration/")
    skipped = api.post(f"{base}/2/pair/")
    assert skipped.json()["errors"][0] == {
        "field": "number",
        "code": "out_of_order",
        "message": "Pair game 1 first.",
    }
    assert api.post(f"{base}/1/publish/").status_code == 404  # no game 1 yet
    assert not Game.objects.filter(event=event).exclude(status="not_paired").exists()


def test_a_failed_pairing_job_explains_itself_in_the_games_list(
    api, make_event, django_capture_on_commit_callbacks
):
    event = make_event(4, qualifying_games=3)
    # Two withdraw before game 1: two players cannot play three games without meeting again.
    for entry in Entry.objects.filter(event=event)[:2]:
        api.post(f"/api/v1/entries/{entry.pk}/withdraw/")
    with django_capture_on_commit_callbacks(execute=True):
        started = api.post(f"/api/v1/events/{event.pk}/games/1/pair/")
    assert started.status_code == 202 and started.json()["status"] == "pending"
    [game] = api.get(f"/api/v1/events/{event.pk}/games/").json()["results"]
    assert (game["status"], game["job"]["status"]) == ("not_paired", "failed")
    assert "need at least 3 players" in game["job"]["error"]
    assert "2 players are active" in game["job"]["error"]


def test_pairings_cost_the_same_queries_for_10_or_60_players(
    api, anonymous, make_event, pair, django_capture_on_commit_callbacks
):
    def queries_for(players: int) -> tuple[int, int]:
        event = make_event(players, qualifying_games=3)
        pair(api, event.pk, 1)
        api.post(f"/api/v1/events/{event.pk}/games/1/publish/")
        api.patch(f"/api/v1/events/{event.pk}/", {"published": True})
        url = f"/api/v1/events/{event.pk}/games/1/"
        counts = []
        for client in (api, anonymous):
            with CaptureQueriesContext(connection) as queries:
                body = client.get(url).json()
            assert len(body["by_name"]) == players
            counts.append(len(queries))
        return tuple(counts)

    small, large = queries_for(10), queries_for(60)
    assert small == large
    assert max(large) <= 5


def test_the_games_list_costs_the_same_queries_for_any_number_of_games(api, make_event, pair):
    def queries_for(games: int) -> int:
        event = make_event(6, qualifying_games=5)
        for number in range(1, games + 1):
            pair(api, event.pk, number)
        with CaptureQueriesContext(connection) as queries:
            listed = api.get(f"/api/v1/events/{event.pk}/games/").json()["results"]
        assert Counter(g["job"]["status"] for g in listed) == {"succeeded": games}
        return len(queries)

    assert queries_for(1) == queries_for(4)
