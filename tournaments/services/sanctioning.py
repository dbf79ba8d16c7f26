"""ACC sanctioning: what puts an event's awards in the national MRP ledger and leaderboards.

- ask: a director of a Main or Consolation (the events whose qualifiers earn Master Rating
  Points) asks the ACC office to sanction it, and may withdraw the request while it waits.
- decide: the ACC office (administrators, and people given the ``sanction_event`` permission
  in the admin) grants or declines it with a note the director reads; a granted sanction may
  be withdrawn later, again with a note.
- what follows: a finalised event's ledger follows every decision by a job (granted: its
  awards are written; withdrawn: they are withdrawn, kept as superseded rows). An event that
  is not sanctioned can still be finalised: its results are final on Pegboard and stay out of
  the national ledger. A finished event's games enter or leave the skill ratings with its
  sanction (``services.ratings``): granting or withdrawing it recomputes every rating.

Every step is a row in the event's history (kind "sanctioning").
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.errors import ServiceError
from tournaments.models import Event
from tournaments.selectors.access import may_sanction
from tournaments.selectors.sanctioning import SANCTIONABLE
from tournaments.services.audit import Kind, audit_record
from tournaments.services.ledger import ledger_refresh_request
from tournaments.services.ratings import ratings_recompute_request


def _state(event: Event) -> dict:
    return {
        "sanctioned": event.sanctioned,
        "requested": event.sanction_requested_at is not None,
        "decision": event.sanction_decision,
        "note": event.sanction_note,
    }


def _locked(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _record(event: Event, user, action: str, summary: str, before: dict) -> None:
    audit_record(
        event=event,
        actor=user,
        kind=Kind.SANCTIONING,
        action=action,
        summary=summary,
        before=before,
        after=_state(event),
    )


@transaction.atomic
def event_sanction_request(*, event: Event, user) -> Event:
    """A director asks the ACC office to sanction the event."""
    event = _locked(event)
    _refuse_unsanctionable(event)
    if event.sanctioned:
        raise ServiceError("This event is already sanctioned.", code="already_sanctioned")
    if event.sanction_requested_at is not None:
        raise ServiceError(
            "The ACC office has this request already; it is waiting for their answer.",
            code="already_requested",
        )
    before = _state(event)
    event.sanction_requested_at = timezone.now()
    event.save(update_fields=["sanction_requested_at"])
    _record(event, user, "event_sanction_request", "Sanctioning asked of the ACC office", before)
    return event


def _refuse_unsanctionable(event: Event) -> None:
    if event.kind not in SANCTIONABLE:
        raise ServiceError(
            f"Only a Main or a Consolation is sanctioned; a {event.get_kind_display().lower()} "
            "earns no Master Rating Points.",
            code="not_sanctionable",
        )
    if event.in_teams:
        raise ServiceError(
            "A doubles event is not sanctioned: it earns no Master Rating Points (ACC doubles "
            "satellites carry none).",
            code="not_sanctionable",
        )


@transaction.atomic
def event_sanction_request_withdraw(*, event: Event, user) -> Event:
    """The director takes back a request the office has not answered."""
    event = _locked(event)
    if event.sanction_requested_at is None:
        raise ServiceError("No request is waiting.", code="not_requested")
    before = _state(event)
    event.sanction_requested_at = None
    event.save(update_fields=["sanction_requested_at"])
    _record(event, user, "event_sanction_request_withdraw", "Sanctioning request withdrawn",
            before)  # fmt: skip
    return event


def _decide(event: Event, user, *, decision: str, note: str) -> dict:
    if not may_sanction(user=user):
        raise ServiceError(
            "Only the ACC office or an administrator decides sanctioning.", code="not_office"
        )
    before = _state(event)
    event.sanctioned = decision == "granted"
    event.sanction_decision = decision
    event.sanction_requested_at = None
    event.sanction_decided_at, event.sanction_decided_by = timezone.now(), user
    event.sanction_note = note.strip()[:300]
    event.save(
        update_fields=[
            "sanctioned",
            "sanction_decision",
            "sanction_requested_at",
            "sanction_decided_at",
            "sanction_decided_by",
            "sanction_note",
        ]
    )
    return before


@transaction.atomic
def event_sanction_grant(*, event: Event, user, note: str = "") -> Event:
    """The ACC office sanctions the event (asked for or not)."""
    event = _locked(event)
    _refuse_unsanctionable(event)
    if event.sanctioned:
        raise ServiceError("This event is already sanctioned.", code="already_sanctioned")
    before = _decide(event, user, decision="granted", note=note)
    _record(event, user, "event_sanction_grant", "Sanctioned by the ACC office", before)
    ledger_refresh_request(event=event, reason="sanctioned by the ACC office")
    _ratings_follow(event, user)
    return event


@transaction.atomic
def event_sanction_decline(*, event: Event, user, note: str) -> Event:
    """The ACC office declines a request, saying why (the director reads it)."""
    event = _locked(event)
    if event.sanction_requested_at is None:
        raise ServiceError("No request is waiting.", code="not_requested")
    if not note.strip():
        raise ServiceError("Say why, for the director.", field="note", code="required")
    before = _decide(event, user, decision="declined", note=note)
    _record(event, user, "event_sanction_decline", f"Sanctioning declined: {note.strip()}",
            before)  # fmt: skip
    return event


@transaction.atomic
def event_sanction_revoke(*, event: Event, user, note: str) -> Event:
    """The ACC office withdraws a sanction, saying why; a finalised event's awards leave the
    national ledger (kept as superseded rows)."""
    event = _locked(event)
    if not event.sanctioned:
        raise ServiceError("This event is not sanctioned.", code="not_sanctioned")
    if not note.strip():
        raise ServiceError("Say why, for the director.", field="note", code="required")
    before = _decide(event, user, decision="withdrawn", note=note)
    _record(event, user, "event_sanction_revoke", f"Sanction withdrawn: {note.strip()}", before)
    ledger_refresh_request(event=event, reason="sanction withdrawn by the ACC office")
    _ratings_follow(event, user)
    return event


def _ratings_follow(event: Event, user) -> None:
    """A finished singles event's games enter or leave the ratings with its sanction."""
    if event.stage == Event.Stage.FINISHED and not event.in_teams:
        ratings_recompute_request(user=user)
