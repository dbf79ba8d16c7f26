"""Reading a club's history (``ClubAuditEntry``): newest first, optionally of one kind.

Who may read it: the club's directors and the ACC office (``selectors.access``)."""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import Club, ClubAuditEntry


def club_audit_entries(*, club: Club, kind: str | None = None) -> QuerySet[ClubAuditEntry]:
    rows = ClubAuditEntry.objects.filter(club=club)
    if kind:
        rows = rows.filter(kind=kind)
    return rows.order_by("-created_at", "-id")
