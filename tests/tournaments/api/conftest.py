"""Helpers for the API tests: signed-in clients, a field of players, pairing a game through the
API with its job run (no broker: the task runs when the request's transaction commits)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import EntryFactory, EventFactory, UserFactory
from tests.helpers import client_for
from tournaments.services.events import event_close_registration


@pytest.fixture
def director():
    return UserFactory(username="td")


@pytest.fixture
def api(director) -> APIClient:
    return client_for(director)


@pytest.fixture
def other_director() -> APIClient:
    """Signed in as the director of a different event."""
    return client_for(EventFactory().created_by)


@pytest.fixture
def anonymous() -> APIClient:
    return client_for()


@pytest.fixture
def make_event(director):
    """An event of ``director`` with ``players`` checked in and registration closed."""

    def make(players: int, **settings):
        event = EventFactory(director=director, **settings)
        EntryFactory.create_batch(players, event=event)
        return event_close_registration(event=event, user=director)

    return make


@pytest.fixture
def pair(django_capture_on_commit_callbacks):
    """POST pair (or repair) for a game, check its job succeeded, return the game's pairings."""

    def pair(client: APIClient, event_id: int, number: int, action: str = "pair") -> dict:
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(f"/api/v1/events/{event_id}/games/{number}/{action}/")
        assert response.status_code == 202, response.json()
        job = client.get(f"/api/v1/jobs/{response.json()['id']}/").json()
        assert job["status"] == "succeeded", f"game {number}: {job['error']}"
        pairings = client.get(f"/api/v1/events/{event_id}/games/{number}/")
        assert pairings.status_code == 200
        return pairings.json()

    return pair
