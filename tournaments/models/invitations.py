"""Invitations to hold a role, sent by e-mail to someone who may have no account yet.

- invitation: a director's offer of a role in one event (director, cross-checker, judge) or a
  club director's offer to direct the club with them. Its link (``token``) is e-mailed to
  ``email``; whoever opens it signs up or signs in and takes the role (``accepted_by``).
- withdrawn: taken back by a director before it was taken; its link then says so.
- expired: past ``expires_at`` (``settings.INVITATION_DAYS`` after it was sent) and not taken.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


def new_invitation_token() -> str:
    return secrets.token_urlsafe(24)


class Invitation(models.Model):
    class Role(models.TextChoices):
        DIRECTOR = "director", "Director"
        CROSS_CHECKER = "cross_checker", "Cross-checker"
        JUDGE = "judge", "Judge"
        CLUB_DIRECTOR = "club_director", "Club director"

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting"
        ACCEPTED = "accepted", "Taken"
        WITHDRAWN = "withdrawn", "Withdrawn"

    event = models.ForeignKey(
        "tournaments.Event", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    club = models.ForeignKey(
        "tournaments.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    role = models.CharField(max_length=20, choices=Role.choices)
    email = models.EmailField()
    token = models.CharField(max_length=64, unique=True, default=new_invitation_token)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True, help_text="taken or withdrawn")

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(club__isnull=True, event__isnull=False) & ~Q(role="club_director"))
                | Q(club__isnull=False, event__isnull=True, role="club_director"),
                name="invitation_to_an_event_or_a_club",
            )
        ]

    def __str__(self) -> str:
        return f"{self.email} invited as {self.get_role_display()}"

    @property
    def expired(self) -> bool:
        return self.status == self.Status.PENDING and self.expires_at <= timezone.now()
