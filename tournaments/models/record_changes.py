"""Changes to a player's record that wait for approval.

- record change: a new name or ACC number for a player's record. A record is the person's across
  every event (their ledger, ratings and account hang on it), so a director of one event
  proposes the change and an administrator, or the player themselves once their account is
  linked, approves it (``services.record_changes``). The old value is kept with the decision.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.models.players import Player


class RecordChange(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for approval"
        APPLIED = "applied", "Applied"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"

    class Field(models.TextChoices):
        NAME = "name", "Name"
        ACC_NUMBER = "acc_number", "ACC number"

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="record_changes")
    field = models.CharField(max_length=20, choices=Field.choices)
    old_value = models.CharField(max_length=200, blank=True)
    new_value = models.CharField(max_length=200)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    event = models.ForeignKey(
        "tournaments.Event",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the event whose director proposed it",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "field"],
                condition=Q(status="pending"),
                name="one_pending_change_per_field",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_field_display()} {self.old_value!r} -> {self.new_value!r}"
