"""Weekends (tournaments): making one, its events, its page's details, and opening or closing its
registration (terms in ``models.weekends``).

A weekend's own changes are written in the history of each of its events (the history is kept
per event); a weekend with no event yet keeps who made it on its own row.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction

from tournaments.errors import ServiceError
from tournaments.models import Event, EventRole, Weekend
from tournaments.selectors.access import club_directs, event_roles, weekend_directs
from tournaments.services.audit import Kind, audit_record
from tournaments.services.validation import clean_name, clean_play_date

WEEKEND_FIELDS = ("name", "starts_on", "ends_on", "venue", "schedule", "club")


def _clean(values: dict[str, Any], weekend: Weekend | None = None) -> dict[str, Any]:
    values = dict(values)
    if "name" in values:
        values["name"] = clean_name(values["name"])
    for field in ("starts_on", "ends_on"):
        if values.get(field) is not None:
            values[field] = clean_play_date(values[field], field=field)
    if "starts_on" in values and values["starts_on"] is None:
        raise ServiceError("Give the weekend's first day.", field="starts_on", code="required")
    starts = values.get("starts_on", getattr(weekend, "starts_on", None))
    ends = values.get("ends_on", getattr(weekend, "ends_on", None))
    if starts and ends and ends < starts:
        raise ServiceError(
            f"The last day ({ends:%-d %b %Y}) is before the first ({starts:%-d %b %Y}): "
            "change one of them.",
            field="ends_on",
            code="ends_before_start",
        )
    for field in ("venue", "schedule"):
        if field in values:
            values[field] = (values[field] or "").strip()
    if len(values.get("venue", "")) > 300:
        raise ServiceError("Keep the venue under 300 characters.", field="venue", code="long")
    return values


def _club_check(values: dict[str, Any], user) -> None:
    """A weekend names a club as its host only when ``user`` directs that club: anyone may
    make a weekend, and its registration page collects players' details in the club's name."""
    club = values.get("club")
    if club is not None and not club_directs(club=club, user=user):
        raise ServiceError(
            f"You do not direct {club.name}: ask one of its directors to name it as the host, "
            "or leave the club empty.",
            field="club",
            code="not_club_director",
        )


def weekend_create(*, user, name: str, starts_on: date, **fields: Any) -> Weekend:
    """A new weekend, run by ``user`` (its events' directors run it too)."""
    unknown = set(fields) - set(WEEKEND_FIELDS)
    if unknown:
        raise ServiceError(f"Unknown field {sorted(unknown)[0]!r}.", code="unknown_field")
    values = _clean({"name": name, "starts_on": starts_on, **fields})
    _club_check(values, user)
    return Weekend.objects.create(created_by=user, **values)


def _record_on_events(weekend: Weekend, *, user, action: str, summary: str, **state) -> None:
    for event in weekend.events.all():
        audit_record(
            event=event, actor=user, kind=Kind.SETTINGS, action=action, summary=summary, **state
        )


@transaction.atomic
def weekend_update(*, weekend: Weekend, user, **changes: Any) -> Weekend:
    """Change the weekend's name, days, venue, schedule or club."""
    unknown = set(changes) - set(WEEKEND_FIELDS)
    if unknown:
        raise ServiceError(f"Unknown field {sorted(unknown)[0]!r}.", code="unknown_field")
    weekend = Weekend.objects.select_for_update().get(pk=weekend.pk)
    values = _clean(changes, weekend)
    if values.get("club") is not None and values["club"].pk != weekend.club_id:
        _club_check(values, user)
    before = {name: _plain(getattr(weekend, name)) for name in values}
    for name, value in values.items():
        setattr(weekend, name, value)
    weekend.save()
    after = {name: _plain(getattr(weekend, name)) for name in values}
    changed = ", ".join(name for name in values if before[name] != after[name]) or "nothing"
    _record_on_events(
        weekend,
        user=user,
        action="weekend_update",
        summary=f"Weekend {weekend.name}: changed {changed}",
        before=before,
        after=after,
    )
    return weekend


def _plain(value):
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if hasattr(value, "pk"):
        return value.pk
    return value


@transaction.atomic
def weekend_event_add(*, weekend: Weekend, event: Event, user) -> Event:
    """Put ``event`` on the weekend's flyer. An event belongs to at most one weekend."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if EventRole.Role.DIRECTOR not in event_roles(event=event, user=user):
        raise ServiceError(
            f"You do not direct {event.name}: ask one of its directors to add it.",
            field="event",
            code="not_director",
        )
    if event.weekend_id == weekend.pk:
        return event
    if event.weekend_id is not None:
        raise ServiceError(
            f"{event.name} is already in the weekend {event.weekend.name}: take it out of that "
            "weekend first.",
            field="event",
            code="in_another_weekend",
        )
    event.weekend = weekend
    event.save(update_fields=["weekend"])
    audit_record(
        event=event,
        actor=user,
        kind=Kind.SETTINGS,
        action="weekend_event_add",
        summary=f"Listed in the weekend {weekend.name}",
        before={"weekend": None},
        after={"weekend": weekend.pk},
    )
    return event


@transaction.atomic
def weekend_event_remove(*, weekend: Weekend, event: Event, user) -> Event:
    """Take ``event`` off the weekend's flyer; its entries stay."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.weekend_id != weekend.pk:
        raise ServiceError(
            f"{event.name} is not in the weekend {weekend.name}.",
            field="event",
            code="not_in_weekend",
        )
    event.weekend = None
    event.save(update_fields=["weekend"])
    audit_record(
        event=event,
        actor=user,
        kind=Kind.SETTINGS,
        action="weekend_event_remove",
        summary=f"No longer listed in the weekend {weekend.name}",
        before={"weekend": weekend.pk},
        after={"weekend": None},
    )
    return event


@transaction.atomic
def weekend_registration_set(*, weekend: Weekend, user, open: bool) -> Weekend:
    """Open or close the weekend's public registration page (the page asks to confirm)."""
    weekend = Weekend.objects.select_for_update().get(pk=weekend.pk)
    if open and not weekend.events.exists():
        raise ServiceError(
            "This weekend lists no event yet: add its events first, then open registration.",
            code="no_events",
        )
    if weekend.registration_open == open:
        return weekend
    weekend.registration_open = open
    weekend.save(update_fields=["registration_open"])
    word = "opened" if open else "closed"
    _record_on_events(
        weekend,
        user=user,
        action="weekend_registration_set",
        summary=f"Registration for the weekend {weekend.name} {word}",
        before={"registration_open": not open},
        after={"registration_open": open},
    )
    return weekend


def weekend_event_check(*, user, weekend: Weekend | None, parent: Event | None) -> Weekend | None:
    """For a new event: the weekend it joins (given, or its ``parent``'s), refused when the user
    does not run that weekend or direct the parent, or when the two disagree."""
    if parent is not None:
        if EventRole.Role.DIRECTOR not in event_roles(event=parent, user=user):
            raise ServiceError(
                f"You do not direct {parent.name}: only its directors may add events to it.",
                field="parent",
                code="not_director",
            )
        if weekend is not None and parent.weekend_id not in (None, weekend.pk):
            raise ServiceError(
                f"{parent.name} is in another weekend ({parent.weekend.name}): give that weekend "
                "or none.",
                field="weekend",
                code="weekend_mismatch",
            )
        weekend = weekend or parent.weekend
    if weekend is not None and not weekend_directs(weekend=weekend, user=user):
        raise ServiceError(
            f"You do not run the weekend {weekend.name}: ask one of its directors.",
            field="weekend",
            code="not_director",
        )
    return weekend
