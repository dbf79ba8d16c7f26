"""A withdrawn player's private link: it says they withdrew, their games up to then still count,
and it accepts nothing for a game after the withdrawal."""

import pytest
from rest_framework.test import APIClient

from tournaments.models import CardLine, Game, Table
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db


def test_the_link_of_a_withdrawn_player(client, event_in_play, django_capture_on_commit_callbacks):
    event = event_in_play(10)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    leaver, opponent = (seat.entry for seat in table.seats.order_by("position"))
    entry_withdraw(entry=leaver, user=event.director)
    with django_capture_on_commit_callbacks(execute=True):
        game_pairings_request(event=event, number=2, user=event.director)
    game_publish(game=Game.objects.get(event=event, number=2), user=event.director)
    api = APIClient()
    url = f"/api/v1/report/{leaver.report_token}/"

    state = api.get(url).json()
    assert state["withdrawn_after_game"] == 1 and state["current"]["game"] == 1
    page = client.get(f"/r/{leaver.report_token}/").content.decode()
    assert "You withdrew after game 1" in page and "still count" in page
    assert (
        api.get(f"/api/v1/report/{opponent.report_token}/").json()["withdrawn_after_game"] is None
    )

    # Game 2 is not theirs: nothing is accepted for it, not even a preview.
    for body in ({"preview": True}, {}):
        refused = api.post(url, {"result": "won", "margin": 20, "game": 2, **body})
        assert refused.status_code == 400, refused.json()
    assert not CardLine.objects.filter(seat__entry=leaver, seat__game__number=2).exists()

    # Game 1, where they were seated, still counts.
    saved = api.post(url, {"result": "won", "margin": 20, "game": 1})
    assert saved.status_code == 201
    row = api.get(url).json()["card"][0]
    assert (row["game"], row["game_points"], row["plus"], row["verified"]) == (1, 2, 20, False)
    assert CardLine.objects.get(seat__entry=leaver, kind="reported").seat.table == table


def test_the_engine_check_refuses_any_seat_after_the_withdrawal(event_in_play):
    from tournaments.errors import ServiceError
    from tournaments.services.results import card_line_preview

    event = event_in_play(10)
    seat = Table.objects.get(game__event=event, game__number=1, number=1).seats.first()
    entry = seat.entry
    entry_withdraw(entry=entry, user=event.director)
    entry.refresh_from_db()
    entry.withdrawn_after_game = 0  # as if they had left before game 1 was paired
    entry.save(update_fields=["withdrawn_after_game"])
    seat.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        card_line_preview(seat=seat, won=True, spread=20)
    assert refused.value.code == "withdrawn"
