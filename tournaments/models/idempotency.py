"""Writes that can be repeated safely: the first answer to a player's keyed report.

- idempotency key: a random value the player's phone (or page) makes for one report and sends
  with every try of it (the ``Idempotency-Key`` header, the form's ``idempotency_key`` field).
- kept answer: the (link, key) pair with what the first try was answered (status and body) and
  a fingerprint of what it asked. A try sent again with the same key and the same body gets that
  answer and writes nothing; with another body it is refused (409 ``idempotency_conflict``).
  Rows are deleted ``IDEMPOTENCY_KEY_HOURS`` after they were made (``jobs_sweep``).
"""

from django.db import models
from django.utils import timezone

from tournaments.models.events import Entry


class KeptAnswer(models.Model):
    # No index of its own: the (entry, key) unique constraint's index serves an entry's lookups.
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+", db_index=False)
    key = models.CharField(max_length=100)
    fingerprint = models.CharField(max_length=64, help_text="sha256 of the route and the body")
    status_code = models.PositiveSmallIntegerField()
    answer = models.JSONField(null=True, blank=True)
    # Not indexed: only the sweep reads it, a few times an hour, over the last hours' rows
    # (one a phone's report); every report's INSERT would write the index.
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entry", "key"], name="one_answer_per_link_and_key")
        ]

    def __str__(self) -> str:
        return f"{self.entry_id}:{self.key} -> {self.status_code}"
