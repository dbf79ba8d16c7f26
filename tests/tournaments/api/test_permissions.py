"""Who may use each endpoint: the event's director; not another event's director (403), not an
anonymous visitor (401/403 before the event is looked up, or 404). A refused request changes
nothing. Reading is for anyone once the event (and, for pairings, the game) is published."""

from __future__ import annotations

import pytest

from tests.factories import EntryFactory, EventFactory
from tests.helpers import client_for
from tournaments.models import Entry, Event, Game, Job
from tournaments.services.events import event_close_registration

pytestmark = pytest.mark.django_db

# (method, path, body, status for the director); {event} and {entry} are filled in.
OPEN_EVENT = [
    ("get", "events/{event}/entries/", None, 200),
    ("post", "events/{event}/entries/", {"name": "New Player"}, 201),
    ("post", "events/{event}/entries/import/", {"csv": "name\nNew Player\n"}, 201),
    ("post", "entries/{entry}/check-in/", None, 200),
    ("post", "entries/{entry}/withdraw/", None, 200),
    ("patch", "events/{event}/", {"muggins": True}, 200),
    ("post", "events/{event}/close-registration/", None, 200),
]
PLAYING_EVENT = [
    ("get", "events/{event}/games/", None, 200),
    ("post", "events/{event}/games/1/publish/", None, 200),
    ("post", "events/{event}/games/1/repair/", None, 202),
    ("post", "events/{event}/games/2/pair/", None, 202),
]
# Reading an unpublished event: other people are told it does not exist.
VIEWER = [
    ("get", "events/{event}/", None, 200),
    ("get", "events/{event}/games/1/", None, 200),
]


@pytest.fixture
def open_event(director):
    event = EventFactory(director=director, qualifying_games=3)
    EntryFactory.create_batch(4, event=event)
    return event, EntryFactory(event=event, status="registered")


@pytest.fixture
def playing_event(director, django_capture_on_commit_callbacks):
    event = EventFactory(director=director, qualifying_games=3)
    EntryFactory.create_batch(4, event=event)
    event_close_registration(event=event, user=director)
    with django_capture_on_commit_callbacks(execute=True):
        client_for(director).post(f"/api/v1/events/{event.pk}/games/1/pair/")
    return event, event.entries.first()


def state() -> tuple:
    return (
        list(Event.objects.values_list("name", "stage", "published", "muggins")),
        list(Entry.objects.values_list("pk", "status")),
        list(Game.objects.values_list("number", "status", "seed")),
        Job.objects.count(),
    )


def call(client, method, path, body, event, entry):
    url = "/api/v1/" + path.format(event=event.pk, entry=entry.pk)
    return getattr(client, method)(url, body)


def check(api, other_director, anonymous, setup, method, path, body, allowed, others):
    event, entry = setup
    before = state()
    refused = call(anonymous, method, path, body, event, entry)
    assert refused.status_code in (401, 403, 404)
    assert "errors" in refused.json()
    assert call(other_director, method, path, body, event, entry).status_code == others
    assert state() == before, "a refused request changed something"
    response = call(api, method, path, body, event, entry)
    assert response.status_code == allowed, response.json()


@pytest.mark.parametrize(("method", "path", "body", "allowed"), OPEN_EVENT)
def test_registration_endpoints(
    api, other_director, anonymous, open_event, method, path, body, allowed
):
    check(api, other_director, anonymous, open_event, method, path, body, allowed, 403)


@pytest.mark.parametrize(("method", "path", "body", "allowed"), PLAYING_EVENT)
def test_game_endpoints(api, other_director, anonymous, playing_event, method, path, body, allowed):
    check(api, other_director, anonymous, playing_event, method, path, body, allowed, 403)


@pytest.mark.parametrize(("method", "path", "body", "allowed"), VIEWER)
def test_unpublished_reads(
    api, other_director, anonymous, playing_event, method, path, body, allowed
):
    check(api, other_director, anonymous, playing_event, method, path, body, allowed, 404)


def test_pairings_are_public_once_game_and_event_are_published(
    api, other_director, anonymous, playing_event
):
    event, _ = playing_event
    url = f"/api/v1/events/{event.pk}/games/1/"
    visitors = (anonymous, other_director)
    api.patch(f"/api/v1/events/{event.pk}/", {"published": True})
    assert [c.get(url).status_code for c in visitors] == [404, 404]  # game still a draft
    assert api.post(f"{url}publish/").status_code == 200
    assert [c.get(url).status_code for c in visitors] == [200, 200]
    assert len(anonymous.get(url).json()["tables"]) == 2
    api.patch(f"/api/v1/events/{event.pk}/", {"published": False})
    assert [c.get(url).status_code for c in visitors] == [404, 404]  # the event hides again
    assert api.get(url).status_code == 200


def test_visitors_cannot_reach_director_lists_of_a_published_event(
    api, other_director, anonymous, playing_event
):
    event, entry = playing_event
    api.patch(f"/api/v1/events/{event.pk}/", {"published": True})
    for path in (f"events/{event.pk}/entries/", f"events/{event.pk}/games/"):
        assert other_director.get(f"/api/v1/{path}").status_code == 403
        assert anonymous.get(f"/api/v1/{path}").status_code in (401, 403)
    assert other_director.patch(f"/api/v1/events/{event.pk}/", {"name": "X"}).status_code == 403
    assert anonymous.post(f"/api/v1/entries/{entry.pk}/withdraw/").status_code in (401, 403)
