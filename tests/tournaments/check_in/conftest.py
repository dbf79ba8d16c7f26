"""The check-in tests' event (a director's, still taking entries) and their small helpers."""

import pytest
from django.contrib.messages import get_messages

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tournaments.models import Entry


@pytest.fixture
def event():
    director = UserFactory()
    event = EventFactory(director=director)
    event.director = director
    return event


def registered_entry(event, **player) -> Entry:
    return EntryFactory(event=event, status="registered", player=PlayerFactory(**player))


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]
