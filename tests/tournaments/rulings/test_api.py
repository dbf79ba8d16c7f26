"""The judges' API: rulings and calls for the event's judges and directors (not another event's
director, not an anonymous visitor), refusals as 400s naming the field and the rule."""

from __future__ import annotations

import pytest

from tests.factories import EventFactory
from tests.helpers import client_for
from tournaments.models import CardLine, JudgeCall, Ruling
from tournaments.services.judge_calls import judge_call_create

pytestmark = pytest.mark.django_db


def body(setup, **overrides) -> dict:
    data = {
        "game": 1,
        "table": setup.table.number,
        "code": "late_from_lunch",
        "offender": setup.b.entry_id,
        "score_before_offender": 40,
        "score_before_opponent": 60,
        "judges": [setup.judges[0].pk, setup.judges[1].pk],
        "notes": "Back 20 minutes after the lunch break.",
    }
    data.update(overrides)
    return data


def rulings_url(setup) -> str:
    return f"/api/v1/events/{setup.event.pk}/rulings/"


def state() -> tuple:
    return (
        list(Ruling.objects.values_list("pk", flat=True)),
        list(CardLine.objects.values_list("pk", flat=True)),
        list(JudgeCall.objects.values_list("pk", "answered_at")),
    )


def test_who_may_read_and_record_rulings(setup):
    other_director = client_for(EventFactory().created_by)
    anonymous = client_for()
    before = state()
    for client, refused in ((anonymous, (401, 403)), (other_director, (403,))):
        response = client.get(rulings_url(setup))
        assert response.status_code in refused and "errors" in response.json()
        response = client.post(rulings_url(setup), body(setup), format="json")
        assert response.status_code in refused and "errors" in response.json()
    assert state() == before, "a refused request changed something"

    created = client_for(setup.judges[2]).post(rulings_url(setup), body(setup), format="json")
    assert created.status_code == 201, created.json()
    ruling = created.json()
    assert (ruling["code"], ruling["infraction"], ruling["game"], ruling["table"]) == (
        "late_from_lunch",
        "Late from lunch",
        1,
        1,
    )
    assert ruling["game_over"] and ruling["winner"] == setup.a.entry_id
    assert ruling["entered_by"] == setup.judges[2].pk
    assert sorted(ruling["judges"]) == sorted(j.pk for j in setup.judges[:2])
    lines = CardLine.objects.filter(seat__table=setup.table, kind="verified", current=True)
    assert {(line.seat_id, line.game_points, line.plus, line.minus) for line in lines} == {
        (setup.a.pk, 2, 10, 0),
        (setup.b.pk, 0, 0, 10),
    }

    for reader in (setup.director, setup.judges[0]):
        listed = client_for(reader).get(rulings_url(setup))
        assert listed.status_code == 200
        assert [r["id"] for r in listed.json()["results"]] == [ruling["id"]]


@pytest.mark.parametrize(
    ("overrides", "field", "code"),
    [
        ({"judges": []}, "judges", "judge_count"),
        ({"judges": [999999, 999998]}, "judges", "does_not_exist"),
        ({"table": 9}, "table", "does_not_exist"),
        (
            {"code": "muggins", "claimed_missed": 2, "true_missed": 2},
            "code",
            "muggins_not_in_effect",
        ),
        ({"code": "renege"}, "reneged_cards", "ruling"),
        ({"code": "nap"}, "code", "invalid_choice"),
        ({"score_before_offender": -1}, "score_before_offender", "min_value"),
        ({"offender": 0}, "offender", "not_at_table"),
        ({"third_judge": True}, "third_judge", "third_judge"),
    ],
)
def test_bad_rulings_are_400s_naming_the_field(setup, overrides, field, code):
    before = state()
    response = client_for(setup.director).post(
        rulings_url(setup), body(setup, **overrides), format="json"
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert (errors[0]["field"], errors[0]["code"]) == (field, code), errors
    assert state() == before


def test_a_judge_playing_in_the_game_is_refused(setup):
    player = setup.a.entry.player
    player.user = setup.judges[0]
    player.save()
    response = client_for(setup.director).post(rulings_url(setup), body(setup), format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "judge_is_player"
    assert not Ruling.objects.exists()


def test_open_calls_and_answering_one(setup):
    call = judge_call_create(table=setup.table, entry=setup.a.entry)
    url = f"/api/v1/events/{setup.event.pk}/judge-calls/"
    answer = f"/api/v1/judge-calls/{call.pk}/answer/"
    other_director = client_for(EventFactory().created_by)
    assert client_for().get(url).status_code in (401, 403)
    assert other_director.get(url).status_code == 403
    assert client_for().post(answer).status_code in (401, 403)
    assert other_director.post(answer).status_code == 403
    assert JudgeCall.objects.get().answered_at is None

    listed = client_for(setup.judges[0]).get(url).json()["results"]
    assert [(c["id"], c["game"], c["table"]) for c in listed] == [(call.pk, 1, 1)]
    assert listed[0]["players"] == [setup.a.entry.player.name, setup.b.entry.player.name]
    assert listed[0]["called_by"] == setup.a.entry.player.name

    taken = client_for(setup.judges[1]).post(answer)
    assert taken.status_code == 200 and taken.json()["answered_by"] == setup.judges[1].pk
    again = client_for(setup.judges[0]).post(answer)
    assert again.status_code == 400 and again.json()["errors"][0]["code"] == "already_answered"
    assert client_for(setup.director).get(url).json()["results"] == []


def test_a_director_calls_judges_to_a_table(setup):
    url = f"/api/v1/events/{setup.event.pk}/judge-calls/"
    assert (
        client_for(EventFactory().created_by).post(url, {"game": 1, "table": 2}).status_code == 403
    )
    judge = client_for(setup.judges[0]).post(url, {"game": 1, "table": 2}, format="json")
    assert judge.status_code == 403  # judges answer calls; directors and players make them
    made = client_for(setup.director).post(url, {"game": 1, "table": 2}, format="json")
    assert made.status_code == 201 and made.json()["table"] == 2
    assert made.json()["called_by_user"] == setup.director.pk
    twice = client_for(setup.director).post(url, {"game": 1, "table": 2}, format="json")
    assert twice.status_code == 400
    assert twice.json()["errors"][0] == {
        "field": "table",
        "code": "already_called",
        "message": "Judges are already called to table 2; they are on their way.",
    }
