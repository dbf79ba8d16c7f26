"""Standings through the API: the latest snapshot with names, who may read it, what it costs,
and a tie playoff across the cut that changes the order."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import EntryFactory, UserFactory
from tests.helpers import client_for
from tournaments.models import Event, EventRole, Table, TiePlayoff
from tournaments.services.results import card_line_report

pytestmark = pytest.mark.django_db

API = "/api/v1"


def _play_game_1(event, spreads, capture) -> dict[int, tuple[int, int]]:
    """Table n's first player beats the second by ``spreads[n - 1]``; returns (winner, loser)
    entry ids by table number."""
    results = {}
    with capture(execute=True):
        for number, spread in enumerate(spreads, start=1):
            table = Table.objects.get(game__event=event, game__number=1, number=number)
            first, second = table.seats.order_by("position")
            card_line_report(seat=first, won=True, spread=spread)
            card_line_report(seat=second, won=False, spread=spread)
            results[number] = (first.entry_id, second.entry_id)
    return results


def _url(event) -> str:
    return f"{API}/events/{event.pk}/standings/"


def _publish(event) -> None:
    Event.objects.filter(pk=event.pk).update(published=True)


def test_standings_list_every_player_with_their_record(
    event_in_play, django_capture_on_commit_callbacks
):
    event = event_in_play(8, qualifying_games=5, qualifier_ratio=4)  # 2 qualifiers
    results = _play_game_1(event, [40, 20, 12, 5], django_capture_on_commit_callbacks)
    body = client_for(event.director).get(_url(event)).json()
    assert body["computed_at"] is not None
    assert (body["qualifiers"], body["cut_tie"]) == (2, [])
    assert body["high_non_qualifier"] == results[3][0]
    first = body["rows"][0]
    assert first == {
        "rank": 1,
        "entry_id": results[1][0],
        "name": event.entries.get(pk=results[1][0]).player.name,
        "team_id": None,  # a doubles event's rows name the team and its partners
        "partners": "",
        "game_points": 3,
        "games_won": 1,
        "games_played": 1,
        "net_spread": 40,
        "plus_spread": 40,
        "minus_spread": 0,
        "tied": False,
        "playoff_needed": False,
        "qualifies": True,
    }
    assert [row["entry_id"] for row in body["rows"][:4]] == [results[n][0] for n in (1, 2, 3, 4)]
    assert [row["qualifies"] for row in body["rows"]] == [True, True] + [False] * 6
    last = body["rows"][-1]
    assert (last["entry_id"], last["net_spread"], last["minus_spread"]) == (results[1][1], -40, 40)


def test_before_any_result_the_standings_are_empty(event_in_play):
    event = event_in_play(10)
    body = client_for(event.director).get(_url(event)).json()
    assert body == {
        "computed_at": None,
        "qualifiers": 0,
        "cut_tie": [],
        "high_non_qualifier": None,
        "rows": [],
    }


def test_standings_are_public_once_the_event_is_published(
    event_in_play, other_director, anonymous, django_capture_on_commit_callbacks
):
    event = event_in_play(8, qualifying_games=5)
    _play_game_1(event, [10, 9, 8, 7], django_capture_on_commit_callbacks)
    staff = [client_for(event.director)]
    staff += [client_for(_role(event, role)) for role in ("cross_checker", "judge")]
    visitors = [anonymous, other_director, client_for(UserFactory())]
    assert [c.get(_url(event)).status_code for c in staff] == [200, 200, 200]
    assert [c.get(_url(event)).status_code for c in visitors] == [404, 404, 404]
    _publish(event)
    for client in staff + visitors:
        response = client.get(_url(event))
        assert response.status_code == 200
        assert len(response.json()["rows"]) == 8
    assert anonymous.get(f"{API}/events/999999/standings/").status_code == 404


def test_standings_cost_the_same_queries_for_10_or_40_players(
    event_in_play, anonymous, django_capture_on_commit_callbacks
):
    def queries_for(players: int) -> tuple[int, int]:
        event = event_in_play(players)
        _play_game_1(event, range(1, players // 2 + 1), django_capture_on_commit_callbacks)
        _publish(event)
        counts = []
        for client in (client_for(event.director), anonymous):
            with CaptureQueriesContext(connection) as queries:
                rows = client.get(_url(event)).json()["rows"]
            assert len(rows) == players
            assert all(row["name"].startswith("Player ") for row in rows)
            counts.append(len(queries))
        return tuple(counts)

    small, large = queries_for(10), queries_for(40)
    assert small == large
    assert max(large) <= 4


def _role(event, role: str):
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role=role)
    return user


@pytest.fixture
def tie_across_the_cut(event_in_play, django_capture_on_commit_callbacks):
    """8 players, 2 qualifiers: the winners of tables 2 and 3 (both by 10, never met) are tied
    for places 2-3, across the cut."""
    event = event_in_play(8, qualifying_games=5, qualifier_ratio=4)
    results = _play_game_1(event, [20, 10, 10, 5], django_capture_on_commit_callbacks)
    return event, results


def test_a_tie_playoff_decides_a_tie_across_the_cut(
    tie_across_the_cut, django_capture_on_commit_callbacks
):
    event, results = tie_across_the_cut
    director = client_for(event.director)
    before = director.get(_url(event)).json()
    tied = sorted([results[2][0], results[3][0]])
    assert before["cut_tie"] == tied
    assert [(r["rank"], r["playoff_needed"], r["qualifies"]) for r in before["rows"][1:3]] == [
        (2, True, False),
        (2, True, False),
    ]
    listed_second, listed_third = (row["entry_id"] for row in before["rows"][1:3])

    with django_capture_on_commit_callbacks(execute=True):
        response = director.post(
            f"{API}/events/{event.pk}/tie-playoffs/",
            {"winner": listed_third, "loser": listed_second},
        )
    assert response.status_code == 201, response.json()
    assert (response.json()["winner"], response.json()["loser"]) == (listed_third, listed_second)

    after = director.get(_url(event)).json()
    assert [(r["entry_id"], r["rank"], r["qualifies"]) for r in after["rows"][1:3]] == [
        (listed_third, 2, True),
        (listed_second, 3, False),
    ]
    assert after["cut_tie"] == [] and after["high_non_qualifier"] == listed_second


def test_a_tie_playoff_names_two_players_of_this_event(tie_across_the_cut):
    event, results = tie_across_the_cut
    director = client_for(event.director)
    url = f"{API}/events/{event.pk}/tie-playoffs/"
    stranger = EntryFactory()  # an entry of another event
    response = director.post(url, {"winner": stranger.pk, "loser": results[2][0]})
    assert response.status_code == 400
    assert [(e["field"], e["code"]) for e in response.json()["errors"]] == [
        ("winner", "does_not_exist")
    ]
    same = director.post(url, {"winner": results[2][0], "loser": results[2][0]})
    assert (same.status_code, same.json()["errors"][0]["code"]) == (400, "two_players")
    assert not TiePlayoff.objects.exists()


def test_only_the_director_may_enter_a_tie_playoff(tie_across_the_cut, other_director, anonymous):
    event, results = tie_across_the_cut
    url = f"{API}/events/{event.pk}/tie-playoffs/"
    body = {"winner": results[3][0], "loser": results[2][0]}
    _publish(event)
    assert anonymous.post(url, body).status_code in (401, 403)
    refused = [other_director] + [
        client_for(_role(event, role)) for role in ("cross_checker", "judge")
    ]
    assert [c.post(url, body).status_code for c in refused] == [403, 403, 403]
    assert not TiePlayoff.objects.exists()
    assert client_for(event.director).post(url, body).status_code == 201
    assert TiePlayoff.objects.count() == 1
