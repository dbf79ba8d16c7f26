"""Events, the people running them, and entries.

- event: one competition of a weekend (Main, Consolation, a satellite) or a club night. Every
  rule that differs between events is a field here (a *setting*), filled from a preset.
- sanctioning: the ACC office's approval that makes an event's awards count nationally
  (``sanctioned``); a director asks for it, the office grants or declines it, and may withdraw
  it later (``services.sanctioning``).
- role: a user's job in one event: director (manages it), cross-checker (resolves card
  disagreements), judge (rules on disputes). The event's creator is its first director.
- entry: a player in an event: registered, checked in, or withdrawn; a late entry joins from a
  later game (``joined_from_game``); a withdrawal plays no game after ``withdrawn_after_game``.
  A withdrawal can be undone: the player rejoins from the next unpaired game, and the games
  paired while they were away are kept in ``missed_games`` (they play none of them).
- contact: the e-mail address and phone number the player gave for this event (``email``,
  ``phone``); each event's directors see their own event's only.
- private link: ``report_token``, printed on the scorecard as a QR code. A new link replaces it
  at once; for ten minutes, while nobody has used the new one, the director can undo that and
  the old printed card works again (``previous_report_token``, ``token_replaced_at``,
  ``token_used_at``).
- style: how an event is played: ``singles`` (one player a side), ``doubles`` or
  ``canadian_doubles`` (two partners a side, seated opposite).
- team: two entries of one doubles event who play as partners; the unit that is paired and
  ranked. Each partner keeps their own entry: player record, ACC number, private link and
  check-in. ``partner_draw_seed`` is the seed of the event's last blind draw of partners.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from tournaments.core.judging import PANEL_CHOICES
from tournaments.core.playoff_lengths import lengths_default
from tournaments.models.players import Player


def new_report_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits


class Event(models.Model):
    class Kind(models.TextChoices):
        MAIN = "main", "Main"
        CONSOLATION = "consolation", "Consolation"
        SATELLITE = "satellite", "Satellite"
        CLUB_NIGHT = "club_night", "Club night"

    class Stage(models.TextChoices):
        REGISTRATION = "registration", "Registration open"
        QUALIFYING = "qualifying", "Qualifying round"
        PLAYOFFS = "playoffs", "Playoffs"
        FINISHED = "finished", "Finished"

    class Style(models.TextChoices):
        SINGLES = "singles", "Singles"
        DOUBLES = "doubles", "Doubles"
        CANADIAN_DOUBLES = "canadian_doubles", "Canadian Doubles"

    class PairingMode(models.TextChoices):
        RANDOM = "random", "Random (no repeat opponents)"
        STANDINGS = "standings", "By standings (similar records, no repeats)"

    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.MAIN)
    preset = models.CharField(max_length=40, blank=True, help_text="the preset it started from")
    club = models.ForeignKey("tournaments.Club", null=True, blank=True, on_delete=models.SET_NULL)
    parent = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="side_events",
        help_text="the Main event a Consolation or satellite belongs to",
    )
    weekend = models.ForeignKey(
        "tournaments.Weekend",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="events",
        help_text="the weekend (tournament) whose flyer lists this event",
    )
    capacity = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="most players entered by registration requests; more join a waitlist",
    )
    starts_on = models.DateField(null=True, blank=True)
    stage = models.CharField(max_length=20, choices=Stage.choices, default=Stage.REGISTRATION)
    published = models.BooleanField(default=False, help_text="visitors may see pairings, standings")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finalised_at = models.DateTimeField(
        null=True, blank=True, help_text="the results are final and in the MRP ledger"
    )
    check_in_code_version = models.PositiveIntegerField(
        default=0,
        help_text="raised when a director makes a new check-in code: the older codes stop working",
    )
    partner_draw_seed = models.BigIntegerField(
        null=True, blank=True, help_text="the seed of the last blind draw of partners"
    )
    rated_at = models.DateTimeField(
        null=True, blank=True, help_text="its games are in the players' skill ratings"
    )
    # Sanctioning: granted by the ACC office, never set by the event's own directors
    # (services.sanctioning). Only a sanctioned event's awards reach the national MRP ledger.
    sanctioned = models.BooleanField(
        default=False,
        help_text="sanctioned by the ACC office: its qualifiers earn Master Rating Points",
    )
    sanction_requested_at = models.DateTimeField(
        null=True, blank=True, help_text="a director asked the ACC office; waiting for its answer"
    )
    sanction_decision = models.CharField(
        max_length=20,
        blank=True,
        choices=[("granted", "Granted"), ("declined", "Declined"), ("withdrawn", "Withdrawn")],
        help_text="the ACC office's last decision",
    )
    sanction_decided_at = models.DateTimeField(null=True, blank=True)
    sanction_decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    sanction_note = models.CharField(
        max_length=300, blank=True, help_text="the ACC office's words with its last decision"
    )

    # Settings: every event-dependent rule.
    style = models.CharField(max_length=20, choices=Style.choices, default=Style.SINGLES)
    qualifying_games = models.PositiveSmallIntegerField(
        default=22, validators=[MinValueValidator(1), MaxValueValidator(60)]
    )
    max_meetings = models.PositiveSmallIntegerField(
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(4)],
        help_text="how many times one pair of players may meet in the qualifying round",
    )
    target_score = models.PositiveSmallIntegerField(
        default=121, validators=[MinValueValidator(31), MaxValueValidator(121)]
    )
    skunk_margin = models.PositiveSmallIntegerField(default=31)
    double_skunk_margin = models.PositiveSmallIntegerField(null=True, blank=True, default=61)
    win_points = models.PositiveSmallIntegerField(default=2)
    skunk_points = models.PositiveSmallIntegerField(default=3)
    double_skunk_points = models.PositiveSmallIntegerField(default=3)
    sit_out_game_points = models.PositiveSmallIntegerField(default=2)
    sit_out_spread = models.PositiveSmallIntegerField(default=10)
    qualifier_ratio = models.PositiveSmallIntegerField(
        default=4, help_text="one qualifier per this many entrants; 0 means no playoffs"
    )
    playoff_best_of = models.JSONField(
        default=lengths_default,
        blank=True,
        help_text="games per playoff match by the round's name, counted from the final: "
        '{"every": 5, "semi": 7, "final": 7}; "semi" and "final" may be null (as every round)',
    )
    muggins = models.BooleanField(default=False)
    pairing_mode = models.CharField(
        max_length=20, choices=PairingMode.choices, default=PairingMode.RANDOM
    )
    rulebook_edition = models.CharField(max_length=100, blank=True)
    playoff_first_deal = models.CharField(
        max_length=20,
        choices=[("cut", "Cut for deal before every game"), ("loser_deals", "Loser deals next")],
        default="cut",
    )
    judges_per_ruling = models.PositiveSmallIntegerField(
        default=2,
        choices=PANEL_CHOICES,
        validators=[MinValueValidator(1), MaxValueValidator(2)],
        help_text="judges who make a ruling (three on appeal); a sanctioned event needs two",
    )
    consolation_eligibility = models.CharField(
        max_length=20,
        choices=[
            ("non_qualifiers", "Every non-qualifier of the Main"),
            ("finishers", "Non-qualifiers who played every qualifying game"),
        ],
        default="non_qualifiers",
        help_text="who may enter the Consolation made from this event's cut",
    )

    # Money (may change until the results are final, unlike the play settings).
    entry_fee_cents = models.PositiveIntegerField(default=0)
    sanctioning_fee_cents = models.PositiveIntegerField(default=0)
    payout_percents = models.JSONField(
        default=dict, blank=True, help_text='percent of the fund per finish band, e.g. {"1": 30}'
    )
    qualifier_pool = models.JSONField(
        default=dict, blank=True, help_text='e.g. {"split": "equal", "percent": 10}'
    )

    SETTINGS = (
        "style",
        "qualifying_games",
        "max_meetings",
        "target_score",
        "skunk_margin",
        "double_skunk_margin",
        "win_points",
        "skunk_points",
        "double_skunk_points",
        "sit_out_game_points",
        "sit_out_spread",
        "qualifier_ratio",
        "playoff_best_of",
        "muggins",
        "pairing_mode",
        "rulebook_edition",
        "playoff_first_deal",
        "consolation_eligibility",
        "judges_per_ruling",
    )
    # Settings that may change once play has started (every other one is fixed then).
    LIVE_SETTINGS = ("judges_per_ruling",)

    class Meta:
        ordering = ["-starts_on", "-id"]
        # The ACC office (a group of users given this in the admin) and administrators.
        permissions = [("sanction_event", "Can grant, decline and withdraw ACC sanctioning")]
        constraints = [
            models.CheckConstraint(
                condition=Q(qualifying_games__gte=1), name="event_at_least_one_game"
            ),
            models.CheckConstraint(condition=Q(max_meetings__gte=1), name="event_meetings_ge_1"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def in_teams(self) -> bool:
        """Whether entrants play as teams of two (doubles, Canadian Doubles)."""
        return self.style != self.Style.SINGLES


class EventRole(models.Model):
    class Role(models.TextChoices):
        DIRECTOR = "director", "Director"
        CROSS_CHECKER = "cross_checker", "Cross-checker"
        JUDGE = "judge", "Judge"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    role = models.CharField(max_length=20, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "user", "role"], name="role_once_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.user} as {self.get_role_display()} of {self.event}"


# The entrant's name as a query path from an entry (ordering, values, annotations). With
# ``Entry.name`` and ``Entry.players`` it is the entrant seam for one person's entry; a team's
# name and players come from ``Team`` and ``selectors.entrants`` (``entrant_of``).
ENTRANT_NAME = "player__name"


class Team(models.Model):
    """Two entries of a doubles event playing as partners (see the module)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=200)
    drawn = models.BooleanField(default=False, help_text="made by the blind draw of partners")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return f"{self.name} in {self.event}"

    @property
    def players(self) -> list[Player]:
        """The partners, in the order they were entered."""
        return [entry.player for entry in self.members.order_by("id").select_related("player")]


