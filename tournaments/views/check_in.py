"""Check-in at a weekend's desk, without the queue.

- by link: a player opens their own private link (the QR code on their scorecard) and taps
  "check me in". Opening the link does nothing by itself: a director scanning a card to read
  it must not check the player in.
- check-in code: one current code per event, shown at the desk as a QR code
  (``/events/<id>/check-in/<code>/``). A signed-in player whose account is linked to their
  player record opens it and confirms; it only ever checks in *their own* entry, and only
  while registration is open. A director can replace it ("Make a new code"): an older code
  then says so and points to the desk's code. See ``selectors.check_in``; a guessed code is a
  404.
- the desk page: who is in and who is not yet, live (``views.live``: the event's version
  changes when an entry is checked in), a search box (by name, as you type; a plain GET
  without scripts), a Check in button per player and an Undo button per checked-in player,
  the code's QR code to show or print, and "check in everyone present" (tick, confirm, one
  message with the count).

Who may check in, and when, is ``services.check_in`` (``entry_self_check_in``,
``entries_check_in``): a player only while registration is open; the desk at any time.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.models import Entry, Event, Player
from tournaments.selectors.access import event_get_for_director
from tournaments.selectors.check_in import (  # noqa: F401 (event_check_in_code: for tests)
    check_in_code_current,
    check_in_code_state,
    event_check_in_code,
)
from tournaments.selectors.events import entries_of_event
from tournaments.selectors.live import event_version
from tournaments.services.check_in import (
    CODE_REPLACED,
    check_in_code_rotate,
    entries_check_in,
    entry_check_in_undo,
    entry_self_check_in,
)
from tournaments.views.confirm import Confirmation, confirm_page, confirmed
from tournaments.views.live import live_page
from tournaments.views.standings import scorecard_qr_svg

NAMED = 12  # players named on the bulk confirmation; more are counted


def _event_for_code(event_id: int, code: str) -> tuple[Event, str]:
    """The event whose check-in code this is (current or replaced) and the code's state;
    anything else is a 404."""
    event = Event.objects.filter(pk=event_id).first()
    state = None if event is None else check_in_code_state(event=event, code=code)
    if state is None:
        raise Http404("This check-in code is not valid. Scan the code at the desk again.")
    return event, state


def _self_check_in(request, entry: Entry, code: str | None = None) -> None:
    """The player's own check-in, said as a message on the page they come back to."""
    try:
        done = entry_self_check_in(entry=entry, user=request.user, code=code)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, "You are checked in. Good luck!" if done else "You are already checked in."
        )


def check_in_by_link(request, entry: Entry):
    """The POST of "check me in" on a player's own page (``views.report.player_page``)."""
    _self_check_in(request, entry)
    return redirect("player-page", token=entry.report_token)


@login_required
def check_in_by_code(request, event_id: int, code: str):
    """The event's code, opened by a signed-in player: their own entry, a button to confirm."""
    event, state = _event_for_code(event_id, code)
    if state == "replaced":
        context = {"event": event, "replaced": CODE_REPLACED}
        response = render(request, "tournaments/director/check_in_code.html", context, status=410)
        response["Cache-Control"] = "private, no-cache"
        return response
    entry = (
        Entry.objects.select_related("player", "event")
        .filter(event=event, player__user=request.user)
        .first()
    )
    if request.method == "POST":
        if entry is None:
            messages.error(request, _no_entry_message(request.user, event))
        else:
            _self_check_in(request, entry, code)
        return redirect("event-check-in-code", event_id=event.pk, code=code)
    context = {
        "event": event,
        "entry": entry,
        "no_entry": None if entry else _no_entry_message(request.user, event),
        "registration_open": event.stage == Event.Stage.REGISTRATION,
    }
    response = render(request, "tournaments/director/check_in_code.html", context)
    response["Cache-Control"] = "private, no-cache"
    return response


def _no_entry_message(user, event: Event) -> str:
    player = Player.objects.filter(user=user).first()
    if player is None:
        return (
            "Your account is not linked to a player yet, so we cannot tell who you are. "
            "Open the link on your scorecard (its QR code) instead, or check in at the desk."
        )
    return f"{player.name} is not entered in {event.name}. Please see the director at the desk."


