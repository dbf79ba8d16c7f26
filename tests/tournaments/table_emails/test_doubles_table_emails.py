"""'Your next table' in a doubles event: every partner who gave an address gets their own
message (the partners at positions 3 and 4 too), naming their partner and the other team with
its partners; both partners of a team that sits out are told so."""

from __future__ import annotations

import pytest
from django.core import mail

from tests.factories import UserFactory
from tournaments.models import Entry, Game, Team
from tournaments.selectors.entrants import team_label
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.simulation import event_simulate

pytestmark = pytest.mark.django_db(transaction=True)  # the simulation's jobs run on commit


def test_each_partner_is_told_their_table_partner_and_the_other_team(settings):
    settings.SITE_URL = "https://pegboard.example.org"
    director = UserFactory(username="sim-director")
    event = event_simulate(
        players=10, games=3, seed=8, director=director, name="Pairs by mail", style="doubles",
        stop_after_game=1, rulings=0,
    ).event  # fmt: skip
    Team.objects.filter(event=event).update(name="Aces")  # chosen names: not who plays
    for entry in Entry.objects.filter(event=event):
        entry.email = f"player{entry.player_id}@example.org"
        entry.save(update_fields=["email"])
    game_pairings_request(event=event, number=2, user=director)
    mail.outbox.clear()
    game_publish(game=Game.objects.get(event=event, number=2), user=director)

    to = {message.to[0]: message for message in mail.outbox}
    assert len(to) == 10  # every partner, not only the one whose seat holds the team's card
    for seat in Game.objects.get(event=event, number=2).seats.select_related("entry__team"):
        message = to[f"player{seat.entry.player_id}@example.org"]
        team = seat.entry.team
        partner = team.members.exclude(pk=seat.entry_id).get()
        if seat.table_id is None:
            assert f"YOU SIT OUT this game, with your partner {partner.name}" in message.body
            continue
        assert f"Your partner: {partner.name}" in message.body
        others = seat.table.seats.exclude(entry__team=team).order_by("position")
        names = [other.entry.name for other in others]
        label = team_label(others[0].entry.team.name, names)
        assert f"Your opponents: {label}" in message.body
        assert f"table {seat.table.number} against {label}" in message.subject
        assert all(name in message.body for name in names)
