"""Refusals name every blocker with the page that settles it; the manage page counts what
waits (issue 22, item 10)."""

import pytest

from tests.helpers import client_for
from tournaments.errors import Blocked
from tournaments.models import Playoff, Table
from tournaments.services.ledger import event_finalise_request
from tournaments.services.playoffs import playoff_build_request

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_tables_wait(qualified_event):
    """Every game closed, but in game 2 table 1's cards disagree and table 3 has none."""
    event = qualified_event(12, 2)
    Table.objects.filter(game__event=event, game__number=2, number=1).update(
        status=Table.Status.FLAGGED
    )
    Table.objects.filter(game__event=event, game__number=2, number=3).update(
        status=Table.Status.OPEN
    )
    return event


def _links(event) -> dict[str, str]:
    base = f"/events/{event.pk}/games/2/tables"
    return {"Game 2, table 1": f"{base}/1/cross-check/", "Game 2, table 3": f"{base}/3/"}


def test_the_bracket_refusal_names_every_table_with_its_link(client, two_tables_wait):
    event = two_tables_wait
    with pytest.raises(Blocked) as refused:
        playoff_build_request(event=event, user=event.director)
    assert "Game 2, table 1" in refused.value.message
    assert "Game 2, table 3" in refused.value.message
    client.force_login(event.director)
    page = client.post(f"/events/{event.pk}/playoff/build/", follow=True).content.decode()
    for text, url in _links(event).items():
        assert f'<a href="{url}">{text}' in page
    assert not Playoff.objects.exists()


def test_the_api_refusal_lists_every_blocker(two_tables_wait):
    event = two_tables_wait
    answer = client_for(event.director).post(f"/api/v1/events/{event.pk}/playoff/build/")
    assert answer.status_code == 400
    (error,) = answer.json()["errors"]
    assert error["code"] == "not_ready"
    blockers = {b["text"].split(":")[0]: b["url"] for b in error["blockers"]}
    assert blockers == _links(event)


def test_the_manage_page_counts_what_waits(client, two_tables_wait):
    event = two_tables_wait
    client.force_login(event.director)
    page = client.get(f"/events/{event.pk}/manage/").content.decode()
    assert f'<a href="/events/{event.pk}/cross-checks/">1 cross-check waiting</a>' in page
    assert "1 table waiting for the cards" in page and "2 tables not verified" in page
    for text, url in _links(event).items():
        assert f'<a href="{url}">{text}' in page


def test_finalising_before_the_cut_names_what_stops_the_cut(two_tables_wait):
    event = two_tables_wait
    with pytest.raises(Blocked) as refused:
        event_finalise_request(event=event, user=event.director)
    texts = [b.text for b in refused.value.blockers]
    assert [t.split(":")[0] for t in texts] == list(_links(event))
