"""Players across events: the MRP leaderboards, a player's page with their points by year,
changes to a player's record (made at once or proposed, ``services.record_changes``), and,
for administrators, merging two records of one person (and undoing it)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tournaments.charts import points_by_year_svg, svg_response
from tournaments.errors import ServiceError
from tournaments.models import Club, Player, PlayerMerge, RecordChange
from tournaments.selectors.access import player_get_for_editing, record_change_get_for_user
from tournaments.selectors.player_identity import (
    player_edit_direct,
    player_may_edit,
    player_record_decider,
)
from tournaments.selectors.players import (
    LeaderboardFilters,
    leaderboard_regions,
    leaderboard_years,
    mrp_leaderboard,
    player_get,
    player_page,
)
from tournaments.selectors.record_changes import record_changes_waiting
from tournaments.services.players import player_merge, player_merge_undo
from tournaments.services.record_changes import (
    player_record_change,
    record_change_approve,
    record_change_decline,
    record_change_withdraw,
)
from tournaments.views.refusals import refusal_on_form

PER_PAGE = 50


class LeaderboardForm(forms.Form):
    year = forms.TypedChoiceField(label="Year", required=False, coerce=int, empty_value=None)
    club = forms.TypedChoiceField(label="Club", required=False, coerce=int, empty_value=None)
    region = forms.ChoiceField(label="Region", required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["year"].choices = [("", "All time")] + [
            (y, str(y)) for y in leaderboard_years()
        ]
        clubs = Club.objects.order_by("name").values_list("pk", "name")
        self.fields["club"].choices = [("", "Every club"), *clubs]
        self.fields["region"].choices = [("", "Every region")] + [
            (r, r) for r in leaderboard_regions()
        ]

    def filters(self) -> LeaderboardFilters:
        if not self.is_valid():
            return LeaderboardFilters()
        data = self.cleaned_data
        return LeaderboardFilters(data["year"], data["club"], data["region"] or None)


def leaderboard(request):
    form = LeaderboardForm(request.GET or None)
    page = Paginator(mrp_leaderboard(filters=form.filters()), PER_PAGE).get_page(
        request.GET.get("page")
    )
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "tournaments/players/leaderboard.html",
        {"form": form, "page": page, "query": query.urlencode()},
    )


class RecordForm(forms.Form):
    name = forms.CharField(max_length=200, label="Name")
    acc_number = forms.CharField(max_length=20, label="ACC number", required=False)


def player_detail(request, player_id: int):
    player = player_get(player_id=player_id)
    if player.pk != player_id:
        return redirect("player-detail", player_id=player.pk)
    return render(request, "tournaments/players/player.html", _detail_context(request, player))


def _detail_context(request, player: Player, form: RecordForm | None = None) -> dict:
    may_edit = player_may_edit(player=player, user=request.user)
    initial = {"name": player.name, "acc_number": player.acc_number}
    return {
        "page": player_page(player=player, viewer=request.user),
        "record_form": form or RecordForm(initial=initial),
        "may_edit": may_edit,
        "edit_direct": may_edit and player_edit_direct(player=player, user=request.user),
        "decider": player_record_decider(player=player, user=request.user),
        "changes": list(record_changes_waiting(player=player)) if may_edit else [],
    }


def player_chart(request, player_id: int):
    player = player_get(player_id=player_id)
    page = player_page(player=player, viewer=request.user)
    svg = points_by_year_svg(page.mrp_by_year, title=f"{player.name}: MRPs by year")
    return svg_response(svg)


@login_required
@require_POST
def player_record(request, player_id: int):
    """Correct a record: applied at once, or proposed for approval (the message says which)."""
    player = player_get_for_editing(player_id=player_id, user=request.user)
    form = RecordForm(request.POST)
    if form.is_valid():
        try:
            changes = player_record_change(player=player, user=request.user, **form.cleaned_data)
        except ServiceError as exc:
            refusal_on_form(form, exc)
        else:
            messages.success(request, _changes_message(player, changes))
            return redirect("player-detail", player_id=player.pk)
    context = _detail_context(request, player, form)
    return render(request, "tournaments/players/player.html", context, status=400)


def _changes_message(player: Player, changes: list[RecordChange]) -> str:
    if not changes:
        return "Nothing changed: the record already says that."
    if all(c.status == RecordChange.Status.APPLIED for c in changes):
        return f"{player.name}'s record is changed."
    return (
        "Your change waits for approval by the player or an administrator: this record is "
        "used by other events too. It shows below until it is decided."
    )


@login_required
@require_POST
def record_change_decide(request, change_id: int, action: str):
    """Approve or decline (the player or an administrator), or withdraw (the proposer)."""
    change = record_change_get_for_user(change_id=change_id, user=request.user)
    try:
        if action == "approve":
            record_change_approve(change=change, user=request.user)
        elif action == "decline":
            note = request.POST.get("note", "")
            record_change_decline(change=change, user=request.user, note=note)
        else:
            record_change_withdraw(change=change, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        done = {"approve": "applied", "decline": "declined", "withdraw": "withdrawn"}[action]
        messages.success(request, f"The change of {change.get_field_display()} is {done}.")
    return redirect("player-detail", player_id=change.player_id)


class MergeForm(forms.Form):
    keep = forms.IntegerField(label="Keep player number", min_value=1, max_value=2**62)
    merge = forms.IntegerField(label="Merge player number into it", min_value=1, max_value=2**62)


@staff_member_required
def merges(request):
    form = MergeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        keep = Player.objects.filter(pk=form.cleaned_data["keep"]).first()
        gone = Player.objects.filter(pk=form.cleaned_data["merge"]).first()
        if keep is None or gone is None:
            form.add_error(None, "No player has that number.")
        else:
            try:
                player_merge(keep=keep, merge=gone, user=request.user)
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, f"{gone.name} (player {gone.pk}) merged into {keep}.")
                return redirect("player-merges")
    recent = PlayerMerge.objects.select_related("kept", "merged", "created_by")[:50]
    return render(
        request,
        "tournaments/players/merges.html",
        {"form": form, "merges": recent},
        status=400 if form.errors else 200,
    )


@staff_member_required
@require_POST
def merge_undo(request, merge_id: int):
    merge = get_object_or_404(PlayerMerge, pk=merge_id)
    try:
        player_merge_undo(merge=merge, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"The merge of {merge.merged} into {merge.kept} is undone.")
    return redirect("player-merges")
