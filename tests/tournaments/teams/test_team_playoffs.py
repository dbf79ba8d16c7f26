"""A doubles team in the playoffs: it is seeded as its first partner's entry (its standings
row), and either partner's private link finds the team's match, reports its games, sees its
score and calls judges to it; the bracket names the team, the standings page names a chosen
team name with its partners."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tests.factories import UserFactory
from tournaments.errors import Blocked
from tournaments.models import Entry, Event, JudgeCall, Match, Table, Team
from tournaments.selectors.entrants import entrant_label
from tournaments.services.judge_calls import judge_call_to_match
from tournaments.services.playoffs import playoff_build_request
from tournaments.services.simulation import event_simulate

pytestmark = pytest.mark.django_db(transaction=True)  # the simulation's jobs run on commit

API = "/api/v1"
SEED_WITHOUT_CUT_TIE = 6


def _one_game(seed: int) -> Event:
    """Eight teams after one qualifying game (the simulation stops before its playoffs)."""
    event = event_simulate(
        players=16, games=2, seed=seed, director=UserFactory(), style="doubles",
        stop_after_game=1, rulings=0,
    ).event  # fmt: skip
    Event.objects.filter(pk=event.pk).update(qualifying_games=1)
    event.refresh_from_db()
    return event


def _final():
    """The cut made after one game: the final of the top two teams, and each side's partners
    (first partner, the one seeded, first)."""
    event = _one_game(seed=SEED_WITHOUT_CUT_TIE)
    playoff_build_request(event=event, user=event.created_by)
    match = Match.objects.get(playoff__event=event, bye=False, round=1)
    sides = []
    for entry in (match.entry_a, match.entry_b):
        sides.append(list(Entry.objects.filter(team_id=entry.team_id).order_by("pk")))
    assert sides[0][0] == match.entry_a and sides[1][0] == match.entry_b
    return event, match, sides


def report(client, entry, result, margin, game):
    return client.post(
        f"{API}/report/{entry.report_token}/match/",
        {"result": result, "margin": margin, "game": game},
        content_type="application/json",
    )


def test_either_partner_reports_the_teams_playoff_games_and_sees_its_match():
    event, match, (ours, theirs) = _final()
    client = Client()
    # The second partners, who are not the seeded entries, report game 1 from their links.
    assert report(client, ours[1], "won", 20, 1).status_code == 201
    page = client.get(reverse("player-page", args=[ours[0].report_token])).content.decode()
    assert "Your team's report of game 1" in page  # the other partner reported it
    answer = report(client, theirs[1], "lost", 20, 1)
    assert answer.status_code == 201, answer.json()
    assert (answer.json()["a"]["wins"], answer.json()["b"]["wins"]) == (1, 0)
    # Game 2: a first partner and a second partner.
    assert report(client, ours[0], "won", 35, 2).status_code == 201
    assert report(client, theirs[1], "lost", 35, 2).status_code == 201
    match.refresh_from_db()
    assert match.status == Match.Status.DECIDED and match.winner_id == ours[0].pk

    ours_team, theirs_team = (
        Team.objects.get(pk=ours[0].team_id),
        Team.objects.get(pk=theirs[0].team_id),
    )
    for entry in theirs:  # both partners of the losing team see the team's match
        state = client.get(f"{API}/report/{entry.report_token}/").json()["match"]
        assert state["id"] == match.pk and state["opponent"] == ours_team.name
        assert (state["wins"], state["opponent_wins"], state["state"]) == (0, 2, "decided")
    page = client.get(reverse("player-page", args=[ours[1].report_token])).content.decode()
    assert "You won the match 2" in page

    bracket = client.get(f"{API}/events/{event.pk}/bracket/").json()
    final = bracket["rounds"][-1]["matches"][0]
    assert (final["a"]["name"], final["a"]["team_id"]) == (ours_team.name, ours_team.pk)
    assert (final["b"]["name"], final["b"]["team_id"]) == (theirs_team.name, theirs_team.pk)


def test_the_second_partner_calls_judges_to_the_teams_match():
    event, match, (ours, theirs) = _final()
    call = judge_call_to_match(match=match, entry=theirs[1])
    assert call.match_id == match.pk and call.called_by_entry_id == theirs[0].pk
    assert JudgeCall.objects.filter(match=match).count() == 1


def test_the_standings_page_says_team_and_names_a_chosen_names_partners():
    event, match, (ours, theirs) = _final()
    Team.objects.filter(pk=ours[0].team_id).update(name="The Pegs")
    page = Client().get(reverse("standings", args=[event.pk])).content.decode()
    assert '<th scope="col">Team</th>' in page and '<th scope="col">Player</th>' not in page
    assert f"The Pegs ({ours[0].name} and {ours[1].name})" in page
    # A default name already says who plays: it is not followed by the partners again.
    default = Team.objects.get(pk=theirs[0].team_id).name
    assert default == f"{theirs[0].name} & {theirs[1].name}"
    assert f"({theirs[0].name} and {theirs[1].name})" not in page
    bracket = Client().get(reverse("playoff-bracket", args=[event.pk])).content.decode()
    assert "2 qualifiers of 8 teams" in bracket


def test_teams_tied_across_the_cut_are_named_as_teams():
    event = _one_game(seed=5)  # two teams tie for the second place
    with pytest.raises(Blocked) as refused:
        playoff_build_request(event=event, user=event.created_by)
    teams = {team.name for team in Team.objects.filter(event=event)}
    tied = refused.value.blockers[0].text.partition(" are tied")[0]
    assert tied.count(" & ") == 2 and all(name in teams for name in tied.split(", "))


def test_the_match_and_ruling_pages_name_the_teams():
    event, match, (ours, theirs) = _final()
    client = Client()
    assert report(client, ours[1], "won", 20, 1).status_code == 201
    assert report(client, theirs[1], "lost", 20, 1).status_code == 201
    Team.objects.filter(pk=ours[0].team_id).update(name="The Pegs")
    client.force_login(event.created_by)
    page = client.get(reverse("match-detail", args=[event.pk, match.pk])).content.decode()
    assert "Game 1: won by The Pegs" in page  # not by the first partner alone
    ruling = client.get(reverse("match-ruling-form", args=[event.pk, match.pk])).content.decode()
    other = Team.objects.get(pk=theirs[0].team_id).name
    label = f"The Pegs ({ours[0].name} and {ours[1].name})"
    assert f"{label} v {escape(other)}" in ruling

    table = Table.objects.filter(game__event=event, game__number=1).first()
    ruling = client.get(reverse("ruling-form", args=[event.pk, 1, table.number])).content.decode()
    seats = list(table.seats.select_related("entry__team").order_by("position"))
    first, second = seats[0].entry, seats[1].entry
    assert f"{escape(entrant_label(first))} v {escape(entrant_label(second))}</p>" in ruling
