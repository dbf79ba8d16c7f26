"""The judges' pages: open calls with an Answer button, the ruling form with its preview, the
event's rulings, and a player's "Call a judge" button. Judges and directors of the event only."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import timezone

from tests.factories import EventFactory, UserFactory
from tournaments.models import CardLine, JudgeCall, Ruling, Table
from tournaments.selectors.results import entry_current_seat
from tournaments.services.judge_calls import judge_call_create
from tournaments.views.report import live_part_context

pytestmark = pytest.mark.django_db


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def form_url(setup) -> str:
    return f"/events/{setup.event.pk}/games/1/tables/{setup.table.number}/ruling/"


def pages(setup) -> list[str]:
    return [
        f"/events/{setup.event.pk}/judges/",
        f"/events/{setup.event.pk}/rulings/",
        form_url(setup),
    ]


def test_judges_and_directors_only(setup):
    other_director = EventFactory().created_by
    for url in pages(setup):
        anonymous = client_for().get(url)
        assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"], url
        assert client_for(other_director).get(url).status_code == 403, url
        assert client_for(UserFactory()).get(url).status_code == 403, url
        assert client_for(setup.judges[0]).get(url).status_code == 200, url
        assert client_for(setup.director).get(url).status_code == 200, url


def test_a_judge_sees_open_calls_and_answers_one(setup):
    call = judge_call_create(table=setup.table, entry=setup.a.entry)
    JudgeCall.objects.filter(pk=call.pk).update(
        created_at=timezone.now() - timezone.timedelta(minutes=7)
    )
    judge = client_for(setup.judges[0])
    page = judge.get(f"/events/{setup.event.pk}/judges/").content.decode()
    assert "Answer table 1" in page
    assert setup.a.entry.player.name in page and setup.b.entry.player.name in page
    assert "7 min" in page
    response = judge.post(f"/judge-calls/{call.pk}/answer/")
    assert response.status_code == 302 and response["Location"] == form_url(setup)
    call.refresh_from_db()
    assert call.answered_by == setup.judges[0]
    assert "Answer table 1" not in judge.get(f"/events/{setup.event.pk}/judges/").content.decode()
    assert (
        client_for(EventFactory().created_by).post(f"/judge-calls/{call.pk}/answer/").status_code
        == 403
    )


def test_the_judge_page_takes_a_judge_to_any_table(setup):
    response = client_for(setup.judges[0]).get(
        f"/events/{setup.event.pk}/judges/", {"game": 1, "table": 2}
    )
    assert response["Location"] == f"/events/{setup.event.pk}/games/1/tables/2/ruling/"


def ruling_data(setup, **overrides) -> dict:
    data = {
        "code": "false_claim_of_game",
        "offender": setup.a.entry_id,
        "score_before_offender": 121,
        "score_before_opponent": 115,
        "true_score": 100,
        "judges": [setup.judges[0].pk, setup.judges[1].pk],
        "hand_number": 12,
        "notes": "Pegged out on a miscounted crib.",
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def hidden_inputs(html: str) -> list[tuple[str, str]]:
    inputs = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', html)
    return [(name, value) for name, value in inputs if name != "csrfmiddlewaretoken"]


def test_preview_then_save(setup):
    judge = client_for(setup.judges[0])
    page = judge.get(form_url(setup)).content.decode()
    assert "False claim of game" in page and "Judges must be called." in page
    assert 'value="muggins"' not in page  # not in effect in this event

    preview = judge.post(form_url(setup), ruling_data(setup))
    html = preview.content.decode()
    assert preview.status_code == 200
    assert "the board after the ruling" in html
    assert f"{setup.a.entry.player.name} (offender): <strong>121 → 85</strong>" in html
    assert f"{setup.b.entry.player.name}: <strong>115 → 121</strong>" in html
    assert f"The game is over: {setup.b.entry.player.name} wins" in html
    assert "3 game points, plus 36" in html and "0 game points, minus 36" in html
    assert not Ruling.objects.exists() and not CardLine.objects.exists()

    data = {}
    for name, value in hidden_inputs(html):
        data.setdefault(name, []).append(value)
    saved = judge.post(form_url(setup), {**data, "confirm": "1"})
    assert saved.status_code == 302 and saved["Location"] == f"/events/{setup.event.pk}/rulings/"
    ruling = Ruling.objects.get()
    assert (ruling.score_after_offender, ruling.score_after_opponent) == (85, 121)
    assert (ruling.hand_number, ruling.entered_by) == (12, setup.judges[0])
    assert ruling.notes == "Pegged out on a miscounted crib."
    assert set(ruling.judges.all()) == set(setup.judges[:2])
    table = Table.objects.get(pk=setup.table.pk)
    assert table.status == Table.Status.VERIFIED


def test_change_it_goes_back_to_the_form_with_the_values(setup):
    response = client_for(setup.judges[0]).post(
        form_url(setup), {**ruling_data(setup), "edit": "1"}
    )
    html = response.content.decode()
    assert "Check the ruling" in html and 'value="115"' in html
    assert not Ruling.objects.exists()


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"judges": None}, "judges", "This field is required"),
        ({"true_score": None}, "true_score", "needs true_score"),
        (
            {"code": "overpeg", "score_before_offender": 50, "true_score": 60},
            "true_score",
            "nothing was overpegged",
        ),
        ({"code": "muggins"}, "code", "Select a valid choice"),
    ],
)
def test_errors_show_on_the_form_fields(setup, overrides, field, message):
    response = client_for(setup.judges[0]).post(form_url(setup), ruling_data(setup, **overrides))
    assert response.status_code == 400
    html = response.content.decode()
    if field == "code":
        assert message in html
    else:
        assert re.search(rf'id="id_{field}_error">[^<]*{message}', html), html
    assert not Ruling.objects.exists()


def test_a_judge_playing_at_the_table_is_refused_on_the_form(setup):
    player = setup.a.entry.player
    player.user = setup.judges[1]
    player.save()
    response = client_for(setup.judges[0]).post(form_url(setup), ruling_data(setup))
    assert response.status_code == 400
    assert "never rules on a game they play in" in response.content.decode()


def test_the_director_sees_every_ruling(setup, django_assert_max_num_queries):
    setup.record("renege", before=(70, 30), reneged_cards=2, hand_number=4)
    setup.record("overpeg", offender="b", before=(50, 45), true_score=40)
    director = client_for(setup.director)
    with django_assert_max_num_queries(12) as few:
        html = director.get(f"/events/{setup.event.pk}/rulings/").content.decode()
    assert "Renege" in html and "Overpegging" in html
    assert "Offender 70 → 70" in html and "Opponent 30 → 34" in html
    assert "Ann, Bea" in html and "Open to appeal" in html
    for _ in range(3):
        setup.record(
            "renege", before=(10, 10), reneged_cards=1, third_judge=True, judges=setup.judges
        )
    with django_assert_max_num_queries(len(few.captured_queries)):
        html = director.get(f"/events/{setup.event.pk}/rulings/").content.decode()
    assert html.count('<dd class="final">Final</dd>') == 3


def test_a_player_calls_a_judge_from_their_link(setup):
    entry = setup.a.entry
    player = Client()
    response = player.post(f"/r/{entry.report_token}/judge/", {"table": setup.table.pk})
    assert response.status_code == 302 and response["Location"] == f"/r/{entry.report_token}/"
    call = JudgeCall.objects.get()
    assert (call.table, call.called_by_entry, call.answered_at) == (setup.table, entry, None)
    again = player.post(f"/r/{entry.report_token}/judge/", {"table": setup.table.pk}, follow=True)
    assert "already called to table 1" in again.content.decode()
    assert JudgeCall.objects.count() == 1


def test_a_player_cannot_call_judges_to_another_table(setup):
    other = Table.objects.get(game__event=setup.event, game__number=1, number=2)
    response = Client().post(
        f"/r/{setup.a.entry.report_token}/judge/", {"table": other.pk}, follow=True
    )
    assert "Your table has changed" in response.content.decode()
    assert not JudgeCall.objects.exists()
    assert Client().post("/r/not-a-token/judge/").status_code == 404
    assert Client().get(f"/r/{setup.a.entry.report_token}/judge/").status_code == 405


def test_the_call_button_fragment(setup):
    seat = entry_current_seat(entry=setup.a.entry)
    # What the player's page gives it (its live part's context, where the path is made).
    live = live_part_context(setup.a.entry)
    context = {**live, "table_id": seat.table_id, "table_number": 1}
    html = render_to_string("tournaments/rulings/_call_button.html", context)
    assert f'action="/r/{setup.a.entry.report_token}/judge/"' in html
    assert f'name="table" value="{setup.table.pk}"' in html
    assert "Call a judge to table 1" in html
    sit_out = render_to_string("tournaments/rulings/_call_button.html", {**live, "table_id": None})
    assert "Call a judge" not in sit_out


def test_the_open_calls_take_the_same_queries_however_many(
    setup, django_assert_max_num_queries, django_assert_num_queries
):
    judge = client_for(setup.judges[0])
    url = f"/events/{setup.event.pk}/judges/"
    judge_call_create(table=setup.table, entry=setup.a.entry)
    with django_assert_max_num_queries(12) as one:
        judge.get(url)
    other = Table.objects.get(game__event=setup.event, game__number=1, number=2)
    judge_call_create(table=other, entry=other.seats.first().entry)
    with django_assert_num_queries(len(one.captured_queries)):
        html = judge.get(url).content.decode()
    assert "Answer table 1" in html and "Answer table 2" in html
