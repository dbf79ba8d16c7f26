"""Pages for linking an account to a player record (``services.account_links``).

- the person's request page (``/me/links/<id>/``): the code form while a code is on its way or
  sent, the wait for an administrator otherwise, and a way to withdraw the request;
- unlinking: the person's own account from "My games", or an administrator's for a wrong
  link, each after a second step;
- the administrators' page (``/players/links/``): requests waiting for them (no address on the
  record), to confirm or decline with a reason, and every link with its history.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.models import AccountLink, Player
from tournaments.selectors.access import account_link_get_for_user
from tournaments.selectors.account_links import account_links_history, account_links_waiting
from tournaments.services.account_links import (
    CODE_MINUTES,
    account_link_approve,
    account_link_cancel,
    account_link_confirm,
    account_link_create,
    account_link_decline,
    account_link_end,
    account_link_request,
)
from tournaments.views.confirm import Confirmation, confirm_page, confirmed


class CodeForm(forms.Form):
    code = forms.CharField(
        label="The code from the e-mail",
        max_length=20,
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "one-time-code", "pattern": "[0-9 ]*"}
        ),
        error_messages={"required": "Type the 6 digits from the e-mail."},
    )


class LinkForm(forms.Form):
    username = forms.CharField(label="User name", max_length=150)
    player = forms.IntegerField(label="Player number", min_value=1, max_value=2**62)


class NoteForm(forms.Form):
    note = forms.CharField(
        label="Why (the person sees this)",
        max_length=300,
        error_messages={"required": "Say why, for the person who asked."},
    )


def link_ask(request, entry):
    """The player's page's "Yes, this is me" (POST): ask, then go to the request's page."""
    try:
        link = account_link_request(entry=entry, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("player-page", token=entry.report_token)
    return redirect("account-link", link_id=link.pk)


@login_required
def link_page(request, link_id: int):
    link = account_link_get_for_user(link_id=link_id, user=request.user)
    form, status = CodeForm(), 200
    if request.method == "POST" and "cancel" in request.POST:
        return _act(request, link, lambda: account_link_cancel(link=link, user=request.user),
                    "Your request is withdrawn.")  # fmt: skip
    if request.method == "POST":
        form = CodeForm(request.POST)
        if form.is_valid():
            try:
                link = account_link_confirm(
                    link=link, user=request.user, code=form.cleaned_data["code"]
                )
            except ServiceError as exc:
                form.add_error("code", exc.message)
            else:
                if link.status == AccountLink.Status.CONFIRMED:
                    messages.success(
                        request,
                        f"Your account is now linked to {link.player.name}: your events are below.",
                    )
                    return redirect("my-entries")
                return redirect("account-link", link_id=link.pk)
        status = 400
    context = {"link": link, "form": form, "minutes": CODE_MINUTES}
    return render(request, "tournaments/account_links/request.html", context, status=status)


def _act(request, link, action, success: str):
    try:
        action()
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)
    return redirect("account-link", link_id=link.pk)


@login_required
@require_POST
def link_end(request, link_id: int):
    """Unlink. The person's own account: after a second step. An administrator's, for a wrong
    link: from the administrators' page, with the reason typed there."""
    link = account_link_get_for_user(link_id=link_id, user=request.user)
    own = link.user_id == request.user.pk
    if own and not confirmed(request):
        return confirm_page(
            request,
            Confirmation(
                title=f"Unlink {link.player.name}?",
                question=f"Your account will no longer list {link.player.name}'s events.",
                details=["Linking again needs a new code, or an administrator."],
                action_label="Yes, unlink my account",
                cancel_url=reverse("my-entries"),
            ),
        )
    form = NoteForm(request.POST)
    if not own and not form.is_valid():
        messages.error(request, form.errors["note"][0])
    else:
        note = "" if own else form.cleaned_data["note"]
        try:
            account_link_end(link=link, user=request.user, note=note)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request, f"{link.user.get_username()} is no longer linked to {link.player.name}."
            )
    return redirect("my-entries" if own else "account-links-admin")


@staff_member_required
def links_admin(request):
    form, status = LinkForm(request.POST or None), 200
    if request.method == "POST":
        if form.is_valid() and _create(request, form):
            return redirect("account-links-admin")
        status = 400
    context = {
        "waiting": account_links_waiting(),
        "history": account_links_history(player_id=_player_filter(request))[:100],
        "form": form,
    }
    return render(request, "tournaments/account_links/admin.html", context, status=status)


def _create(request, form: LinkForm) -> bool:
    """An administrator links an account at once; False with the form's error if refused."""
    account = (
        get_user_model()
        .objects.filter(username__iexact=form.cleaned_data["username"].strip())
        .first()
    )
    player = Player.objects.filter(pk=form.cleaned_data["player"], merged_into__isnull=True).first()
    if account is None or player is None:
        form.add_error(
            None,
            "No account has that user name."
            if account is None
            else "No player has that number (a merged record: use the one it joined).",
        )
        return False
    try:
        account_link_create(player=player, account=account, user=request.user)
    except ServiceError as exc:
        form.add_error(None, exc.message)
        return False
    messages.success(request, f"{account.get_username()} is linked to {player.name}.")
    return True


def _player_filter(request) -> int | None:
    value = request.GET.get("player", "")
    return int(value) if value.isdigit() and len(value) < 18 else None


@staff_member_required
@require_POST
def link_approve(request, link_id: int):
    link = account_link_get_for_user(link_id=link_id, user=request.user)
    try:
        account_link_approve(link=link, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{link.user.get_username()} is linked to {link.player.name}.")
    return redirect("account-links-admin")


@staff_member_required
@require_POST
def link_decline(request, link_id: int):
    link = account_link_get_for_user(link_id=link_id, user=request.user)
    form = NoteForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.errors["note"][0])
        return redirect("account-links-admin")
    try:
        account_link_decline(link=link, user=request.user, note=form.cleaned_data["note"])
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"The request of {link.user.get_username()} is declined.")
    return redirect("account-links-admin")
