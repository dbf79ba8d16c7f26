"""Weekend pages: the list, a new weekend, the public page (events, schedule, fees), and the
directors' page (details, events, registration open or closed, the flyer's link and QR code).
The registration requests are in ``views.registrations``."""

from __future__ import annotations

from copy import copy

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.forms_weekends import WeekendEventForm, WeekendForm
from tournaments.models import Event, Weekend
from tournaments.selectors.access import weekend_directs, weekend_get_for_director
from tournaments.selectors.registrations import requests_of_weekend
from tournaments.selectors.weekends import (
    events_addable,
    weekend_get,
    weekend_page,
    weekends_listed,
)
from tournaments.services.weekends import (
    weekend_create,
    weekend_event_add,
    weekend_event_remove,
    weekend_registration_set,
    weekend_update,
)
from tournaments.views.confirm import Confirmation, confirm_page, confirmed
from tournaments.views.refusals import refusal_on_form
from tournaments.views.standings import scorecard_qr_svg


def weekend_list(request):
    return render(request, "tournaments/weekends/list.html", {"weekends": weekends_listed()[:200]})


@login_required
def weekend_new(request):
    form = WeekendForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            weekend = weekend_create(user=request.user, **form.cleaned_data)
        except ServiceError as exc:
            refusal_on_form(form, exc)
        else:
            messages.success(request, f"{weekend.name} is made: now add its events.")
            return redirect("weekend-manage", weekend_id=weekend.pk)
    status = 400 if form.errors else 200
    return render(request, "tournaments/weekends/new.html", {"form": form}, status=status)


def weekend_detail(request, weekend_id: int):
    weekend = weekend_get(weekend_id=weekend_id)
    if weekend is None:
        raise Http404("No such weekend.")
    context = {
        "page": weekend_page(weekend=weekend),
        "directs": weekend_directs(weekend=weekend, user=request.user),
    }
    return render(request, "tournaments/weekends/weekend.html", context)


def manage_context(request, weekend: Weekend, refusal=None, **forms_) -> dict:
    """The directors' page's data; ``forms_`` carry a refused form back, ``refusal`` a refused
    small form of a request or an event (``views.refusals.RowRefusal``)."""
    register_url = request.build_absolute_uri(reverse("weekend-register", args=[weekend.pk]))
    return {
        "page": weekend_page(weekend=weekend),
        "form": forms_.get("form") or WeekendForm(instance=weekend, prefix="details"),
        "event_form": forms_.get("event_form")
        or WeekendEventForm(events=events_addable(weekend=weekend, user=request.user)),
        "register_url": register_url,
        "qr": scorecard_qr_svg(register_url, f"Registration for {weekend.name}"),
        "requests": requests_of_weekend(weekend=weekend),
        "refusal": refusal,
    }


@login_required
def weekend_manage(request, weekend_id: int):
    weekend = weekend_get_for_director(weekend_id=weekend_id, user=request.user)
    status = 200
    if request.method == "POST":
        # The form works on a copy: a refused post must not show its values as the saved ones.
        form = WeekendForm(request.POST, instance=copy(weekend), prefix="details")
        if form.is_valid():
            try:
                weekend_update(weekend=weekend, user=request.user, **form.cleaned_data)
            except ServiceError as exc:
                refusal_on_form(form, exc)
            else:
                messages.success(request, "The weekend's details are saved.")
                return redirect("weekend-manage", weekend_id=weekend.pk)
        status = 400
        context = manage_context(request, weekend, form=form)
    else:
        context = manage_context(request, weekend)
    return render(request, "tournaments/weekends/manage.html", context, status=status)


@login_required
@require_POST
def weekend_event_new(request, weekend_id: int):
    weekend = weekend_get_for_director(weekend_id=weekend_id, user=request.user)
    addable = events_addable(weekend=weekend, user=request.user)
    form = WeekendEventForm(request.POST, events=addable)
    if form.is_valid():
        event = get_object_or_404(Event, pk=form.cleaned_data["event"])
        try:
            weekend_event_add(weekend=weekend, event=event, user=request.user)
        except ServiceError as exc:
            refusal_on_form(form, exc)
        else:
            messages.success(request, f"{event.name} is listed in {weekend.name}.")
            return redirect(reverse("weekend-manage", args=[weekend.pk]) + "#events-heading")
    context = manage_context(request, weekend, event_form=form)
    return render(request, "tournaments/weekends/manage.html", context, status=400)


@login_required
@require_POST
def weekend_event_drop(request, weekend_id: int, event_id: int):
    weekend = weekend_get_for_director(weekend_id=weekend_id, user=request.user)
    event = get_object_or_404(Event, pk=event_id, weekend=weekend)
    try:
        weekend_event_remove(weekend=weekend, event=event, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{event.name} is no longer listed in {weekend.name}.")
    return redirect(reverse("weekend-manage", args=[weekend.pk]) + "#events-heading")


@login_required
def weekend_registration_switch(request, weekend_id: int, to: str):
    """Open or close the public registration page, after a page that asks to confirm."""
    weekend = weekend_get_for_director(weekend_id=weekend_id, user=request.user)
    opening = to == "open"
    back = reverse("weekend-manage", args=[weekend.pk])
    if not confirmed(request):
        if opening:
            question = (
                f"Open registration for {weekend.name}? Anyone with the link or the flyer's QR "
                "code can then ask to enter its events; each request waits for you."
            )
        else:
            question = (
                f"Close registration for {weekend.name}? The page then says registration is "
                "closed; requests already sent stay, and you can open it again."
            )
        return confirm_page(
            request,
            Confirmation(
                title="Open registration" if opening else "Close registration",
                question=question,
                action_label="Yes, open it" if opening else "Yes, close it",
                cancel_url=back,
            ),
        )
    try:
        weekend_registration_set(weekend=weekend, user=request.user, open=opening)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        word = "open" if opening else "closed"
        messages.success(request, f"Registration for {weekend.name} is {word}.")
    return redirect(back)
