"""Recording what club directors and the ACC office do to a club: the one writer of the club's
history (``ClubAuditEntry``; terms in ``models.clubs``).

Every write service a person triggers on a club (its settings, its directors and invitations
to direct it, its recognition) calls ``club_audit_record`` exactly once, inside its own
transaction, so the row exists if and only if the action happened. A club's nights keep their
own history as events (``services.audit``); its awards are their own record (``ClubAward``).
"""

from __future__ import annotations

from typing import Any

from tournaments.models import Club, ClubAuditEntry
from tournaments.selectors.people import person_name

ClubKind = ClubAuditEntry.Kind


def club_audit_record(
    *,
    club: Club,
    actor,
    kind: str,
    action: str,
    summary: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> ClubAuditEntry:
    """Add one row to ``club``'s history. ``actor`` is the signed-in user (None for none)."""
    if kind not in ClubKind.values:
        raise ValueError(f"unknown club history kind {kind!r}")
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    return ClubAuditEntry.objects.create(
        club_id=club.pk,
        actor=user,
        actor_name=person_name(user)[:200] if user else "",
        kind=kind,
        action=action,
        summary=summary[:500],
        before=before or {},
        after=after or {},
    )
