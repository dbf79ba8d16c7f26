"""Registration for a weekend: the public page where a player asks to enter, their private
page (``/registration/<link>/``: where the request stands, a change, an offered place), and the
director's answers (approve, decline with a reason, ask for a change) and capacities."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournaments.errors import Conflict, ServiceError
from tournaments.forms_weekends import ApproveForm, CapacityForm, NoteForm, RegistrationRequestForm
from tournaments.models import Event, RegistrationChoice, RegistrationRequest
from tournaments.selectors.access import registration_get_for_director, weekend_get_for_director
from tournaments.selectors.registrations import request_by_token, request_status
from tournaments.selectors.weekends import weekend_events, weekend_get
from tournaments.services.entries import PlayerChoiceNeeded
from tournaments.services.registration_choices import (
    registration_choice_withdraw,
    waitlist_offer_take,
)
from tournaments.services.registrations import (
    registration_approve,
    registration_change_ask,
    registration_decline,
    registration_request_create,
    registration_request_update,
    registration_request_withdraw,
)
from tournaments.services.waitlist import event_capacity_set, waitlist_advance
from tournaments.throttles import throttle_writes
from tournaments.views.refusals import RowRefusal, refusal_on_form
from tournaments.views.weekends import manage_context

DETAILS = (
    "name",
    "acc_number",
    "email",
    "phone",
    "partner_name",
    "keep_apart_name",
    "keep_apart_acc",
)


@throttle_writes
def weekend_register(request, weekend_id: int):
    """The public page (the flyer's link and QR code). A request sent after registration
    closed is a 409: the page says it is closed and what to do instead."""
    weekend = weekend_get(weekend_id=weekend_id)
    if weekend is None:
        raise Http404("No such weekend.")
    events = weekend_events(weekend=weekend)
    form = RegistrationRequestForm(request.POST or None, events=events)
    status = 409 if request.method == "POST" and not weekend.registration_open else 200
    if request.method == "POST" and weekend.registration_open:
        if form.is_valid():
            data = form.cleaned_data
            try:
                made = registration_request_create(
                    weekend=weekend,
                    event_ids=data["events"],
                    **{field: data[field] for field in DETAILS},
                )
            except ServiceError as exc:
                refusal_on_form(form, exc)
            else:
                return redirect("registration-status", token=made.token)
        status = 400
    context = {"weekend": weekend, "events": events, "form": form}
    return render(request, "tournaments/weekends/register.html", context, status=status)


def _status_context(found: RegistrationRequest, form=None) -> dict:
    events = weekend_events(weekend=found.weekend)
    if form is None:
        initial = {field: getattr(found, field) for field in DETAILS}
        initial["events"] = [c.event_id for c in found.choices.all()]
        form = RegistrationRequestForm(initial=initial, events=events)
    return {"found": found, "weekend": found.weekend, "choices": request_status(request=found),
            "form": form}  # fmt: skip


def registration_status(request, token: str):
    """The player's private page. Offers that are overdue lapse here first (a check on read)."""
    found = request_by_token(token=token)
    if found is None:
        raise Http404("No such request.")
    waiting = {RegistrationChoice.Status.OFFERED, RegistrationChoice.Status.WAITLISTED}
    for choice in found.choices.all():
        if choice.status in waiting:
            waitlist_advance(event=choice.event)
    found = request_by_token(token=token)
    response = render(request, "tournaments/weekends/status.html", _status_context(found))
    response["Cache-Control"] = "private, no-cache"
    return response


@require_POST
@throttle_writes
def registration_change(request, token: str):
    """The player's change: refused, their page again with what they typed and why (400), or,
    when the director decided meanwhile, with the decision (409)."""
    found = request_by_token(token=token)
    if found is None:
        raise Http404("No such request.")
    form = RegistrationRequestForm(request.POST, events=weekend_events(weekend=found.weekend))
    if form.is_valid():
        data = form.cleaned_data
        try:
            registration_request_update(
                request=found,
                event_ids=data["events"],
                **{field: data[field] for field in DETAILS},
            )
        except ServiceError as exc:
            refusal_on_form(form, exc)
            if isinstance(exc, Conflict):
                context = _status_context(request_by_token(token=token), form)
                return render(request, "tournaments/weekends/status.html", context, status=409)
        else:
            messages.success(request, "Your request is changed; it waits for the director.")
            return redirect("registration-status", token=token)
    context = _status_context(found, form)
    return render(request, "tournaments/weekends/status.html", context, status=400)


@require_POST
def registration_player_step(request, token: str, step: str, choice_id: int = 0):
    """The player's buttons: take an offered place, give up a place or a line, withdraw."""
    found = request_by_token(token=token)
    if found is None:
        raise Http404("No such request.")
    try:
        if step == "withdraw":
            registration_request_withdraw(request=found)
            messages.success(request, "Your request is withdrawn.")
        else:
            choice = get_object_or_404(RegistrationChoice, pk=choice_id, request=found)
            if step == "take":
                waitlist_offer_take(choice=choice)
                messages.success(request, f"You are entered in {choice.event.name}.")
            else:
                registration_choice_withdraw(choice=choice)
                messages.success(request, f"You are no longer in {choice.event.name}'s list.")
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("registration-status", token=token)


def _back(weekend_id: int, anchor: str = "requests-heading") -> str:
    return reverse("weekend-manage", args=[weekend_id]) + f"#{anchor}"


def _manage_refused(request, weekend, refusal: RowRefusal, status: int = 400):
    """The directors' page again with the refused form's error next to it and at the top, and
    what was typed put back (``manage.html``)."""
    context = manage_context(request, weekend, refusal=refusal)
    return render(request, "tournaments/weekends/manage.html", context, status=status)


@login_required
@require_POST
def registration_decide(request, weekend_id: int, request_id: int, step: str):
    """The director's answer: approve (saying who the player is when their name may be someone
    known), decline with a reason, or ask for a change. A refusal keeps what was typed; a
    request decided meanwhile is a 409 that links to its row, which shows what happened."""
    found = registration_get_for_director(
        weekend_id=weekend_id, request_id=request_id, user=request.user
    )
    form = ApproveForm(request.POST) if step == "approve" else NoteForm(request.POST)
    form.is_valid()
    typed = form.cleaned_data.get("player" if step == "approve" else "note", "")
    try:
        if step == "approve":
            registration_approve(request=found, user=request.user, **form.identity())
            done = f"{found.name}'s request is approved."
        elif step == "decline":
            registration_decline(request=found, user=request.user, reason=typed)
            done = f"{found.name}'s request is declined."
        else:
            registration_change_ask(request=found, user=request.user, note=typed)
            done = f"{found.name} is asked to change their request."
    except ServiceError as exc:
        conflict = isinstance(exc, Conflict)
        message = exc.message
        if isinstance(exc, PlayerChoiceNeeded):
            message += " Choose below, then approve again."
        refusal = RowRefusal(
            step=step,
            row_id=found.pk,
            message=f"{found.name}: {message}",
            typed=typed,
            link=f"#request-{found.pk}" if conflict else f"#{step}-{found.pk}",
            link_text=f"See {found.name}'s request as it stands now"
            if conflict
            else f"Go to the form for {found.name}",
            conflict=conflict,
        )
        return _manage_refused(request, found.weekend, refusal, status=409 if conflict else 400)
    messages.success(request, done)
    return redirect(_back(weekend_id, f"request-{found.pk}"))


@login_required
@require_POST
def weekend_capacity(request, weekend_id: int, event_id: int):
    weekend = weekend_get_for_director(weekend_id=weekend_id, user=request.user)
    event = get_object_or_404(Event, pk=event_id, weekend=weekend)
    form = CapacityForm(request.POST)
    if form.is_valid():
        try:
            event_capacity_set(
                event=event, user=request.user, capacity=form.cleaned_data["capacity"]
            )
        except ServiceError as exc:
            error = exc.message
        else:
            messages.success(request, f"{event.name}'s capacity is saved.")
            return redirect(_back(weekend.pk, "events-heading"))
    else:
        error = form.errors["capacity"][0]
    refusal = RowRefusal(
        step="capacity",
        row_id=event.pk,
        message=f"{event.name}: {error}",
        typed=form.data.get("capacity", ""),
        link=f"#capacity-{event.pk}",
        link_text=f"Go to {event.name}'s capacity",
    )
    return _manage_refused(request, weekend, refusal)
