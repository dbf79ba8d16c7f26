"""Players across events: the MRP leaderboards, a player's page with their points by year,
and, for administrators, merging two records of one person (and undoing it)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tournaments.charts import points_by_year_svg, svg_response
from tournaments.models import Club, Player, PlayerMerge
from tournaments.selectors.access import player_get_for_editing
from tournaments.selectors.player_identity import player_may_edit
from tournaments.selectors.player_pages import (
    LeaderboardFilters,
    leaderboard_regions,
    leaderboard_years,
    mrp_leaderboard,
    player_get,
    player_page,
)
from tournaments.services.errors import ServiceError
from tournaments.services.players import (
    player_acc_number_set,
    player_merge,
    player_merge_undo,
)

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


class AccNumberForm(forms.Form):
    acc_number = forms.CharField(max_length=20, label="ACC number")


def player_detail(request, player_id: int):
    player = player_get(player_id=player_id)
    if player.pk != player_id:
        return redirect("player-detail", player_id=player.pk)
    context = {
        "page": player_page(player=player, viewer=request.user),
        "acc_form": AccNumberForm(),
        "may_edit": player_may_edit(player=player, user=request.user),
    }
    return render(request, "tournaments/players/player.html", context)


def player_chart(request, player_id: int):
    player = player_get(player_id=player_id)
    page = player_page(player=player, viewer=request.user)
    svg = points_by_year_svg(page.mrp_by_year, title=f"{player.name}: MRPs by year")
    return svg_response(svg)


@login_required
@require_POST
def player_acc_number(request, player_id: int):
    player = player_get_for_editing(player_id=player_id, user=request.user)
    form = AccNumberForm(request.POST)
    if form.is_valid():
        try:
            player_acc_number_set(
                player=player, acc_number=form.cleaned_data["acc_number"], user=request.user
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"{player.name}'s ACC number is recorded.")
    else:
        messages.error(request, "Enter the ACC number.")
    return redirect("player-detail", player_id=player.pk)


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
