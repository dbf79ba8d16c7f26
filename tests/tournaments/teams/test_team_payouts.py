"""Prize money in a doubles event: each team is paid once, by its place, and the partners
share it equally; a cent that does not divide goes to the partner entered first, so the two
shares always sum to the team's amount. The results page, the money page, the CSVs, the API
and the event's history all say so; a payout set by hand for a team is split the same way."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from tests.factories import UserFactory
from tournaments.core.money import partner_shares
from tournaments.models import Entry, Event, Team
from tournaments.selectors.final import event_final_results, event_payouts
from tournaments.services.prizes import event_money_update, payout_set_by_hand
from tournaments.services.simulation import event_simulate


@given(st.integers(min_value=0, max_value=10**9), st.integers(min_value=1, max_value=4))
def test_partner_shares_sum_to_the_team_and_the_odd_cents_go_first(cents, partners):
    shares = partner_shares(cents, partners)
    assert sum(shares) == cents and len(shares) == partners
    assert max(shares) - min(shares) <= 1
    assert list(shares) == sorted(shares, reverse=True)  # the first partners get the odd cents


def test_an_odd_cent_goes_to_the_first_partner():
    assert partner_shares(10001) == (5001, 5000)
    assert partner_shares(10000) == (5000, 5000)
    with pytest.raises(ValueError, match="0 or more"):
        partner_shares(-1)


def _doubles(players: int, stop_after_game: int | None = None) -> Event:
    director = UserFactory(username="sim-director")
    return event_simulate(
        players=players, games=2, seed=11, director=director, name="Pairs for money",
        style="doubles", stop_after_game=stop_after_game, rulings=0,
    ).event  # fmt: skip


def _csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.mark.django_db(transaction=True)  # the simulation's jobs run on commit
def test_a_doubles_event_pays_each_team_once_split_between_the_partners():
    event = _doubles(players=20)
    teams = Team.objects.filter(event=event).count()
    assert teams == 10
    event = event_money_update(
        event=event, user=event.created_by, entry_fee_cents=4000, sanctioning_fee_cents=0,
        payout_percents={"1": 50, "2": 30}, qualifier_pool={},
    )  # fmt: skip
    table = event_payouts(event=event)
    assert table.fund.entrants == teams and table.fund.net == 40000  # a fee per team
    payout_set_by_hand(event=event, key="1", cents_each=20001, user=event.created_by)

    final = event_final_results(event=event)
    assert final.complete and len(final.rows) == teams  # one row a team
    first_partner = {}
    for entry in Entry.objects.filter(event=event).order_by("pk"):
        first_partner.setdefault(entry.team_id, entry)
    for row in final.rows:
        team = Team.objects.get(pk=row.team_id)
        assert row.name == team.name and row.entry_id == first_partner[team.pk].pk
        assert [p.name for p in row.partners] == [p.name for p in team.players]
        assert sum(p.payout_cents for p in row.partners) == row.payout_cents
    winner = final.winner
    assert winner.payout_cents == 20001
    assert [p.payout_cents for p in winner.partners] == [10001, 10000]  # the odd cent first
    assert final.runner_up.payout_cents == 12000
    assert [p.payout_cents for p in final.runner_up.partners] == [6000, 6000]
    assert sum(r.payout_cents for r in final.rows) == 32001
    history = event.audit_entries.filter(action="payout_set_by_hand").get()
    assert "$100.01 and $100.00 to the partners" in history.summary

    Event.objects.filter(pk=event.pk).update(published=True)
    client = Client()
    api = client.get(f"/api/v1/events/{event.pk}/results/").json()
    top = api["winner"]
    assert top["team_id"] == winner.team_id and top["name"] == winner.name
    assert [p["payout_cents"] for p in top["partners"]] == [10001, 10000]
    assert [p["name"] for p in top["partners"]] == [p.name for p in winner.partners]
    assert all(r["team_id"] for r in api["rows"]) and len(api["rows"]) == teams

    page = client.get(f"/events/{event.pk}/results/").content.decode()
    for partner in winner.partners:
        assert partner.name in page
    assert "$200.01" in page and "$100.01" in page and "$100.00" in page
    assert "$20001" not in page and "$10001" not in page  # cents, never shown as dollars
    assert "partner entered first" in page
    Team.objects.filter(pk=final.runner_up.team_id).update(name="Fifteen Two")  # a chosen name
    page = client.get(f"/events/{event.pk}/results/").content.decode()
    assert f"Fifteen Two ({final.runner_up.partner_names})" in page

    payouts = _csv(client.get(f"/events/{event.pk}/payouts.csv"))
    assert payouts[0] == ["place", "team", "name", "acc_number", "payout", "team_payout"]
    assert payouts[1][1:] == [winner.name, winner.partners[0].name,
                              winner.partners[0].acc_number, "100.01", "200.01"]  # fmt: skip
    assert payouts[2][2] == winner.partners[1].name and payouts[2][4] == "100.00"
    assert len(payouts) == 1 + 4  # two paid teams, two partners each
    results = _csv(client.get(f"/events/{event.pk}/results.csv"))
    assert results[0][-5:] == ["team_id", "partner_1", "partner_1_payout", "partner_2",
                               "partner_2_payout"]  # fmt: skip
    assert results[1][-5:] == [str(winner.team_id), winner.partners[0].name, "100.01",
                               winner.partners[1].name, "100.00"]  # fmt: skip

    client.force_login(event.created_by)
    money = client.get(f"/events/{event.pk}/money/").content.decode()
    assert "Each partner" in money and "$100.01 and $100.00" in money
    assert "Entry fee per team" in money and "10 teams" in money


@pytest.mark.django_db(transaction=True)
def test_before_the_cut_the_fund_counts_teams_not_players():
    event = _doubles(players=12, stop_after_game=0)
    event = event_money_update(
        event=event, user=event.created_by, entry_fee_cents=3000, sanctioning_fee_cents=0,
        payout_percents={}, qualifier_pool={},
    )  # fmt: skip
    table = event_payouts(event=event)
    assert table.fund.entrants == 6 and table.fund.net == 18000
