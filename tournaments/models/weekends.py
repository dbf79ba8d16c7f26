"""A weekend (tournament): the events of one flyer, and the players' requests to enter them.

- weekend: groups its events (the Main, the Consolation, satellites); an event belongs to at
  most one weekend (``Event.weekend``). Its page lists the events, the schedule and the fees.
- registration: the weekend's public page where a player asks to enter one or more of its
  events (``RegistrationRequest``), open or closed by a director (``registration_open``).
- request: waits for a director, who approves it (the player is entered in the chosen events,
  matched to a known player as ``selectors.player_identity`` does), declines it with a reason
  the player sees, or asks for a change. The player follows it on a private page (``token``).
- choice: one event of a request (``RegistrationChoice``): asked, entered, on the waitlist,
  offered a place, or no longer wanted.
- keep-apart wish: the player asks not to meet someone in qualifying (the person they came
  with, or live with): a name, and an ACC number if they know it (``keep_apart_name``,
  ``keep_apart_acc``). In each event the player is entered in, the wish becomes a
  ``KeepApart`` pair once it names exactly one entrant (``services.keep_apart_wishes``); the
  choice keeps that pair and when it was made (``keep_apart_made_at``), so a pair the director
  removes is not made again.
- capacity and waitlist: an event may have a ``capacity`` (``Event.capacity``); an approved
  choice beyond it waits in line, its position shown. A freed place (a withdrawal, a raised
  capacity) is offered to the next in line by e-mail, who has until ``offer_expires_at`` to
  take it; then it passes on (``services.waitlist``).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q


def new_request_token() -> str:
    return secrets.token_urlsafe(24)


class Weekend(models.Model):
    name = models.CharField(max_length=200)
    club = models.ForeignKey(
        "tournaments.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    venue = models.CharField(max_length=300, blank=True)
    schedule = models.TextField(
        blank=True, help_text="what happens when, one line each (e.g. Sat 9:00 Main, game 1)"
    )
    registration_open = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="weekend_ends_after_it_starts",
                violation_error_message="The last day is before the first: change one of them.",
            )
        ]

    def __str__(self) -> str:
        return self.name


class RegistrationRequest(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for the director"
        APPROVED = "approved", "Approved"
        DECLINED = "declined", "Declined"
        CHANGE_ASKED = "change_asked", "Change asked"
        WITHDRAWN = "withdrawn", "Withdrawn by the player"

    weekend = models.ForeignKey(Weekend, on_delete=models.CASCADE, related_name="requests")
    name = models.CharField(max_length=200)
    acc_number = models.CharField(max_length=20, blank=True)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    partner_name = models.CharField(max_length=200, blank=True)
    keep_apart_name = models.CharField(
        max_length=200, blank=True, help_text="who the player asks not to meet in qualifying"
    )
    keep_apart_acc = models.CharField(
        max_length=20, blank=True, help_text="that person's ACC number, if the player knows it"
    )
    token = models.CharField(max_length=64, unique=True, default=new_request_token)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.WAITING)
    director_note = models.CharField(
        max_length=500, blank=True, help_text="the reason for a decline, or the change asked"
    )
    player = models.ForeignKey(
        "tournaments.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.name} for {self.weekend}"


class RegistrationChoice(models.Model):
    class Status(models.TextChoices):
        ASKED = "asked", "Asked"
        ENTERED = "entered", "Entered"
        WAITLISTED = "waitlisted", "On the waitlist"
        OFFERED = "offered", "A place is offered"
        LAPSED = "lapsed", "The offer passed on"
        DROPPED = "dropped", "Not entered"

    request = models.ForeignKey(
        RegistrationRequest, on_delete=models.CASCADE, related_name="choices"
    )
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ASKED)
    entry = models.ForeignKey(
        "tournaments.Entry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    waitlisted_at = models.DateTimeField(null=True, blank=True, help_text="its place in line")
    offer_expires_at = models.DateTimeField(null=True, blank=True)
    keep_apart = models.ForeignKey(
        "tournaments.KeepApart",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the pair made in this event from the request's keep-apart wish",
    )
    keep_apart_made_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["request", "event"], name="one_choice_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.request.name}: {self.event} ({self.status})"
