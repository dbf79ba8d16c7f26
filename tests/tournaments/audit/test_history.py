"""The event's history page and API: who did what and when, with the state before and after,
filterable by person, kind of action and game; for the event's directors, cross-checkers and
judges only."""

import pytest

from tests.factories import EventFactory, UserFactory
from tests.helpers import client_for
from tournaments.models import EventRole, Game, Table
from tournaments.services.corrections import table_paper_line_enter
from tournaments.services.results import game_close
from tournaments.services.roles import event_role_grant

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(event_in_play):
    event = event_in_play(10)
    checker = UserFactory(first_name="Cora", last_name="Checker")
    event_role_grant(
        event=event, actor=event.director, person=checker.username, role="cross_checker"
    )
    table = Table.objects.get(game__event=event, game__number=1, number=2)
    table_paper_line_enter(table=table, position=1, won=True, spread=7, user=checker)
    game_close(game=Game.objects.get(event=event, number=1), user=event.director)
    event.checker = checker
    return event


def test_the_page_lists_and_filters(client, history):
    event = history
    client.force_login(event.director)
    url = f"/events/{event.pk}/history/"
    page = client.get(url).content.decode()
    for text in ("Cora Checker", "Paper card entered", "Game 1 closed", "Registration closed"):
        assert text in page
    by_person = client.get(url, {"actor": event.checker.pk}).content.decode()
    assert "Paper card entered" in by_person and "Game 1 closed" not in by_person
    by_kind = client.get(url, {"kind": "roles"}).content.decode()
    assert "is cross-checker" in by_kind and "Game 1 closed" not in by_kind
    by_game = client.get(url, {"game": 1}).content.decode()
    assert "Game 1 closed" in by_game and "Registration closed" not in by_game
    assert client.get(url, {"game": "x"}).status_code == 200  # a bad filter shows everything


def test_the_api_lists_and_filters(history):
    event = history
    api = client_for(event.checker)
    url = f"/api/v1/events/{event.pk}/history/"
    rows = api.get(url).json()["results"]
    assert rows[0]["action"] == "game_close" and rows[0]["before"] == {"status": "published"}
    paper = api.get(url, {"kind": "results", "actor": event.checker.pk}).json()["results"]
    assert [r["action"] for r in paper] == ["table_paper_line_enter"]
    assert paper[0]["after"]["line"] == {"game_points": 2, "plus": 7, "minus": 0}
    assert paper[0]["actor_name"] == "Cora Checker" and paper[0]["game_number"] == 1
    assert api.get(url, {"kind": "nonsense"}).status_code == 400
    assert api.get(url, {"game": 10**30}).status_code == 400


def test_only_the_events_staff_may_read_it(client, history):
    event = history
    judge = UserFactory()
    EventRole.objects.create(event=event, user=judge, role="judge")
    stranger = UserFactory()
    EventFactory(director=stranger)
    url = f"/api/v1/events/{event.pk}/history/"
    assert client_for(judge).get(url).status_code == 200
    assert client_for(stranger).get(url).status_code == 403
    assert client_for().get(url).status_code in (401, 403)
    client.force_login(stranger)
    assert client.get(f"/events/{event.pk}/history/").status_code == 403
