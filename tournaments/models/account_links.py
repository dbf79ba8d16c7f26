"""Accounts linked to player records: who may act for a player across events.

- account link: a person's sign-in account joined to their player record, so that "My games"
  lists their events. Holding a private link never makes one: the player proves it is them
  with a code sent to the e-mail address on their record (``Method.EMAIL_CODE``), or an
  administrator who knows them confirms it (``Method.ADMINISTRATOR``). A row is made when
  someone asks (``Status.PENDING``) and kept for good: confirmed, then perhaps ended by an
  administrator or the person themselves, or cancelled (a wrong code too often, expired,
  declined). ``Player.user`` is the one confirmed link, kept beside the rows for the many
  reads that ask "whose account is this player".
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.models.players import Player


class AccountLink(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for confirmation"
        CONFIRMED = "confirmed", "Linked"
        ENDED = "ended", "Unlinked"
        CANCELLED = "cancelled", "Not linked"

    class Method(models.TextChoices):
        EMAIL_CODE = "email_code", "A code sent to the e-mail address on the player's record"
        ADMINISTRATOR = "administrator", "Confirmed by an administrator"
        EARLIER = "earlier", "Linked by opening a private link, before confirmation was asked"

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="account_links")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_links"
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    method = models.CharField(max_length=20, choices=Method.choices)
    code_hash = models.CharField(max_length=128, blank=True)
    sent_to = models.CharField(max_length=254, blank=True, help_text="the address, partly hidden")
    code_sent_at = models.DateTimeField(null=True, blank=True)
    wrong_codes = models.PositiveSmallIntegerField(default=0)
    expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.CharField(max_length=300, blank=True, help_text="why it was declined or ended")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=Q(status="confirmed"), name="one_account_per_player"
            ),
            models.UniqueConstraint(
                fields=["user"], condition=Q(status="confirmed"), name="one_player_per_account"
            ),
            models.UniqueConstraint(
                fields=["user", "player"], condition=Q(status="pending"), name="one_request_at_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} as {self.player} ({self.get_status_display()})"
