"""Clubs' own records: who runs a club, each player's card of a club night, the club's awards,
and every player's skill rating with its history.

- club director: a person who runs a club: its nights, its settings, its awards.
- season: September to May by default (the club's ``season_start_month`` to
  ``season_end_month``), named by the year it starts in.
- night card: one player's results at one finished club night (every game verified): game
  points, games won and played, spread, and the Grass Roots points the club's rule gives
  them. Written by a job as soon as the night's last game is verified; the season standings
  add them up.
- award: a 28 or 29 hand (the hand checked by the engine) or a 9-0 night ("grand slam"),
  recorded by a club director.
- rating: a player's current skill rating (``core.ratings``); ``RatingPoint`` is its history,
  one point per event or club night the player played.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.models.events import Entry, Event
from tournaments.models.people import Club, Player


class ClubRole(models.Model):
    class Role(models.TextChoices):
        DIRECTOR = "director", "Club director"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.DIRECTOR)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "role"], name="club_role_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} directs {self.club}"


class NightCard(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="night_cards")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="night_cards")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="night_cards")
    season = models.PositiveSmallIntegerField(help_text="the year the season starts")
    played_on = models.DateField()
    game_points = models.PositiveSmallIntegerField()
    games_won = models.PositiveSmallIntegerField()
    games_played = models.PositiveSmallIntegerField()
    net_spread = models.SmallIntegerField()
    grass_roots_points = models.PositiveSmallIntegerField()
    rule = models.CharField(max_length=40, help_text="the Grass Roots rule and its version")

    class Meta:
        ordering = ["-played_on", "club", "-grass_roots_points"]
        constraints = [models.UniqueConstraint(fields=["event", "entry"], name="night_card_once")]
        indexes = [
            models.Index(fields=["club", "season"]),
            models.Index(fields=["season", "player"]),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.event}: {self.grass_roots_points} GR points"


class ClubAward(models.Model):
    class Kind(models.TextChoices):
        HAND_28 = "hand_28", "28 hand"
        HAND_29 = "hand_29", "29 hand"
        GRAND_SLAM = "grand_slam", "9-0 night (grand slam)"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="awards")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="club_awards")
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="club_awards")
    season = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    hand = models.CharField(max_length=40, blank=True, help_text="the four cards, for a hand")
    starter = models.CharField(max_length=8, blank=True)
    crib = models.BooleanField(default=False)
    score = models.PositiveSmallIntegerField(null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="grand_slam") | Q(score__in=[28, 29]),
                name="award_hand_scores_28_or_29",
            ),
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(kind="grand_slam"),
                name="one_grand_slam_per_night",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.player}"


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
