"""A doubles satellite (and a Canadian Doubles one) simulated end to end through the real
services and jobs, with the results checked against a computation made here from the lines."""

from collections import defaultdict
from datetime import date

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils.html import escape

from tests.factories import UserFactory
from tournaments.models import (
    CardLine,
    Event,
    Match,
    MrpAward,
    NightCard,
    RatingPoint,
    Seat,
    StandingsSnapshot,
    Table,
)
from tournaments.services.clubs import club_create
from tournaments.services.simulation import event_simulate

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("style", ["doubles", "canadian_doubles"])
def test_a_doubles_satellite_runs_from_registration_to_champion(capsys, style):
    call_command("simulate_event", players=24, games=5, seed=26, name="Sim D", style=style)
    out = capsys.readouterr().out
    event = Event.objects.get(name="Sim D")
    assert (event.style, event.kind, event.stage) == (style, "satellite", "finished")
    teams = {t.pk: t for t in event.teams.all()}
    assert len(teams) == 12
    champion = Match.objects.filter(playoff__event=event).order_by("-round").first().winner
    assert f"champion: {champion.team.name}." in out  # the team, by its name

    # Every table seats two teams, partners opposite, and is verified on its two cards.
    tables = Table.objects.filter(game__event=event)
    assert tables.count() == 5 * 6 and not tables.exclude(status="verified").exists()
    seats = Seat.objects.filter(game__event=event).select_related("entry")
    by_table = defaultdict(dict)
    for seat in seats:
        by_table[seat.table_id][seat.position] = seat.entry
    met = set()
    for places in by_table.values():
        assert sorted(places) == [1, 2, 3, 4]
        assert places[1].team_id == places[3].team_id != places[2].team_id == places[4].team_id
        pair = frozenset((places[1].team_id, places[2].team_id))
        assert pair not in met  # no two teams meet twice
        met.add(pair)

    # The standings, worked out here from the verified lines: per team, from its card seat.
    lines = CardLine.objects.filter(seat__game__event=event, kind="verified", current=True)
    assert {line.seat.position for line in lines.select_related("seat")} == {1, 2}
    totals = defaultdict(lambda: [0, 0])
    for line in lines.select_related("seat__entry"):
        team = line.seat.entry.team_id
        totals[team][0] += line.game_points
        totals[team][1] += line.plus - line.minus
    snapshot = StandingsSnapshot.objects.filter(event=event).latest()
    rows = {row["entry_id"]: row for row in snapshot.rows}
    assert len(rows) == 12  # one row per team
    for entry_id, row in rows.items():
        team = event.entries.get(pk=entry_id).team_id
        assert (row["game_points"], row["net_spread"]) == tuple(totals[team])
    assert snapshot.qualifiers == 3  # a quarter of 12 teams

    # The bracket is played to a champion; a doubles satellite writes no MRPs.
    matches = Match.objects.filter(playoff__event=event)
    assert matches.exists() and not matches.exclude(status="decided").exists()
    assert not MrpAward.objects.filter(event=event).exists()
    # The bracket, the results and their CSV name the teams (the event is published).
    client = Client()
    for path in (
        f"/events/{event.pk}/bracket/",
        f"/events/{event.pk}/results/",
        f"/events/{event.pk}/wall/",
    ):
        page = client.get(path)
        assert page.status_code == 200, path
        assert escape(champion.team.name) in page.content.decode(), path
    text = client.get(f"/events/{event.pk}/results.csv").content.decode()
    assert sum(team.name in text for team in teams.values()) == 12
    # Nor is it rated: a team's result is not one player's (the ratings page says so).
    event.refresh_from_db()
    assert event.rated_at is None and not RatingPoint.objects.filter(event=event).exists()


def test_an_odd_number_of_players_cannot_make_teams():
    with pytest.raises(CommandError, match="even number"):
        call_command("simulate_event", players=9, games=3, style="doubles")


def test_a_club_night_in_pairs_gives_each_partner_the_teams_card():
    director = UserFactory()
    club = club_create(name="Pairs Club", user=director)
    event = event_simulate(
        players=8, games=3, seed=4, director=director, club=club, style="doubles",
        played_on=date(2026, 11, 3),
    ).event  # fmt: skip
    assert (event.style, event.stage) == ("doubles", "finished")
    cards = {card.entry_id: card for card in NightCard.objects.filter(event=event)}
    assert len(cards) == 8  # every partner has a card
    for team in event.teams.all():
        first, second = (cards[e.pk] for e in team.members.order_by("pk"))
        assert (first.game_points, first.net_spread, first.games_played) == (
            second.game_points,
            second.net_spread,
            second.games_played,
        )
        assert first.games_played == 3
