"""Pairs of entrants kept apart in an event's qualifying round (``core.keep_apart``): family,
couples who drive together. The entry with the lower id is ``entry_a``, so a pair is stored once."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class KeepApart(models.Model):
    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="keep_apart"
    )
    entry_a = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="+")
    entry_b = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="+")
    note = models.CharField(max_length=200, blank=True, help_text="why, in a few words")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["entry_a", "entry_b"], name="keep_apart_once"),
            models.CheckConstraint(
                condition=Q(entry_a__lt=F("entry_b")), name="keep_apart_in_order"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry_a_id} apart from {self.entry_b_id}"