def _desk_context(request, event: Event) -> dict:
    entries = list(entries_of_event(event=event).exclude(status=Entry.Status.WITHDRAWN))
    query = request.GET.get("q", "").strip()[:100]
    found = [e for e in entries if query.casefold() in e.name.casefold()]
    waiting = [e for e in found if e.status == Entry.Status.REGISTERED]
    checked_in = [e for e in found if e.status == Entry.Status.CHECKED_IN]
    checked_in.sort(key=lambda e: e.checked_in_at or e.created_at, reverse=True)
    return {
        "event": event,
        "q": query,
        "waiting": waiting,
        "checked_in": checked_in,
        "found": len(waiting) + len(checked_in),
        "total": len(entries),
        "in_count": sum(e.status == Entry.Status.CHECKED_IN for e in entries),
        "registration_open": event.stage == Event.Stage.REGISTRATION,
    }


@login_required
def check_in_desk(request, event_id: int):
    """The desk's page (director only): counts and lists follow every check-in live."""
    event = event_get_for_director(event_id=event_id, user=request.user)

    def context() -> dict:
        found = _desk_context(request, event)
        if request.GET.get("part") != "live":
            code = check_in_code_current(event=event)
            found["code_url"] = request.build_absolute_uri(code.path)
            found["qr"] = scorecard_qr_svg(found["code_url"], f"Check-in code for {event.name}")
        return found

    return live_page(
        request,
        version=lambda: event_version(event=event),
        page="tournaments/director/check_in.html",
        part="tournaments/director/check_in_live.html",
        context=context,
    )


def _chosen_ids(request) -> list[int]:
    """The ticked players ("entry", one per box) or, once confirmed, "entries" (comma-joined)."""
    values = request.POST.getlist("entry") + request.POST.get("entries", "").split(",")
    return [int(v) for v in values if v.strip().isdigit()]


@login_required
def check_in_everyone(request, event_id: int):
    """The desk's "check in everyone present": tick the players here, confirm, done. The
    desk's Check in button per player posts here too, already confirmed (one tap a player)."""
    event = event_get_for_director(event_id=event_id, user=request.user)
    if confirmed(request):
        try:
            done = entries_check_in(event=event, entry_ids=_chosen_ids(request), user=request.user)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            count = len(done)
            text = f"{done[0].name} is checked in." if count == 1 else None
            messages.success(request, text or f"{count} players checked in.")
        return redirect("event-check-in", event_id=event.pk)
    waiting = list(entries_of_event(event=event).filter(status=Entry.Status.REGISTERED))
    context, status = {"event": event, "waiting": waiting}, 200
    if request.method == "POST":
        ids = set(_chosen_ids(request))
        chosen = [e for e in waiting if e.pk in ids]
        if chosen:
            return _confirm_everyone(request, event, chosen)
        context["error"] = "Tick at least one player who is here."
        status = 400
    return render(request, "tournaments/director/check_in_everyone.html", context, status=status)


def _confirm_everyone(request, event: Event, chosen: list[Entry]):
    names = [e.name for e in chosen]
    count = len(names)
    shown = ", ".join(names[:NAMED]) + (f" and {count - NAMED} more" if count > NAMED else "")
    players = "1 player" if count == 1 else f"{count} players"
    return confirm_page(
        request,
        Confirmation(
            title=f"Check in {players}?",
            question=f"{shown}: checked in, ready to be paired.",
            details=["Only tick players you have seen at the desk."],
            action_label=f"Yes, check in {players}",
            cancel_url=reverse("event-check-in-everyone", args=[event.pk]),
            extra={"entries": ",".join(str(e.pk) for e in chosen)},
        ),
        event=event,
    )


@login_required
@require_POST
def check_in_undo(request, event_id: int):
    """The desk's Undo beside a checked-in player: a wrong tap is taken back at once."""
    event = event_get_for_director(event_id=event_id, user=request.user)
    ids = _chosen_ids(request)
    entry = Entry.objects.filter(event=event, pk=ids[0]).first() if ids else None
    try:
        if entry is None:
            raise ServiceError("Choose a player of this event.", code="not_in_event")
        entry_check_in_undo(entry=entry, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{entry.name} is no longer checked in.")
    return redirect("event-check-in", event_id=event.pk)


@login_required
@require_POST
def check_in_new_code(request, event_id: int):
    """Replace the event's check-in code: the QR code shown or printed before stops working."""
    event = event_get_for_director(event_id=event_id, user=request.user)
    check_in_code_rotate(event=event, user=request.user)
    messages.success(
        request,
        "New check-in code made: the old QR code no longer checks anyone in. Show or print "
        "this one.",
    )
    return redirect(reverse("event-check-in", args=[event.pk]) + "#code-heading")
