"""Fixtures for the judges' tests: an event in play with three judges, and a helper that
records a ruling at table 1 of game 1 through the service."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.factories import UserFactory
from tournaments.models import Event, EventRole, Seat, Table
from tournaments.services.rulings import ruling_record


def make_judge(event: Event, **fields):
    user = UserFactory(**fields)
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.JUDGE)
    return user


@dataclass
class Setup:
    """Table 1 of game 1: ``a`` sits in position 1, ``b`` in position 2."""

    event: Event
    table: Table
    a: Seat
    b: Seat
    judges: list

    @property
    def director(self):
        return self.event.director

    def record(self, code: str, *, offender: str = "a", before=(0, 0), **kwargs):
        """Record ``code`` against seat ``offender`` with the board (offender, opponent)."""
        seat = self.a if offender == "a" else self.b
        kwargs.setdefault("judges", self.judges[:2])
        kwargs.setdefault("entered_by", self.director)
        return ruling_record(
            table=self.table,
            code=code,
            offender_entry=seat.entry,
            score_before_offender=before[0],
            score_before_opponent=before[1],
            **kwargs,
        )


@pytest.fixture
def judged(event_in_play):
    """An event in play (4 players, 2 tables) with three judges; pass settings to change it."""

    def make(**settings) -> Setup:
        event = event_in_play(4, qualifying_games=3, **settings)
        table = Table.objects.get(game__event=event, game__number=1, number=1)
        a, b = table.seats.select_related("entry__player").order_by("position")
        judges = [make_judge(event, first_name=name) for name in ("Ann", "Bea", "Cy")]
        return Setup(event, table, a, b, judges)

    return make


@pytest.fixture
def setup(judged) -> Setup:
    return judged()
