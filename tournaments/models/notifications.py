"""Messages sent to players.

- table e-mail: "your next table", sent to a player who gave an e-mail address when a
  qualifying game is published: the game, their table number and their opponent, or that they
  sit out (no table, no opponent). A row is written for each message handed to the mail server,
  never for one that failed, so running the sending job again sends only what is missing.
- publication: ``published_at`` of the game when the message was sent. A game re-paired and
  published again is a new publication; a player hears again only when their table or opponent
  differs from their last message, so one publication writes at most one row per player.
"""

from django.db import models
from django.db.models import Q
from django.utils import timezone

from tournaments.models.events import Entry
from tournaments.models.games import Game


class TableEmail(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="table_emails")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="table_emails")
    published_at = models.DateTimeField(help_text="the game's publication this message was for")
    table_number = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="empty: sits out"
    )
    opponent = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "entry", "sent_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "entry", "published_at"], name="table_email_once_per_publication"
            ),
            models.CheckConstraint(
                condition=Q(table_number__isnull=True, opponent__isnull=True)
                | Q(table_number__gte=1, opponent__isnull=False),
                name="table_email_table_has_opponent",
            ),
        ]

    def __str__(self) -> str:
        where = f"table {self.table_number}" if self.table_number else "sits out"
        return f"{self.entry} game {self.game.number}: {where}"
