"""A doubles event's games are paired by team: four seats a table, partners opposite, no team
meeting another twice, fair sit-outs, late teams joining from the next game."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tests.factories import EventFactory
from tournaments.core.pairing_teams import team_history, team_sit_out_seats, team_table_seats
from tournaments.models import Seat, Team
from tournaments.services.entries import Registration
from tournaments.services.events import event_close_registration
from tournaments.services.teams import team_register

pytestmark = pytest.mark.django_db


def enter_teams(event, user, count: int, start: int = 0) -> list[Team]:
    return [
        team_register(
            event=event,
            players=[
                Registration(name=f"Ann {n}", new_player=True),
                Registration(name=f"Bo {n}", new_player=True),
            ],
            user=user,
            check_in=True,
        )
        for n in range(start, start + count)
    ]


def test_the_seats_of_a_team_table_put_partners_opposite():
    assert team_table_seats((11, 13), (12, 14)) == [(1, 11), (2, 12), (3, 13), (4, 14)]
    assert team_sit_out_seats((5, 6)) == [(1, 5), (3, 6)]
    rows = [(1, 1, 1, 11), (1, 1, 2, 12), (1, 1, 3, 13), (1, 1, 4, 14), (1, None, 1, 5)]
    rows += [(1, None, 3, 6), (2, 1, 1, 99)]  # 99: an entry that is in no team
    history = team_history(rows, {11: 1, 13: 1, 12: 2, 14: 2, 5: 3, 6: 3})
    assert [(h.tables, h.sit_out) for h in history] == [(((1, 2),), 3)]


def test_a_doubles_event_is_paired_by_team(api, director, pair):
    event = EventFactory(director=director, style="doubles", qualifying_games=4)
    teams = enter_teams(event, director, 7)
    event_close_registration(event=event, user=director)
    partners = {t.pk: set(t.members.values_list("pk", flat=True)) for t in teams}
    team_of = {entry: team for team, entries in partners.items() for entry in entries}
    met, sat_out = Counter(), Counter()
    for number in range(1, 5):
        body = pair(api, event.pk, number)
        assert len(body["tables"]) == 3
        for table in body["tables"]:
            first, second = table["first_team_id"], table["second_team_id"]
            assert {table["first"], table["second"]} == {
                Team.objects.get(pk=first).name,
                Team.objects.get(pk=second).name,
            }
            seats = Seat.objects.filter(game__event=event, game__number=number,
                                        table__number=table["number"])  # fmt: skip
            by_position = {s.position: s.entry_id for s in seats}
            assert sorted(by_position) == [1, 2, 3, 4]
            assert {by_position[1], by_position[3]} == partners[first]  # opposite
            assert {by_position[2], by_position[4]} == partners[second]
            met[frozenset((first, second))] += 1
        sitting = Seat.objects.filter(game__number=number, game__event=event, table=None)
        sitting_team = team_of[body["sit_out"]["entry_id"]]
        assert body["sit_out"]["team"] == body["sit_out"]["name"] != ""  # the team sits out
        assert {s.entry_id for s in sitting} == partners[sitting_team]  # both partners
        sat_out[sitting_team] += 1
        published = api.post(f"/api/v1/events/{event.pk}/games/{number}/publish/")
        assert published.status_code == 200, published.json()
        by_name = {row["entry_id"]: row for row in body["by_name"]}
        assert len(by_name) == 14 and all(row["team"] for row in by_name.values())
    assert max(met.values()) == 1  # no team meets another twice
    assert max(sat_out.values()) == 1  # four sit-outs among seven teams: nobody twice
    assert set(met) <= {frozenset(p) for p in combinations(partners, 2)}


def test_a_late_team_joins_from_the_next_game(api, director, pair):
    event = EventFactory(director=director, style="doubles", qualifying_games=3)
    enter_teams(event, director, 4)
    event_close_registration(event=event, user=director)
    pair(api, event.pk, 1)
    late = enter_teams(event, director, 2, start=10)
    assert {e.joined_from_game for t in late for e in t.members.all()} == {2}
    body = pair(api, event.pk, 2)
    seated = {t["first_team_id"] for t in body["tables"]} | {
        t["second_team_id"] for t in body["tables"]
    }
    assert {t.pk for t in late} <= seated and len(body["tables"]) == 3


def test_a_partner_without_a_team_is_not_paired(api, director, pair):
    event = EventFactory(director=director, style="doubles", qualifying_games=1)
    enter_teams(event, director, 2)
    from tournaments.services.entries import entry_register

    alone = entry_register(
        event=event, registration=Registration(name="Solo", new_player=True), user=director,
        check_in=True,
    )  # fmt: skip
    event_close_registration(event=event, user=director)
    body = pair(api, event.pk, 1)
    assert len(body["tables"]) == 1 and body["sit_out"] is None
    assert not Seat.objects.filter(entry=alone).exists()


def test_a_pairing_refusal_says_a_team_counts_as_one(
    api, director, django_capture_on_commit_callbacks
):
    event = EventFactory(director=director, style="doubles", qualifying_games=5)
    enter_teams(event, director, 3)
    event_close_registration(event=event, user=director)
    with django_capture_on_commit_callbacks(execute=True):
        started = api.post(f"/api/v1/events/{event.pk}/games/1/pair/")
    job = api.get(f"/api/v1/jobs/{started.json()['id']}/").json()
    assert job["status"] == "failed"
    assert job["error"].startswith("In doubles each team counts as one player here:")
    assert not Seat.objects.filter(game__event=event).exists()
