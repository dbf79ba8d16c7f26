"""The event's history: one row per action a director, cross-checker or judge takes.

- audit entry: who (the account, and their name as it was), when, what (a kind and an action,
  with a sentence a director can read), the event and, where there is one, the game it concerns,
  and the state *before* and *after* as plain JSON. Rows are only ever added: a correction is a
  new row, and nothing here is edited or deleted by Pegboard.
- kind: the family of an action, for filtering the history page (settings, entries, check-in,
  roles, pairings, results, rulings, playoffs, money, links, sanctioning).
- action: the service that acted, named ``<entity>_<action>`` like the service itself.
"""

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models


class AuditEntry(models.Model):
    class Kind(models.TextChoices):
        SETTINGS = "settings", "Settings"
        ENTRIES = "entries", "Entries"
        CHECK_IN = "check_in", "Check-in"
        ROLES = "roles", "Roles"
        PAIRINGS = "pairings", "Pairings"
        RESULTS = "results", "Results and corrections"
        RULINGS = "rulings", "Judges and rulings"
        PLAYOFFS = "playoffs", "Playoffs"
        MONEY = "money", "Money"
        LINKS = "links", "Private links"
        SANCTIONING = "sanctioning", "Sanctioning"

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="audit_entries"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="audit_entries",
    )
    actor_name = models.CharField(max_length=200, blank=True, help_text="the name at the time")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    action = models.CharField(max_length=60)
    summary = models.CharField(max_length=500)
    game_number = models.PositiveSmallIntegerField(null=True, blank=True)
    before = models.JSONField(default=dict, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(default=dict, blank=True, encoder=DjangoJSONEncoder)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"
        indexes = [
            models.Index(fields=["event", "created_at"]),
            models.Index(fields=["event", "kind"]),
            models.Index(fields=["event", "actor"]),
        ]

    def __str__(self) -> str:
        return f"{self.actor_name or 'system'}: {self.summary}"