class Entry(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", "Registered"
        CHECKED_IN = "checked_in", "Checked in"
        WITHDRAWN = "withdrawn", "Withdrawn"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="members",
        help_text="the partners this entry plays with, in a doubles event",
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    joined_from_game = models.PositiveSmallIntegerField(default=1)
    withdrawn_after_game = models.PositiveSmallIntegerField(null=True, blank=True)
    missed_games = models.JSONField(
        default=list, blank=True, help_text="games paired while the player had withdrawn"
    )
    checked_in_at = models.DateTimeField(null=True, blank=True)
    # How to reach the player about this event, as they gave it for this event: one director
    # never sees what a player gave another (the record's own address is ``Player.email``).
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    link_emailed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="when this entry's private link was e-mailed to the player, for an entry made "
        "for them (the Consolation's)",
    )
    report_token = models.CharField(max_length=64, unique=True, default=new_report_token)
    previous_report_token = models.CharField(max_length=64, blank=True)
    token_replaced_at = models.DateTimeField(null=True, blank=True)
    token_used_at = models.DateTimeField(
        null=True, blank=True, help_text="first use of a replaced link's successor"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = [ENTRANT_NAME, "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_once_per_event"),
            models.CheckConstraint(condition=Q(joined_from_game__gte=1), name="entry_joins_ge_1"),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.event}"

    @property
    def name(self) -> str:
        """The entrant as every page, sheet, export and e-mail names it."""
        return self.player.name

    @property
    def players(self) -> list[Player]:
        """The people who play as this entry."""
        return [self.player]

    @property
    def entrant_name(self) -> str:
        """What this entry plays as, where a team plays (the bracket, the results): its team's
        name in a doubles event (select ``team`` with it), else ``name``."""
        return self.team.name if self.team_id else self.name

    def plays_in(self, number: int) -> bool:
        """Whether this entry is in the field of game ``number``."""
        if self.status == self.Status.REGISTERED or number < self.joined_from_game:
            return False
        if number in self.missed_games:
            return False
        return self.withdrawn_after_game is None or number <= self.withdrawn_after_game
