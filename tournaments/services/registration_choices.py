"""A player's steps on one event of an approved registration request, from the request's
private page (terms in ``models.weekends``): take a place offered from the waitlist, or give
up a place (off the waitlist, an offer declined, or before play the entry the request made).
Every step is written in that event's history, naming no one (the player is not signed in).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.errors import ServiceError
from tournaments.models import Entry, RegistrationChoice
from tournaments.selectors.events import event_play_started
from tournaments.services.audit import Kind, audit_record
from tournaments.services.entries import Registration, entry_add_unaudited
from tournaments.services.keep_apart import keep_apart_wishes_settle
from tournaments.services.waitlist import waitlist_advance
from tournaments.services.withdrawals import entry_withdraw

Choice = RegistrationChoice.Status


def _choice_locked(choice: RegistrationChoice) -> RegistrationChoice:
    return (
        RegistrationChoice.objects.select_related("request", "event")
        .select_for_update(of=("self",))
        .get(pk=choice.pk)
    )


@transaction.atomic
def waitlist_offer_take(*, choice: RegistrationChoice) -> RegistrationChoice:
    """The player takes the place offered to them: they are entered in the event."""
    waitlist_advance(event=choice.event)  # an overdue offer lapses first
    choice = _choice_locked(choice)
    if choice.status == Choice.LAPSED:
        raise ServiceError(
            f"The offer of a place in {choice.event.name} passed on at "
            f"{timezone.localtime(choice.offer_expires_at):%-d %b %H:%M}. Ask the director "
            "whether a place is still free, or enter at the door if the event allows.",
            code="offer_lapsed",
        )
    if choice.status != Choice.OFFERED:
        raise ServiceError(
            f"No place in {choice.event.name} is offered to you now "
            f"({choice.get_status_display().lower()}).",
            code="no_offer",
        )
    request = choice.request
    entry = entry_add_unaudited(
        choice.event,
        Registration(
            name=request.name, player_id=request.player_id, email=request.email,
            phone=request.phone, acc_number="" if request.player_id else request.acc_number,
            new_player=request.player_id is None,
        ),
        check_in=False,
    )  # fmt: skip
    choice.status, choice.entry = Choice.ENTERED, entry
    choice.save(update_fields=["status", "entry"])
    audit_record(
        event=choice.event,
        actor=None,
        kind=Kind.ENTRIES,
        action="waitlist_offer_take",
        summary=f"{entry.name} took the offered place (registration request {request.pk})",
        before={"request": request.pk, "choice": Choice.OFFERED},
        after={"request": request.pk, "choice": Choice.ENTERED, "entry": entry.pk},
    )
    keep_apart_wishes_settle(event=choice.event, user=None)
    return choice


def _entered_refusal(choice: RegistrationChoice) -> None:
    """A request's page withdraws only the entry the request made, and only before play: the
    page is anyone's who has its address, while a withdrawal between games is the director's."""
    event = choice.event
    if choice.entry_id is None:
        raise ServiceError(
            f"You were entered in {event.name} before this request (by the director or "
            "another request), so this page cannot withdraw you: ask the director.",
            code="entered_before",
        )
    if event_play_started(event=event):
        raise ServiceError(
            f"Play has started in {event.name}: to withdraw, ask the director (they withdraw "
            "you between games, and can undo it).",
            code="play_started",
        )


@transaction.atomic
def registration_choice_withdraw(*, choice: RegistrationChoice) -> RegistrationChoice:
    """The player no longer wants this event: off the waitlist, an offer declined, or (before
    play) their entry withdrawn; a place it frees goes to the next in line."""
    choice = _choice_locked(choice)
    before = choice.status
    if before in (Choice.DROPPED, Choice.LAPSED):
        raise ServiceError(f"You are not in {choice.event.name}'s list now.", code="not_in")
    if before == Choice.ENTERED:
        _entered_refusal(choice)
    if before == Choice.ENTERED and choice.entry_id:
        entry = Entry.objects.get(pk=choice.entry_id)
        if entry.status != Entry.Status.WITHDRAWN:
            entry_withdraw(entry=entry, user=None)
    choice.status = Choice.DROPPED
    choice.save(update_fields=["status"])
    audit_record(
        event=choice.event,
        actor=None,
        kind=Kind.ENTRIES,
        action="registration_choice_withdraw",
        summary=f"{choice.request.name} no longer wants a place (was: {before})",
        before={"request": choice.request_id, "choice": before},
        after={"request": choice.request_id, "choice": Choice.DROPPED},
    )
    waitlist_advance(event=choice.event)
    return choice
