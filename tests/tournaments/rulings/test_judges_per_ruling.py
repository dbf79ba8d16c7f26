"""How many judges make a ruling is an event setting (issue 22 item 8): two by default and in
every sanctioned event, one allowed at a club night; three when a player asks for a third."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.helpers import client_for
from tournaments.core.judging import judges_needed, panel_problem
from tournaments.errors import ServiceError
from tournaments.models import Event, Ruling
from tournaments.presets import PRESETS
from tournaments.services.events import event_create, event_update_settings

pytestmark = pytest.mark.django_db


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# The rule (pure)


@pytest.mark.parametrize(
    ("setting", "sanctioned", "needed"), [(2, False, 2), (1, False, 1), (1, True, 2), (2, True, 2)]
)
def test_a_sanctioned_event_always_needs_two(setting, sanctioned, needed):
    assert judges_needed(setting=setting, sanctioned=sanctioned) == needed


@pytest.mark.parametrize(
    ("count", "needed", "third", "field"),
    [
        (1, 1, False, None),
        (2, 2, False, None),
        (3, 1, True, None),
        (3, 2, True, None),
        (1, 2, False, "judges"),
        (2, 1, False, None),
        (0, 1, False, "judges"),
        (3, 2, False, "third_judge"),
        (2, 2, True, "third_judge"),
        (4, 2, True, "judges"),
        (4, 1, False, "judges"),
    ],
)
def test_panel_sizes(count, needed, third, field):
    problem = panel_problem(count=count, needed=needed, third_judge=third)
    assert (problem and problem[0]) == field


def test_the_refusal_says_how_many_and_what_to_do():
    field, message = panel_problem(count=1, needed=2, third_judge=False)
    assert message == (
        "A ruling in this event is made by two judges, or three when a player asks for a third "
        "judge; 1 chosen. Tick two judges."
    )


# The setting


def test_presets_two_judges_for_the_acc_one_for_a_club_night():
    assert PRESETS["acc-main"].settings["judges_per_ruling"] == 2
    assert PRESETS["acc-consolation"].settings["judges_per_ruling"] == 2
    night = event_create(user=UserFactory(), name="Tuesday night", preset="grass-roots")
    assert night.judges_per_ruling == 1
    assert Event._meta.get_field("judges_per_ruling").default == 2


def test_a_club_night_with_one_judge_records_a_ruling(judged):
    setup = judged(judges_per_ruling=1)
    ruling = setup.record("late_from_lunch", before=(40, 60), judges=setup.judges[:1])
    assert list(ruling.judges.all()) == setup.judges[:1]


def test_two_judges_refuse_one_and_the_refusal_says_how_many(judged):
    setup = judged(judges_per_ruling=2)
    with pytest.raises(ServiceError) as refused:
        setup.record("late_from_lunch", before=(40, 60), judges=setup.judges[:1])
    assert (refused.value.field, refused.value.code) == ("judges", "judge_count")
    assert "two judges" in refused.value.message
    assert not Ruling.objects.exists()


def test_a_sanctioned_event_needs_two_whatever_its_setting(judged):
    setup = judged(judges_per_ruling=1, kind="main")
    Event.objects.filter(pk=setup.event.pk).update(sanctioned=True)
    setup.event.refresh_from_db()
    with pytest.raises(ServiceError, match="two judges"):
        setup.record("late_from_lunch", before=(40, 60), judges=setup.judges[:1])
    with pytest.raises(ServiceError) as refused:
        event_update_settings(event=setup.event, user=setup.director, judges_per_ruling=1)
    assert refused.value.field == "judges_per_ruling"
    page = page_client(setup.director).get(f"/events/{setup.event.pk}/settings/")
    html = page.content.decode()
    assert "This event is sanctioned" in html and "One judge</option>" not in html
    assert '<option value="2" selected>Two judges</option>' in html


def test_the_setting_may_change_during_play_other_settings_may_not(judged):
    setup = judged(judges_per_ruling=2)
    event = event_update_settings(event=setup.event, user=setup.director, judges_per_ruling=1)
    assert event.judges_per_ruling == 1
    with pytest.raises(ServiceError, match="before play starts"):
        event_update_settings(event=setup.event, user=setup.director, muggins=True)
    setup.record("late_from_lunch", before=(40, 60), judges=setup.judges[1:2])


def test_a_third_judge_makes_three_even_at_a_one_judge_night(judged):
    setup = judged(judges_per_ruling=1)
    ruling = setup.record("late_from_lunch", before=(40, 60), judges=setup.judges, third_judge=True)
    assert ruling.final and ruling.judges.count() == 3


# API and pages


def test_the_api_reads_and_changes_the_setting_and_records_a_one_judge_ruling(judged):
    setup = judged(judges_per_ruling=2)
    api = client_for(setup.director)
    url = f"/api/v1/events/{setup.event.pk}/"
    assert api.get(url).json()["judges_per_ruling"] == 2
    changed = api.patch(url, {"judges_per_ruling": 1}, format="json")
    assert changed.status_code == 200, changed.content
    assert changed.json()["judges_per_ruling"] == 1
    assert api.patch(url, {"judges_per_ruling": 3}, format="json").status_code == 400
    body = {
        "game": 1,
        "table": setup.table.number,
        "code": "late_from_lunch",
        "offender": setup.b.entry_id,
        "score_before_offender": 40,
        "score_before_opponent": 60,
        "judges": [setup.judges[0].pk],
    }
    created = api.post(f"/api/v1/events/{setup.event.pk}/rulings/", body, format="json")
    assert created.status_code == 201, created.content


def test_the_settings_page_shows_the_setting_and_saves_it_during_play(setup):
    client = page_client(setup.director)
    url = f"/events/{setup.event.pk}/settings/"
    page = client.get(url).content.decode()
    assert "Judges per ruling" in page and 'name="judges_per_ruling"' in page
    judge_page = page_client(setup.judges[0]).get(
        f"/events/{setup.event.pk}/games/1/tables/1/ruling/"
    )
    assert "One judge or two, or three when a player asks" in judge_page.content.decode()


def test_a_refused_ruling_form_opens_with_a_focused_error_summary(judged):
    setup = judged(judges_per_ruling=2)
    judge = page_client(setup.judges[0])
    url = f"/events/{setup.event.pk}/games/1/tables/1/ruling/"
    assert "Two judges, or three when a player asks" in judge.get(url).content.decode()
    data = {
        "code": "late_from_lunch",
        "offender": setup.b.entry_id,
        "score_before_offender": 40,
        "score_before_opponent": 60,
        "judges": [setup.judges[0].pk],
    }
    response = judge.post(url, data)
    html = response.content.decode()
    assert response.status_code == 400
    summary = re.search(r'<div class="banner error-summary"[^>]*>', html)
    assert summary and "autofocus" in summary.group(0) and 'tabindex="-1"' in summary.group(0)
    # Before the form, and it links to the judges' own error message.
    assert html.index("error-summary") < html.index('<form method="post" class="form wide"')
    assert 'href="#id_judges_error"' in html and 'id="id_judges_error"' in html


def test_a_backup_made_before_the_setting_comes_back_with_two_judges(event_in_play):
    from tests.tournaments.backup.conftest import delete_event
    from tournaments.services.backup_export import event_export
    from tournaments.services.backup_import import event_import

    event = event_in_play(4, qualifying_games=3, judges_per_ruling=1)
    doc = event_export(event=event, include_tokens=True)
    assert doc["event"]["settings"]["judges_per_ruling"] == 1
    del doc["event"]["settings"]["judges_per_ruling"]
    delete_event(event, doc)
    restored = event_import(data=doc, user=None)
    assert restored.judges_per_ruling == 2
