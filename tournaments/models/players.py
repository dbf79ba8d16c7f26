"""Players: one record per person, across events and clubs.

- player: a person who enters events. ``acc_number`` is the ACC membership number, unique when
  given; many players at club nights have none. One person is one player across events: their
  entries, points and ratings hang on this record. ``email`` and ``phone`` are the record's
  own: given when it was made, changed only by an administrator or the player; a confirmation
  code to link an account goes to this ``email``. What a player gives for one event is on the
  entry. ``user`` is the account confirmed as this person (``models.account_links``).
- merge: two records found to be the same person. The merged record keeps existing (pointing
  at the one kept, ``merged_into``) so the merge can be undone; ``PlayerMerge`` remembers what
  moved.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q


class Player(models.Model):
    name = models.CharField(max_length=200)
    acc_number = models.CharField("ACC number", max_length=20, blank=True)
    home_club = models.ForeignKey(
        "tournaments.Club", null=True, blank=True, on_delete=models.SET_NULL
    )
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="merged_records",
        help_text="set when this record was merged into another (the same person)",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["acc_number"], condition=~Q(acc_number=""), name="player_unique_acc_number"
            )
        ]

    def __str__(self) -> str:
        return self.name


class PlayerMerge(models.Model):
    """Two player records merged into one, with what moved, so the merge can be undone."""

    kept = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="merges_kept")
    merged = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="merges_gone")
    moved = models.JSONField(default=dict, help_text="ids of the rows moved, by kind")
    kept_before = models.JSONField(default=dict)
    merged_before = models.JSONField(default=dict)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(kept=models.F("merged")), name="merge_two_records")
        ]

    def __str__(self) -> str:
        return f"{self.merged} merged into {self.kept}"
