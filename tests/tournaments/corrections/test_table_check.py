"""A correction is checked as a whole table: each line by the event's settings, the pair by
what ACC Rule 12.2 or an administrative result can leave (at most one winner). A refused
correction names the seat's field and the rule, and stores nothing."""

import pytest

from scoring.games import CardLine as EngineLine
from tests.tournaments.corrections.conftest import seats_of
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, CardLine, Table
from tournaments.services.corrections import table_correct
from tournaments.services.results import card_line_report

pytestmark = pytest.mark.django_db


def _verified_table(event, spread=12):
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    a, b = seats_of(table)
    card_line_report(seat=a, won=True, spread=spread)
    card_line_report(seat=b, won=False, spread=spread)
    return table, a, b


def _current(seat):
    line = CardLine.objects.get(seat=seat, kind="verified", current=True)
    return (line.game_points, line.plus, line.minus)


def test_two_winners_are_refused_and_nothing_is_stored(event_in_play):
    event = event_in_play(10)
    table, a, b = _verified_table(event)
    lines_before = CardLine.objects.count()
    with pytest.raises(ServiceError) as refused:
        table_correct(
            table=table,
            lines={a.pk: EngineLine(2, 25, 0), b.pk: EngineLine(2, 25, 0)},
            reason="both say they won",
            user=event.director,
            source="director",
        )
    assert refused.value.code == "impossible_table"
    assert refused.value.field == "game_points_1"
    assert "at most one winner" in refused.value.message and "case e" in refused.value.message
    assert CardLine.objects.count() == lines_before
    assert _current(a) == (2, 12, 0) and _current(b) == (0, 0, 12)
    assert not AuditEntry.objects.filter(action="table_correct").exists()


def test_one_seat_is_checked_against_the_other_seats_current_line(event_in_play):
    event = event_in_play(10)
    table, a, b = _verified_table(event)
    with pytest.raises(ServiceError) as refused:
        table_correct(
            table=table,
            lines={b.pk: EngineLine(2, 12, 0)},
            reason="B says B won",
            user=event.director,
            source="director",
        )
    assert refused.value.field == "game_points_2"
    assert refused.value.message.startswith(b.entry.player.name)
    # The same change with the other seat turned into the loss is a valid table.
    table_correct(
        table=table,
        lines={a.pk: EngineLine(0, 0, 12), b.pk: EngineLine(2, 12, 0)},
        reason="Cards swapped",
        user=event.director,
        source="director",
    )
    assert _current(a) == (0, 0, 12) and _current(b) == (2, 12, 0)


def test_a_line_the_settings_forbid_names_its_box(event_in_play):
    event = event_in_play(10)
    table, a, b = _verified_table(event)
    with pytest.raises(ServiceError) as refused:
        table_correct(
            table=table,
            lines={a.pk: EngineLine(2, 35, 0), b.pk: EngineLine(0, 0, 35)},
            reason="skunk",
            user=event.director,
            source="director",
        )
    assert refused.value.field == "game_points_1" and "skunk" in refused.value.message


@pytest.mark.parametrize(
    "line_a, line_b",
    [
        (EngineLine(0, 0, 10), EngineLine(0, 0, 10)),  # a double forfeit
        (EngineLine(0, 0, 20), EngineLine(0, 0, 30)),  # case e: both losses
        (EngineLine(2, 12, 0), EngineLine(0, 0, 20)),  # case b: figures need not mirror
    ],
)
def test_pairs_rule_12_2_or_an_administrative_result_can_leave_are_accepted(
    event_in_play, line_a, line_b
):
    event = event_in_play(10)
    table, a, b = _verified_table(event)
    table_correct(
        table=table,
        lines={a.pk: line_a, b.pk: line_b},
        reason="as settled",
        user=event.director,
        source="director",
    )
    assert _current(a) == (line_a.game_points, line_a.plus, line_a.minus)
    assert _current(b) == (line_b.game_points, line_b.plus, line_b.minus)


def test_the_correction_form_starts_from_the_current_lines(client, event_in_play):
    event = event_in_play(10)
    _verified_table(event, spread=17)
    client.force_login(event.director)
    url = f"/events/{event.pk}/games/1/tables/1/"
    form = client.get(url).context["correction_form"]
    initial = {name: form[name].value() for name in form.fields if name[-1] in "12"}
    assert initial == {
        "game_points_1": 2,
        "plus_1": 17,
        "minus_1": 0,
        "game_points_2": 0,
        "plus_2": 0,
        "minus_2": 17,
    }
    posted = {**initial, "game_points_2": 2, "plus_2": 17, "minus_2": 0, "reason": "x"}
    refused = client.post(url + "correct/", posted)
    assert refused.status_code == 400
    errors = refused.context["correction_form"].errors
    assert "at most one winner" in errors["game_points_2"][0]


def test_the_api_names_the_line_of_the_request(event_in_play, django_capture_on_commit_callbacks):
    from tests.helpers import client_for

    event = event_in_play(10)
    _verified_table(event)
    url = f"/api/v1/events/{event.pk}/games/1/tables/1/"
    detail = client_for(event.director).get(url).json()
    assert [seat["current"]["plus"] for seat in detail["seats"]] == [12, 0]
    body = {"lines": [{"position": 2, "game_points": 2, "plus": 12}], "reason": "B won"}
    answer = client_for(event.director).post(url + "correct/", body, format="json")
    assert answer.status_code == 400
    error = answer.json()["errors"][0]
    assert (error["field"], error["code"]) == ("lines[0].game_points", "impossible_table")
