"""Reading changes to players' records (``services.record_changes``)."""

from __future__ import annotations

from django.db.models import Q

from tournaments.models import Player, RecordChange


def record_changes_waiting(*, player: Player):
    """The changes to ``player``'s record waiting for approval, oldest first."""
    return (
        RecordChange.objects.filter(player=player, status=RecordChange.Status.PENDING)
        .select_related("proposed_by", "event")
        .order_by("created_at", "id")
    )


def record_changes_for_user(*, user, status: str | None = None):
    """The changes a person may see: an administrator every one; others those they proposed
    and those about their own record. Newest first."""
    changes = RecordChange.objects.select_related("player", "proposed_by", "decided_by", "event")
    if not user.is_staff:
        changes = changes.filter(Q(proposed_by=user) | Q(player__user=user))
    return changes.filter(status=status) if status else changes
