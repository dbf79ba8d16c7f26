"""Pegboard's tables, split by resource."""

from tournaments.models.events import Entry, Event, EventRole
from tournaments.models.games import Game, Seat, Table
from tournaments.models.jobs import Job
from tournaments.models.people import Club, Player

__all__ = [
    "Club",
    "Entry",
    "Event",
    "EventRole",
    "Game",
    "Job",
    "Player",
    "Seat",
    "Table",
]
