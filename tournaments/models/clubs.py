"""Clubs and their own records: who runs a club, each player's card of a club night, the club's
awards.

- club: an ACC Grass Roots club (or any cribbage club) that runs club nights and tracks seasons.
  ``region``: the ACC groups clubs and sanctioned events by region (free text, as the region's
  commissioner names it).
- club director: a person who runs a club: its nights, its settings, its awards.
- season: September to May by default (the club's ``season_start_month`` to
  ``season_end_month``), named by the year it starts in.
- night card: one player's results at one finished club night (every game verified): game
  points, games won and played, spread, and the Grass Roots points the club's rule gives
  them. Written by a job as soon as the night's last game is verified; the season standings
  add them up.
- award: a 28 or 29 hand (the hand checked by the engine) or a 9-0 night ("grand slam"),
  recorded by a club director.
- recognised: an ACC-chartered club, as the ACC office says (``services.club_recognition``).
  Grass Roots is ACC club play: only a recognised club's nights reach the players' skill
  ratings and the national Grass Roots table; an unrecognised club keeps its own season table.
- club history (``ClubAuditEntry``): one row per action of the club's directors and of the ACC
  office on the club (its settings, its directors and invitations, its recognition), added
  only, never edited, like an event's history (``models.audit``).
"""

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from tournaments.models.events import Entry, Event
from tournaments.models.players import Player


class Club(models.Model):
    class GrassRootsRule(models.TextChoices):
        ACC_12 = "acc-12:2024", "ACC club practice: a card of 12 or more game points earns them"
        EVERY_CARD = "every-card:2024", "Every card earns its game points"

    name = models.CharField(max_length=200, unique=True)
    city = models.CharField(max_length=200, blank=True)
    region = models.CharField(max_length=100, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The club's settings: its season, its points rule, and what a new club night starts from.
    season_start_month = models.PositiveSmallIntegerField(
        default=9, validators=[MinValueValidator(1), MaxValueValidator(12)]
    )
    season_end_month = models.PositiveSmallIntegerField(
        default=5, validators=[MinValueValidator(1), MaxValueValidator(12)]
    )
    grass_roots_rule = models.CharField(
        max_length=40, choices=GrassRootsRule.choices, default=GrassRootsRule.ACC_12
    )
    drop_worst_nights = models.PositiveSmallIntegerField(
        default=0,
        validators=[MaxValueValidator(10)],
        help_text="how many of a player's worst nights a season leaves out (0: none)",
    )
    night_games = models.PositiveSmallIntegerField(
        default=9, validators=[MinValueValidator(1), MaxValueValidator(30)]
    )
    # Recognition: granted by the ACC office, never set by the club's own directors
    # (services.club_recognition), the same shape as an event's sanctioning.
    recognised = models.BooleanField(
        default=False,
        help_text="recognised by the ACC office: its nights reach ratings and the national table",
    )
    recognition_requested_at = models.DateTimeField(
        null=True, blank=True, help_text="a director asked the ACC office; waiting for its answer"
    )
    recognition_decision = models.CharField(
        max_length=20,
        blank=True,
        choices=[("granted", "Granted"), ("declined", "Declined"), ("withdrawn", "Withdrawn")],
        help_text="the ACC office's last decision",
    )
    recognised_at = models.DateTimeField(
        null=True, blank=True, help_text="when the recognition it holds was granted"
    )
    recognition_decided_at = models.DateTimeField(null=True, blank=True)
    recognition_decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recognition_note = models.CharField(
        max_length=300, blank=True, help_text="the ACC office's words with its last decision"
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


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


class ClubAuditEntry(models.Model):
    """One row of a club's history (see the module): who, when, what, before and after."""

    class Kind(models.TextChoices):
        SETTINGS = "settings", "Settings"
        ROLES = "roles", "Directors and invitations"
        RECOGNITION = "recognition", "Recognition"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_name = models.CharField(max_length=200, blank=True, help_text="the name at the time")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    action = models.CharField(max_length=60)
    summary = models.CharField(max_length=500)
    before = models.JSONField(default=dict, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(default=dict, blank=True, encoder=DjangoJSONEncoder)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "club audit entries"
        indexes = [models.Index(fields=["club", "created_at"])]

    def __str__(self) -> str:
        return f"{self.actor_name or 'system'}: {self.summary}"
