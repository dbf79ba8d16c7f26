"""A doubles table's results through the API: either partner reports the team's result from
their own link, either partner of the other team confirms it; a disagreement goes to the
cross-check between the two teams' cards; the standings rank teams, named with both partners."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from tests.factories import EventFactory, UserFactory
from tests.helpers import client_for
from tournaments.errors import ServiceError
from tournaments.models import CardLine, EventRole, Notice, StandingsSnapshot, Table, Team
from tournaments.services.entries import Registration
from tournaments.services.events import event_close_registration
from tournaments.services.rulings import ruling_record
from tournaments.services.teams import team_register

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.fixture
def doubles_game(api, director, pair, django_capture_on_commit_callbacks):
    """A doubles event of four teams with game 1 paired and published: (event, table 1's
    seats by position)."""
    event = EventFactory(director=director, style="doubles", qualifying_games=3)
    for n in range(4):
        team_register(
            event=event,
            players=[Registration(name=f"Ann {n}", new_player=True),
                     Registration(name=f"Bo {n}", new_player=True)],
            user=director,
            check_in=True,
        )  # fmt: skip
    event_close_registration(event=event, user=director)
    pair(api, event.pk, 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(f"{API}/events/{event.pk}/games/1/publish/").status_code == 200
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    seats = {s.position: s for s in table.seats.select_related("entry__team", "entry__player")}
    return event, table, seats


def report(client, seat, result: str, margin: int):
    return client.post(
        f"{API}/report/{seat.entry.report_token}/", {"result": result, "margin": margin}
    )


def test_either_partner_reports_and_either_opponent_confirms(
    doubles_game, anonymous, api, django_capture_on_commit_callbacks
):
    event, table, seats = doubles_game
    assert seats[1].entry.team_id == seats[3].entry.team_id != seats[2].entry.team_id
    with django_capture_on_commit_callbacks(execute=True):
        assert report(anonymous, seats[3], "won", 20).status_code == 201  # partner opposite
        assert report(anonymous, seats[4], "lost", 20).status_code == 201  # the other team's
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    verified = CardLine.objects.filter(seat__table=table, kind="verified", current=True)
    # The two teams' cards, kept on the first partners' seats (positions 1 and 2).
    assert sorted((line.seat.position, line.game_points, line.plus, line.minus)
                  for line in verified) == [(1, 2, 20, 0), (2, 0, 0, 20)]  # fmt: skip
    standings = api.get(f"{API}/events/{event.pk}/standings/").json()
    rows = {row["team_id"]: row for row in standings["rows"]}
    winner, loser = seats[1].entry.team, seats[2].entry.team
    assert rows[winner.pk]["name"] == winner.name and rows[winner.pk]["game_points"] == 2
    assert rows[winner.pk]["partners"] == f"{seats[1].entry.name} and {seats[3].entry.name}"
    assert (rows[loser.pk]["net_spread"], rows[loser.pk]["games_won"]) == (-20, 0)
    assert len(standings["rows"]) == 2  # one row per team that played, not one per partner
    partners_seats = {seats[3].entry_id, seats[4].entry_id}
    snapshot = StandingsSnapshot.objects.filter(event=event).latest()
    assert not partners_seats & {row["entry_id"] for row in snapshot.rows}


def test_a_later_report_by_the_other_partner_replaces_the_first(doubles_game, anonymous):
    event, table, seats = doubles_game
    report(anonymous, seats[1], "won", 20)
    report(anonymous, seats[3], "won", 25)
    lines = CardLine.objects.filter(seat=seats[1], kind="reported").order_by("id")
    assert [(line.plus, line.current) for line in lines] == [(20, False), (25, True)]
    assert not CardLine.objects.filter(seat__in=[seats[3], seats[4]]).exists()
    report(anonymous, seats[2], "lost", 25)
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED


def test_a_disagreement_is_cross_checked_between_the_two_teams_cards(
    doubles_game, api, anonymous, django_capture_on_commit_callbacks
):
    event, table, seats = doubles_game
    report(anonymous, seats[3], "won", 20)
    report(anonymous, seats[2], "won", 25)  # both teams claim the win
    assert api.post(f"{API}/events/{event.pk}/games/1/close/").json()["flagged"] >= 1
    checker = UserFactory()
    EventRole.objects.create(event=event, user=checker, role="cross_checker")
    with django_capture_on_commit_callbacks(execute=True):
        settled = client_for(checker).post(
            f"{API}/events/{event.pk}/games/1/tables/{table.number}/cross-check/"
        )
    assert settled.status_code == 200, settled.json()
    body = settled.json()
    assert [(line["position"], line["source"]) for line in body["lines"]] == [
        (1, "rule_12_2"),
        (2, "rule_12_2"),
    ]
    # Case e, in words that fit two teams as well as two players.
    assert "it is a loss for both sides" in body["lines"][0]["reason"]
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED


def test_each_partners_page_shows_the_teams_game(doubles_game, anonymous, client):
    event, table, seats = doubles_game
    report(anonymous, seats[1], "won", 20)
    other_team = seats[2].entry.team.name
    for seat in (seats[1], seats[3]):
        current = anonymous.get(f"{API}/report/{seat.entry.report_token}/").json()["current"]
        assert (current["table"], current["opponent"]) == (table.number, other_team)
        assert current["reported"]["plus"] == 20 and current["state"] == "waiting"
    theirs = anonymous.get(f"{API}/report/{seats[4].entry.report_token}/").json()["current"]
    assert (theirs["state"], theirs["opponent"]) == ("your_turn", seats[1].entry.team.name)
    page = client.get(reverse("player-page", args=[seats[3].entry.report_token]))
    text = page.content.decode()
    assert f"Team <strong>{escape(seats[1].entry.team.name)}</strong>. Either" in text
    # The partner who did not report sees the team's report, not one they made.
    assert "Your team's report: <strong>" in text and "Change the team's report" in text
    assert escape(other_team) in text
    Team.objects.filter(pk=seats[1].entry.team_id).update(name="The Pegs")
    page = client.get(reverse("player-page", args=[seats[3].entry.report_token]))
    assert f"{seats[1].entry.name} and {seats[3].entry.name}" in page.content.decode()


def test_the_board_names_both_teams_and_their_partners(doubles_game, api, anonymous):
    event, table, seats = doubles_game
    report(anonymous, seats[3], "won", 20)
    board = api.get(f"{API}/events/{event.pk}/games/1/board/").json()
    row = next(r for r in board["tables"] if r["number"] == table.number)
    first, second = seats[1].entry, seats[2].entry
    # A default name ("Ann 0 & Bo 0") says who plays; a given one is followed by the partners.
    assert [(seat["position"], seat["name"]) for seat in row["seats"]] == [
        (1, first.team.name),
        (2, second.team.name),
    ]
    Team.objects.filter(pk=first.team_id).update(name="The Pegs")
    board = api.get(f"{API}/events/{event.pk}/games/1/board/").json()
    row = next(r for r in board["tables"] if r["number"] == table.number)
    assert row["seats"][0]["name"] == f"The Pegs ({first.name} and {seats[3].entry.name})"
    assert row["seats"][0]["reported"]["plus"] == 20 and row["seats"][1]["reported"] is None
    assert row["state"] == "one reported"


def test_a_reminder_skips_a_team_whose_partner_reported(doubles_game, api, anonymous):
    event, table, seats = doubles_game
    report(anonymous, seats[3], "won", 20)
    reminded = api.post(f"{API}/events/{event.pk}/games/1/remind/")
    assert reminded.status_code == 200, reminded.json()
    noticed = set(Notice.objects.values_list("entry_id", flat=True))
    assert not noticed & {seats[1].entry_id, seats[3].entry_id}  # their team's card is in
    assert {seats[2].entry_id, seats[4].entry_id} <= noticed  # the other team's is not


def test_the_table_page_shows_the_two_teams_cards(doubles_game, api, anonymous):
    event, table, seats = doubles_game
    report(anonymous, seats[3], "won", 20)
    detail = api.get(f"{API}/events/{event.pk}/games/1/tables/{table.number}/").json()
    assert [(s["position"], s["name"]) for s in detail["seats"]] == [
        (1, seats[1].entry.team.name),
        (2, seats[2].entry.team.name),
    ]
    assert detail["seats"][0]["reported"]["plus"] == 20
    assert [line["name"] for line in detail["history"]] == [seats[1].entry.team.name]


def test_a_ruling_at_a_doubles_table_is_between_the_two_teams(doubles_game, director):
    event, table, seats = doubles_game
    judges = [UserFactory(), UserFactory()]
    for judge in judges:
        EventRole.objects.create(event=event, user=judge, role="judge")
    ruling = ruling_record(
        table=table, code="renege", offender_entry=seats[3].entry, score_before_offender=70,
        score_before_opponent=64, judges=judges, entered_by=director, reneged_cards=1,
        notes="A partner held back a playable card.",
    )  # fmt: skip
    assert ruling.pk is not None
    # The partner's team is the offending side: the other team gets the penalty points.
    assert ruling.score_after_opponent > 64 and ruling.score_after_offender == 70
    partner_judge = UserFactory()
    Player = type(seats[4].entry.player)
    Player.objects.filter(pk=seats[4].entry.player_id).update(user=partner_judge)
    EventRole.objects.create(event=event, user=partner_judge, role="judge")
    with pytest.raises(ServiceError) as refused:
        ruling_record(
            table=table, code="renege", offender_entry=seats[1].entry, score_before_offender=80,
            score_before_opponent=70, judges=[judges[0], partner_judge], entered_by=director,
            reneged_cards=1, notes="",
        )  # fmt: skip
    assert refused.value.code == "judge_is_player"  # a partner at the table never judges it


def test_the_table_page_names_the_teams_with_their_partners(doubles_game, director, client):
    event, table, seats = doubles_game
    Team.objects.filter(pk=seats[1].entry.team_id).update(name="The Pegs")
    client.force_login(director)
    page = client.get(reverse("table-detail", args=[event.pk, 1, table.number])).content.decode()
    assert '<th scope="col">Team</th>' in page and '<th scope="col">Player</th>' not in page
    assert f"The Pegs ({seats[1].entry.name} and {seats[3].entry.name})" in page
