"""Invitations to hold a role: the director's send and withdraw (an event's; a club's are in
``views.clubs``), and the
invited person's page at the e-mailed link (``/invitations/<link>/``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.forms_invitations import InvitationForm
from tournaments.models import Invitation
from tournaments.selectors.access import event_get_for_director
from tournaments.selectors.invitations import invitation_by_token
from tournaments.services.invitations import (
    invitation_accept,
    invitation_place,
    invitation_refusal,
    invitation_send,
    invitation_withdraw,
)
from tournaments.views.director_events import dashboard_context
from tournaments.views.refusals import refusal_on_form


def invitation(request, token: str):
    """The e-mailed link: who invites to what, and the way to take it (sign up or sign in
    first when needed). A refused invitation (withdrawn, expired, taken) says why, with 410."""
    found = invitation_by_token(token=token)
    if found is None:
        raise Http404("No such invitation")
    user = request.user if request.user.is_authenticated else None
    if request.method == "POST" and user is None:
        return redirect_to_login(request.get_full_path())
    refusal = invitation_refusal(found, user)
    if request.method == "POST" and user is not None and refusal is None:
        try:
            invitation_accept(invitation=found, user=user)
        except ServiceError as exc:
            refusal = exc
        else:
            label = found.get_role_display().lower()
            messages.success(request, f"You are now {label} of {invitation_place(found)}.")
            return redirect(_place_url(found))
    here = reverse("invitation", args=[token])
    context = {
        "invitation": found,
        "place": invitation_place(found),
        "role": found.get_role_display().lower(),
        "refusal": refusal,
        "signup_url": reverse("account_signup") + "?" + urlencode({"next": here}),
        "login_url": reverse("login") + "?" + urlencode({"next": here}),
        "place_url": _place_url(found),
    }
    status = 410 if refusal is not None and refusal.code != "invitation_yours" else 200
    return render(request, "tournaments/invitations/invitation.html", context, status=status)


def _place_url(found: Invitation) -> str:
    if found.club_id:
        return reverse("club-detail", args=[found.club_id])
    if found.role == Invitation.Role.DIRECTOR:
        return reverse("event-manage", args=[found.event_id])
    return reverse("judge-events")


@login_required
@require_POST
def event_invitation_send(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    form = InvitationForm(request.POST)
    if form.is_valid():
        try:
            sent = invitation_send(actor=request.user, event=event, **form.cleaned_data)
        except ServiceError as exc:
            refusal_on_form(form, exc)
        else:
            label = sent.get_role_display().lower()
            messages.success(request, f"Invitation to be {label} e-mailed to {sent.email}.")
            return redirect(reverse("event-manage", args=[event.pk]) + "#roles-heading")
    context = dashboard_context(event, invitation_form=form)
    return render(request, "tournaments/director/event_manage.html", context, status=400)


@login_required
@require_POST
def event_invitation_withdraw(request, event_id: int, invitation_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    found = get_object_or_404(Invitation, pk=invitation_id, event=event)
    invitation_withdraw_for(request, found)
    return redirect(reverse("event-manage", args=[event.pk]) + "#roles-heading")


def invitation_withdraw_for(request, found: Invitation) -> None:
    """Withdraw ``found`` (already fetched for a director) and say what happened."""
    try:
        invitation_withdraw(actor=request.user, invitation=found)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"The invitation of {found.email} is withdrawn.")
