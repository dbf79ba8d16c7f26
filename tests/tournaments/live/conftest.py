"""Fixtures of the live pages' tests: a table of a game in play, the public standings page."""

import pytest
from django.core.cache import caches

from tournaments.models import Table


@pytest.fixture
def table(event_in_play):
    event = event_in_play(10)
    return Table.objects.get(game__event=event, game__number=1, number=1)


@pytest.fixture
def standings_page(table, monkeypatch):
    """The published event's standings address, and a list counting its renderings."""
    from tournaments.views import standings as standings_view

    event = table.game.event
    event.published = True
    event.save(update_fields=["published"])
    caches["live"].clear()
    calls = []
    real = standings_view.standings_table
    monkeypatch.setattr(
        standings_view, "standings_table", lambda **kw: calls.append(1) or real(**kw)
    )
    yield f"/events/{event.pk}/standings/", calls
    caches["live"].clear()
