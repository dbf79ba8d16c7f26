"""A weekend's registration requests: a player asks, the director approves, declines or asks
for a change, the player changes or withdraws their request (terms in ``models.weekends``).

Approving enters the player in each chosen event, matched to a known player by the entry's
identity rules (``services.entries.registration_player``): a name that may be someone known is
never merged silently, the director says who it is (``player_id``) or that it is someone new
(``new_player``). An event at its capacity puts the choice on its waitlist (``services.waitlist``).
A request may carry a wish to be kept apart from someone: once the player is entered, it
becomes a pair when it names exactly one entrant (``services.keep_apart``: settle).

Every step is written in the history of each event the request names; a player's own steps
name no one (they are not signed in).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.errors import Conflict, ServiceError
from tournaments.models import Entry, Event, RegistrationChoice, RegistrationRequest, Weekend
from tournaments.services.audit import Kind, audit_record
from tournaments.services.entries import Registration, entry_add_unaudited, registration_player
from tournaments.services.keep_apart import keep_apart_wish_clean, keep_apart_wishes_settle
from tournaments.services.registration_emails import request_email
from tournaments.services.validation import (
    clean_acc_number,
    clean_email,
    clean_name,
    clean_phone,
)
from tournaments.services.waitlist import event_has_room, waitlist_join

Status = RegistrationRequest.Status
Choice = RegistrationChoice.Status
OPEN_STATUSES = (Status.WAITING, Status.CHANGE_ASKED)
WISH = ("keep_apart_name", "keep_apart_acc")


def _details(
    *,
    name: str,
    acc_number: str,
    email: str,
    phone: str,
    partner_name: str,
    keep_apart_name: str = "",
    keep_apart_acc: str = "",
) -> dict[str, str]:
    details = {
        "name": clean_name(name),
        "acc_number": clean_acc_number(acc_number or ""),
        "email": clean_email(email or ""),
        "phone": clean_phone(phone or ""),
        "partner_name": clean_name(partner_name, field="partner_name")
        if (partner_name or "").strip()
        else "",
    }
    wish = keep_apart_wish_clean(
        name=details["name"],
        acc_number=details["acc_number"],
        keep_apart_name=keep_apart_name,
        keep_apart_acc=keep_apart_acc,
    )
    return {**details, **wish}


def _events_of(weekend: Weekend, event_ids) -> list[Event]:
    ids = {int(i) for i in event_ids or []}
    if not ids:
        raise ServiceError(
            "Choose at least one event to enter.", field="events", code="no_event_chosen"
        )
    events = list(weekend.events.filter(pk__in=ids).order_by("starts_on", "id"))
    if len(events) != len(ids):
        raise ServiceError(
            f"Choose among {weekend.name}'s events only.", field="events", code="not_in_weekend"
        )
    finished = [e.name for e in events if e.stage == Event.Stage.FINISHED]
    if finished:
        raise ServiceError(
            f"{finished[0]} is finished: choose another event.", field="events", code="finished"
        )
    return events


def _record(request, events, *, actor, action: str, summary: str, **state) -> None:
    for event in events:
        audit_record(
            event=event, actor=actor, kind=Kind.ENTRIES, action=action, summary=summary, **state
        )


def _state(request: RegistrationRequest) -> dict:
    state = {"request": request.pk, "name": request.name, "status": request.status}
    if request.keep_apart_name:  # the wish is part of what the director decides on
        state["keep_apart"] = {f: getattr(request, f) for f in WISH}
    return state


@transaction.atomic
def registration_request_create(
    *,
    weekend: Weekend,
    name: str,
    event_ids,
    acc_number: str = "",
    email: str = "",
    phone: str = "",
    partner_name: str = "",
    keep_apart_name: str = "",
    keep_apart_acc: str = "",
) -> RegistrationRequest:
    """A player's request to enter ``event_ids`` of the weekend; it waits for a director."""
    weekend = Weekend.objects.select_for_update().get(pk=weekend.pk)
    if not weekend.registration_open:
        raise ServiceError(
            f"Registration for {weekend.name} is closed. Ask the director, or enter at the door "
            "on the day.",
            code="registration_closed",
        )
    details = _details(
        name=name, acc_number=acc_number, email=email, phone=phone, partner_name=partner_name,
        keep_apart_name=keep_apart_name, keep_apart_acc=keep_apart_acc,
    )  # fmt: skip
    events = _events_of(weekend, event_ids)
    request = RegistrationRequest.objects.create(weekend=weekend, **details)
    RegistrationChoice.objects.bulk_create(
        RegistrationChoice(request=request, event=event) for event in events
    )
    _record(
        request,
        events,
        actor=None,
        action="registration_request_create",
        summary=f"{request.name} asked to enter (registration request {request.pk})",
        after=_state(request),
    )
    request_email(request=request, template="registration_received")
    return request


