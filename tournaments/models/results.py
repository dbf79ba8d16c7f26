"""Results: card lines, the audit of their changes, standings snapshots and notices.

- card line: one player's record of one game: game points, plus (a win's spread) or minus (a
  loss's). A *reported* line is what someone entered for the player (the player from their
  phone, a director or cross-checker from a paper card); a *verified* line is what counts in
  the standings. ACC cross-checking can leave the two verified lines of a game unequal.
- current: a line that has not been replaced. Nothing is overwritten: a correction adds a new
  line and marks the old one not current, so the old and new values, who, when and why stay.
- standings snapshot: the standings computed by the job after results change, stored so pages
  read one row instead of recomputing.
- tie playoff: a one-game playoff the director records to break a tie that straddles the cut.
- notice: a message shown on a player's page (a correction that changed their position).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.models.events import Entry, Event
from tournaments.models.games import Seat
from tournaments.models.jobs import Job


class LineFields(models.Model):
    """What every card line holds, for a qualifying game (``CardLine``) or a playoff match
    game (``MatchLine``): the figures, reported or verified, current or replaced, who/why."""

    class Kind(models.TextChoices):
        REPORTED = "reported", "Reported"
        VERIFIED = "verified", "Verified"

    class Source(models.TextChoices):
        PLAYER = "player", "The player"
        DIRECTOR = "director", "A director"
        CROSS_CHECKER = "cross_checker", "A cross-checker"
        AGREED = "agreed", "Both cards agree"
        RULE_12_2 = "rule_12_2", "ACC Rule 12.2"
        SIT_OUT = "sit_out", "Sit-out result"
        RULING = "ruling", "A judges' ruling"
        FORFEIT = "forfeit", "Forfeit (no-show)"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    game_points = models.PositiveSmallIntegerField()
    plus = models.PositiveSmallIntegerField(default=0)
    minus = models.PositiveSmallIntegerField(default=0)
    current = models.BooleanField(default=True)
    source = models.CharField(max_length=20, choices=Source.choices)
    # A Rule 12.2 reason says what both players wrote and what each case did: up to ~700 chars.
    reason = models.CharField(max_length=1000, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        spread = f"+{self.plus}" if self.plus else f"-{self.minus}"
        return f"{self.get_kind_display()} {self.game_points} GP {spread}"


class CardLine(LineFields):
    # No index of its own: the (seat, kind, current) index below serves a seat's lookups, and
    # each index is one more write in every report's INSERT.
    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="card_lines", db_index=False
    )
    # Indexed only where set (the partial index below): a phone's line has no user, and most
    # lines are phones', so their INSERT writes one index fewer.
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
    )

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["seat"],
                condition=Q(kind="verified", current=True),
                name="one_verified_line_per_seat",
            ),
            models.UniqueConstraint(
                fields=["seat"],
                condition=Q(kind="reported", current=True),
                name="one_current_report_per_seat",
            ),
            models.CheckConstraint(
                condition=Q(plus=0) | Q(minus=0), name="card_line_one_spread_column"
            ),
        ]
        indexes = [
            models.Index(fields=["seat", "kind", "current"]),
            models.Index(
                fields=["entered_by"],
                condition=Q(entered_by__isnull=False),
                name="card_line_entered_by",
            ),
        ]


class StandingsSnapshot(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    computed_at = models.DateTimeField(auto_now_add=True)
    rows = models.JSONField(default=list)
    qualifiers = models.PositiveIntegerField(default=0)
    cut_tie = models.JSONField(default=list, help_text="entry ids tied across the cut")
    high_non_qualifier = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    verified_games = models.PositiveIntegerField(default=0)
    job = models.ForeignKey(Job, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["-computed_at", "-id"]
        get_latest_by = ["computed_at", "id"]

    def __str__(self) -> str:
        return f"standings of {self.event} at {self.computed_at:%H:%M:%S}"


class TiePlayoff(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tie_playoffs")
    winner = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    loser = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~Q(winner=models.F("loser")), name="playoff_two_players"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.winner} beat {self.loser} in a tie playoff"


class Notice(models.Model):
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="notices")
    message = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.message
