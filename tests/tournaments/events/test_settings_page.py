"""The event settings page in plain words: sections, playoff lengths as choices mapped to the
stored lengths by name (every round, semi-finals, final), the preset's name, a games hint from
the field, the publish reminder."""

from __future__ import annotations

import re
from itertools import product

import pytest
from rest_framework.test import APIClient

from tests.factories import EventFactory, PlayerFactory, UserFactory
from tournaments.core.playoff_lengths import best_of_for
from tournaments.forms import BEST_OF_FIELDS, EventSettingsForm, playoff_rounds
from tournaments.models import Entry, Event

pytestmark = pytest.mark.django_db
REMINDER = "cannot see this event until you publish it"
LENGTHS = (1, 3, 5, 7)


@pytest.fixture
def director(client):
    user = UserFactory(username="td")
    client.force_login(user)
    return user


def _event(director, players=0, **settings):
    event = EventFactory(director=director, **settings)
    people = PlayerFactory.create_batch(players)
    Entry.objects.bulk_create(Entry(event=event, player=p) for p in people)
    return event


def _url(event):
    return f"/events/{event.pk}/settings/"


def _form(client, event, **changes):
    """What the page posts when the director changes ``changes``: every field as shown."""
    form = client.get(_url(event)).context["form"]
    data = {}
    for field in form:
        value = field.value()
        if isinstance(value, bool):
            if value:
                data[field.name] = "on"
            continue
        data[field.name] = "" if value is None else value
    return {**data, **changes}


def _lengths(lengths, rounds):
    """Each round's length in a bracket of ``rounds`` rounds."""
    return [best_of_for(lengths, r, rounds) for r in range(1, rounds + 1)]


@pytest.mark.parametrize("rounds", range(1, 7))
def test_every_choice_means_the_same_to_any_bracket(rounds):
    """Whatever the three choices, the final and the semi-finals of a bracket of any size get
    the length chosen for them, and every other round the length for every round."""
    overrides = (None, *LENGTHS)
    for every, semi, final in product(LENGTHS, overrides, overrides):
        lengths = {"every": every, "semi": semi, "final": final}
        wanted = ([every] * (rounds - 2) + [semi or every, final or every])[-rounds:]
        assert _lengths(lengths, rounds) == wanted


def test_bracket_rounds_follow_the_cut():
    assert playoff_rounds(120, 4) == 5  # 30 qualify, 32 lines
    assert playoff_rounds(30, 4) == 3  # 8 qualify
    assert playoff_rounds(4, 4) == 0  # one qualifier: no match
    assert playoff_rounds(0, 4) is None and playoff_rounds(30, 0) is None


def test_all_rounds_5_with_a_final_of_7_round_trips(client, director):
    event = _event(director, 30, preset="acc-main")  # 8 qualify: 3 rounds
    response = client.post(_url(event), _form(client, event, best_of_final="7"))
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.playoff_best_of == {"every": 5, "semi": None, "final": 7}
    assert _lengths(event.playoff_best_of, 3) == [5, 5, 7]
    form = client.get(_url(event)).context["form"]
    assert [form[name].value() for name in BEST_OF_FIELDS] == [5, None, 7]
    assert "played in 3 rounds" in client.get(_url(event)).content.decode()


def test_semis_and_final_of_their_own(client, director):
    event = _event(director, 120, preset="acc-main")  # 30 qualify: 5 rounds
    data = _form(client, event, best_of_all="3", best_of_semi="5", best_of_final="7")
    assert client.post(_url(event), data).status_code == 302
    event.refresh_from_db()
    assert event.playoff_best_of == {"every": 3, "semi": 5, "final": 7}
    assert _lengths(event.playoff_best_of, 5) == [3, 3, 3, 5, 7]
    back = _form(client, event, best_of_semi="", best_of_final="")
    assert client.post(_url(event), back).status_code == 302
    event.refresh_from_db()
    assert event.playoff_best_of == {"every": 3, "semi": None, "final": None}


