"""The playoffs of an event: the cut, the seeded bracket, best-of-N matches and their games.

- playoff: the single-elimination bracket built from the final qualifying standings after the
  cut (one qualifier per ``qualifier_ratio`` entrants, rounded up).
- seed: a qualifier's place in the bracket, from their qualifying rank (seed 1 is the top
  qualifier); byes go to the top seeds.
- match: two players (or one and a bye) in one round, best of ``best_of`` games; the winner
  advances to ``(round + 1, slot // 2)``. ``round`` counts from 1, ``slot`` from 0.
- match game: one game of a match, reported by both players like a qualifying game
  (``MatchLine``), or forfeited by an absent player (no-show clock). A director may correct a
  decided game or void it (a void game keeps its lines, no longer current, and counts for
  nobody); the match and the bracket are then derived again from the games that count.
- no-show clock: started by the director when a player is absent; after 5 minutes the absent
  player forfeits a game, then one more every 15 minutes until the match is decided.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.models.events import Entry, Event
from tournaments.models.jobs import Job
from tournaments.models.results import LineFields


class Playoff(models.Model):
    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="playoff")
    entrants = models.PositiveIntegerField()
    qualifiers = models.PositiveIntegerField()
    high_non_qualifier = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    job = models.ForeignKey(Job, null=True, blank=True, on_delete=models.SET_NULL)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    rebuilt_at = models.DateTimeField(
        null=True, blank=True, help_text="when a correction last rebuilt the bracket"
    )
    payout_adjustments = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"playoffs of {self.event}"


class PlayoffSeed(models.Model):
    playoff = models.ForeignKey(Playoff, on_delete=models.CASCADE, related_name="seeds")
    seed = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    qualifying_rank = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["playoff", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["playoff", "seed"], name="seed_once"),
            models.UniqueConstraint(fields=["playoff", "entry"], name="seeded_once"),
        ]

    def __str__(self) -> str:
        return f"seed {self.seed}: {self.entry}"


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for players"
        READY = "ready", "Ready to play"
        PLAYING = "playing", "In play"
        DECIDED = "decided", "Decided"

    playoff = models.ForeignKey(Playoff, on_delete=models.CASCADE, related_name="matches")
    round = models.PositiveSmallIntegerField()
    slot = models.PositiveSmallIntegerField()
    best_of = models.PositiveSmallIntegerField()
    seed_a = models.PositiveSmallIntegerField(null=True, blank=True)
    seed_b = models.PositiveSmallIntegerField(null=True, blank=True)
    entry_a = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    entry_b = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    bye = models.BooleanField(default=False)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.WAITING)
    winner = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    absent = models.ForeignKey(
        Entry,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="the player the no-show clock runs against",
    )
    clock_started_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["playoff", "round", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["playoff", "round", "slot"], name="match_once"),
            models.CheckConstraint(condition=Q(best_of__gte=1), name="match_best_of_ge_1"),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(status="decided"),
                name="match_winner_when_decided",
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.round}, match {self.slot + 1}"


class MatchGame(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for results"
        VERIFIED = "verified", "Verified"
        FLAGGED = "flagged", "Cards disagree"
        VOID = "void", "Void (does not count)"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    first_dealer = models.ForeignKey(
        Entry,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="empty when the players cut for deal",
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.OPEN)
    winner = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    forfeit = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="match_game_once"),
        ]

    def __str__(self) -> str:
        return f"{self.match}, game {self.number}"


class MatchLine(LineFields):
    """One player's line for one match game (see ``LineFields``)."""

    match_game = models.ForeignKey(MatchGame, on_delete=models.CASCADE, related_name="lines")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match_game", "entry"],
                condition=Q(kind="verified", current=True),
                name="one_verified_match_line",
            ),
            models.UniqueConstraint(
                fields=["match_game", "entry"],
                condition=Q(kind="reported", current=True),
                name="one_current_match_report",
            ),
            models.CheckConstraint(
                condition=Q(plus=0) | Q(minus=0), name="match_line_one_spread_column"
            ),
        ]
