"""The phone's queue (static/js/report-queue.js) reads the answer to a saved report in both
shapes: today's (the player's page as data, ``current.state``/``current.words``) and the small
one (``state``, ``words``, ``verified``, ``line``). Verified only when the server says so; a
verified card that differs from what the phone sent is a conflict."""

import pytest
from rest_framework.test import APIClient

from tests.conftest import REPO
from tournaments.models import Table

pytestmark = [pytest.mark.browser]

SENT = {"game_points": 3, "plus": 35, "minus": 0}


@pytest.fixture
def outcome(browser):
    page = browser.new_page()
    page.add_script_tag(path=str(REPO / "static/js/report-queue.js"))

    def _outcome(body: dict, line: dict = SENT) -> dict:
        return page.evaluate("([b, l]) => ReportQueue.outcome(b, {line: l})", [body, line])

    yield _outcome
    page.close()


def _small(state: str, verified: bool, line: dict = SENT) -> dict:
    return {
        "game": 1,
        "table": 3,
        "line": {"kind": "reported", **line},
        "state": state,
        "words": f"words of {state}",
        "verified": verified,
    }


def test_the_small_answer(outcome):
    assert outcome(_small("waiting", False)) == {"state": "received", "words": "words of waiting"}
    assert outcome(_small("disagree", False))["state"] == "received"
    assert outcome(_small("verified", True)) == {"state": "verified", "words": "words of verified"}
    other = {"game_points": 2, "plus": 25, "minus": 0}
    assert outcome(_small("verified", True, other))["state"] == "conflict"


@pytest.mark.django_db(transaction=True)
def test_todays_answer_from_the_api(outcome, event_in_play):
    event = event_in_play(10)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    winner, loser = (seat.entry for seat in table.seats.order_by("position"))
    api = APIClient()
    first = api.post(
        f"/api/v1/report/{winner.report_token}/", {"result": "won", "margin": 35}, format="json"
    )
    assert first.status_code == 201
    said = outcome(first.json())
    assert said["state"] == "received" and said["words"].startswith("Saved. Waiting for")
    second = api.post(
        f"/api/v1/report/{loser.report_token}/", {"result": "lost", "margin": 35}, format="json"
    )
    lost = {"game_points": 0, "plus": 0, "minus": 35}
    assert outcome(second.json(), lost) == {
        "state": "verified",
        "words": "Both cards agree: this game is verified.",
    }
    assert outcome(second.json(), {"game_points": 0, "plus": 0, "minus": 20})["state"] == (
        "conflict"
    )
