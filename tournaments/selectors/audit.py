"""Reading an event's history (``AuditEntry``): who may, and the rows with their filters.

- who may read it: the event's directors, cross-checkers and judges (the people whose actions
  it records); others get 404 (anonymous) or 403 (signed in).
- filters: by person (the account that acted), by kind of action, by game number.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from tournaments.models import AuditEntry, Event, EventRole
from tournaments.selectors.people import person_name


@dataclass(frozen=True)
class HistoryFilters:
    actor: int | None = None
    kind: str | None = None
    game: int | None = None


def audit_entries(*, event: Event, filters: HistoryFilters = HistoryFilters()) -> QuerySet:
    """The event's history, newest first, narrowed by ``filters``."""
    rows = AuditEntry.objects.filter(event=event)
    if filters.actor is not None:
        rows = rows.filter(actor_id=filters.actor)
    if filters.kind:
        rows = rows.filter(kind=filters.kind)
    if filters.game is not None:
        rows = rows.filter(game_number=filters.game)
    return rows.order_by("-created_at", "-id")


def audit_people(*, event: Event) -> list[tuple[int, str]]:
    """Everyone who appears in the event's history or holds a role in it, by name."""
    people = dict(
        AuditEntry.objects.filter(event=event, actor__isnull=False)
        .values_list("actor_id", "actor_name")
        .distinct()
    )
    for grant in EventRole.objects.filter(event=event).select_related("user__player"):
        people.setdefault(grant.user_id, person_name(grant.user))
    return sorted(people.items(), key=lambda item: item[1].casefold())