def _locked(request: RegistrationRequest) -> RegistrationRequest:
    return RegistrationRequest.objects.select_for_update().get(pk=request.pk)


def _open_or_refuse(request: RegistrationRequest, step: str) -> None:
    """A request decided meanwhile (by another director, or withdrawn) is a conflict (409)."""
    if request.status not in OPEN_STATUSES:
        raise Conflict(
            f"This request is already {request.get_status_display().lower()}: it cannot be "
            f"{step}. Look at it again to see where it stands now.",
            code="request_decided",
        )


def _chosen(request) -> list[Event]:
    return [c.event for c in request.choices.select_related("event")]


@transaction.atomic
def registration_request_update(
    *, request: RegistrationRequest, event_ids, **details: str
) -> RegistrationRequest:
    """The player changes their request (after the director asked for a change, or while it
    waits); it waits for the director again."""
    request = _locked(request)
    _open_or_refuse(request, "changed")
    fields = ("name", "acc_number", "email", "phone", "partner_name", *WISH)
    values = _details(**{f: details.get(f, getattr(request, f)) for f in fields})
    events = _events_of(request.weekend, event_ids)
    before = _state(request)
    for field, value in values.items():
        setattr(request, field, value)
    request.status = Status.WAITING
    request.save()
    request.choices.exclude(event__in=events).delete()
    have = set(request.choices.values_list("event_id", flat=True))
    RegistrationChoice.objects.bulk_create(
        RegistrationChoice(request=request, event=e) for e in events if e.pk not in have
    )
    _record(
        request,
        events,
        actor=None,
        action="registration_request_update",
        summary=f"{request.name} changed registration request {request.pk}",
        before=before,
        after=_state(request),
    )
    return request


@transaction.atomic
def registration_approve(
    *,
    request: RegistrationRequest,
    user,
    player_id: int | None = None,
    new_player: bool = False,
) -> RegistrationRequest:
    """Enter the player in each chosen event (or its waitlist when the event is full)."""
    request = _locked(request)
    _open_or_refuse(request, "approved")
    choices = list(request.choices.select_related("event").order_by("event__starts_on", "id"))
    events = [Event.objects.select_for_update().get(pk=c.event_id) for c in choices]
    _still_takes_entries(request, events)
    reg = Registration(
        name=request.name,
        acc_number=request.acc_number,
        email=request.email,
        phone=request.phone,
        player_id=player_id,
        new_player=new_player,
    )
    player = registration_player(registration=reg, event=events[0])
    for choice, event in zip(choices, events, strict=True):
        existing = event.entries.filter(player=player).exclude(status=Entry.Status.WITHDRAWN)
        entry = existing.first()
        if entry is None and not event_has_room(event=event):
            waitlist_join(choice=choice)
            continue
        if entry is not None:
            # Entered before this request (at the desk, or by another request): the request
            # did not make that entry, so its page (anyone with the address) must not
            # withdraw it.
            choice.status, choice.entry = Choice.ENTERED, None
            choice.save(update_fields=["status", "entry"])
            continue
        entry = entry_add_unaudited(
            event,
            Registration(name=player.name, player_id=player.pk, email=reg.email, phone=reg.phone),
            check_in=False,
        )
        choice.status, choice.entry = Choice.ENTERED, entry
        choice.save(update_fields=["status", "entry"])
    before = _state(request)
    request.status, request.player = Status.APPROVED, player
    request.decided_at, request.decided_by = timezone.now(), user
    request.save(update_fields=["status", "player", "decided_at", "decided_by"])
    for choice, event in zip(choices, events, strict=True):
        word = "entered" if choice.status == Choice.ENTERED else "put on the waitlist"
        if choice.status == Choice.ENTERED and choice.entry_id is None:
            word = "already entered (before this request)"
        audit_record(
            event=event,
            actor=user,
            kind=Kind.ENTRIES,
            action="registration_approve",
            summary=f"{player.name} {word} from registration request {request.pk}",
            before=before,
            after={**_state(request), "player": player.pk, "choice": choice.status},
        )
        if choice.status == Choice.ENTERED:
            keep_apart_wishes_settle(event=event, user=user)
    request_email(request=request, template="registration_approved")
    return request


