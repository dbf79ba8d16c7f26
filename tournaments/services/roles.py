"""Giving and taking back the jobs people hold in an event: director, cross-checker, judge.

- person: what the director types to find someone: a user name or a name (``users_find``).
  No match or several matches are refused with the names to choose from; nobody is picked
  silently.
- last director: an event always keeps at least one director, so the last one cannot give the
  role up (an administrator can still act on any event).
"""

from __future__ import annotations

from django.db import transaction

from tournaments.errors import ServiceError
from tournaments.models import Event, EventRole
from tournaments.selectors.people import person_name, users_find, users_suggest
from tournaments.services.audit import Kind, audit_record


def person_find(query: str):
    """The one account ``query`` names (see ``selectors.people``); refused with the names to
    choose from when there is none or several."""
    found = users_find(query=query)
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        names = "; ".join(f"{person_name(u)} (user name {u.get_username()})" for u in found)
        raise ServiceError(
            f"{len(found)} people match {query.strip()!r}: {names}. Type the user name instead.",
            field="person",
            code="several_people",
        )
    near = users_suggest(query=query)
    hint = (
        " Did you mean: "
        + "; ".join(f"{person_name(u)} (user name {u.get_username()})" for u in near)
        + "?"
        if near
        else (
            " Check the spelling, or invite them by e-mail (below): they make an account"
            " from the link."
        )
    )
    raise ServiceError(
        f"Nobody with the user name or name {query.strip()!r} has an account.{hint}",
        field="person",
        code="no_such_person",
    )


@transaction.atomic
def event_role_grant(*, event: Event, actor, person: str, role: str) -> EventRole:
    """Give the person found by ``person`` the ``role`` in ``event``; asking twice is harmless."""
    if role not in EventRole.Role.values:
        choices = ", ".join(EventRole.Role.values)
        raise ServiceError(
            f"Unknown role {role!r}; choose {choices}.", field="role", code="unknown_role"
        )
    user = person_find(person)
    grant, created = EventRole.objects.get_or_create(event=event, user=user, role=role)
    label = EventRole.Role(role).label.lower()
    audit_record(
        event=event,
        actor=actor,
        kind=Kind.ROLES,
        action="event_role_grant",
        summary=f"{person_name(user)} is {label}" + ("" if created else " (already held the role)"),
        before={"user": user.get_username(), "role": role, "held": not created},
        after={"user": user.get_username(), "role": role, "held": True},
    )
    return grant


@transaction.atomic
def event_role_revoke(*, event: Event, actor, grant_id: int) -> None:
    """Take a role back. The last director of an event cannot be removed."""
    Event.objects.select_for_update().get(pk=event.pk)  # one change to the roles at a time
    grant = EventRole.objects.select_related("user").filter(pk=grant_id, event=event).first()
    if grant is None:
        raise ServiceError("That person does not hold that role here.", code="no_such_role")
    if grant.role == EventRole.Role.DIRECTOR:
        directors = EventRole.objects.filter(event=event, role=EventRole.Role.DIRECTOR).count()
        if directors <= 1:
            who = "yourself" if grant.user_id == getattr(actor, "pk", None) else "them"
            raise ServiceError(
                f"{person_name(grant.user)} is this event's only director: make someone else "
                f"a director before removing {who}.",
                field="role",
                code="last_director",
            )
    label = grant.get_role_display().lower()
    username = grant.user.get_username()
    audit_record(
        event=event,
        actor=actor,
        kind=Kind.ROLES,
        action="event_role_revoke",
        summary=f"{person_name(grant.user)} is no longer {label}",
        before={"user": username, "role": grant.role, "held": True},
        after={"user": username, "role": grant.role, "held": False},
    )
    grant.delete()
