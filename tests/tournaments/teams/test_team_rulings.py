"""A ruling at a doubles table names the teams, not the partner whose seat holds the team's
card: the history, the card lines' reason, the rulings page and the API say "Aces (Ann and
Bob)", whichever partner offended."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.factories import UserFactory
from tests.helpers import client_for
from tournaments.models import CardLine, Game, Team
from tournaments.selectors.entrants import team_label
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.rulings import ruling_record
from tournaments.services.simulation import event_simulate

pytestmark = pytest.mark.django_db(transaction=True)  # the simulation's jobs run on commit


def _label(seats) -> str:
    team = seats[0].entry.team
    return team_label(team.name, [seat.entry.name for seat in seats])


def test_a_ruling_at_a_doubles_table_names_both_teams():
    director = UserFactory(username="sim-director")
    event = event_simulate(
        players=8, games=3, seed=9, director=director, name="Pairs judged", style="doubles",
        stop_after_game=1, rulings=0,
    ).event  # fmt: skip
    Team.objects.filter(event=event).update(name="Aces")  # chosen names: not who plays
    game_pairings_request(event=event, number=2, user=director)
    game = game_publish(game=Game.objects.get(event=event, number=2), user=director)
    table = game.tables.order_by("number").first()
    seats = list(table.seats.select_related("entry__team", "entry__player").order_by("position"))
    offenders, opponents = _label(seats[0::2]), _label(seats[1::2])
    judges = list(get_user_model().objects.filter(username__startswith="judge").order_by("pk"))
    ruling = ruling_record(
        table=table, code="renege", offender_entry=seats[2].entry,  # the card's partner's partner
        score_before_offender=70, score_before_opponent=120, judges=judges[:2],
        entered_by=director, reneged_cards=1,
    )  # fmt: skip
    assert ruling.game_over and ruling.winner_id == seats[1].entry_id

    history = event.audit_entries.get(action="ruling_record")
    assert f"by {offenders}; {opponents} wins the game" in history.summary
    reason = CardLine.objects.filter(seat__table=table, current=True).first().reason
    assert f"by {offenders}." in reason
    browser = Client()
    browser.force_login(director)
    page = browser.get(f"/events/{event.pk}/rulings/").content.decode()
    assert offenders in page and f"Game over: {opponents} wins" in page
    api = client_for(director).get(f"/api/v1/events/{event.pk}/rulings/").json()["results"][0]
    assert (api["offender_name"], api["beneficiary_name"]) == (offenders, opponents)
    assert Client().get(f"/events/{event.pk}/rulings/").status_code in (302, 403, 404)