def test_a_final_of_7_stays_7_when_the_field_shrinks(client, director):
    """Chosen with 17 entrants (5 qualify: 3 rounds); four withdraw before the cut (13: 4
    qualify, 2 rounds): the final is still best of 7, and the page still shows it."""
    event = _event(director, 17, preset="acc-main")
    assert client.post(_url(event), _form(client, event, best_of_final="7")).status_code == 302
    gone = event.entries.order_by("pk")[:4].values_list("pk", flat=True)
    Entry.objects.filter(pk__in=list(gone)).update(status=Entry.Status.WITHDRAWN)
    event.refresh_from_db()
    assert playoff_rounds(13, 4) == 2
    assert best_of_for(event.playoff_best_of, 2, 2) == 7
    assert best_of_for(event.playoff_best_of, 1, 2) == 5
    form = client.get(_url(event)).context["form"]
    assert [form[name].value() for name in BEST_OF_FIELDS] == [5, None, 7]


def test_a_larger_field_leaves_the_semi_finals_alone(client, director):
    """Final best of 7 chosen with 8 qualifiers; with 16 the semi-finals are still best of 5."""
    event = _event(director, 30, preset="acc-main")
    client.post(_url(event), _form(client, event, best_of_final="7"))
    data = _form(client, event, qualifier_ratio="2")  # 15 qualify: 4 rounds
    assert client.post(_url(event), data).status_code == 302
    event.refresh_from_db()
    assert _lengths(event.playoff_best_of, 4) == [5, 5, 5, 7]
    assert _lengths(event.playoff_best_of, 5) == [5, 5, 5, 5, 7]


def test_json_is_no_longer_asked(client, director):
    event = _event(director, preset="acc-main")
    page = client.get(_url(event)).content.decode()
    assert 'name="playoff_best_of"' not in page and "JSON" not in page and "[5]" not in page
    for name in BEST_OF_FIELDS:
        assert f'<select name="{name}"' in page
    assert "Best of 5 (first to win 3)" in page and "Same as the other rounds" in page


def test_sections_have_plain_headings_and_hold_every_field(client, director):
    event = _event(director, preset="acc-main")
    response = client.get(_url(event))
    page = response.content.decode()
    for heading in ("Games and scoring", "The cut and playoffs", "Money", "Publishing"):
        assert f"<h2>{heading}</h2>" in page or f">{heading}</h2>" in page
    form = response.context["form"]
    in_sections = [f.name for section in form.sections for f in section["fields"]]
    assert sorted(in_sections) == sorted(form.fields)
    assert all(form[name].help_text for name in form.fields)
    assert f"/events/{event.pk}/money/" in page


def test_the_presets_human_name_is_shown(client, director):
    event = _event(director, preset="acc-main")
    page = client.get(_url(event)).content.decode()
    assert "Started from the ACC Main preset" in page and "acc-main" not in page


@pytest.mark.parametrize(
    ("players", "hint"),
    [
        (120, "With 120 entrants, the ACC schedule suggests 22 games"),
        (16, "With 16 entrants, the ACC schedule suggests 14 games"),
        (10, "With 10 entrants, at most 9 games avoid meeting anyone twice: fewer than the "
         "shortest ACC Main (12 games)"),
        (0, "ACC Main lengths: 12, 14, 16, 18, 20, 21 or 22 games."),
    ],
)  # fmt: skip
def test_the_games_hint_follows_the_field(client, director, players, hint):
    event = _event(director, players, preset="acc-main")
    page = client.get(_url(event)).content.decode()
    games = page.split('id="games"', 1)[1].split("</fieldset>", 1)[0]
    assert hint in games


def test_a_club_night_hint_and_withdrawals_do_not_count(client, director):
    event = _event(director, 10)  # grass roots
    Entry.objects.filter(pk=Entry.objects.filter(event=event).first().pk).update(
        status=Entry.Status.WITHDRAWN
    )
    page = client.get(_url(event)).content.decode()
    assert "With 9 entrants, the ACC schedule suggests 9 games" in page


def test_the_reminder_shows_until_the_event_is_published(client, director):
    event = _event(director, 8, preset="acc-main")
    manage = f"/events/{event.pk}/manage/"
    for url in (manage, _url(event)):
        page = client.get(url).content.decode()
        assert REMINDER in page and f"/events/{event.pk}/settings/#publishing" in page
    assert client.post(_url(event), _form(client, event, published="on")).status_code == 302
    event.refresh_from_db()
    assert event.published
    for url in (manage, _url(event)):
        assert REMINDER not in client.get(url).content.decode()


def _error_next_to(page, name):
    """The error list Django renders for ``name`` and the select it describes."""
    error = re.search(rf'<ul class="errorlist" id="id_{name}_error"><li>(.*?)</li>', page)
    select = re.search(rf'<select name="{name}"[^>]*>', page).group(0)
    assert error and 'aria-invalid="true"' in select and f"id_{name}_error" in select
    return error.group(1)


