"""A player's private link (the QR code on their scorecard): replacing it, and undoing that.

- new link: for a lost or shared scorecard. The old link stops working at once.
- undo: for ``UNDO_WINDOW`` after the new link was made, and only while nobody has opened it,
  the director can put the old link back, so the card already printed works again. Once the
  new link has been used, the player holds it and the old one stays dead.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from tournaments.errors import ServiceError
from tournaments.models import Entry
from tournaments.models.events import new_report_token
from tournaments.services.audit import Kind, audit_record

UNDO_WINDOW = timedelta(minutes=10)


def _locked(entry: Entry) -> Entry:
    return Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)


@transaction.atomic
def entry_token_revoke(*, entry: Entry, user) -> Entry:
    """Replace the private link: the old one stops working at once (a lost scorecard)."""
    entry = _locked(entry)
    entry.previous_report_token = entry.report_token
    entry.report_token = new_report_token()
    entry.token_replaced_at = timezone.now()
    entry.token_used_at = None
    entry.save(
        update_fields=[
            "previous_report_token",
            "report_token",
            "token_replaced_at",
            "token_used_at",
        ]
    )
    audit_record(
        event=entry.event,
        actor=user,
        kind=Kind.LINKS,
        action="entry_token_revoke",
        summary=f"New private link for {entry.name}; the old card no longer works",
    )
    return entry


def token_undo_refusal(entry: Entry, now=None) -> str | None:
    """Why the new link cannot be undone now, or None when it can."""
    now = now or timezone.now()
    if not entry.previous_report_token or entry.token_replaced_at is None:
        return f"{entry.name}'s link has not been replaced."
    if entry.token_used_at is not None:
        return (
            f"{entry.name}'s new link has already been used, so the old card cannot "
            "come back. Print the new card."
        )
    if now - entry.token_replaced_at > UNDO_WINDOW:
        minutes = int(UNDO_WINDOW.total_seconds() // 60)
        return f"A new link can be undone for {minutes} minutes only. Print the new card."
    return None


@transaction.atomic
def entry_token_restore(*, entry: Entry, user) -> Entry:
    """Undo the latest new link: the old printed card works again, the new link stops."""
    entry = _locked(entry)
    refusal = token_undo_refusal(entry)
    if refusal:
        raise ServiceError(refusal, code="cannot_undo")
    entry.report_token = entry.previous_report_token
    entry.previous_report_token = ""
    entry.token_replaced_at = None
    entry.save(update_fields=["report_token", "previous_report_token", "token_replaced_at"])
    audit_record(
        event=entry.event,
        actor=user,
        kind=Kind.LINKS,
        action="entry_token_restore",
        summary=f"{entry.name}'s new link undone: the old card works again",
    )
    return entry
