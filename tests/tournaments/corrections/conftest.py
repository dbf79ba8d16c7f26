"""Events for corrections: a game in play, and a qualifying round finished with its cut made."""

import pytest

from tournaments.models import Job, Table
from tournaments.services.playoffs import playoff_build_request


def seats_of(table: Table):
    return list(table.seats.select_related("entry__player").order_by("position"))


@pytest.fixture
def cut_made(qualified_event, django_capture_on_commit_callbacks):  # noqa: F811
    """``make(players=12, games=5, **settings)``: every game verified, the bracket built."""

    def make(players=12, games=5, **settings):
        event = qualified_event(players, games, **settings)
        with django_capture_on_commit_callbacks(execute=True):
            job = playoff_build_request(event=event, user=event.director)
        job.refresh_from_db()
        assert job.status == Job.Status.SUCCEEDED, job.error
        event.refresh_from_db()
        return event

    return make