def _still_takes_entries(request: RegistrationRequest, events: list[Event]) -> None:
    """Each chosen event is still on the request's weekend and not finished: the flyer may
    have changed while the request waited."""
    for event in events:
        if event.weekend_id != request.weekend_id:
            why = f"{event.name} is no longer part of {request.weekend.name}"
        elif event.stage == Event.Stage.FINISHED:
            why = f"{event.name} is finished"
        else:
            continue
        raise ServiceError(
            f"{why}, so this request cannot be approved as it stands. Ask the player for a "
            "change (they choose other events from their page), or decline it with a reason.",
            field="events",
            code="event_gone",
        )


def _director_note(text: str, *, what: str) -> str:
    note = (text or "").strip()
    if not note:
        raise ServiceError(
            f"Write the {what}: the player sees it on their page.", field="note", code="required"
        )
    if len(note) > 500:
        raise ServiceError("Keep it under 500 characters.", field="note", code="too_long")
    return note


@transaction.atomic
def registration_decline(*, request: RegistrationRequest, user, reason: str):
    """Decline with a reason the player sees."""
    request = _locked(request)
    _open_or_refuse(request, "declined")
    reason = _director_note(reason, what="reason")
    before = _state(request)
    request.status, request.director_note = Status.DECLINED, reason
    request.decided_at, request.decided_by = timezone.now(), user
    request.save(update_fields=["status", "director_note", "decided_at", "decided_by"])
    request.choices.update(status=Choice.DROPPED)
    _record(
        request,
        _chosen(request),
        actor=user,
        action="registration_decline",
        summary=f"Registration request {request.pk} of {request.name} declined: {reason}",
        before=before,
        after=_state(request),
    )
    request_email(request=request, template="registration_declined")
    return request


@transaction.atomic
def registration_change_ask(*, request: RegistrationRequest, user, note: str):
    """Ask the player to change their request (the note says what); it waits for them."""
    request = _locked(request)
    _open_or_refuse(request, "sent back")
    note = _director_note(note, what="change you ask for")
    before = _state(request)
    request.status, request.director_note = Status.CHANGE_ASKED, note
    request.save(update_fields=["status", "director_note"])
    _record(
        request,
        _chosen(request),
        actor=user,
        action="registration_change_ask",
        summary=f"Asked {request.name} to change registration request {request.pk}: {note}",
        before=before,
        after=_state(request),
    )
    request_email(request=request, template="registration_change")
    return request


@transaction.atomic
def registration_request_withdraw(*, request: RegistrationRequest) -> RegistrationRequest:
    """The player withdraws a request the director has not decided yet."""
    request = _locked(request)
    _open_or_refuse(request, "withdrawn")
    before = _state(request)
    request.status = Status.WITHDRAWN
    request.save(update_fields=["status"])
    request.choices.update(status=Choice.DROPPED)
    _record(
        request,
        _chosen(request),
        actor=None,
        action="registration_request_withdraw",
        summary=f"{request.name} withdrew registration request {request.pk}",
        before=before,
        after=_state(request),
    )
    return request
