"""Judges: calls to a table and the rulings they give.

- judge call: a request for judges at one table, or to one playoff match, made by a player from
  their private link or by a director. It is *open* until a judge answers it; a table or a
  match has at most one open call.
- ruling: what two (or, when a player asks for one, three) judges decided at a table: the
  catalogue code (``scoring.rulings.CATALOGUE``) with the rulebook edition and rule it cites,
  the offender, the beneficiary, the board before and after, and whether it ended the game.
  The scores are the offender's and the *opponent's* (the other player at the table): the
  beneficiary is the opponent except after a wrong muggins call, which benefits the offender.
- place: a ruling is given at a qualifying table or in a playoff match game, never both.
- final: a ruling no one may appeal. A ruling that went to a third judge is always final.
- figures: what the code needs from the judges, kept so the ruling can be re-applied:
  ``true_score`` (false claim, overpeg, renege), ``reneged_cards`` (renege),
  ``claimed_missed`` and ``true_missed`` (muggins).
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from scoring.rulings import CATALOGUE
from tournaments.models.events import Entry, Event
from tournaments.models.games import Table
from tournaments.models.playoffs import Match, MatchGame


class JudgeCall(models.Model):
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="judge_calls"
    )
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.CASCADE, related_name="judge_calls"
    )
    called_by_entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="judge_calls"
    )
    called_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="judge_calls_made",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="judge_calls_answered",
    )

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(answered_at__isnull=True),
                name="one_open_judge_call_per_table",
            ),
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(answered_at__isnull=True),
                name="one_open_judge_call_per_match",
            ),
            models.CheckConstraint(
                condition=(Q(table__isnull=False) & Q(match__isnull=True))
                | (Q(table__isnull=True) & Q(match__isnull=False)),
                name="judge_call_to_a_table_or_a_match",
            ),
            models.CheckConstraint(
                condition=Q(called_by_entry__isnull=True) | Q(called_by_user__isnull=True),
                name="judge_call_one_caller",
            ),
            models.CheckConstraint(
                condition=Q(answered_by__isnull=True) | Q(answered_at__isnull=False),
                name="judge_call_answered_with_time",
            ),
        ]

    def __str__(self) -> str:
        state = "answered" if self.answered_at else "open"
        return f"judge call to {self.table or self.match} ({state})"

    @property
    def is_open(self) -> bool:
        return self.answered_at is None


class Ruling(models.Model):
    CODES = [(code, infraction.name) for code, infraction in CATALOGUE.items()]

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rulings")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings"
    )
    match_game = models.ForeignKey(
        MatchGame, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings"
    )
    hand_number = models.PositiveSmallIntegerField(null=True, blank=True)
    offender = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="rulings_against")
    beneficiary = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="rulings_for")
    code = models.CharField(max_length=40, choices=CODES)
    direction = models.CharField(max_length=20, help_text="the catalogue's direction for the code")
    rulebook_edition = models.CharField(max_length=100, blank=True)
    rule = models.CharField(max_length=40, blank=True)
    points = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="the catalogue's penalty points (per reneged card for a renege); "
        "none for a correction, muggins or an administrative result",
    )
    true_score = models.PositiveSmallIntegerField(null=True, blank=True)
    reneged_cards = models.PositiveSmallIntegerField(null=True, blank=True)
    claimed_missed = models.PositiveSmallIntegerField(null=True, blank=True)
    true_missed = models.PositiveSmallIntegerField(null=True, blank=True)
    score_before_offender = models.PositiveSmallIntegerField()
    score_before_opponent = models.PositiveSmallIntegerField()
    score_after_offender = models.PositiveSmallIntegerField()
    score_after_opponent = models.PositiveSmallIntegerField()
    game_over = models.BooleanField(default=False)
    winner = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings_won"
    )
    judges = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="rulings_judged")
    third_judge = models.BooleanField(default=False)
    final = models.BooleanField(default=False)
    notes = models.TextField(blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="rulings_entered",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(code__in=list(CATALOGUE)), name="ruling_code_in_catalogue"
            ),
            models.CheckConstraint(
                condition=(Q(table__isnull=False) & Q(match_game__isnull=True))
                | (Q(table__isnull=True) & Q(match_game__isnull=False)),
                name="ruling_at_a_table_or_in_a_match_game",
            ),
            models.CheckConstraint(
                condition=(Q(game_over=True) & Q(winner__isnull=False))
                | (Q(game_over=False) & Q(winner__isnull=True)),
                name="ruling_winner_iff_game_over",
            ),
            # Only a wrong muggins call benefits the offender.
            models.CheckConstraint(
                condition=Q(code="muggins") | ~Q(offender=F("beneficiary")),
                name="ruling_beneficiary_is_the_opponent",
            ),
            models.CheckConstraint(
                condition=Q(third_judge=False) | Q(final=True), name="ruling_third_judge_is_final"
            ),
            models.CheckConstraint(
                condition=Q(hand_number__isnull=True) | Q(hand_number__gte=1),
                name="ruling_hand_number_ge_1",
            ),
        ]
        indexes = [models.Index(fields=["event", "created_at"])]

    def __str__(self) -> str:
        return f"{self.get_code_display()} ruling against {self.offender}"

    @property
    def infraction(self):
        return CATALOGUE[self.code]
