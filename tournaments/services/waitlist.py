"""Capacity and waitlist of an event entered by registration requests (terms in
``models.weekends``).

- entered: the event's entries that are not withdrawn (door entries count too; they are never
  refused for capacity: late entries at the door work as before).
- free place: capacity less entered less the offers still open.
- offer: the next in line (the earliest ``waitlisted_at``) is e-mailed and has
  ``settings.WAITLIST_OFFER_HOURS`` to take the place; then the offer lapses and passes on.

``waitlist_advance`` does both (lapse what is overdue, offer what is free). It runs after a
withdrawal, a raised capacity and a declined offer, when a page of the weekend or a player's
request is read, and every few minutes on the scheduler (``waitlist_sweep``): no process waits.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tournaments.errors import ServiceError
from tournaments.models import Entry, Event, RegistrationChoice
from tournaments.services.audit import Kind, audit_record
from tournaments.services.registration_emails import request_email

Choice = RegistrationChoice.Status


def event_entered_count(*, event: Event) -> int:
    return event.entries.exclude(status=Entry.Status.WITHDRAWN).count()


def event_has_room(*, event: Event) -> bool:
    """Whether a newly approved player is entered at once: a free place, and nobody in line
    or holding an offer before them."""
    if event.capacity is None:
        return True
    ahead = RegistrationChoice.objects.filter(
        event=event, status__in=[Choice.WAITLISTED, Choice.OFFERED]
    ).exists()
    return not ahead and event_entered_count(event=event) < event.capacity


def waitlist_join(*, choice: RegistrationChoice) -> RegistrationChoice:
    """Put an approved choice in line (part of ``registration_approve``, which records it)."""
    choice.status, choice.waitlisted_at = Choice.WAITLISTED, timezone.now()
    choice.save(update_fields=["status", "waitlisted_at"])
    return choice


def _audit(event, choice, *, actor, action: str, summary: str, before: str) -> None:
    audit_record(
        event=event,
        actor=actor,
        kind=Kind.ENTRIES,
        action=action,
        summary=summary,
        before={"request": choice.request_id, "choice": before},
        after={"request": choice.request_id, "choice": choice.status},
    )


@transaction.atomic
def waitlist_advance(*, event: Event, user=None) -> int:
    """Lapse the overdue offers of ``event``, then offer each free place to the next in line.
    Returns how many offers it made. Safe to run any number of times."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    now = timezone.now()
    choices = RegistrationChoice.objects.select_related("request").filter(event=event)
    for choice in choices.filter(status=Choice.OFFERED, offer_expires_at__lte=now):
        choice.status = Choice.LAPSED
        choice.save(update_fields=["status"])
        _audit(
            event,
            choice,
            actor=None,
            action="waitlist_offer_lapse",
            summary=f"{choice.request.name} did not take the offered place in time: it passes on",
            before=Choice.OFFERED,
        )
    open_offers = choices.filter(status=Choice.OFFERED).count()
    line = choices.filter(status=Choice.WAITLISTED).order_by("waitlisted_at", "id")
    if event.capacity is None:
        free = line.count()
    else:
        free = event.capacity - event_entered_count(event=event) - open_offers
    hours = settings.WAITLIST_OFFER_HOURS
    made = 0
    for choice in list(line[: max(free, 0)]):
        choice.status, choice.offer_expires_at = Choice.OFFERED, now + timedelta(hours=hours)
        choice.save(update_fields=["status", "offer_expires_at"])
        _audit(
            event,
            choice,
            actor=user,
            action="waitlist_advance",
            summary=f"A place is offered to {choice.request.name} (next in line) for {hours} h",
            before=Choice.WAITLISTED,
        )
        request_email(request=choice.request, template="registration_offer", event=event)
        made += 1
    return made


@transaction.atomic
def event_capacity_set(*, event: Event, user, capacity: int | None) -> Event:
    """Set (or remove, with None) how many players registration requests may enter; a raised
    capacity offers the new places to the waitlist at once."""
    if capacity is not None and (not isinstance(capacity, int) or capacity < 0):
        raise ServiceError(
            "Capacity is a whole number of players (0 or more), or empty for no limit.",
            field="capacity",
            code="invalid",
        )
    event = Event.objects.select_for_update().get(pk=event.pk)
    before = event.capacity
    event.capacity = capacity
    event.save(update_fields=["capacity"])
    audit_record(
        event=event,
        actor=user,
        kind=Kind.SETTINGS,
        action="event_capacity_set",
        summary=f"Capacity {before if before is not None else 'none'} → "
        f"{capacity if capacity is not None else 'none'}",
        before={"capacity": before},
        after={"capacity": capacity},
    )
    waitlist_advance(event=event, user=user)
    return event


def waitlist_sweep() -> int:
    """The scheduler's pass: advance every event with an open offer or a line."""
    events = (
        RegistrationChoice.objects.filter(status__in=[Choice.OFFERED, Choice.WAITLISTED])
        .values_list("event_id", flat=True)
        .distinct()
    )
    return sum(waitlist_advance(event=Event(pk=pk)) for pk in list(events))
