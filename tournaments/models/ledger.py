"""The Master Rating Points ledger: what each player earned at each finalised sanctioned event.

- finalisation: the director's statement that an event's results are final (after the final
  of its playoffs). Each one is numbered per event; a later correction that changes an award
  makes a new one (by a job), and the awards it replaces stay, marked superseded.
- award: one qualifier's MRPs at one event: the part from the qualifying round and the part
  from the playoffs, the schedule version, and the inputs they were worked out from (rank,
  game points, qualifiers, qualifying games, rounds won, the round lost). ``member`` is False
  for a player with no ACC number at finalisation: the award is kept, flagged "not a member".
- current: the award in force. At most one current award per entry.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.models.events import Entry, Event
from tournaments.models.jobs import Job
from tournaments.models.players import Player


class Finalisation(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="finalisations")
    number = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=200)
    awards = models.PositiveIntegerField(default=0)
    points = models.PositiveIntegerField(default=0)
    job = models.ForeignKey(Job, null=True, blank=True, on_delete=models.SET_NULL)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="finalisation_number_once")
        ]

    def __str__(self) -> str:
        return f"{self.event} finalised ({self.number})"


class MrpAward(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="mrp_awards")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="mrp_awards")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="mrp_awards")
    finalisation = models.ForeignKey(
        Finalisation, on_delete=models.PROTECT, related_name="award_rows"
    )
    points = models.PositiveIntegerField()
    qualifying_points = models.PositiveIntegerField()
    playoff_points = models.PositiveIntegerField()
    schedule = models.CharField(max_length=20, help_text="the MRP schedule's version (its date)")
    kind = models.CharField(max_length=20, help_text="main or consolation: the table used")
    rank = models.PositiveSmallIntegerField(help_text="qualifying rank")
    game_points = models.PositiveSmallIntegerField()
    qualifiers = models.PositiveSmallIntegerField()
    games = models.PositiveSmallIntegerField(help_text="qualifying games")
    rounds_won = models.PositiveSmallIntegerField(help_text="playoff rounds won, a bye counting")
    round_lost = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the playoff round lost; empty for the champion"
    )
    member = models.BooleanField(help_text="had an ACC number when the event was finalised")
    year = models.PositiveSmallIntegerField(help_text="the event's year, for yearly totals")
    current = models.BooleanField(default=True)
    superseded_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "-points", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["entry"], condition=Q(current=True), name="one_current_award_per_entry"
            ),
            models.CheckConstraint(
                condition=Q(points=models.F("qualifying_points") + models.F("playoff_points")),
                name="award_points_add_up",
            ),
        ]
        indexes = [
            models.Index(fields=["player", "current"]),
            models.Index(fields=["current", "year"]),
            models.Index(fields=["event", "current"]),
        ]

    def __str__(self) -> str:
        return f"{self.points} MRPs to {self.player} at {self.event}"
