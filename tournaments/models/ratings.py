"""Every player's skill rating with its history.

- rating: a player's current skill rating (``core.ratings``); ``RatingPoint`` is its history,
  one point per event or club night the player played.
"""

from django.db import models

from tournaments.models.events import Event
from tournaments.models.players import Player


class PlayerRating(models.Model):
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    system = models.CharField(max_length=40)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["-mu"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.mu:.1f} +- {2 * self.sigma:.1f}"

    @property
    def low(self) -> float:
        return self.mu - 2 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + 2 * self.sigma


class RatingPoint(models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_points")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rating_points")
    played_on = models.DateField()
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["player", "played_on", "event"]
        constraints = [
            models.UniqueConstraint(fields=["player", "event"], name="rating_point_once")
        ]

    def __str__(self) -> str:
        return f"{self.player} after {self.event}: {self.mu:.1f}"