def test_a_final_length_without_playoffs_is_refused_next_to_the_field(client, director):
    event = _event(director, 30, preset="acc-main", name="Spring Open")
    data = _form(client, event, qualifier_ratio="0", best_of_final="7", name="Not saved")
    response = client.post(_url(event), data)
    assert response.status_code == 400
    page = response.content.decode()
    assert "This event has no playoffs" in _error_next_to(page, "best_of_final")
    assert "Nothing was saved" in page
    event.refresh_from_db()
    assert (event.name, event.qualifier_ratio, event.playoff_best_of["final"]) == (
        "Spring Open",
        4,
        None,
    )


def test_a_semi_final_length_before_anyone_entered_is_kept(client, director):
    """Stored by name, a semi-final length needs no bracket yet: it is kept, not dropped."""
    event = _event(director, preset="acc-main")
    response = client.post(_url(event), _form(client, event, best_of_semi="7"))
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.playoff_best_of == {"every": 5, "semi": 7, "final": None}


def test_the_api_takes_and_shows_the_named_lengths(director):
    event = _event(director, 30, preset="acc-main")
    api = APIClient()
    api.force_authenticate(director)
    url = f"/api/v1/events/{event.pk}/"
    lengths = {"every": 3, "semi": 5, "final": 7}
    response = api.patch(url, {"playoff_best_of": lengths}, format="json")
    assert response.status_code == 200 and response.json()["playoff_best_of"] == lengths
    form = EventSettingsForm(instance=Event.objects.get(pk=event.pk))
    assert [form[name].value() for name in BEST_OF_FIELDS] == [3, 5, 7]
    for wrong, words in (
        ({"every": 3, "quarter": 5}, "Unknown playoff round 'quarter'"),
        ({"every": 3, "final": 6}, "The final: best of 6 is not allowed"),
        ({"final": 7}, '"every" is needed'),
    ):
        refused = api.patch(url, {"playoff_best_of": wrong}, format="json")
        assert refused.status_code == 400
        [error] = refused.json()["errors"]
        assert (error["field"], error["code"]) == ("playoff_best_of", "odd_best_of")
        assert words in error["message"]
    assert Event.objects.get(pk=event.pk).playoff_best_of == lengths


def test_after_play_starts_the_rules_of_play_are_disabled_with_the_reason(client, event_in_play):
    """Issue 22: the inputs looked editable after play started, and a change was refused."""
    event = event_in_play(10)
    before = event.qualifying_games
    client.force_login(event.director)
    page = client.get(_url(event)).content.decode()
    for name in ("qualifying_games", "target_score", "muggins", "best_of_all", "best_of_final"):
        tag = re.search(rf'<(input|select)[^>]*name="{name}"[^>]*>', page).group(0)
        assert " disabled" in tag, name
    for name in ("name", "starts_on", "published"):
        tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', page).group(0)
        assert " disabled" not in tag, name
    assert page.count("Fixed now: game 1 is paired.") >= len(Event.SETTINGS)
    # What the browser posts (disabled inputs are not sent; judges per ruling stays open, so its
    # select is): the name changes, nothing refused.
    sent = {"name": "Renamed on the day", "published": "on", "starts_on": ""}
    response = client.post(_url(event), {**sent, "judges_per_ruling": event.judges_per_ruling})
    assert response.status_code == 302, response.content.decode()[:500]
    event.refresh_from_db()
    assert event.name == "Renamed on the day" and event.qualifying_games == before


def test_judges_per_ruling_stays_open_after_play_starts(client, event_in_play):
    """The one setting play does not fix (a club night whose second judge went home): its input
    is not disabled, and the page changes it after game 1 is paired."""
    event = event_in_play(10)
    client.force_login(event.director)
    page = client.get(_url(event)).content.decode()
    tag = re.search(r'<select[^>]*name="judges_per_ruling"[^>]*>', page).group(0)
    assert " disabled" not in tag
    wanted = 1 if event.judges_per_ruling == 2 else 2
    response = client.post(
        _url(event),
        {"name": event.name, "published": "on", "starts_on": "", "judges_per_ruling": wanted},
    )
    assert response.status_code == 302, response.content.decode()[:500]
    event.refresh_from_db()
    assert event.judges_per_ruling == wanted
