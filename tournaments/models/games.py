"""The games of a qualifying round and who sits where.

- game: game ``number`` (1..qualifying_games) of an event's qualifying round: every active
  entry plays one opponent at a numbered table, or sits out. ``seed`` makes its pairing
  reproducible: pairing the same field with the same seed gives the same tables.
- table: two seats (four at a doubles table: partners opposite, 1 & 3 against 2 & 4),
  numbered 1..T within the game. Its ``status`` follows the result: open until
  both card lines agree (verified), or flagged for a cross-checker when they disagree or one is
  missing when the director closes the game.
- seat: one entry's place in one game: at a table (position 1 deals or cuts first), or the
  game's sit-out (no table; a sitting-out team's partners are positions 1 and 3).
- card seat: where a table's result is written: position 1 or 2 (a doubles team writes its card
  on its first partner's seat, ``core.pairing_teams``), or a sit-out's first seat.
"""

from django.db import models
from django.db.models import Q

from tournaments.models.events import Entry, Event
from tournaments.models.jobs import Job


class Game(models.Model):
    class Status(models.TextChoices):
        NOT_PAIRED = "not_paired", "Not paired"
        PAIRED = "paired", "Paired (draft)"
        PUBLISHED = "published", "Published"
        CLOSED = "closed", "Closed"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.NOT_PAIRED)
    seed = models.BigIntegerField(null=True, blank=True)
    job = models.ForeignKey(Job, null=True, blank=True, on_delete=models.SET_NULL)
    paired_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="game_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_ge_1"),
        ]

    def __str__(self) -> str:
        return f"{self.event} game {self.number}"


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for results"
        VERIFIED = "verified", "Verified"
        FLAGGED = "flagged", "Needs a cross-check"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.OPEN)
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="table_number_once_per_game"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_ge_1"),
        ]

    def __str__(self) -> str:
        return f"table {self.number}"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="seats"
    )
    position = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "table__number", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "entry"], name="seat_once_per_game"),
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_once"),
            # One sit-out a game: one player (no position), or a team's two partners (1, 3).
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(table__isnull=True, position__isnull=True),
                name="one_sit_out_per_game",
            ),
            models.UniqueConstraint(
                fields=["game", "position"],
                condition=Q(table__isnull=True),
                name="one_sitting_out_team_per_game",
            ),
            models.CheckConstraint(
                condition=(
                    Q(table__isnull=True) & (Q(position__isnull=True) | Q(position__in=[1, 3]))
                )
                | (Q(table__isnull=False) & Q(position__in=[1, 2, 3, 4])),
                name="seat_at_table_has_position",
            ),
        ]

    def __str__(self) -> str:
        where = "sits out" if self.sits_out else f"table {self.table.number}"
        return f"{self.entry.player} {where} in game {self.game.number}"

    @property
    def sits_out(self) -> bool:
        return self.table_id is None
